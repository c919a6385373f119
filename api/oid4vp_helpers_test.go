package api_test

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/worker"
)

func init() {
	openapi3filter.RegisterBodyDecoder("application/oauth-authz-req+jwt", openapi3filter.PlainBodyDecoder)
}

// The partner key the presentation tests use, and another partner's.
const (
	vpPartnerKey    = "pk_live_0000000000000000000000a9"
	otherPartnerKey = "pk_live_0000000000000000000000aa"
)

// partnerHook is a partner's webhook endpoint that keeps what it receives.
type partnerHook struct {
	*httptest.Server
	mu       sync.Mutex
	received []hookCall
}

type hookCall struct {
	event, signature string
	body             []byte
}

func (h *partnerHook) calls() []hookCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookCall(nil), h.received...)
}

// oid4vpEnv is an API (development verifier certificate in a temporary DATA_DIR) and a worker
// sharing an issuer, a partner with a webhook, and another partner without one.
func oid4vpEnv(t *testing.T, c *clock) (*env, *credential.Issuer, *partnerHook) {
	t.Helper()
	return oid4vpEnvWith(t, c, func(*api.Deps) {}, func(*worker.Deps) {})
}

// oid4vpEnvWith is oid4vpEnv with the API's and the worker's dependencies changed.
func oid4vpEnvWith(t *testing.T, c *clock, apiDeps func(*api.Deps), workerDeps func(*worker.Deps)) (*env, *credential.Issuer, *partnerHook) {
	t.Helper()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	dataDir := t.TempDir()
	e := setup(t, withClock(c), func(d *api.Deps) { d.Credentials = issuer; d.Config.DataDir = dataDir }, apiDeps)
	e.runWorker(t, func(d *worker.Deps) { d.Credentials = worker.CredentialDeps{Issuer: issuer} }, workerDeps)
	hook := &partnerHook{}
	hook.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hook.mu.Lock()
		hook.received = append(hook.received, hookCall{event: r.Header.Get("X-PerfilSeguro-Event"),
			signature: r.Header.Get("X-PerfilSeguro-Signature"), body: body})
		hook.mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	e.addPartner(t, vpPartnerKey, "https://casalista.example", true, "widget_auth")
	e.addPartner(t, otherPartnerKey, "https://ventadirecta.example", true, "widget_auth")
	_, err := e.db.Exec(`UPDATE api_keys SET webhook_url = $1, webhook_secret = 'whsec_presenta' WHERE key_id = $2`, hook.URL, vpPartnerKey)
	require.NoError(t, err)
	return e, issuer, hook
}

// holder is a person's wallet: its key and the credential bound to it.
type holder struct {
	userID     int64
	key        credential.Key
	credential string
}

// holderWith seeds a level-3 person validated at validated and gets them a credential bound to
// a fresh wallet key (POST /api/credentials, signed by the worker).
func (e *env) holderWith(t *testing.T, name string, validated time.Time) holder {
	t.Helper()
	id, _ := seedUser(t, e.db, seeded{Name: name, Level: 3, Validated: &validated})
	key := newIssuerKey(t)
	pub := credential.PublicJWK(key)
	owner := e.signedIn(t, id)
	r := e.send(t, owner, "POST", "/api/credentials", map[string]any{"holderJwk": map[string]any{
		"kty": "EC", "crv": "P-256", "x": pub["x"], "y": pub["y"]}})
	var got api.CredentialResponse
	require.NoError(t, json.Unmarshal(r.Body, &got), string(r.Body))
	require.Eventually(t, func() bool {
		if got.Status == "ready" {
			return true
		}
		r = e.send(t, owner, "GET", "/api/credentials/"+strconvFormat(got.ID), nil)
		return json.Unmarshal(r.Body, &got) == nil && got.Status == "ready"
	}, 15*time.Second, 100*time.Millisecond, "the worker signs the credential")
	return holder{userID: id, key: key, credential: got.Credential}
}

// askPresentation is the partner's request for claims (body: claims or dcql_query).
func (e *env) askPresentation(t *testing.T, partnerKey string, body any) reply {
	t.Helper()
	return e.send(t, http.DefaultClient, "POST", "/api/widget/presentations", body, "X-Partner-Key", partnerKey)
}

// newPresentation asks for claims and returns the created request.
func (e *env) newPresentation(t *testing.T, claims ...string) api.PresentationCreated {
	t.Helper()
	if claims == nil {
		claims = []string{}
	}
	r := e.askPresentation(t, vpPartnerKey, map[string]any{"claims": claims})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created api.PresentationCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	return created
}

// poll is the partner's server's look at its request, with a secret key of the partner whose
// live publishable key is partnerKey (the shared claims answer to a secret key only).
func (e *env) poll(t *testing.T, partnerKey, id string) (int, api.PresentationStatus) {
	t.Helper()
	return e.pollWith(t, "Authorization", "Bearer "+e.secretKey(t, partnerKey, true), id)
}

// pollWith looks at a request with the given key header.
func (e *env) pollWith(t *testing.T, header, value, id string) (int, api.PresentationStatus) {
	t.Helper()
	r := e.send(t, http.DefaultClient, "GET", "/api/widget/presentations/"+id, nil, header, value)
	var st api.PresentationStatus
	if r.Status == http.StatusOK {
		require.NoError(t, json.Unmarshal(r.Body, &st))
	}
	return r.Status, st
}

// walletRequest is a request object as a wallet read and checked it.
type walletRequest struct {
	ClientID    string
	Nonce       string
	State       string
	ResponseURI string // rewritten to the test server
	QueryID     string
	EncKey      map[string]any
	Claims      jwt.MapClaims
}

// readRequest follows the link as a wallet does: client_id and request_uri from the
// openid4vp:// URI, the request object fetched from request_uri, its signature checked with
// the x5c leaf certificate, whose dNSName must be the client_id's host.
func (e *env) readRequest(t *testing.T, created api.PresentationCreated) walletRequest {
	t.Helper()
	link, err := url.Parse(created.RequestURI)
	require.NoError(t, err)
	require.Equal(t, "openid4vp", link.Scheme)
	clientID, requestURI := link.Query().Get("client_id"), link.Query().Get("request_uri")
	require.Equal(t, "x509_san_dns:localhost", clientID)
	require.Equal(t, testBaseURL+"/api/oid4vp/requests/"+created.ID, requestURI)

	res, body := get(t, http.DefaultClient, strings.Replace(requestURI, testBaseURL, e.srv.URL, 1))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "application/oauth-authz-req+jwt", res.Header.Get("Content-Type"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	var leaf *x509.Certificate
	tok, err := jwt.Parse(string(body), func(tok *jwt.Token) (any, error) {
		x5c, _ := tok.Header["x5c"].([]any)
		require.NotEmpty(t, x5c)
		der, err := base64.StdEncoding.DecodeString(x5c[0].(string))
		require.NoError(t, err)
		leaf, err = x509.ParseCertificate(der)
		require.NoError(t, err)
		return leaf.PublicKey.(*ecdsa.PublicKey), nil
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience("https://self-issued.me/v2"), jwt.WithExpirationRequired())
	require.NoError(t, err)
	require.Equal(t, "oauth-authz-req+jwt", tok.Header["typ"])
	require.Equal(t, []string{"localhost"}, leaf.DNSNames, "x509_san_dns: the leaf names the client_id's host")
	claims := tok.Claims.(jwt.MapClaims)
	require.Equal(t, clientID, claims["client_id"], "the link and the request object name the same client")
	require.Equal(t, "vp_token", claims["response_type"])
	require.Equal(t, "direct_post.jwt", claims["response_mode"])
	responseURI := claims["response_uri"].(string)
	require.Equal(t, testBaseURL+"/api/oid4vp/responses/"+created.ID, responseURI)
	u, _ := url.Parse(responseURI)
	require.Equal(t, "localhost", u.Hostname(), "the response URI's host is the client_id's")
	require.NotContains(t, claims, "redirect_uri")
	meta := claims["client_metadata"].(map[string]any)
	require.Equal(t, []any{"A128GCM", "A256GCM"}, meta["encrypted_response_enc_values_supported"])
	require.Equal(t, map[string]any{"dc+sd-jwt": map[string]any{"sd-jwt_alg_values": []any{"ES256"}, "kb-jwt_alg_values": []any{"ES256"}}},
		meta["vp_formats_supported"])
	keys := meta["jwks"].(map[string]any)["keys"].([]any)
	require.Len(t, keys, 1)
	encKey := keys[0].(map[string]any)
	require.Equal(t, "enc", encKey["use"])
	require.Equal(t, "ECDH-ES", encKey["alg"])
	require.NotEmpty(t, encKey["kid"])
	require.NotContains(t, encKey, "d")
	query := claims["dcql_query"].(map[string]any)["credentials"].([]any)[0].(map[string]any)
	require.Equal(t, "dc+sd-jwt", query["format"])
	require.Equal(t, []any{testBaseURL + "/credentials/identidad-validada"}, query["meta"].(map[string]any)["vct_values"])
	nonce, state := claims["nonce"].(string), claims["state"].(string)
	require.GreaterOrEqual(t, len(nonce), 22, "at least 128 bits")
	require.GreaterOrEqual(t, len(state), 22)
	return walletRequest{ClientID: clientID, Nonce: nonce, State: state, QueryID: query["id"].(string), EncKey: encKey, Claims: claims,
		ResponseURI: strings.Replace(responseURI, testBaseURL, e.srv.URL, 1)}
}

// present is the wallet's presentation: the credential with only keep disclosed, and a KB-JWT
// (typ kb+jwt) signed by key for aud and nonce at iat, whose sd_hash covers what is presented.
func present(t *testing.T, h holder, key credential.Key, aud, nonce string, iat time.Time, keep ...string) string {
	t.Helper()
	shown, err := credential.Present(h.credential, keep...)
	require.NoError(t, err)
	sum := sha256.Sum256([]byte(shown))
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"aud": aud, "nonce": nonce, "iat": iat.Unix(),
		"sd_hash": base64.RawURLEncoding.EncodeToString(sum[:])})
	tok.Header["typ"] = "kb+jwt"
	kb, err := tok.SignedString(key.Private)
	require.NoError(t, err)
	return shown + kb
}

// encrypt is the direct_post.jwt response: the parameters as a JWE to the request's key, with
// the key's alg and kid and an enc the verifier offers.
func encrypt(t *testing.T, req walletRequest, params map[string]any) string {
	t.Helper()
	raw, err := json.Marshal(req.EncKey)
	require.NoError(t, err)
	var pub jose.JSONWebKey
	require.NoError(t, pub.UnmarshalJSON(raw))
	enc, err := jose.NewEncrypter(jose.A256GCM, jose.Recipient{Algorithm: jose.KeyAlgorithm(req.EncKey["alg"].(string)),
		Key: pub.Key, KeyID: pub.KeyID}, nil)
	require.NoError(t, err)
	payload, err := json.Marshal(params)
	require.NoError(t, err)
	obj, err := enc.Encrypt(payload)
	require.NoError(t, err)
	out, err := obj.CompactSerialize()
	require.NoError(t, err)
	return out
}

// respond posts the encrypted response with vpToken (the presentation under the query's id).
func (e *env) respond(t *testing.T, req walletRequest, presentation string) reply {
	t.Helper()
	jwe := encrypt(t, req, map[string]any{"vp_token": map[string]any{req.QueryID: []string{presentation}}, "state": req.State})
	return e.form(t, strings.TrimPrefix(req.ResponseURI, e.srv.URL), url.Values{"response": {jwe}})
}
