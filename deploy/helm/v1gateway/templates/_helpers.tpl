{{/* The objects' name: the release name, or <release>-v1gateway when the release name does not contain the chart's. */}}
{{- define "v1gateway.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels that select the gateway's pods. */}}
{{- define "v1gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: gateway
{{- end -}}

{{/* Labels of every object of the chart. */}}
{{- define "v1gateway.commonLabels" -}}
app.kubernetes.io/part-of: v1gateway
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "v1gateway.labels" -}}
{{ include "v1gateway.selectorLabels" . }}
{{ include "v1gateway.commonLabels" . }}
{{- end -}}

{{/* The image: repository@digest when a digest is set, else repository:tag. */}}
{{- define "v1gateway.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* A values scalar as a V1GW_* value: numbers without exponent, lists comma-joined. */}}
{{- define "v1gateway.envValue" -}}
{{- if kindIs "float64" . -}}
{{- if eq (floor .) . -}}{{ int64 . }}{{- else -}}{{ . }}{{- end -}}
{{- else if kindIs "slice" . -}}
{{- join "," . -}}
{{- else -}}
{{- . -}}
{{- end -}}
{{- end -}}

{{/* Whether a config value goes to the YAML file (a mapping) rather than the environment. */}}
{{- define "v1gateway.inFile" -}}
{{- if kindIs "map" . }}true{{ end -}}
{{- end -}}

{{/* Fails on combinations of values the schema cannot express. */}}
{{- define "v1gateway.check" -}}
{{- $redis := 0 -}}
{{- if .Values.redis.enabled }}{{ $redis = add1 $redis }}{{ end -}}
{{- if .Values.config.redis_url }}{{ $redis = add1 $redis }}{{ end -}}
{{- if .Values.secrets.keys.redis_url }}{{ $redis = add1 $redis }}{{ end -}}
{{- if gt $redis 1 -}}
{{- fail "v1gateway: Redis is set twice: choose one of redis.enabled, config.redis_url and secrets.keys.redis_url (set the others to false or \"\")" -}}
{{- end -}}
{{- $admin := toString (.Values.config.admin_listen | default "127.0.0.1:9090") -}}
{{- if or (hasPrefix "127." $admin) (hasPrefix "localhost:" $admin) (hasPrefix "[::1]:" $admin) -}}
{{- fail (printf "v1gateway: config.admin_listen %q listens on loopback only: the kubelet's probes and Prometheus reach the admin port on the pod address (use \":9090\")" $admin) -}}
{{- end -}}
{{- $secretKeys := list -}}
{{- range $k, $v := .Values.secrets.keys }}{{ if $v }}{{ $secretKeys = append $secretKeys $k }}{{ end }}{{ end -}}
{{- if and $secretKeys (not .Values.secrets.existingSecret) -}}
{{- fail (printf "v1gateway: secrets.keys names keys (%s) of a Secret, but secrets.existingSecret is empty" (join ", " $secretKeys)) -}}
{{- end -}}
{{- end -}}

{{/* The port of a listen address such as ":8080" or "0.0.0.0:8080". */}}
{{- define "v1gateway.port" -}}
{{- regexReplaceAll "^.*:" (toString .) "" -}}
{{- end -}}

{{/* The admin port: config.admin_listen's, else the gateway's default 9090. */}}
{{- define "v1gateway.adminPort" -}}
{{- include "v1gateway.port" (.Values.config.admin_listen | default "127.0.0.1:9090") -}}
{{- end -}}

{{/* Labels that select the chart's own Redis. */}}
{{- define "v1gateway.redisLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}-redis
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: redis
{{- end -}}

{{/* Labels of the admin port's Service, which the ServiceMonitor selects. */}}
{{- define "v1gateway.adminLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: admin
{{- end -}}
