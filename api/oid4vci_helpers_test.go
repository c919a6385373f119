package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/worker"
)

// oid4vciEnv is an API and a worker sharing an issuer; codes land in the development inbox.
func oid4vciEnv(t *testing.T, c *clock) (*env, *credential.Issuer) {
	t.Helper()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, withClock(c), func(d *api.Deps) { d.Credentials = issuer })
	inbox := devsim.Inbox{DB: e.db}
	e.runWorker(t, func(d *worker.Deps) {
		d.Credentials = worker.CredentialDeps{Issuer: issuer}
		d.WhatsApp, d.SMS, d.Email = inbox, inbox, inbox
	})
	return e, issuer
}

// walletUser is a validated person with a session, who asks for an offer.
type walletUser struct {
	id     int64
	pid    string
	phone  string
	client *http.Client
}

func (e *env) walletUser(t *testing.T) walletUser {
	t.Helper()
	validated := time.Now().AddDate(0, -2, 0)
	id, pid := seedUser(t, e.db, seeded{Name: "Lucía Herrera", Level: 3, Validated: &validated})
	phone := dbGet[string](t, e.db, `SELECT phone_number FROM users WHERE id = $1`, id)
	return walletUser{id: id, pid: pid, phone: phone, client: e.signedIn(t, id)}
}

// offer creates an offer for u and reads it as a wallet does; it returns the offer and the
// transaction code from the development inbox.
func (e *env) offer(t *testing.T, u walletUser) (api.CredentialOffer, string) {
	t.Helper()
	r := e.send(t, u.client, "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created api.CredentialOfferCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	return e.readOffer(t, created), e.txCode(t, u.phone)
}

// readOffer follows credential_offer_uri (served here under the test server's address).
func (e *env) readOffer(t *testing.T, created api.CredentialOfferCreated) api.CredentialOffer {
	t.Helper()
	res, body := get(t, http.DefaultClient, strings.Replace(created.CredentialOfferURI, testBaseURL, e.srv.URL, 1))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	var offer api.CredentialOffer
	require.NoError(t, json.Unmarshal(body, &offer))
	return offer
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

// txCode waits for the newest WhatsApp message to phone and returns its code.
func (e *env) txCode(t *testing.T, phone string) string {
	t.Helper()
	var code string
	require.Eventually(t, func() bool {
		msgs, err := devsim.Inbox{DB: e.db}.List(context.Background(), phone, 1)
		if err != nil || len(msgs) == 0 || msgs[0].Channel != "whatsapp" {
			return false
		}
		code = sixDigits.FindString(msgs[0].Text)
		return code != ""
	}, 15*time.Second, 50*time.Millisecond, "no WhatsApp code for %s", phone)
	return code
}

// form posts a form body with optional headers.
func (e *env) form(t *testing.T, path string, values url.Values, header ...string) reply {
	t.Helper()
	req, err := http.NewRequest("POST", e.srv.URL+path, strings.NewReader(values.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return reply{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// redeem asks the token endpoint for an access token.
func (e *env) redeem(t *testing.T, offer api.CredentialOffer, txCode string, header ...string) reply {
	t.Helper()
	code := offer.Grants.PreAuthorizedCode.PreAuthorizedCode
	return e.form(t, "/api/oid4vci/token", url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:pre-authorized_code"},
		"pre-authorized_code": {code}, "tx_code": {txCode}}, header...)
}

// accessToken redeems and returns the token (Bearer unless a DPoP header is given).
func (e *env) accessToken(t *testing.T, offer api.CredentialOffer, txCode string, header ...string) api.TokenResponse {
	t.Helper()
	r := e.redeem(t, offer, txCode, header...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	var tok api.TokenResponse
	require.NoError(t, json.Unmarshal(r.Body, &tok))
	require.Equal(t, 300, tok.ExpiresIn)
	return tok
}

// nonce asks the nonce endpoint for a c_nonce.
func (e *env) nonce(t *testing.T) string {
	t.Helper()
	r := e.send(t, http.DefaultClient, "POST", "/api/oid4vci/nonce", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	return r.JSON(t)["c_nonce"].(string)
}

// selfSigned is a JWT signed by key with its public JWK in the header, as a wallet signs.
func selfSigned(t *testing.T, key credential.Key, typ string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	jwk := credential.PublicJWK(key)
	delete(jwk, "kid")
	tok.Header["typ"], tok.Header["jwk"] = typ, jwk
	s, err := tok.SignedString(key.Private)
	require.NoError(t, err)
	return s
}

// keyProof is an OpenID4VCI key proof of key for aud and nonce, issued at iat.
func keyProof(t *testing.T, key credential.Key, aud, nonce string, iat time.Time) string {
	t.Helper()
	claims := jwt.MapClaims{"aud": aud, "iat": iat.Unix()}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	return selfSigned(t, key, "openid4vci-proof+jwt", claims)
}

// dpopProof is a DPoP proof of key for POST path (at the public base URL); accessToken "" leaves ath out.
func dpopProof(t *testing.T, key credential.Key, path, accessToken string, iat time.Time) string {
	t.Helper()
	claims := jwt.MapClaims{"htm": "POST", "htu": testBaseURL + path, "iat": iat.Unix(),
		"jti": base64.RawURLEncoding.EncodeToString([]byte(time.Now().String() + path + accessToken))}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return selfSigned(t, key, "dpop+jwt", claims)
}

// askCredential calls the credential endpoint with authorization "<scheme> <token>" and a body.
func (e *env) askCredential(t *testing.T, authorization string, body any, header ...string) reply {
	t.Helper()
	if authorization != "" {
		header = append(header, "Authorization", authorization)
	}
	return e.send(t, http.DefaultClient, "POST", "/api/oid4vci/credential", body, header...)
}

// proofsBody is a 1.0 credential request with one jwt proof.
func proofsBody(proof string) map[string]any {
	return map[string]any{"credential_configuration_id": credential.ConfigurationID, "proofs": map[string]any{"jwt": []string{proof}}}
}

// requireOAuthError checks an OAuth refusal: status, error code, and an error_description in
// the characters RFC 6749 §5.2 allows (Spanish without accents).
func requireOAuthError(t *testing.T, r reply, status int, code string) {
	t.Helper()
	require.Equal(t, status, r.Status, string(r.Body))
	var body api.OAuthError
	require.NoError(t, json.Unmarshal(r.Body, &body), string(r.Body))
	require.Equal(t, code, body.Error, string(r.Body))
	require.NotEmpty(t, body.ErrorDescription)
	for _, c := range body.ErrorDescription {
		require.True(t, c >= 0x20 && c <= 0x7e && c != '"' && c != '\\', "error_description %q has %q", body.ErrorDescription, c)
	}
	if status == http.StatusUnauthorized {
		require.Contains(t, r.Header.Get("WWW-Authenticate"), `error="`+code+`"`)
	}
}

// issued reads a 200 credential answer and verifies the SD-JWT VC with the issuer's keys.
func issued(t *testing.T, r reply, issuer *credential.Issuer) map[string]any {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var res api.CredentialIssuance
	require.NoError(t, json.Unmarshal(r.Body, &res))
	require.Len(t, res.Credentials, 1)
	require.Empty(t, res.TransactionID)
	claims, err := credential.Verify(res.Credentials[0].Credential, issuer.Keys, time.Now())
	require.NoError(t, err)
	return claims
}

// requireBoundTo checks cnf.jwk is exactly key's public JWK (no kid, no private part).
func requireBoundTo(t *testing.T, claims map[string]any, key credential.Key) {
	t.Helper()
	pub := credential.PublicJWK(key)
	require.Equal(t, map[string]any{"jwk": map[string]any{"kty": "EC", "crv": "P-256", "x": pub["x"], "y": pub["y"]}}, claims["cnf"])
}
