package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/fstest"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
)

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	e := setup(t)
	res, body := e.do(t, "GET", "/healthz", "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.JSONEq(t, `{"status":"ok"}`, body)
	res, body = e.do(t, "GET", "/readyz", "", "")
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.NotEmpty(t, res.Header.Get("X-Request-Id"))
}

func TestReadyzIs503WhenRedisIsUnreachable(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) {
		d.Redis = redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	})
	res, body := e.do(t, "GET", "/readyz", "", "")
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	var got struct {
		Message string            `json:"message"`
		Checks  map[string]string `json:"checks"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	require.Equal(t, "unreachable", got.Checks["redis"])
	require.Equal(t, "ok", got.Checks["postgres"])
	require.Contains(t, got.Message, "no está listo")
}

func TestSPAServesIndexForClientRoutesAndCachesHashedAssets(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, path := range []string{"/", "/profile", "/verify/PS-1234-5678-90", "/no/such/page"} {
		res, body := e.do(t, "GET", path, "", "")
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.Contains(t, body, "<title>Perfil Seguro</title>", path)
		require.Equal(t, "no-cache", res.Header.Get("Cache-Control"), path)
	}
	res, body := e.do(t, "GET", "/assets/index-abc1.js", "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "console.log(1)", body)
	require.Contains(t, res.Header.Get("Cache-Control"), "immutable")

	res, body = e.do(t, "GET", "/api/does-not-exist", "", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	// The error names its request, as the X-Request-Id header does (the trace ID when tracing is on).
	require.JSONEq(t, `{"message":"Recurso no encontrado.","requestId":"`+res.Header.Get("X-Request-Id")+`"}`, body)
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
}

func TestOpenAPIDocumentIsServed(t *testing.T) {
	t.Parallel()
	e := setup(t)
	res, body := e.do(t, "GET", "/api/openapi.json", "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.Contains(t, doc, "paths")
}

func TestMonitoringDashboardIsMounted(t *testing.T) {
	t.Parallel()
	e := setup(t)
	r := e.send(t, e.adminClient(t), "GET", "/admin/monitoring/", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, string(r.Body), "<html")
}

func TestOpenAPIDocumentValidatesAndDescribesTheWidget(t *testing.T) {
	t.Parallel()
	e := setup(t)
	_, body := e.do(t, "GET", "/api/openapi.json", "", "")
	// The document is OpenAPI 3.1, which kin-openapi's validator does not know (it refuses the
	// 3.1 type "null"): Redocly validates it (TestTheServedOpenAPIDocumentPassesRedocly).
	doc, err := openapi3.NewLoader().LoadFromData([]byte(body))
	require.NoError(t, err)
	for _, path := range []string{"/api/widget/login", "/api/widget/verify-code", "/api/widget/verify", "/api/register", "/api/login", "/api/verify-code"} {
		require.NotNil(t, doc.Paths.Find(path), path)
	}
	login := doc.Paths.Find("/api/widget/login").Post
	require.NotNil(t, login.RequestBody)
	require.NotNil(t, login.Responses.Value("200"))
	verify := doc.Paths.Find("/api/widget/verify").Get
	require.NotEmpty(t, verify.Parameters, "the email query parameter is documented")
	require.NotNil(t, doc.Paths.Find("/api/widget/verify-code").Post.Responses.Value("400"), "errors are documented")
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, path := range []string{"/", "/verify/PS-1234-5678-90", "/api/auth/status", "/healthz", "/api/nothing"} {
		res, _ := e.do(t, "GET", path, "", "")
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), path)
		require.Equal(t, "strict-origin-when-cross-origin", res.Header.Get("Referrer-Policy"), path)
		csp := res.Header.Get("Content-Security-Policy")
		require.Contains(t, csp, "frame-ancestors 'none'", path)
		require.Contains(t, csp, "script-src 'self'", path)
		require.NotContains(t, csp, "script-src 'self' 'unsafe-inline'", path)
		require.Empty(t, res.Header.Get("Strict-Transport-Security"), "no HSTS outside production")
	}
}

func TestInlineScriptsAreAllowedByHashOnly(t *testing.T) {
	t.Parallel()
	web := fstest.MapFS{"index.html": {Data: []byte("<html><script>document.title='x'</script><script type=\"module\" src=\"/a.js\"></script></html>")}}
	e := setup(t, func(d *api.Deps) { d.Web = web })
	res, _ := e.do(t, "GET", "/", "", "")
	// base64(sha256("document.title='x'")): exactly that inline script, nothing else inline.
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self' 'sha256-0XQZ7aST49KmyfZxNvnCGVoBYcF3pv/Te/oNEavi2jU='; ")
}
