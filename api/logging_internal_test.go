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
