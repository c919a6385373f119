package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/worker"
)

// The two discovery documents say what a wallet needs, and an unknown well-known document is a
// JSON 404, not the app.
func TestOID4VCIMetadataDocuments(t *testing.T) {
	t.Parallel()
	e, issuer := oid4vciEnv(t, newClock())

	res, body := get(t, http.DefaultClient, e.srv.URL+"/.well-known/openid-credential-issuer")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	var meta map[string]any
	require.NoError(t, json.Unmarshal(body, &meta))
	require.Equal(t, testBaseURL, meta["credential_issuer"])
	require.Equal(t, testBaseURL+"/api/oid4vci/credential", meta["credential_endpoint"])
	require.Equal(t, testBaseURL+"/api/oid4vci/nonce", meta["nonce_endpoint"])
	require.Equal(t, testBaseURL+"/api/oid4vci/deferred-credential", meta["deferred_credential_endpoint"])
	display := meta["display"].([]any)[0].(map[string]any)
	require.Equal(t, "Perfil Seguro", display["name"])
	require.Equal(t, "es-MX", display["locale"])
	require.NotEmpty(t, display["logo"].(map[string]any)["uri"])
	require.NotEmpty(t, display["logo"].(map[string]any)["alt_text"])
	configs := meta["credential_configurations_supported"].(map[string]any)
	require.Len(t, configs, 1)
	conf := configs[credential.ConfigurationID].(map[string]any)
	require.Equal(t, "dc+sd-jwt", conf["format"])
	require.Equal(t, issuer.VCT(), conf["vct"])
	require.Equal(t, []any{"jwk"}, conf["cryptographic_binding_methods_supported"])
	require.Equal(t, []any{"ES256"}, conf["credential_signing_alg_values_supported"])
	require.Equal(t, map[string]any{"jwt": map[string]any{"proof_signing_alg_values_supported": []any{"ES256"}}}, conf["proof_types_supported"])
	cm := conf["credential_metadata"].(map[string]any)
	require.Equal(t, "es-MX", cm["display"].([]any)[0].(map[string]any)["locale"])
	claims := cm["claims"].([]any)
	first := claims[0].(map[string]any)
	require.Equal(t, []any{"profile_id"}, first["path"])
	require.Equal(t, []any{map[string]any{"name": "ID de perfil", "locale": "es-MX"}}, first["display"])

	res, body = get(t, http.DefaultClient, e.srv.URL+"/.well-known/oauth-authorization-server")
	require.Equal(t, http.StatusOK, res.StatusCode)
	var as map[string]any
	require.NoError(t, json.Unmarshal(body, &as))
	require.Equal(t, testBaseURL, as["issuer"])
	require.Equal(t, testBaseURL+"/api/oid4vci/token", as["token_endpoint"])
	require.Equal(t, true, as["pre-authorized_grant_anonymous_access_supported"])
	require.Equal(t, []any{"urn:ietf:params:oauth:grant-type:pre-authorized_code"}, as["grant_types_supported"])
	require.Equal(t, []any{"ES256"}, as["dpop_signing_alg_values_supported"])
	require.Contains(t, as, "response_types_supported", "required by RFC 8414")
	require.Equal(t, []any{}, as["response_types_supported"], "no authorization endpoint")

	// A wallet in a browser tab elsewhere sends its own Origin: no session cookie is involved.
	r := e.send(t, http.DefaultClient, "POST", "/api/oid4vci/nonce", nil, "Origin", "https://billetera.example")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	for _, path := range []string{"/.well-known/unknown", "/.well-known/openid-configuration"} {
		res, body = get(t, http.DefaultClient, e.srv.URL+path)
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
		require.Contains(t, res.Header.Get("Content-Type"), "application/json")
		var msg map[string]string
		require.NoError(t, json.Unmarshal(body, &msg), string(body))
		require.Equal(t, "Recurso no encontrado.", msg["message"])
	}
}

// The whole flow with a Bearer token: offer, transaction code by WhatsApp, token, nonce, key
// proof, and an SD-JWT VC bound to the wallet's key. Nothing can be used twice.
func TestOID4VCIPreAuthorizedFlowBindsTheWalletKey(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e, issuer := oid4vciEnv(t, clk)
	u := e.walletUser(t)

	r := e.send(t, u.client, "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Contains(t, r.Header.Get("Content-Type"), "application/json")
	var created api.CredentialOfferCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	require.True(t, strings.HasPrefix(created.CredentialOfferURI, testBaseURL+"/api/credential-offers/"), created.CredentialOfferURI)
	require.Equal(t, "openid-credential-offer://?credential_offer_uri="+url.QueryEscape(created.CredentialOfferURI), created.OfferURI)
	require.True(t, strings.HasPrefix(created.QRURL, "data:image/png;base64,"))
	require.Equal(t, "phone", created.Channel)
	// Ten minutes from the API's clock (held still), however long the machine took: compared with
	// time.Now() after the answer, a loaded CI machine under -race failed a 5 s tolerance.
	require.WithinDuration(t, clk.Now().Add(10*time.Minute), created.ExpiresAt, time.Second)
	require.NotContains(t, string(r.Body), "pre-authorized_code", "the code is only in the offer behind the URI")

	offer := e.readOffer(t, created)
	require.Equal(t, testBaseURL, offer.CredentialIssuer)
	require.Equal(t, []string{credential.ConfigurationID}, offer.CredentialConfigurationIDs)
	grant := offer.Grants.PreAuthorizedCode
	require.NotEmpty(t, grant.PreAuthorizedCode)
	require.Equal(t, api.TxCodeSpec{InputMode: "numeric", Length: 6, Description: "Código enviado por WhatsApp"}, grant.TxCode)
	stored := countOf(t, e.db, `SELECT count(*) FROM credential_offers WHERE code_hash = $1 OR handle_hash = $1`, grant.PreAuthorizedCode)
	require.Zero(t, stored, "only hashes are stored")
	tx := e.txCode(t, u.phone)
	signIn, err := (&postgres.Store{DB: e.db}).ActiveCodes(context.Background(), u.id)
	require.NoError(t, err)
	require.Empty(t, signIn, "a transaction code never signs anyone in")

	tok := e.accessToken(t, offer, tx)
	require.Equal(t, "Bearer", tok.TokenType)
	requireOAuthError(t, e.redeem(t, offer, tx), http.StatusBadRequest, "invalid_grant") // single use
	res, _ := get(t, http.DefaultClient, strings.Replace(created.CredentialOfferURI, testBaseURL, e.srv.URL, 1))
	require.Equal(t, http.StatusNotFound, res.StatusCode, "a redeemed offer is gone")

	wallet := newIssuerKey(t)
	claims := issued(t, e.askCredential(t, "Bearer "+tok.AccessToken, proofsBody(keyProof(t, wallet, testBaseURL, e.nonce(t), time.Now()))), issuer)
	requireBoundTo(t, claims, wallet)
	require.Equal(t, u.pid, claims["profile_id"])
	require.Equal(t, issuer.VCT(), claims["vct"])
	require.Equal(t, "Lucía Herrera", claims["name"])

	// The token got its one credential.
	r = e.askCredential(t, "Bearer "+tok.AccessToken, proofsBody(keyProof(t, wallet, testBaseURL, e.nonce(t), time.Now())))
	requireOAuthError(t, r, http.StatusUnauthorized, "invalid_token")
}

// A DPoP-bound token needs a DPoP proof of the same key, for this request, each time a new one.
func TestOID4VCIDPoPBindsTheAccessToken(t *testing.T) {
	t.Parallel()
	e, issuer := oid4vciEnv(t, newClock())
	u := e.walletUser(t)
	offer, tx := e.offer(t, u)
	dpopKey, wallet := newIssuerKey(t), newIssuerKey(t)

	requireOAuthError(t, e.redeem(t, offer, tx, "DPoP", "no-es-un-jwt"), http.StatusBadRequest, "invalid_dpop_proof")
	requireOAuthError(t, e.redeem(t, offer, tx, "DPoP", dpopProof(t, dpopKey, "/api/oid4vci/nonce", "", time.Now())),
		http.StatusBadRequest, "invalid_dpop_proof") // htu of another endpoint
	tok := e.accessToken(t, offer, tx, "DPoP", dpopProof(t, dpopKey, "/api/oid4vci/token", "", time.Now()))
	require.Equal(t, "DPoP", tok.TokenType)

	body := proofsBody(keyProof(t, wallet, testBaseURL, e.nonce(t), time.Now()))
	requireOAuthError(t, e.askCredential(t, "Bearer "+tok.AccessToken, body), http.StatusUnauthorized, "invalid_token")
	requireOAuthError(t, e.askCredential(t, "DPoP "+tok.AccessToken, body), http.StatusUnauthorized, "invalid_dpop_proof")
	other := dpopProof(t, newIssuerKey(t), "/api/oid4vci/credential", tok.AccessToken, time.Now())
	requireOAuthError(t, e.askCredential(t, "DPoP "+tok.AccessToken, body, "DPoP", other), http.StatusUnauthorized, "invalid_dpop_proof")
	noAth := dpopProof(t, dpopKey, "/api/oid4vci/credential", "", time.Now())
	requireOAuthError(t, e.askCredential(t, "DPoP "+tok.AccessToken, body, "DPoP", noAth), http.StatusUnauthorized, "invalid_dpop_proof")
	stale := dpopProof(t, dpopKey, "/api/oid4vci/credential", tok.AccessToken, time.Now().Add(-10*time.Minute))
	requireOAuthError(t, e.askCredential(t, "DPoP "+tok.AccessToken, body, "DPoP", stale), http.StatusUnauthorized, "invalid_dpop_proof")

	good := dpopProof(t, dpopKey, "/api/oid4vci/credential", tok.AccessToken, time.Now())
	r := e.askCredential(t, "DPoP "+tok.AccessToken, body, "DPoP", good)
	requireBoundTo(t, issued(t, r, issuer), wallet)
	requireOAuthError(t, e.askCredential(t, "DPoP "+tok.AccessToken, body, "DPoP", good), http.StatusUnauthorized, "invalid_dpop_proof") // replayed jti
}

// A wrong transaction code is invalid_grant; the fifth kills the offer, even for the right code.
// Malformed token requests are invalid_request or unsupported_grant_type.
func TestOID4VCITransactionCodeHasFiveTries(t *testing.T) {
	t.Parallel()
	e, _ := oid4vciEnv(t, newClock())
	u := e.walletUser(t)
	offer, tx := e.offer(t, u)
	wrong := "000000"
	if tx == wrong {
		wrong = "111111"
	}

	code := offer.Grants.PreAuthorizedCode.PreAuthorizedCode
	requireOAuthError(t, e.form(t, "/api/oid4vci/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}}),
		http.StatusBadRequest, "unsupported_grant_type")
	requireOAuthError(t, e.form(t, "/api/oid4vci/token", url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:pre-authorized_code"},
		"pre-authorized_code": {code}}), http.StatusBadRequest, "invalid_request")
	r := e.send(t, http.DefaultClient, "POST", "/api/oid4vci/token", map[string]string{"grant_type": "x"})
	requireOAuthError(t, r, http.StatusBadRequest, "invalid_request")
	requireOAuthError(t, e.redeem(t, api.CredentialOffer{}, tx), http.StatusBadRequest, "invalid_request")
	unknown := offer
	unknown.Grants.PreAuthorizedCode.PreAuthorizedCode = strings.Repeat("ab", 32)
	requireOAuthError(t, e.redeem(t, unknown, tx), http.StatusBadRequest, "invalid_grant")

	for try := 1; try <= 5; try++ {
		r := e.redeem(t, offer, wrong)
		requireOAuthError(t, r, http.StatusBadRequest, "invalid_grant")
		if try < 5 {
			require.Contains(t, string(r.Body), "incorrecto")
		} else {
			require.Contains(t, string(r.Body), "Demasiados intentos")
		}
	}
	requireOAuthError(t, e.redeem(t, offer, tx), http.StatusBadRequest, "invalid_grant")
	require.Equal(t, 5, countOf(t, e.db, `SELECT attempts FROM verification_codes WHERE user_id = $1 AND purpose = 'credential_offer'`, u.id))
}

// An offer dies after 10 minutes, an access token after 5; a person who is not validated gets
// no offer, and nobody creates one for someone else.
func TestOID4VCIOffersAndTokensExpire(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e, _ := oid4vciEnv(t, clk)
	u := e.walletUser(t)
	r := e.send(t, u.client, "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created api.CredentialOfferCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	offer, tx := e.readOffer(t, created), e.txCode(t, u.phone)
	clk.Advance(11 * time.Minute)
	res, _ := get(t, http.DefaultClient, strings.Replace(created.CredentialOfferURI, testBaseURL, e.srv.URL, 1))
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	requireOAuthError(t, e.redeem(t, offer, tx), http.StatusBadRequest, "invalid_grant")

	v := e.walletUser(t)
	offer, tx = e.offer(t, v)
	tok := e.accessToken(t, offer, tx)
	clk.Advance(6 * time.Minute)
	body := proofsBody(keyProof(t, newIssuerKey(t), testBaseURL, e.nonce(t), clk.Now()))
	requireOAuthError(t, e.askCredential(t, "Bearer "+tok.AccessToken, body), http.StatusUnauthorized, "invalid_token")
	// No token at all: a bare challenge, no error code (RFC 6750 §3.1).
	r = e.askCredential(t, "", body)
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
	require.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"))
	requireOAuthError(t, e.askCredential(t, "Bearer "+strings.Repeat("0", 64), body), http.StatusUnauthorized, "invalid_token")

	// Level 1 gets no offer; another person's id is refused; signed out is 401.
	lowID, _ := seedUser(t, e.db, seeded{Level: 1})
	low := e.signedIn(t, lowID)
	require.Equal(t, http.StatusConflict, e.send(t, low, "POST", "/api/users/"+strconvFormat(lowID)+"/credential-offers", nil).Status)
	require.Equal(t, http.StatusForbidden, e.send(t, low, "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil).Status)
	require.Equal(t, http.StatusUnauthorized, e.send(t, anonymous(), "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil).Status)
	res, _ = get(t, http.DefaultClient, e.srv.URL+"/api/credential-offers/"+strings.Repeat("a", 64))
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}

// The key proof must be for this issuer and carry a fresh nonce from the nonce endpoint, used
// once; the request must name the one configuration. The draft "proof" form is accepted.
func TestOID4VCIKeyProofAndNonceAreChecked(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e, issuer := oid4vciEnv(t, clk)
	wallet := newIssuerKey(t)
	staleNonce := e.nonce(t)
	clk.Advance(6 * time.Minute) // the nonce lives 5 minutes

	u := e.walletUser(t)
	offer, tx := e.offer(t, u)
	bearer := "Bearer " + e.accessToken(t, offer, tx).AccessToken
	fresh := e.nonce(t)
	ask := func(body any) reply { return e.askCredential(t, bearer, body) }
	proof := func(aud, nonce string) string { return keyProof(t, wallet, aud, nonce, clk.Now()) }

	requireOAuthError(t, ask(proofsBody(proof("https://otro-emisor.example", fresh))), http.StatusBadRequest, "invalid_proof")
	requireOAuthError(t, ask(proofsBody(proof(testBaseURL, ""))), http.StatusBadRequest, "invalid_proof")
	requireOAuthError(t, ask(proofsBody(keyProof(t, wallet, testBaseURL, fresh, clk.Now().Add(-10*time.Minute)))), http.StatusBadRequest, "invalid_proof")
	requireOAuthError(t, ask(proofsBody(proof(testBaseURL, staleNonce))), http.StatusBadRequest, "invalid_nonce")
	requireOAuthError(t, ask(proofsBody(proof(testBaseURL, "inventado"))), http.StatusBadRequest, "invalid_nonce")
	requireOAuthError(t, ask(map[string]any{"credential_configuration_id": "otra", "proofs": map[string]any{"jwt": []string{proof(testBaseURL, fresh)}}}),
		http.StatusBadRequest, "unknown_credential_configuration")
	requireOAuthError(t, ask(map[string]any{"proofs": map[string]any{"jwt": []string{proof(testBaseURL, fresh)}}}),
		http.StatusBadRequest, "invalid_credential_request")
	requireOAuthError(t, ask(map[string]any{"credential_configuration_id": credential.ConfigurationID}), http.StatusBadRequest, "invalid_proof")
	requireOAuthError(t, ask(map[string]any{"credential_configuration_id": credential.ConfigurationID,
		"proofs": map[string]any{"jwt": []string{proof(testBaseURL, fresh), proof(testBaseURL, fresh)}}}), http.StatusBadRequest, "invalid_credential_request")
	requireOAuthError(t, e.send(t, http.DefaultClient, "POST", "/api/oid4vci/credential", nil, "Authorization", bearer),
		http.StatusBadRequest, "invalid_credential_request")

	requireBoundTo(t, issued(t, ask(proofsBody(proof(testBaseURL, fresh))), issuer), wallet)

	// Another person's request with the nonce already used: invalid_nonce; the draft form works.
	v := e.walletUser(t)
	offer, tx = e.offer(t, v)
	bearer = "Bearer " + e.accessToken(t, offer, tx).AccessToken
	requireOAuthError(t, ask(proofsBody(proof(testBaseURL, fresh))), http.StatusBadRequest, "invalid_nonce")
	draft := map[string]any{"credential_configuration_id": credential.ConfigurationID,
		"proof": map[string]any{"proof_type": "jwt", "jwt": proof(testBaseURL, e.nonce(t))}, "unknown_member": true}
	claims := issued(t, ask(draft), issuer)
	requireBoundTo(t, claims, wallet)
	require.Equal(t, v.pid, claims["profile_id"])
}

// Not signed within the wait, the credential endpoint answers 202 with a transaction, which the
// deferred endpoint delivers once the worker signed it, and only once.
func TestOID4VCIDeferredIssuance(t *testing.T) {
	t.Parallel()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer }) // no worker yet: nothing gets signed
	u := e.walletUser(t)
	r := e.send(t, u.client, "POST", "/api/users/"+strconvFormat(u.id)+"/credential-offers", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	var created api.CredentialOfferCreated
	require.NoError(t, json.Unmarshal(r.Body, &created))
	tok := e.accessToken(t, e.readOffer(t, created), e.lastCode(t, u.id))
	bearer := "Bearer " + tok.AccessToken
	wallet := newIssuerKey(t)

	r = e.askCredential(t, bearer, proofsBody(keyProof(t, wallet, testBaseURL, e.nonce(t), time.Now())))
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	var pending api.CredentialIssuance
	require.NoError(t, json.Unmarshal(r.Body, &pending))
	require.NotEmpty(t, pending.TransactionID)
	require.Equal(t, 5, pending.Interval)
	require.Empty(t, pending.Credentials)

	deferred := func(id string) reply {
		return e.send(t, http.DefaultClient, "POST", "/api/oid4vci/deferred-credential", map[string]string{"transaction_id": id}, "Authorization", bearer)
	}
	requireOAuthError(t, deferred("inventado"), http.StatusBadRequest, "invalid_transaction_id")
	r = deferred(pending.TransactionID)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	require.Contains(t, string(r.Body), pending.TransactionID)

	e.runWorker(t, func(d *worker.Deps) { d.Credentials = worker.CredentialDeps{Issuer: issuer} })
	require.Eventually(t, func() bool { r = deferred(pending.TransactionID); return r.Status == http.StatusOK },
		15*time.Second, 100*time.Millisecond, string(r.Body))
	requireBoundTo(t, issued(t, r, issuer), wallet)
	requireOAuthError(t, deferred(pending.TransactionID), http.StatusBadRequest, "invalid_transaction_id")
}
