// Package outbound builds the HTTP clients that call providers (WhatsApp, SMS, the biometric
// provider, partner webhooks).
package outbound

import (
	"net/http"
	"strings"
	"time"

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
