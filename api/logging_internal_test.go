package api

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/perfilseguro/perfilseguro/tracing/tracingtest"
)

// Public lookups and health checks get no log line unless they fail; everything else gets one.
func TestRequestLogLeavesOutPublicLookupsThatSucceed(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	status := http.StatusOK
	h := withLogging(logger)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) }))
	serve := func(method, path string) string {
		buf.Reset()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path, nil))
		return buf.String()
	}
	assert.Empty(t, serve("GET", "/api/verify/PS-1234-5678-90"), "a lookup's profile ID is not copied into the log")
	assert.Empty(t, serve("GET", "/api/qr/PS-1234-5678-90.png"))
	assert.Empty(t, serve("GET", "/healthz"))
	status = http.StatusNotFound
	assert.Empty(t, serve("GET", "/api/verify/PS-0000-0000-00"), "a made-up ID is not a failure of the API")
	status = http.StatusServiceUnavailable
	line := serve("GET", "/api/verify/PS-1234-5678-90")
	assert.True(t, strings.Contains(line, `"status":503`) && strings.Contains(line, `"level":"ERROR"`), line)
	status = http.StatusCreated
	assert.Contains(t, serve("POST", "/api/register"), `"path":"/api/register"`)
	status = http.StatusOK
	assert.Contains(t, serve("GET", "/api/users/12"), `"status":200`)
}

// countingWriter counts the WriteHeader calls that reach the real writer.
type countingWriter struct {
	http.ResponseWriter
	codes []int
}

func (c *countingWriter) WriteHeader(code int) { c.codes = append(c.codes, code) }

func TestStatusRecorderPassesARepeatedStatusOnce(t *testing.T) {
	inner := &countingWriter{ResponseWriter: httptest.NewRecorder()}
	rec := &statusRecorder{ResponseWriter: inner}
	rec.WriteHeader(http.StatusCreated) // setStatus in the handler
	rec.WriteHeader(http.StatusCreated) // fuego's default status for the route
	assert.Equal(t, []int{http.StatusCreated}, inner.codes)
	assert.Equal(t, http.StatusCreated, rec.status)

	// A different code after the first is a real mistake: net/http must still see (and log) it.
	rec.WriteHeader(http.StatusInternalServerError)
	assert.Equal(t, []int{http.StatusCreated, http.StatusInternalServerError}, inner.codes)
	assert.Equal(t, http.StatusCreated, rec.status, "the status sent is the first")
}

// With tracing on, a request is a server span named by its route (never its path), and the trace
// ID is its id: in the X-Request-Id header, the request-log line and an error's requestId.
func TestTheTraceIDNamesTheRequestEverywhere(t *testing.T) {
	rec := tracingtest.Record(t)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	s := &Server{metrics: newMetrics(nil)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/users/{id}/consultations", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, httpError(http.StatusServiceUnavailable, "El servicio no está disponible."))
	})
	h := withRequestID(withLogging(logger)(s.withMetrics(mux)))
	res := httptest.NewRecorder()
	h.ServeHTTP(res, httptest.NewRequest("GET", "/api/users/PS-1234-5678-90/consultations", nil))

	spans := rec.Ended()
	require.Len(t, spans, 1)
	span := spans[0]
	traceID := span.SpanContext().TraceID().String()
	assert.Equal(t, "GET /api/users/{id}/consultations", span.Name())
	assert.Equal(t, trace.SpanKindServer, span.SpanKind())
	assert.Equal(t, codes.Error, span.Status().Code)
	for _, a := range span.Attributes() {
		assert.NotContains(t, a.Value.Emit(), "PS-1234", "no raw path in a span")
	}
	assert.Equal(t, traceID, res.Header().Get("X-Request-Id"))
	assert.Contains(t, buf.String(), `"request_id":"`+traceID+`"`)
	assert.Contains(t, res.Body.String(), `"requestId":"`+traceID+`"`)
}
