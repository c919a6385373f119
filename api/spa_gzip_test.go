package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func TestSPAServesTextFilesGzipped(t *testing.T) {
	t.Parallel()
	js := strings.Repeat("console.log('perfil seguro');\n", 200)
	h := spaHandler(fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html><title>Perfil Seguro</title>" + strings.Repeat("<p>hola</p>", 50))},
		"assets/app-1.js": {Data: []byte(js)},
		"logo.png":        {Data: []byte("\x89PNG\r\n\x1a\nnot really")},
	}, "")
	get := func(path, acceptEncoding string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	gunzip := func(t *testing.T, res *http.Response) string {
		t.Helper()
		zr, err := gzip.NewReader(res.Body)
		require.NoError(t, err)
		b, err := io.ReadAll(zr)
		require.NoError(t, err)
		return string(b)
	}

	res := get("/assets/app-1.js", "gzip, deflate, br")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	require.Contains(t, res.Header.Get("Content-Type"), "javascript")
	require.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
	require.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))
	require.Equal(t, js, gunzip(t, res))

	// A client route gets index.html, compressed too.
	res = get("/verify/PS-1234-5678-90", "gzip")
	require.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	require.Contains(t, gunzip(t, res), "<title>Perfil Seguro</title>")

	// Without gzip (or with q=0) the bytes go out as they are, still marked as varying.
	for _, ae := range []string{"", "br", "gzip;q=0"} {
		res = get("/assets/app-1.js", ae)
		require.Empty(t, res.Header.Get("Content-Encoding"), ae)
		require.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), ae)
		body, _ := io.ReadAll(res.Body)
		require.Equal(t, js, string(body), ae)
	}

	// Binary files are never recompressed.
	res = get("/logo.png", "gzip")
	require.Empty(t, res.Header.Get("Content-Encoding"))
	body, _ := io.ReadAll(res.Body)
	require.True(t, bytes.HasPrefix(body, []byte("\x89PNG")))
}
