package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Access to the credential endpoints: the access token of the token endpoint, presented as
// Bearer or, when it is bound to a key, as DPoP with a proof of that key (RFC 9449).

// authorize finds the request's live access token (Authorization: Bearer or DPoP) and, for a
// DPoP-bound one, checks the DPoP proof of this request: same key, and ath of this token.
func (v *oid4vci) authorize(r *http.Request, path string) (postgres.AccessToken, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	scheme, token = strings.ToLower(scheme), strings.TrimSpace(token)
	if token == "" || (scheme != "bearer" && scheme != "dpop") {
		missing := unauthorized("Bearer", "invalid_token", "Falta el token de acceso (Authorization: Bearer o DPoP).")
		missing.bare = true
		return postgres.AccessToken{}, missing
	}
	wanted := "Bearer"
	if scheme == "dpop" {
		wanted = "DPoP"
	}
	tok, err := v.store.AccessTokenByHash(r.Context(), secure.HashToken(token), v.now())
	if errors.Is(err, postgres.ErrOfferNotFound) {
		return tok, unauthorized(wanted, "invalid_token", "El token de acceso no es valido o ya vencio.")
	}
	if err != nil {
		return tok, err
	}
	if tok.JKT == nil {
		if scheme != "bearer" {
			return tok, unauthorized("Bearer", "invalid_token", "Este token no esta ligado a una llave DPoP: usa el esquema Bearer.")
		}
		return tok, nil
	}
	if scheme != "dpop" {
		return tok, unauthorized("DPoP", "invalid_token", "Este token esta ligado a una llave DPoP: usa el esquema DPoP con su prueba.")
	}
	p, err := v.checkDPoP(r.Context(), r, path, token, http.StatusUnauthorized)
	if err != nil {
		return tok, err
	}
	if p.Key.Thumbprint != *tok.JKT {
		return tok, unauthorized("DPoP", "invalid_dpop_proof", "La prueba DPoP no esta firmada con la llave ligada al token.")
	}
	return tok, nil
}

// tokenRefusal challenges with the scheme of the token.
func tokenRefusal(tok postgres.AccessToken, e *oauthErr) *oauthErr {
	if tok.JKT != nil {
		c := *e
		c.scheme = "DPoP"
		return &c
	}
	return e
}

// checkDPoP verifies the request's one DPoP proof for path (and accessToken's ath, when not "")
// and refuses a proof seen before: its jti is kept in Redis for as long as a proof is fresh.
// Refusals are invalid_dpop_proof with status (400 at the token endpoint, 401 elsewhere).
func (v *oid4vci) checkDPoP(ctx context.Context, r *http.Request, path, accessToken string, status int) (credential.DPoPProof, error) {
	refuse := func(desc string) error {
		e := oauthError(status, "invalid_dpop_proof", desc)
		e.scheme = "DPoP"
		return e
	}
	proofs := r.Header.Values("DPoP")
	if len(proofs) != 1 {
		return credential.DPoPProof{}, refuse("Envia exactamente una prueba DPoP en el encabezado DPoP.")
	}
	p, err := credential.VerifyDPoP(proofs[0], r.Method, v.issuer.URL+path, accessToken, v.now())
	if err != nil {
		return credential.DPoPProof{}, refuse("La prueba DPoP no es valida (typ, ES256, jwk, htm, htu, iat, jti o ath).")
	}
	key := "oid4vci:dpop:" + secure.HashToken(p.Key.Thumbprint+"\x00"+p.JTI)
	fresh, err := v.redis.SetNX(ctx, key, 1, credential.ProofMaxAge+credential.ProofClockSkew).Result()
	if err != nil {
		return credential.DPoPProof{}, fmt.Errorf("dpop jti: %v: %w", err, errUnavailable)
	}
	if !fresh {
		return credential.DPoPProof{}, refuse("Esta prueba DPoP ya se uso: firma una nueva para cada solicitud.")
	}
	return p, nil
}
