// Package tracing sends OpenTelemetry traces of the three processes to an OTLP collector, so an
// operator can follow one person's request from the API through the job that ran on some worker
// to the provider call it made (issue 39).
//
// It is configured only by the standard OTEL_* variables. Without OTEL_EXPORTER_OTLP_ENDPOINT
// (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) nothing is set up: Enabled is false and every
// instrumentation point of this repository is skipped, not merely given a no-op tracer, so the
// cost is one boolean test per request. The exporter reads OTEL_EXPORTER_OTLP_* itself, the SDK
// reads OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_*, and the resource OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES.
//
// What a span may carry: method, route, status, task type and id, provider, host, statement text
// with its placeholders. Never a parameter value, a code, a token, an e-mail address, a phone
// number or a name (TestSpansCarryNoPersonalData scans exported spans for them).
package tracing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// ServicePrefix names the processes: perfilseguro-api, perfilseguro-worker, perfilseguro-scheduler.
const ServicePrefix = "perfilseguro-"

// instrumentation is the name every tracer of this repository gives itself.
const instrumentation = "github.com/perfilseguro/perfilseguro"

var enabled atomic.Bool

// Enabled reports whether traces are being exported; instrumentation does nothing otherwise.
func Enabled() bool { return enabled.Load() }

// Tracer is the tracer every span of this repository starts from.
func Tracer() trace.Tracer { return otel.Tracer(instrumentation) }

// Configured reports whether the environment asks for traces.
func Configured() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || os.Getenv("OTEL_TRACES_EXPORTER") == "none" {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs the global tracer provider and W3C propagation for the process named process
// ("api", "worker", "scheduler", "dev"), when Configured. The returned function flushes what is
// buffered and stops; call it before the process ends. With tracing off it does nothing.
func Setup(ctx context.Context, process string) (shutdown func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if !Configured() {
		return noop, nil
	}
	if p := protocol(); p != "http/protobuf" {
		return noop, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%s: this build exports OTLP over HTTP only (http/protobuf); use a collector's HTTP port (4318)", p)
	}
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		return noop, fmt.Errorf("otlp exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		attribute.String("service.name", ServicePrefix+process)))
	if err != nil {
		return noop, err
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the process's own name.
	fromEnv, err := resource.New(ctx, resource.WithFromEnv())
	if err != nil {
		return noop, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	if res, err = resource.Merge(res, fromEnv); err != nil && !errors.Is(err, resource.ErrSchemaURLConflict) {
		return noop, err
	}
	tp := Install(sdktrace.NewBatchSpanProcessor(exporter), sdktrace.WithResource(res))
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		enabled.Store(false)
		return tp.Shutdown(ctx)
	}, nil
}

// Install makes spans go to processor, as Setup does with the OTLP exporter's (tests install a
// recorder): client spans outside any trace are dropped, W3C trace context propagates, and
// Enabled turns true. The sampler is the SDK's, from OTEL_TRACES_SAMPLER.
func Install(processor sdktrace.SpanProcessor, opts ...sdktrace.TracerProviderOption) *sdktrace.TracerProvider {
	tp := sdktrace.NewTracerProvider(append(opts, sdktrace.WithSpanProcessor(withinTraces{processor}))...)
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	enabled.Store(true)
	return tp
}

// Uninstall turns tracing off again (tests).
func Uninstall() {
	enabled.Store(false)
	otel.SetTracerProvider(noop.NewTracerProvider())
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator())
}

// protocol is the OTLP transport asked for; the specification's default is http/protobuf.
func protocol() string {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "http/protobuf"
}

// withinTraces drops client spans that belong to no trace: the worker's polling of Redis, a
// connection pool's checks, background loops. They would be most of what is exported and tie
// nothing together; a statement or command run for a request, a job or a tick has a parent.
type withinTraces struct{ sdktrace.SpanProcessor }

func (w withinTraces) OnEnd(s sdktrace.ReadOnlySpan) {
	if s.SpanKind() == trace.SpanKindClient && !s.Parent().IsValid() {
		return
	}
	w.SpanProcessor.OnEnd(s)
}

// TraceID is the current trace's ID in hex, or "" when there is none.
func TraceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}

// Fail marks span failed with the error's type only: an error's text may quote a provider's answer
// or a destination, which never go into a span.
func Fail(span trace.Span, err error) {
	if err != nil {
		span.SetStatus(codes.Error, "")
		span.SetAttributes(attribute.String("error.type", fmt.Sprintf("%T", err)))
	}
}
