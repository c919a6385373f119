package api

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
