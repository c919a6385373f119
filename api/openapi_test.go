package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
)

// The served OpenAPI document passes an independent linter, Redocly CLI with its recommended
// rules, with zero errors; and it is a 3.1 document with servers, security and no 3.0 keywords.
func TestTheServedOpenAPIDocumentPassesRedocly(t *testing.T) {
	t.Parallel()
	redocly, err := filepath.Abs("../node_modules/.bin/redocly")
	require.NoError(t, err)
	if _, err := os.Stat(redocly); err != nil {
		t.Skip("npm ci has not installed @redocly/cli (make test does)")
	}
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer })
	res, body := get(t, http.DefaultClient, e.srv.URL+"/api/openapi.json")
	require.Equal(t, http.StatusOK, res.StatusCode)

	var doc map[string]any
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.NotEmpty(t, doc["servers"])
	require.NotContains(t, string(body), `"nullable"`, "3.1 writes type: [T, \"null\"]")
	schemes := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)
	require.Contains(t, schemes, "sesion")
	require.Contains(t, schemes, "administrador")
	require.Contains(t, schemes, "socio")
	webhooks := doc["webhooks"].(map[string]any)
	for _, event := range []string{"user.verification_level_changed", "profile.expired", "profile.renewed", "profile.revoked", "profile.deleted", "payment.completed", "presentation.completed"} {
		require.Contains(t, webhooks, event)
	}
	require.Contains(t, string(body), "X-PerfilSeguro-Signature", "how to check a notification is documented")

	file := filepath.Join(t.TempDir(), "openapi.json")
	require.NoError(t, os.WriteFile(file, body, 0o600))
	cmd := exec.Command(redocly, "lint", file, "--format=summary")
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "redocly lint (recommended rules) must report no error:\n%s", out)
}

// Every route the server serves is in the document, except the explicit development and
// operator routes; and no file registers a route on the mux without describing it (handle).
func TestEveryServedRouteIsInTheDocument(t *testing.T) {
	t.Parallel()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer })
	_, body := get(t, http.DefaultClient, e.srv.URL+"/api/openapi.json")
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(body, &doc))
	undocumented := []string{"/dev/", "/admin/monitoring", "/robots.txt", "/healthz", "/readyz", "/api/openapi.json", "/api/docs"}
	var missing []string
	for _, pattern := range e.api.PlainRoutes() {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok || path == "/" || slices.ContainsFunc(undocumented, func(p string) bool { return strings.HasPrefix(path, p) }) {
			continue
		}
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			missing = append(missing, pattern)
		}
	}
	require.Empty(t, missing, "served but not in /api/openapi.json")
	for _, want := range []string{"/api/verify/{profileId}", "/api/qr/{file}", "/api/wallet/apple/{userId}", "/api/verify-email",
		"/api/webhooks/biometric", "/api/passkit/v1/log", "/api/credentials", "/api/credentials/status/{list}", "/.well-known/jwt-vc-issuer",
		"/.well-known/openid-credential-issuer", "/.well-known/oauth-authorization-server", "/api/oid4vci/token",
		"/api/oid4vci/credential", "/api/credential-offers/{id}", "/api/widget/presentations", "/api/widget/presentations/{id}",
		"/api/oid4vp/requests/{id}", "/api/oid4vp/responses/{id}"} {
		require.Contains(t, doc.Paths, want)
	}

	// Nothing bypasses handle: a direct mux registration would serve a route the document misses.
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "routes_doc.go" {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, direct := range []string{"f.Mux.HandleFunc(", "f.Mux.Handle(", "mux := s.f.Mux"} {
			require.False(t, strings.Contains(string(src), direct), "%s registers a route on the server's mux without describing it (use s.handle)", f)
		}
	}
}
