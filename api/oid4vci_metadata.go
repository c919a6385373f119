package api

import (
	"net/http"
	"time"

	"github.com/perfilseguro/perfilseguro/credential"
)

// grantPreAuthorized is the OAuth grant type of the pre-authorized code flow.
const grantPreAuthorized = "urn:ietf:params:oauth:grant-type:pre-authorized_code"

// mountMetadata serves the two discovery documents a wallet reads first; both are public and
// cacheable, computed once.
func (v *oid4vci) mountMetadata() {
	const tag = "Credenciales"
	issuerMeta, asMeta := v.issuerMetadata(), v.authorizationServerMetadata()
	v.handle("GET /.well-known/openid-credential-issuer", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		publicJSON(w, http.StatusOK, issuerMeta, time.Hour)
	}), op(tag, "Metadatos del emisor de credenciales (OpenID4VCI 1.0): endpoints, nombre y logotipo, y la credencial que emite", nil,
		jsonOf("200", "Credential Issuer Metadata", map[string]any{})))
	v.handle("GET /.well-known/oauth-authorization-server", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		publicJSON(w, http.StatusOK, asMeta, time.Hour)
	}), op(tag, "Metadatos del servidor de autorización (RFC 8414): endpoint de token, código preautorizado sin client_id, DPoP ES256", nil,
		jsonOf("200", "Authorization Server Metadata", map[string]any{})))
}

// logoURL is the issuer's logo as wallets show it.
func (v *oid4vci) logoURL() string { return v.issuer.URL + "/favicon.svg" }

// issuerMetadata is the Credential Issuer Metadata (OpenID4VCI 1.0 §12.2). No
// authorization_servers: this server is its own authorization server.
func (v *oid4vci) issuerMetadata() map[string]any {
	base := v.issuer.URL
	return map[string]any{
		"credential_issuer":            base,
		"credential_endpoint":          base + oid4vciCredentialPath,
		"nonce_endpoint":               base + oid4vciNoncePath,
		"deferred_credential_endpoint": base + oid4vciDeferredPath,
		"display": []map[string]any{{
			"name":   "Perfil Seguro",
			"locale": "es-MX",
			"logo":   map[string]any{"uri": v.logoURL(), "alt_text": "Logotipo de Perfil Seguro"},
		}},
		"credential_configurations_supported": map[string]any{
			credential.ConfigurationID: v.issuer.CredentialConfiguration(v.logoURL()),
		},
	}
}

// authorizationServerMetadata is the RFC 8414 document of the token endpoint. Wallets are
// public clients: the pre-authorized code is redeemed without a client_id (OpenID4VCI §12.3).
func (v *oid4vci) authorizationServerMetadata() map[string]any {
	return map[string]any{
		"issuer":                v.issuer.URL,
		"token_endpoint":        v.issuer.URL + oid4vciTokenPath,
		"grant_types_supported": []string{grantPreAuthorized},
		// Required by RFC 8414 §2; empty: there is no authorization endpoint, only the
		// pre-authorized code at the token endpoint.
		"response_types_supported":                        []string{},
		"token_endpoint_auth_methods_supported":           []string{"none"},
		"pre-authorized_grant_anonymous_access_supported": true,
		"dpop_signing_alg_values_supported":               []string{"ES256"},
	}
}
