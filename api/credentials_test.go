package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/worker"
)

func newIssuerKey(t *testing.T) credential.Key {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	k, err := credential.NewKey(priv)
	require.NoError(t, err)
	return k
}

// credentialEnv is an API and a worker that share an issuer.
func credentialEnv(t *testing.T, keys ...credential.Key) (*env, *credential.Issuer) {
	t.Helper()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: keys}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer })
	e.runWorker(t, func(d *worker.Deps) { d.Credentials = worker.CredentialDeps{Issuer: issuer} })
	return e, issuer
}

// publishedKeys reads the issuer metadata as a verifier does.
func publishedKeys(t *testing.T, e *env) (map[string]any, []string) {
	t.Helper()
	res, body := get(t, http.DefaultClient, e.srv.URL+"/.well-known/jwt-vc-issuer")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	var meta struct {
		Issuer string `json:"issuer"`
		JWKS   struct {
			Keys []map[string]any `json:"keys"`
		} `json:"jwks"`
	}
	require.NoError(t, json.Unmarshal(body, &meta))
	require.Equal(t, testBaseURL, meta.Issuer)
	var kids []string
	for _, k := range meta.JWKS.Keys {
		kids = append(kids, k["kid"].(string))
	}
	return map[string]any{"issuer": meta.Issuer}, kids
}

// statusBit reads the published status list and returns the bit of idx, checking the token's signature.
func statusBit(t *testing.T, e *env, key credential.Key, idx int) bool {
	t.Helper()
	res, body := get(t, http.DefaultClient, e.srv.URL+"/api/credentials/status/1")
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "application/statuslist+jwt", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Cache-Control"), "max-age=300")
	var claims struct {
		jwt.RegisteredClaims
		StatusList struct {
			Bits int    `json:"bits"`
			Lst  string `json:"lst"`
		} `json:"status_list"`
	}
	_, err := jwt.ParseWithClaims(string(body), &claims, func(*jwt.Token) (any, error) { return &key.Private.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}))
	require.NoError(t, err)
	require.Equal(t, testBaseURL+"/api/credentials/status/1", claims.Subject)
	list, err := credential.DecodeStatusList(claims.StatusList.Lst, claims.StatusList.Bits)
	require.NoError(t, err)
	bit, err := list.Get(idx)
	require.NoError(t, err)
	return bit
}

// A validated person gets a credential signed by the worker that verifies against the published
// keys, discloses what it should, and whose status bit flips when an administrator revokes the
// profile; another person cannot read it.
func TestACredentialIsIssuedVerifiedAndRevoked(t *testing.T) {
	t.Parallel()
	key := newIssuerKey(t)
	e, _ := credentialEnv(t, key)
	validated := time.Now().AddDate(0, -2, 0)
	id, pid := seedUser(t, e.db, seeded{Name: "Lucía Herrera", Level: 3, Validated: &validated})
	owner := e.signedIn(t, id)

	r := e.send(t, owner, "POST", "/api/credentials", map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var got api.CredentialResponse
	require.NoError(t, json.Unmarshal(r.Body, &got))
	require.Equal(t, "ready", got.Status)
	require.True(t, got.ExpiresAt.Equal(validated.AddDate(1, 0, 0).Truncate(time.Microsecond)) ||
		got.ExpiresAt.Sub(validated.AddDate(1, 0, 0)).Abs() < time.Second, "exp is the end of the validity")

	_, kids := publishedKeys(t, e)
	require.Equal(t, []string{key.ID}, kids)
	claims, err := credential.Verify(got.Credential, []credential.Key{key}, time.Now())
	require.NoError(t, err)
	require.Equal(t, pid, claims["profile_id"])
	require.EqualValues(t, 3, claims["verification_level"])
	require.Equal(t, "Lucía Herrera", claims["name"])
	require.Equal(t, testBaseURL, claims["iss"])
	require.Equal(t, testBaseURL+"/credentials/identidad-validada", claims["vct"])
	status := claims["status"].(map[string]any)["status_list"].(map[string]any)
	require.Equal(t, testBaseURL+"/api/credentials/status/1", status["uri"])
	idx := int(status["idx"].(float64))
	require.False(t, statusBit(t, e, key, idx), "valid at first")

	// The name only: the other claims are gone from the presentation, which still verifies.
	shown, err := credential.Present(got.Credential, "name")
	require.NoError(t, err)
	onlyName, err := credential.Verify(shown, []credential.Key{key}, time.Now())
	require.NoError(t, err)
	require.Equal(t, "Lucía Herrera", onlyName["name"])
	require.NotContains(t, onlyName, "origin")
	require.NotContains(t, onlyName, "validated_at")

	// The type metadata is at the vct URL.
	res, body := get(t, http.DefaultClient, e.srv.URL+"/credentials/identidad-validada")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), `"vct":"`+testBaseURL+`/credentials/identidad-validada"`)

	// After a new sign-in the card finds it on the server; nobody else sees it listed.
	var listed []api.CredentialResponse
	r = e.send(t, e.signedIn(t, id), "GET", "/api/credentials", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.NoError(t, json.Unmarshal(r.Body, &listed))
	require.Len(t, listed, 1)
	require.Equal(t, got.ID, listed[0].ID)
	require.Equal(t, got.Credential, listed[0].Credential)

	// Someone else's credential is not found; nor is a made-up one.
	otherID, _ := seedUser(t, e.db, seeded{Level: 1})
	other := e.signedIn(t, otherID)
	require.Equal(t, http.StatusNotFound, e.send(t, other, "GET", fmt.Sprintf("/api/credentials/%d", got.ID), nil).Status)
	require.Equal(t, "[]", strings.TrimSpace(string(e.send(t, other, "GET", "/api/credentials", nil).Body)))
	require.Equal(t, http.StatusUnauthorized, e.send(t, http.DefaultClient, "GET", "/api/credentials", nil).Status)
	require.Equal(t, http.StatusNotFound, e.send(t, owner, "GET", "/api/credentials/999999", nil).Status)
	r = e.send(t, other, "POST", "/api/credentials", map[string]any{})
	require.Equal(t, http.StatusConflict, r.Status, "level 1 gets no credential")
	require.Contains(t, string(r.Body), "nivel 3")
	require.Equal(t, http.StatusUnauthorized, e.send(t, http.DefaultClient, "POST", "/api/credentials", map[string]any{}).Status)

	// Revocation: the bit flips once the job re-signs the list; the holder sees it revoked.
	admin := e.adminClient(t)
	require.Equal(t, http.StatusOK, e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/revoke", id),
		map[string]string{"motivo": "Documento robado"}).Status)
	require.Eventually(t, func() bool { return statusBit(t, e, key, idx) }, 15*time.Second, 100*time.Millisecond)
	r = e.send(t, owner, "GET", fmt.Sprintf("/api/credentials/%d", got.ID), nil)
	require.Contains(t, string(r.Body), `"status":"revoked"`)
	require.Equal(t, "[]", strings.TrimSpace(string(e.send(t, owner, "GET", "/api/credentials", nil).Body)), "a revoked credential is not offered again")
	require.Equal(t, http.StatusConflict, e.send(t, owner, "POST", "/api/credentials", map[string]any{}).Status,
		"a revoked profile gets no new credential")
}

// A wallet's holder key becomes the credential's cnf; a private or malformed key is refused.
func TestTheHolderKeyIsBoundAndCheckedAndDeletionRevokes(t *testing.T) {
	t.Parallel()
	key := newIssuerKey(t)
	e, _ := credentialEnv(t, key)
	validated := time.Now().AddDate(0, -1, 0)
	id, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	owner := e.signedIn(t, id)
	holder := credential.PublicJWK(newIssuerKey(t))

	for _, bad := range []map[string]any{
		{"kty": "EC", "crv": "P-256", "x": holder["x"], "y": holder["y"], "d": "secret"},
		{"kty": "RSA", "n": "abc", "e": "AQAB"},
		{"kty": "EC", "crv": "P-256", "x": "short", "y": holder["y"]},
	} {
		r := e.send(t, owner, "POST", "/api/credentials", map[string]any{"holderJwk": bad})
		require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
		require.Contains(t, string(r.Body), "llave pública JWK")
	}
	r := e.send(t, owner, "POST", "/api/credentials", map[string]any{"holderJwk": map[string]any{
		"kty": "EC", "crv": "P-256", "x": holder["x"], "y": holder["y"]}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var got api.CredentialResponse
	require.NoError(t, json.Unmarshal(r.Body, &got))
	claims, err := credential.Verify(got.Credential, []credential.Key{key}, time.Now())
	require.NoError(t, err)
	cnf := claims["cnf"].(map[string]any)["jwk"].(map[string]any)
	require.Equal(t, holder["x"], cnf["x"])

	// Deleting the account revokes its credentials and erases the stored copy.
	require.Equal(t, http.StatusOK, e.send(t, e.adminClient(t), "DELETE", fmt.Sprintf("/api/users/%d", id), nil).Status)
	var left struct {
		Revoked bool `db:"revoked"`
		Erased  bool `db:"erased"`
	}
	require.NoError(t, e.db.Get(&left, `SELECT revoked_at IS NOT NULL AS revoked, sdjwt IS NULL AS erased FROM credentials WHERE id = $1`, got.ID))
	require.True(t, left.Revoked)
	require.True(t, left.Erased)
	idx := int(claims["status"].(map[string]any)["status_list"].(map[string]any)["idx"].(float64))
	require.Eventually(t, func() bool { return statusBit(t, e, key, idx) }, 15*time.Second, 100*time.Millisecond)
}

// Key rotation: credentials signed by the old key still verify with the published keys after the
// configuration names only the new one.
func TestRotatedKeysStayPublishedWhileTheirCredentialsLive(t *testing.T) {
	t.Parallel()
	oldKey, newKey := newIssuerKey(t), newIssuerKey(t)
	e, issuer := credentialEnv(t, oldKey)
	validated := time.Now().AddDate(0, -1, 0)
	id, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	r := e.send(t, e.signedIn(t, id), "POST", "/api/credentials", map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var got api.CredentialResponse
	require.NoError(t, json.Unmarshal(r.Body, &got))

	issuer.Keys = []credential.Key{newKey} // the operator rotated: only the new key is configured
	_, kids := publishedKeys(t, e)
	require.ElementsMatch(t, []string{newKey.ID, oldKey.ID}, kids, "the old key stays published")
	_, err := credential.Verify(got.Credential, []credential.Key{newKey, oldKey}, time.Now())
	require.NoError(t, err)
	require.True(t, strings.Count(got.Credential, "~") >= 4, "the disclosures travel with the credential")

	_, err = e.db.Exec(`UPDATE credential_keys SET last_exp = now() - interval '1 second'`)
	require.NoError(t, err)
	_, kids = publishedKeys(t, e)
	require.Equal(t, []string{newKey.ID}, kids, "once its credentials expired, the old key goes")
}
