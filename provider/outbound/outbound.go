// Package outbound is what every provider client shares (WhatsApp, SMS, the biometric provider,
// Stripe, APNs, Google Wallet, partner webhooks): the HTTP client and its keep-alive pool, building
// a JSON request, sending it and reading a 2xx answer (Send), and deciding whether a refusal can
// succeed on a retry (Transient, Classify); public.go keeps partner webhooks to public addresses.
package outbound

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/tracing"
)

// IdleConnsPerHost keeps a connection per concurrent job open to each provider. Go's default of 2
// would close most connections after each request and dial (and handshake TLS) anew for the
// next one, which costs more than the request itself at sign-in peaks.
const IdleConnsPerHost = 64

// Client returns an HTTP client with the given overall timeout and a keep-alive pool sized for
// the worker's concurrency.
func Client(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 4 * IdleConnsPerHost
	t.MaxIdleConnsPerHost = IdleConnsPerHost
	return &http.Client{Timeout: timeout, Transport: t}
}

// Transient reports whether a provider's HTTP answer may succeed when the request is repeated
// unchanged: a timeout, rate limiting or a server error. Clients add their own cases (a key
// being rotated, a provider's own error codes) and treat other 4xx answers as permanent.
func Transient(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// Classify decides whether a refusal apiErr, with the provider's own error code, can succeed on a
// retry: a code in permanent never does (it wraps ErrPermanent), one in retry does; otherwise a
// Transient status or a 401/403/404 (a key or setting an operator fixes) is retried, and any
// other 4xx fails the same way again.
func Classify(status, code int, permanent, retry map[int]bool, apiErr error) error {
	switch {
	case permanent[code]:
		return fmt.Errorf("%w: %w", perfilseguro.ErrPermanent, apiErr)
	case retry[code]:
		return apiErr
	case Transient(status),
		status == http.StatusUnauthorized, status == http.StatusForbidden, status == http.StatusNotFound:
		return apiErr
	case status >= 400:
		return fmt.Errorf("%w: %w", perfilseguro.ErrPermanent, apiErr)
	}
	return apiErr
}

// JSONRequest builds a request that sends body as JSON (none when nil) and asks for JSON back.
func JSONRequest(ctx context.Context, method, url string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Send sends req and returns the answer's body (up to limit bytes) when it is a 2xx; any other
// answer becomes the error classify makes of its status and body. A network failure is wrapped
// with what and stays retryable; it holds the method and URL only, never the request body. A
// body that cannot be read to the end counts as far as it was read.
func Send(hc *http.Client, req *http.Request, what string, limit int64, classify func(status int, body []byte) error) ([]byte, error) {
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return raw, nil
	}
	return nil, classify(resp.StatusCode, raw)
}

// Endpoint is what every provider client's constructor settles first: the base URL (the
// provider's own when none is configured, without a trailing slash: tests point it at httptest)
// and the HTTP client (Client(timeout) when none is given), whose calls are client spans named
// after provider when tracing is on (Traced).
func Endpoint(provider, baseURL, defaultURL string, hc *http.Client, timeout time.Duration) (string, *http.Client) {
	if baseURL == "" {
		baseURL = defaultURL
	}
	if hc == nil {
		hc = Client(timeout)
	}
	return strings.TrimRight(baseURL, "/"), Traced(provider, hc)
}

// Traced returns a copy of hc whose calls are client spans named after provider (tracing.Transport).
func Traced(provider string, hc *http.Client) *http.Client {
	c := *hc
	c.Transport = tracing.Transport(provider, hc.Transport)
	return &c
}
