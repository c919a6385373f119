package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	"github.com/perfilseguro/perfilseguro/credential"
)

// OpenID4VCI 1.0, pre-authorized code flow (issue 28, issuance side). The person asks their
// profile for an offer (oid4vci_offer.go) and gets a link or QR for their wallet plus a 6-digit
// transaction code by WhatsApp; the wallet reads the offer, redeems it at the token endpoint
// (oid4vci_token.go), gets a c_nonce and sends a key proof to the credential endpoint
// (oid4vci_credential.go), which reserves an SD-JWT VC bound to the proven key and waits for the
// existing signing job. This server is its own authorization server (oid4vci_metadata.go).
// None of these endpoints reads the session cookie, so cross-origin wallets may call them.

// Endpoints of the wallet-facing flow.
const (
	oid4vciTokenPath      = "/api/oid4vci/token"
	oid4vciNoncePath      = "/api/oid4vci/nonce"
	oid4vciCredentialPath = "/api/oid4vci/credential"
	oid4vciDeferredPath   = "/api/oid4vci/deferred-credential"
	credentialOffersPath  = "/api/credential-offers/"
)

// Lifetimes of the flow's secrets: the offer lives as long as its code (codeLifetime, 10 minutes).
const (
	accessTokenLifetime = 5 * time.Minute // OpenID4VCI §13.8: longer Bearer tokens count as long-lived
	nonceLifetime       = 5 * time.Minute
	deferredInterval    = 5 // seconds a wallet waits before asking the deferred endpoint again
)

// oid4vci serves the flow with the issuer of issue 17 (same vct, keys and signing job).
type oid4vci struct {
	*Server
	issuer *credential.Issuer
}

// mountOID4VCI registers the flow; without an issuer there is nothing to offer.
func (s *Server) mountOID4VCI(issuer *credential.Issuer) {
	if issuer == nil {
		return
	}
	v := &oid4vci{Server: s, issuer: issuer}
	v.mountMetadata()
	tag := option.Tags("Credenciales")
	fuego.Post(s.f, "/api/users/{id}/credential-offers", v.createCredentialOffer, tag,
		option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Ofrecer mi credencial a una billetera (OpenID4VCI): enlace y QR válidos 10 minutos; el código de transacción llega por WhatsApp"))
	fuego.Get(s.f, credentialOffersPath+"{id}", v.getCredentialOffer, tag,
		option.Summary("Oferta de credencial (credential_offer_uri) que lee la billetera"))
	v.mountToken()
	v.mountIssuance()
}

// OAuthError is the error body of the OAuth 2.0 and OpenID4VCI endpoints (RFC 6749 §5.2,
// OpenID4VCI 1.0 §8.3.1.2).
type OAuthError struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// oauthErr is a refusal in the OAuth shape. Its description is Spanish written in ASCII: RFC 6749
// and OpenID4VCI allow no other characters in error_description, so it carries no accents.
type oauthErr struct {
	status int
	code   string
	desc   string
	scheme string // on 401, the WWW-Authenticate scheme: "Bearer" or "DPoP"
	// bare: the request carried no credentials at all; the challenge names the scheme and nothing
	// else (RFC 6750 §3.1: no error code when the client did not try to authenticate).
	bare bool
}

func (e *oauthErr) Error() string { return e.code + ": " + e.desc }

func oauthError(status int, code, desc string) *oauthErr {
	return &oauthErr{status: status, code: code, desc: desc}
}

// unauthorized is a 401 of the credential endpoints, challenged with scheme.
func unauthorized(scheme, code, desc string) *oauthErr {
	return &oauthErr{status: http.StatusUnauthorized, code: code, desc: desc, scheme: scheme}
}

// writeOAuthError answers an OAuth refusal in its own shape; anything else (429, 503, 500) in
// the product's {message}.
func writeOAuthError(w http.ResponseWriter, r *http.Request, err error) {
	var oe *oauthErr
	if !errors.As(err, &oe) {
		writeError(w, r, err)
		return
	}
	if oe.status == http.StatusUnauthorized && oe.bare {
		w.Header().Set("WWW-Authenticate", oe.scheme)
	} else if oe.status == http.StatusUnauthorized {
		challenge := fmt.Sprintf(`%s error="%s", error_description="%s"`, oe.scheme, oe.code, oe.desc)
		if oe.scheme == "DPoP" {
			challenge = `DPoP algs="ES256", ` + challenge[len("DPoP "):]
		}
		w.Header().Set("WWW-Authenticate", challenge)
	}
	writeJSON(w, oe.status, OAuthError{Error: oe.code, ErrorDescription: oe.desc})
}

// oauthAnswer documents an answer with the OAuthError body.
func oauthAnswer(code, desc string) response {
	return response{code: code, desc: desc, contentType: "application/json", schema: schemaOf(OAuthError{})}
}
