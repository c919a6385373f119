// Package tracingtest turns tracing on for one test and records the spans it makes.
package tracingtest

import (
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/perfilseguro/perfilseguro/tracing"
)

// Record turns tracing on until t ends and returns the recorder of every span that ends. Tracing
// is process-wide: a test that records must not run in parallel with others that do.
func Record(t testing.TB) *tracetest.SpanRecorder {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := tracing.Install(rec, sdktrace.WithSampler(sdktrace.AlwaysSample()))
	t.Cleanup(func() {
		tracing.Uninstall()
		tp.Shutdown(t.Context())
	})
	return rec
}
