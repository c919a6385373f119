package tracing

import (
	"context"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// StartServer starts the server span of an incoming request, continuing the caller's trace when
// it sent a traceparent header. The span is named by method until the route is known (Route).
func StartServer(r *http.Request) (context.Context, trace.Span) {
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	return Tracer().Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.request.method", r.Method)))
}

// Route names the request's span by its route pattern ("POST /api/register"), never by its raw
// path, which may hold a profile ID or a token; unmatched requests stay named by method.
func Route(ctx context.Context, pattern string, status int) {
	if !Enabled() {
		return
	}
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	if pattern != "" {
		span.SetName(pattern)
		span.SetAttributes(attribute.String("http.route", pattern))
	}
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if status >= 500 {
		span.SetStatus(codes.Error, "")
	}
}

// Transport wraps an outbound HTTP transport so that each call to a provider is a client span
// named "<provider> <METHOD>", with the host and the answer's status; no URL path or query (a
// path may carry a phone number ID or a token), no header, no body. The trace context is not sent
// to providers: they are not part of our traces.
func Transport(provider string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &clientTransport{provider: provider, next: next}
}

type clientTransport struct {
	provider string
	next     http.RoundTripper
}

func (t *clientTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !Enabled() {
		return t.next.RoundTrip(r)
	}
	ctx, span := Tracer().Start(r.Context(), t.provider+" "+r.Method, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("peer.service", t.provider), attribute.String("server.address", r.URL.Hostname()),
			attribute.String("http.request.method", r.Method)))
	defer span.End()
	resp, err := t.next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		Fail(span, err)
		return nil, err
	}
	span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if resp.StatusCode >= 400 {
		span.SetStatus(codes.Error, "HTTP "+strconv.Itoa(resp.StatusCode))
	}
	return resp, nil
}

// Call is a client span around one call to a provider that does not speak HTTP (SMTP): name it
// "<provider> <operation>" and end it with the call's error.
func Call(ctx context.Context, provider, operation string) (context.Context, func(error)) {
	if !Enabled() {
		return ctx, func(error) {}
	}
	ctx, span := Tracer().Start(ctx, provider+" "+operation, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("peer.service", provider)))
	return ctx, func(err error) {
		Fail(span, err)
		span.End()
	}
}
