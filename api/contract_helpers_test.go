package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// contractCheck validates every answer the test server gives against the OpenAPI document the
// same server serves: a status the document does not list, or a body that does not match its
// schema, fails the test that received it (issue 20).
type contractCheck struct {
	router   routers.Router
	mu       sync.Mutex
	failures []string
}

func init() {
	for _, ct := range []string{"application/vnd.apple.pkpass", "image/png"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
	for _, ct := range []string{"application/statuslist+jwt", "text/plain", "text/html"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
}

func newContractCheck(t *testing.T, spec []byte) *contractCheck {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		t.Fatalf("contract: load the served document: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: "/"}} // the test server's address, whatever it is
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("contract: router: %v", err)
	}
	c := &contractCheck{router: router}
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, f := range c.failures {
			t.Errorf("answer outside the API contract: %s", f)
		}
	})
	return c
}

// teeWriter keeps what a handler answered while passing it on.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *teeWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *teeWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *contractCheck) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := c.router.FindRoute(r)
		if err != nil { // not an API operation: the app, development pages, a 404 or 405
			next.ServeHTTP(w, r)
			return
		}
		tee := &teeWriter{ResponseWriter: w}
		next.ServeHTTP(tee, r)
		if tee.status == 0 {
			tee.status = http.StatusOK
		}
		opts := &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: opts},
			Status:                 tee.status, Header: tee.Header(), Options: opts,
		}
		in.SetBodyBytes(tee.body.Bytes())
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			c.mu.Lock()
			c.failures = append(c.failures, fmt.Sprintf("%s %s → %d: %v", r.Method, r.URL.Path, tee.status, err))
			c.mu.Unlock()
		}
	})
}
