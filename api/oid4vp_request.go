package api

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The request object a wallet reads from request_uri (OpenID4VP 1.0 §5, RFC 9101): signed by
// the verifier's certificate (x5c, client_id x509_san_dns:<host>), asking for a vp_token by
// DCQL, answered encrypted (direct_post.jwt) to the request's own key. Public: whoever holds
// the QR may read it, and it says nothing about the person.

// requestObjectType is the media type of a request object (RFC 9101 §10.2).
const requestObjectType = "application/oauth-authz-req+jwt"

// RequestURIForm is what a wallet may POST to request_uri (request_uri_method=post, §5.10).
type RequestURIForm struct {
	WalletMetadata string `json:"wallet_metadata,omitempty"`
	WalletNonce    string `json:"wallet_nonce,omitempty"`
}

var errRequestGone = oauthError(http.StatusNotFound, "invalid_request",
	"La solicitud de presentacion no existe, ya se respondio o vencio.")

func (v *oid4vp) mountRequestObject() {
	const tag = "Credenciales"
	answers := func() []response {
		return []response{
			text("200", "Objeto de solicitud firmado (JWT oauth-authz-req+jwt, ES256, x5c); no se guarda en caché", requestObjectType),
			oauthAnswer("400", "invalid_request (formulario ilegible)"),
			oauthAnswer("404", "invalid_request: la solicitud no existe, ya se respondió o venció"),
		}
	}
	id := pathParam("id", "Identificador de la solicitud (UUID)", "")
	v.handle("GET "+oid4vpRequestsPath+"{id}", http.HandlerFunc(v.handleRequestObject),
		op(tag, "Objeto de solicitud de presentación (OpenID4VP request_uri) que lee la billetera", params(id), answers()...))
	post := op(tag, "Objeto de solicitud de presentación pedido con request_uri_method=post: incluye el wallet_nonce de la billetera",
		params(id), answers()...)
	post.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(false).
		WithSchemaRef(schemaOf(RequestURIForm{}), []string{"application/x-www-form-urlencoded"})}
	v.handle("POST "+oid4vpRequestsPath+"{id}", http.HandlerFunc(v.handleRequestObject), post)
}

func (v *oid4vp) handleRequestObject(w http.ResponseWriter, r *http.Request) {
	signed, err := v.requestObject(r)
	if err != nil {
		writeOAuthError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", requestObjectType)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(signed))
}

// requestObject signs the authorization request of a pending request.
func (v *oid4vp) requestObject(r *http.Request) (string, error) {
	ctx := r.Context()
	walletNonce := ""
	if r.Method == http.MethodPost {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" && r.ContentLength != 0 {
			return "", oauthError(http.StatusBadRequest, "invalid_request", "Envia wallet_metadata y wallet_nonce como formulario.")
		}
		if err := r.ParseForm(); err != nil {
			return "", oauthError(http.StatusBadRequest, "invalid_request", "No se pudo leer el formulario.")
		}
		walletNonce = r.PostForm.Get("wallet_nonce") // wallet_metadata: we offer one way only, whatever it supports
	}
	id := r.PathValue("id")
	if !presentationID.MatchString(id) {
		return "", errRequestGone
	}
	p, err := v.store.PresentationRequestByID(ctx, id)
	if errors.Is(err, postgres.ErrPresentationNotFound) {
		return "", errRequestGone
	}
	if err != nil {
		return "", err
	}
	now := v.now()
	if p.StatusAt(now) != postgres.PresentationPending {
		return "", errRequestGone
	}
	verifier, err := v.signer()
	if err != nil {
		v.logger.ErrorContext(ctx, "oid4vp verifier certificate", "error", err)
		return "", errVerifierUnavailable
	}
	sealed, err := v.sealer.Open(p.ResponseKey)
	if err != nil {
		return "", err
	}
	key, err := credential.ParseResponseKey([]byte(sealed))
	if err != nil {
		return "", err
	}
	claims := map[string]any{
		"aud":           requestObjectAudience,
		"iat":           now.Unix(),
		"exp":           p.ExpiresAt.Unix(),
		"client_id":     verifier.ClientID(),
		"response_type": "vp_token",
		"response_mode": "direct_post.jwt",
		"response_uri":  v.issuer.URL + oid4vpResponsesPath + p.ID,
		"nonce":         p.Nonce,
		"state":         p.State,
		"dcql_query":    json.RawMessage(p.DCQLQuery),
		"client_metadata": map[string]any{
			"jwks": map[string]any{"keys": []any{key.PublicJWK()}},
			"encrypted_response_enc_values_supported": credential.ResponseEncValues,
			"vp_formats_supported": map[string]any{"dc+sd-jwt": map[string]any{
				"sd-jwt_alg_values": []string{"ES256"}, "kb-jwt_alg_values": []string{"ES256"}}},
		},
	}
	if walletNonce != "" {
		claims["wallet_nonce"] = walletNonce
	}
	return verifier.SignRequestObject(claims)
}
