package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// No framework banner and no timing trailer on any answer; small JSON answers carry a length.
func TestAnswersCarryNoFrameworkBannerNorTimingTrailer(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, path := range []string{"/api/auth/status", "/api/openapi.json", "/healthz", "/api/verify/PS-0000-0000-00", "/"} {
		res, _ := get(t, http.DefaultClient, e.srv.URL+path)
		require.Empty(t, res.Header.Get("X-Powered-By"), path)
		require.Empty(t, res.Header.Get("Trailer"), path)
		require.Empty(t, res.Header.Get("Server-Timing"), path)
		require.Empty(t, res.Trailer.Get("Server-Timing"), path)
	}
	res, body := get(t, http.DefaultClient, e.srv.URL+"/api/auth/status")
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, string(body))
	require.Equal(t, int64(len(body)), res.ContentLength, "a small fuego answer is not chunked")
}

// Crawlers get a real robots.txt that keeps the public verification pages and the API out, and
// the public pages say noindex themselves.
func TestCrawlersAreKeptOffThePublicVerificationPages(t *testing.T) {
	t.Parallel()
	e := setup(t)
	res, body := get(t, http.DefaultClient, e.srv.URL+"/robots.txt")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
	require.Contains(t, string(body), "Disallow: /verify/")
	require.Contains(t, string(body), "Disallow: /api/")
	res, _ = get(t, http.DefaultClient, e.srv.URL+"/verify/PS-1234-5678-90")
	require.Equal(t, "noindex, nofollow", res.Header.Get("X-Robots-Tag"))
	res, _ = get(t, http.DefaultClient, e.srv.URL+"/register")
	require.Empty(t, res.Header.Get("X-Robots-Tag"), "other pages may be indexed")
}
