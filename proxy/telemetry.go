package proxy

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// TelemetryOptions configure NewTelemetry.
type TelemetryOptions struct {
	// ServiceName and Version describe the process in traces and metrics
	// (default "v1gateway" and Version). OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES override and extend them, as usual.
	ServiceName    string
	ServiceVersion string
	// Getenv reads the OTEL_* variables that decide whether anything is
	// exported (nil: os.Getenv). Traces and metrics go to OTLP over HTTP
	// only when OTEL_EXPORTER_OTLP_ENDPOINT (or the signal's own
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT) is set, and
	// OTEL_SDK_DISABLED is not "true"; OTEL_TRACES_EXPORTER=none and
	// OTEL_METRICS_EXPORTER=none turn one signal off. The exporters read
	// the rest of the standard OTEL_EXPORTER_OTLP_* settings themselves.
	Getenv func(string) string
	// SpanExporter, when set, receives every span (tests); it replaces
	// OTLP for traces.
	SpanExporter sdktrace.SpanExporter
	// Logger receives OpenTelemetry's own errors (an unreachable
	// collector, for instance); nil discards them.
	Logger *zerolog.Logger
}

// Telemetry holds a gateway's tracer and meter providers and the
// Prometheus registry /metrics serves. Each Telemetry has its own registry,
// so that a process (or a test) can hold several gateways.
type Telemetry struct {
	registry       *prometheus.Registry
	meterProvider  *sdkmetric.MeterProvider
	tracerProvider *sdktrace.TracerProvider
	propagator     propagation.TextMapPropagator
	tracer         trace.Tracer
	meter          metric.Meter
	// OTLPTraces and OTLPMetrics tell whether anything is exported.
	OTLPTraces, OTLPMetrics bool
	// unsampledRoots: a span without a sampled parent is never recorded
	// (no exporter: ParentBased(NeverSample)), so a request without trace
	// context needs no server span of its own.
	unsampledRoots bool
	// propHeaders are the canonical names of the headers the propagator
	// reads; a request with none of them has no trace context to extract.
	propHeaders []string
}

// hasPropagationHeaders reports whether h holds any header the propagator
// reads (map lookups only: no canonicalisation, no allocation).
func (t *Telemetry) hasPropagationHeaders(h http.Header) bool {
	for _, k := range t.propHeaders {
		if _, ok := h[k]; ok {
			return true
		}
	}
	return false
}

// NewTelemetry builds the providers. It never connects anywhere: an OTLP
// collector that is down costs failed exports (logged), not a failed
// start-up.
func NewTelemetry(ctx context.Context, o TelemetryOptions) (*Telemetry, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if o.ServiceName == "" {
		o.ServiceName = "v1gateway"
	}
	if o.ServiceVersion == "" {
		o.ServiceVersion = Version
	}
	if o.Logger != nil {
		l := *o.Logger
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			l.Warn().Err(err).Msg("opentelemetry")
		}))
	}
	disabled := strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true")
	endpoint := getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	t := &Telemetry{
		registry:    prometheus.NewRegistry(),
		propagator:  propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		OTLPTraces:  !disabled && (endpoint || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "") && getenv("OTEL_TRACES_EXPORTER") != "none",
		OTLPMetrics: !disabled && (endpoint || getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") != "") && getenv("OTEL_METRICS_EXPORTER") != "none",
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", o.ServiceName), attribute.String("service.version", o.ServiceVersion)),
		resource.WithFromEnv())
	if err != nil && res == nil {
		return nil, err
	}

	t.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	promExp, err := otelprom.New(otelprom.WithRegisterer(t.registry), otelprom.WithoutScopeInfo())
	if err != nil {
		return nil, err
	}
	mopts := []sdkmetric.Option{sdkmetric.WithResource(res), sdkmetric.WithReader(promExp)}
	if t.OTLPMetrics {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, err
		}
		mopts = append(mopts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	t.meterProvider = sdkmetric.NewMeterProvider(mopts...)

	topts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	switch {
	case o.SpanExporter != nil:
		topts = append(topts, sdktrace.WithSyncer(o.SpanExporter), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	case t.OTLPTraces:
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, err
		}
		// The sampler comes from OTEL_TRACES_SAMPLER (default: parent
		// based, always on).
		topts = append(topts, sdktrace.WithBatcher(exp))
	default:
		// Nothing is exported: record only what the caller's own trace
		// asks for, so that trace context still flows upstream.
		topts = append(topts, sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.NeverSample())))
		t.unsampledRoots = true
	}
	for _, f := range t.propagator.Fields() {
		t.propHeaders = append(t.propHeaders, http.CanonicalHeaderKey(f))
	}
	t.tracerProvider = sdktrace.NewTracerProvider(topts...)
	t.tracer = t.tracerProvider.Tracer("github.com/v1gateway/v1gateway/proxy")
	t.meter = t.meterProvider.Meter("github.com/v1gateway/v1gateway/proxy")
	return t, nil
}

// MetricsHandler serves the registry in the Prometheus text format.
func (t *Telemetry) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(t.registry, promhttp.HandlerOpts{Registry: t.registry})
}

// Registry is the Prometheus registry /metrics serves.
func (t *Telemetry) Registry() *prometheus.Registry { return t.registry }

// TracerProvider returns the provider of the gateway's spans.
func (t *Telemetry) TracerProvider() trace.TracerProvider { return t.tracerProvider }

// Shutdown flushes and stops the exporters.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	return errors.Join(t.tracerProvider.Shutdown(ctx), t.meterProvider.Shutdown(ctx))
}
