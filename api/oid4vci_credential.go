package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Issuance: the nonce endpoint, the credential endpoint and the deferred credential endpoint.
// The credential endpoint reserves the credential and waits for the signing job of issue 17 as
// POST /api/credentials does (credentialWait, 4 s). Not signed by then, it answers 202 with a
// transaction_id, and the wallet collects the credential at the deferred endpoint with the same
// access token: that endpoint enqueues the job again (a no-op while it is queued) so a credential
// whose first enqueue failed is signed all the same.

// noncesPerHour bounds the nonces one address asks for (each is a row until it is used or swept).
const noncesPerHour = 300

// NonceResponse is the nonce endpoint's answer (OpenID4VCI 1.0 §7.2).
type NonceResponse struct {
	CNonce string `json:"c_nonce"`
}

// CredentialIssuance is the credential and deferred endpoints' answer (§8.3, §9.2): the
// credentials, or a transaction to ask for later.
type CredentialIssuance struct {
	Credentials   []IssuedCredential `json:"credentials,omitempty"`
	TransactionID string             `json:"transaction_id,omitempty"`
	Interval      int                `json:"interval,omitempty"`
}

// IssuedCredential is one SD-JWT VC, bound to the key of the proof.
type IssuedCredential struct {
	Credential string `json:"credential"`
}

// Refusals of the credential endpoints (error_description: Spanish in ASCII, see oauthErr).
var (
	errProofInvalid = oauthError(http.StatusBadRequest, "invalid_proof",
		"La prueba de posesion no es valida: se espera un JWT openid4vci-proof+jwt ES256 con la llave en jwk, aud del emisor, iat reciente y el c_nonce.")
	errNonceInvalid = oauthError(http.StatusBadRequest, "invalid_nonce",
		"El c_nonce de la prueba no es valido, ya se uso o vencio. Pide uno nuevo al endpoint de nonce.")
	errRequestDenied = oauthError(http.StatusBadRequest, "credential_request_denied",
		"La credencial esta disponible solo para perfiles con verificacion biometrica completa (nivel 3) y vigente.")
	errTokenSpent = unauthorized("Bearer", "invalid_token", "Este token de acceso ya se uso para obtener una credencial.")
)

func (v *oid4vci) mountIssuance() {
	const tag = "Credenciales"
	v.handle("POST "+oid4vciNoncePath, http.HandlerFunc(v.handleNonce),
		op(tag, "Endpoint de nonce (OpenID4VCI): un c_nonce de un solo uso, válido 5 minutos, para la prueba de posesión", nil,
			jsonOf("200", "c_nonce nuevo (Cache-Control: no-store)", NonceResponse{}),
			tooMany("Demasiados nonces pedidos desde esta dirección")))
	dpop := headerParam("DPoP", "Prueba DPoP (RFC 9449) con ath, obligatoria si el token está ligado a una llave DPoP", false)
	// Both credential endpoints take a DPoP proof and answer the signed credential (200) or that it
	// is still being signed (202); they differ in their body and in their refusals.
	credentialEndpoint := func(path string, answer func(*http.Request) (int, CredentialIssuance, error),
		summary, signing, refused400, refused401 string, body any) {
		o := op(tag, summary, params(dpop),
			jsonOf("200", "La credencial firmada", CredentialIssuance{}),
			jsonOf("202", signing, CredentialIssuance{}),
			oauthAnswer("400", refused400),
			oauthAnswer("401", refused401))
		o.RequestBody = jsonBody(body)
		v.handle("POST "+path, credentialHandler(answer), o)
	}
	credentialEndpoint(oid4vciCredentialPath, v.issue,
		"Endpoint de credencial (OpenID4VCI): emite la SD-JWT VC ligada (cnf.jwk) a la llave de la prueba; una credencial por token",
		"Se está firmando: pídela en el endpoint diferido con transaction_id",
		"invalid_credential_request, unknown_credential_configuration, unknown_credential_identifier, invalid_proof, invalid_nonce, invalid_encryption_parameters o credential_request_denied",
		"invalid_token (sin token, vencido o ya usado) o invalid_dpop_proof",
		credentialRequestDoc{})
	credentialEndpoint(oid4vciDeferredPath, v.deferred,
		"Endpoint de credencial diferida (OpenID4VCI): entrega la credencial que aún se firmaba",
		"Aún se está firmando: vuelve a pedirla después de interval segundos",
		"invalid_transaction_id, invalid_credential_request o credential_request_denied",
		"invalid_token o invalid_dpop_proof",
		DeferredCredentialRequest{})
}

// handleNonce stores a fresh c_nonce; Postgres holds it, so any API process accepts it.
func (v *oid4vci) handleNonce(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := v.allow(ctx, limit{"nonce:ip:" + clientIP(r), noncesPerHour}); err != nil {
		writeError(w, r, err)
		return
	}
	nonce := secure.NewToken(16)
	now := v.now()
	if err := v.store.InsertNonce(ctx, secure.HashToken(nonce), now.Add(nonceLifetime), now); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, NonceResponse{CNonce: nonce}) // no-store, as §7.2 requires
}

// credentialHandler serves a credential endpoint: answer's credential with its status (200 signed,
// 202 still signing), or its refusal in OAuth form.
func credentialHandler(answer func(*http.Request) (int, CredentialIssuance, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, res, err := answer(r)
		if err != nil {
			writeOAuthError(w, r, err)
			return
		}
		writeJSON(w, status, res)
	}
}

// issue checks the token, the request and the key proof, uses up the proof's nonce, spends the
// token and reserves a credential bound to the proof's key.
func (v *oid4vci) issue(r *http.Request) (int, CredentialIssuance, error) {
	ctx := r.Context()
	tok, err := v.authorize(r, oid4vciCredentialPath)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	if tok.Spent {
		return 0, CredentialIssuance{}, tokenRefusal(tok, errTokenSpent)
	}
	req, err := decodeWalletJSON[WalletCredentialRequest](r)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	proofJWT, err := req.keyProof()
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	now := v.now()
	proof, err := credential.VerifyKeyProof(proofJWT, v.issuer.URL, now)
	if err != nil || proof.Nonce == "" {
		return 0, CredentialIssuance{}, errProofInvalid
	}
	if err := v.store.ConsumeNonce(ctx, secure.HashToken(proof.Nonce), now); errors.Is(err, postgres.ErrOfferNotFound) {
		return 0, CredentialIssuance{}, errNonceInvalid
	} else if err != nil {
		return 0, CredentialIssuance{}, err
	}
	_, until, err := v.eligibleUser(ctx, tok.UserID)
	if errors.Is(err, errCredentialNotEligible) || errors.Is(err, postgres.ErrUserNotFound) {
		return 0, CredentialIssuance{}, errRequestDenied
	}
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	if err := v.store.ClaimAccessToken(ctx, tok.ID, now); errors.Is(err, postgres.ErrOfferNotFound) {
		return 0, CredentialIssuance{}, tokenRefusal(tok, errTokenSpent) // a concurrent request spent it
	} else if err != nil {
		return 0, CredentialIssuance{}, err
	}
	holder, err := json.Marshal(proof.Key.JWK)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	cred, err := v.store.NewCredential(ctx, tok.UserID, until, holder)
	if err != nil {
		if rerr := v.store.ReleaseAccessToken(context.WithoutCancel(ctx), tok.ID); rerr != nil {
			v.logger.ErrorContext(ctx, "release access token", "token_id", tok.ID, "error", rerr)
		}
		return 0, CredentialIssuance{}, err
	}
	transactionID := secure.NewToken(32)
	if err := v.store.SetTokenCredential(ctx, tok.ID, cred.ID, secure.HashToken(transactionID)); err != nil {
		return 0, CredentialIssuance{}, err
	}
	if !v.enqueueSigning(ctx, cred.ID) {
		return v.issuanceAnswer(ctx, tok.ID, transactionID, cred)
	}
	return v.issuanceAnswer(ctx, tok.ID, transactionID, v.waitForCredential(ctx, cred))
}

// deferred delivers the credential of a transaction the credential endpoint answered with 202.
func (v *oid4vci) deferred(r *http.Request) (int, CredentialIssuance, error) {
	ctx := r.Context()
	tok, err := v.authorize(r, oid4vciDeferredPath)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	req, err := decodeWalletJSON[DeferredCredentialRequest](r)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	id, err := v.store.DeferredCredentialID(ctx, tok.ID, secure.HashToken(req.TransactionID))
	if errors.Is(err, postgres.ErrOfferNotFound) || req.TransactionID == "" {
		return 0, CredentialIssuance{}, oauthError(http.StatusBadRequest, "invalid_transaction_id",
			"El transaction_id no es valido o la credencial ya se entrego.")
	}
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	cred, err := v.store.CredentialByID(ctx, id)
	if err != nil {
		return 0, CredentialIssuance{}, err
	}
	if cred.SDJWT == nil && cred.RevokedAt == nil {
		v.enqueueSigning(ctx, cred.ID)
	}
	return v.issuanceAnswer(ctx, tok.ID, req.TransactionID, cred)
}

// enqueueSigning queues the signing job; a failure is logged (the deferred endpoint retries it).
func (v *oid4vci) enqueueSigning(ctx context.Context, credentialID int64) bool {
	task, err := jobs.NewIssueCredentialTask(credentialID)
	if err := jobs.Enqueue(ctx, v.queue, task, err); err != nil {
		v.logger.WarnContext(ctx, "enqueue credential signing", "credential_id", credentialID, "error", err)
		return false
	}
	return true
}

// issuanceAnswer is 200 with the signed credential (the transaction is then over), 202 with the
// transaction while the job signs it, and a denial once the credential was revoked.
func (v *oid4vci) issuanceAnswer(ctx context.Context, tokenID int64, transactionID string, cred postgres.Credential) (int, CredentialIssuance, error) {
	switch {
	case cred.RevokedAt != nil:
		return 0, CredentialIssuance{}, errRequestDenied
	case cred.SDJWT != nil:
		if err := v.store.FinishTransaction(ctx, tokenID); err != nil {
			return 0, CredentialIssuance{}, err
		}
		return http.StatusOK, CredentialIssuance{Credentials: []IssuedCredential{{Credential: *cred.SDJWT}}}, nil
	default:
		return http.StatusAccepted, CredentialIssuance{TransactionID: transactionID, Interval: deferredInterval}, nil
	}
}
