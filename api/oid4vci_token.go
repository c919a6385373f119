package api

import (
	"errors"
	"mime"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// TokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type" enum:"Bearer,DPoP"`
	ExpiresIn   int    `json:"expires_in"`
}

// TokenRequest documents the token endpoint's form (it is read with ParseForm).
type TokenRequest struct {
	GrantType         string `json:"grant_type" enum:"urn:ietf:params:oauth:grant-type:pre-authorized_code"`
	PreAuthorizedCode string `json:"pre-authorized_code"`
	TxCode            string `json:"tx_code"`
}

// Refusals of the token endpoint (error_description: Spanish in ASCII, see oauthErr).
var (
	errGrantUnusable = oauthError(http.StatusBadRequest, "invalid_grant",
		"El codigo preautorizado no es valido, ya se uso o vencio. Pide una nueva oferta desde tu perfil.")
	errGrantWrongTxCode = oauthError(http.StatusBadRequest, "invalid_grant", "El codigo de transaccion es incorrecto.")
	errGrantExhausted   = oauthError(http.StatusBadRequest, "invalid_grant",
		"Demasiados intentos fallidos: la oferta ya no es valida. Pide una nueva desde tu perfil.")
)

func (v *oid4vci) mountToken() {
	const tag = "Credenciales"
	o := op(tag, "Endpoint de token (OpenID4VCI, código preautorizado): canjea el código y el código de transacción por un token de acceso de 5 minutos, ligado a una llave DPoP si se envía el encabezado DPoP",
		params(headerParam("DPoP", "Prueba DPoP (RFC 9449, ES256) para ligar el token a la llave de la billetera", false)),
		jsonOf("200", "Token de acceso (Bearer, o DPoP con cnf.jkt)", TokenResponse{}),
		oauthAnswer("400", "invalid_request, unsupported_grant_type, invalid_grant (código vencido, usado o desconocido, o código de transacción incorrecto: a los 5 intentos la oferta muere) o invalid_dpop_proof"),
		tooMany("Demasiados intentos desde esta dirección"))
	o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithSchemaRef(schemaOf(TokenRequest{}), []string{"application/x-www-form-urlencoded"})}
	v.handle("POST "+oid4vciTokenPath, http.HandlerFunc(v.handleToken), o)
}

func (v *oid4vci) handleToken(w http.ResponseWriter, r *http.Request) {
	res, err := v.token(r)
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, res)
}

// token redeems a pre-authorized code with its transaction code. A wrong transaction code counts
// a try against the offer's code, which dies at the fifth; a right one closes the offer and uses
// up the code in the transaction that stores the access token.
func (v *oid4vci) token(r *http.Request) (TokenResponse, error) {
	ctx := r.Context()
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return TokenResponse{}, oauthError(http.StatusBadRequest, "invalid_request",
			"La solicitud debe enviarse como formulario (application/x-www-form-urlencoded).")
	}
	if err := r.ParseForm(); err != nil {
		return TokenResponse{}, oauthError(http.StatusBadRequest, "invalid_request", "No se pudo leer el formulario.")
	}
	form := r.PostForm
	if form.Get("grant_type") != grantPreAuthorized {
		return TokenResponse{}, oauthError(http.StatusBadRequest, "unsupported_grant_type",
			"Solo se admite el codigo preautorizado (urn:ietf:params:oauth:grant-type:pre-authorized_code).")
	}
	code, txCode := form.Get("pre-authorized_code"), form.Get("tx_code")
	if code == "" || txCode == "" {
		return TokenResponse{}, oauthError(http.StatusBadRequest, "invalid_request",
			"Faltan el codigo preautorizado (pre-authorized_code) o el codigo de transaccion (tx_code).")
	}
	var jkt string
	if len(r.Header.Values("DPoP")) > 0 {
		p, err := v.checkDPoP(ctx, r, oid4vciTokenPath, "", http.StatusBadRequest)
		if err != nil {
			return TokenResponse{}, err
		}
		jkt = p.Key.Thumbprint
	}
	if err := v.allow(ctx, limit{"verify:ip:" + clientIP(r), v.limits.VerifyPerIP}); err != nil {
		return TokenResponse{}, err
	}
	now := v.now()
	grant, err := v.store.OfferByCode(ctx, secure.HashToken(code))
	if errors.Is(err, postgres.ErrOfferNotFound) || (err == nil && !grant.Usable(now)) {
		return TokenResponse{}, errGrantUnusable
	}
	if err != nil {
		return TokenResponse{}, err
	}
	if !validCodeFormat(txCode) || !v.coder.Matches(grant.TxCode.Destination, txCode, grant.TxCode.Hash) {
		n, err := v.store.RecordWrongAttempt(ctx, grant.TxCode)
		if err != nil {
			return TokenResponse{}, err
		}
		if n >= postgres.MaxCodeAttempts {
			return TokenResponse{}, errGrantExhausted
		}
		return TokenResponse{}, errGrantWrongTxCode
	}
	token := secure.NewToken(32)
	err = v.store.RedeemOffer(ctx, grant, postgres.NewAccessToken{TokenHash: secure.HashToken(token), JKT: jkt,
		ExpiresAt: now.Add(accessTokenLifetime)}, now)
	if errors.Is(err, postgres.ErrOfferNotFound) {
		return TokenResponse{}, errGrantUnusable // redeemed by a concurrent request
	}
	if err != nil {
		return TokenResponse{}, err
	}
	res := TokenResponse{AccessToken: token, TokenType: "Bearer", ExpiresIn: int(accessTokenLifetime.Seconds())}
	if jkt != "" {
		res.TokenType = "DPoP"
	}
	return res, nil
}
