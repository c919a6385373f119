package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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

	file := filepath.Join(t.TempDir(), "openapi.json")
	require.NoError(t, os.WriteFile(file, body, 0o600))
	cmd := exec.Command(redocly, "lint", file, "--format=summary")
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "redocly lint (recommended rules) must report no error:\n%s", out)
}
