package api_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/credential"
)

// Production never makes a development certificate: without VERIFIER_CERT_PEM the presentation
// routes answer 503; with it, request objects carry the configured certificate.
func TestOID4VPProductionSignsWithTheConfiguredCertificateOnly(t *testing.T) {
	t.Parallel()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	production := func(verifier *credential.Verifier) (*env, string) {
		dataDir := t.TempDir()
		e := setup(t, func(d *api.Deps) {
			d.Config.Env, d.Config.DataDir = config.EnvProduction, dataDir
			d.Credentials, d.Verifier = issuer, verifier
		})
		e.addPartner(t, vpPartnerKey, "https://casalista.example", true, "widget_auth")
		// In production a live key acts only on a proven origin (issue 54, item 12).
		_, err := e.db.Exec(`UPDATE api_keys SET origin_proven = domain, origin_proven_at = now() WHERE key_id = $1`, vpPartnerKey)
		require.NoError(t, err)
		return e, dataDir
	}

	e, dataDir := production(nil)
	r := e.askPresentation(t, vpPartnerKey, map[string]any{"claims": []string{"name"}})
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "no está disponible")
	entries, err := os.ReadDir(dataDir)
	require.NoError(t, err)
	require.Empty(t, entries, "no development certificate written in production")

	// The configured certificate (made here the way development makes one, in another directory).
	certDir := t.TempDir()
	_, err = credential.EnsureDevVerifier(certDir, "localhost")
	require.NoError(t, err)
	pemData, err := os.ReadFile(filepath.Join(certDir, "verifier-dev-localhost.pem"))
	require.NoError(t, err)
	configured, err := credential.NewVerifier(pemData, pemData, "localhost")
	require.NoError(t, err)

	e, dataDir = production(configured)
	r = e.askPresentation(t, vpPartnerKey, map[string]any{"claims": []string{"name"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	created := r.JSON(t)
	link, err := url.Parse(created["requestUri"].(string))
	require.NoError(t, err)
	res, body := get(t, http.DefaultClient, strings.Replace(link.Query().Get("request_uri"), testBaseURL, e.srv.URL, 1))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	tok, _, err := jwt.NewParser().ParseUnverified(string(body), jwt.MapClaims{})
	require.NoError(t, err)
	x5c := tok.Header["x5c"].([]any)
	require.Equal(t, base64.StdEncoding.EncodeToString(configured.Chain[0].Raw), x5c[0])
	entries, err = os.ReadDir(dataDir)
	require.NoError(t, err)
	require.Empty(t, entries)
}
