// Package outboundtest is a fake provider API for the provider clients' tests.
package outboundtest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Request is the last request a fake API received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Server starts a fake provider API, closed when the test ends, that answers every request with
// status and a JSON body and records it in the returned Request; it returns the API's base URL.
func Server(t testing.TB, status int, body string) (string, *Request) {
	t.Helper()
	got := &Request{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: b}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, got
}

// RequireRefusal checks the error a client made of a provider's refusal: permanent exactly when
// expected, naming mentions (the provider's code or status), and never holding secret.
func RequireRefusal(t testing.TB, err error, permanent bool, mentions, secret string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, permanent, errors.Is(err, perfilseguro.ErrPermanent), err.Error())
	require.Contains(t, err.Error(), mentions)
	require.NotContains(t, err.Error(), secret, "a secret (a one-time code) must never appear in errors")
}

// ClosedURL is the base URL of an API that no longer listens: a call to it fails in the network.
func ClosedURL() string {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// RequireRetryable checks the error of a call that failed in the network: retryable, without secret.
func RequireRetryable(t testing.TB, err error, secret string) {
	t.Helper()
	require.Error(t, err)
	require.NotErrorIs(t, err, perfilseguro.ErrPermanent)
	require.NotContains(t, err.Error(), secret)
}

// Refusal is an answer of a provider's API that its client must turn into an error.
type Refusal struct {
	Name      string
	Status    int
	Body      string
	Permanent bool   // whether the error must wrap ErrPermanent
	Mentions  string // what the error must name: the provider's code or the status
}

// RequireRefusals runs a parallel subtest per refusal: call makes a client pointed at a fake API
// that answers it call the API, and its error must be as RequireRefusal says and unwrap to the
// client's API error E, whose status (read by status) is the answer's.
func RequireRefusals[E error](t *testing.T, refusals []Refusal, secret string, call func(*testing.T, Refusal) error, status func(E) int) {
	for _, r := range refusals {
		t.Run(r.Name, func(t *testing.T) {
			t.Parallel()
			err := call(t, r)
			RequireRefusal(t, err, r.Permanent, r.Mentions, secret)
			var apiErr E
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, r.Status, status(apiErr))
		})
	}
}
