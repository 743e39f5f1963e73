package proxy

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// clientTracing makes each upstream attempt a client span and sends its
// context upstream (W3C traceparent, baggage). It does what otelhttp's
// Transport did for the gateway, without what the gateway never used on
// the hot path: otelhttp computed its HTTP client metric attributes (and
// built attribute sets) for every call even with a no-op meter, cloned the
// whole request, and wrapped every body. Here a span that is not recording
// (nothing exported and the caller's trace not sampled) costs its start,
// a shallow header copy and the header injection; attributes are built only
// for recording spans, which end when their body is closed or read to the
// end, as with otelhttp. When nothing is exported and the call has no
// trace context (the caller sent none), it is sent as it is: no span, no
// header copy, no traceparent.
type clientTracing struct {
	next   http.RoundTripper
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	// unsampledRoots: nothing records or exports a span without a sampled
	// parent (Telemetry.unsampledRoots). A call made outside any trace
	// context (no caller's traceparent, no baggage) then gets no span and
	// sends no trace context: it would be a new trace that nobody
	// records, logs or can look up.
	unsampledRoots bool
}

func newClientTracing(next http.RoundTripper, tel *Telemetry) *clientTracing {
	return &clientTracing{
		next:           next,
		tracer:         tel.tracerProvider.Tracer("github.com/v1gateway/v1gateway/proxy/upstream"),
		prop:           tel.propagator,
		unsampledRoots: tel.unsampledRoots,
	}
}

// clientSpanNames avoids building "v2 GET" for every call.
var clientSpanNames = map[string]string{
	http.MethodGet: "v2 GET", http.MethodPost: "v2 POST", http.MethodPatch: "v2 PATCH",
	http.MethodPut: "v2 PUT", http.MethodDelete: "v2 DELETE", http.MethodHead: "v2 HEAD",
}

// The span kind options, made once (each WithSpanKind call allocates).
var (
	clientSpanKind = trace.WithSpanKind(trace.SpanKindClient)
	serverSpanKind = trace.WithSpanKind(trace.SpanKindServer)
)

func clientSpanName(method string) string {
	if n, ok := clientSpanNames[method]; ok {
		return n
	}
	return "v2 " + method
}

// RoundTrip implements http.RoundTripper. It does not modify r: the
// request it sends has its own header map with the trace context.
func (t *clientTracing) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.unsampledRoots && !trace.SpanContextFromContext(r.Context()).IsValid() && baggage.FromContext(r.Context()).Len() == 0 {
		return t.next.RoundTrip(r)
	}
	ctx, span := t.tracer.Start(r.Context(), clientSpanName(r.Method), clientSpanKind)
	out := r.WithContext(ctx)
	h := make(http.Header, len(r.Header)+2)
	for k, v := range r.Header {
		h[k] = v
	}
	out.Header = h
	t.prop.Inject(ctx, canonicalCarrier(h))
	recording := span.IsRecording()
	if recording {
		span.SetAttributes(requestAttrs(out)...)
	}
	resp, err := t.next.RoundTrip(out)
	if !recording {
		span.End()
		return resp, err
	}
	if err != nil {
		span.SetAttributes(attribute.String("error.type", errorType(err)))
		span.SetStatus(codes.Error, err.Error())
		span.End()
		return resp, err
	}
	span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetStatus(codes.Error, "")
		span.SetAttributes(attribute.String("error.type", strconv.Itoa(resp.StatusCode)))
	}
	if resp.Body == nil || resp.Body == http.NoBody {
		span.End()
		return resp, nil
	}
	resp.Body = &spanBody{ReadCloser: resp.Body, span: span}
	return resp, nil
}

// canonicalCarrier is propagation.HeaderCarrier for injection, with the
// canonical names of the W3C headers known in advance: Header.Set would
// canonicalise (and allocate) "traceparent" on every upstream call.
type canonicalCarrier http.Header

// canonicalPropKeys maps the propagators' field names to their canonical
// header names.
var canonicalPropKeys = map[string]string{
	"traceparent": "Traceparent",
	"tracestate":  "Tracestate",
	"baggage":     "Baggage",
}

func (c canonicalCarrier) Get(key string) string { return propagation.HeaderCarrier(c).Get(key) }

func (c canonicalCarrier) Set(key, value string) {
	if ck, ok := canonicalPropKeys[key]; ok {
		c[ck] = []string{value}
		return
	}
	propagation.HeaderCarrier(c).Set(key, value)
}

func (c canonicalCarrier) Keys() []string { return propagation.HeaderCarrier(c).Keys() }

// requestAttrs are the OpenTelemetry HTTP client attributes of r.
func requestAttrs(r *http.Request) []attribute.KeyValue {
	host, port := r.URL.Hostname(), r.URL.Port()
	if port == "" {
		port = "80"
		if r.URL.Scheme == "https" {
			port = "443"
		}
	}
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", r.Method),
		attribute.String("url.full", r.URL.Redacted()),
		attribute.String("server.address", host),
	}
	if p, err := strconv.Atoi(port); err == nil {
		attrs = append(attrs, attribute.Int("server.port", p))
	}
	return attrs
}

// errorType names an upstream call's failure for error.type.
func errorType(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return "error"
}

// spanBody ends its span when the body is read to the end or closed.
type spanBody struct {
	io.ReadCloser
	span trace.Span
	once sync.Once
}

func (b *spanBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.end()
	} else if err != nil {
		b.span.SetStatus(codes.Error, err.Error())
		b.end()
	}
	return n, err
}

func (b *spanBody) Close() error {
	b.end()
	return b.ReadCloser.Close()
}

func (b *spanBody) end() { b.once.Do(func() { b.span.End() }) }
