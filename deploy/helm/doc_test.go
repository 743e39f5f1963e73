// Package helm tests the Helm chart in deploy/helm/v1gateway without a
// cluster and without the helm binary: the chart is loaded and rendered
// with Helm's own Go packages (helm.sh/helm/v3 chart/loader, chartutil,
// engine) at the version go.mod pins, exactly as `helm template` and
// `helm install` render it, and every rendered object is decoded strictly
// into its Kubernetes API type.
//
// It is a Go module of its own so that Helm's module graph (k8s.io/*) stays
// out of the gateway's go.mod; it reads the gateway's config package through
// a replace directive, so that the chart's values are checked against the
// same table of settings that `v1gateway -h` prints. `make test` runs it
// (make test-chart).
package helm
