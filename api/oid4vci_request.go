package api

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"github.com/perfilseguro/perfilseguro/credential"
)

// The bodies wallets send to the credential endpoints, read the way OpenID4VCI asks: unknown
// members ignored, refusals in the OAuth shape.

// WalletCredentialRequest is the credential endpoint's body (§8.2). Proof is the singular form
// of the drafts before 1.0 ({proof_type: "jwt", jwt}), still sent by some wallets.
type WalletCredentialRequest struct {
	CredentialConfigurationID    string                     `json:"credential_configuration_id,omitempty"`
	CredentialIdentifier         string                     `json:"credential_identifier,omitempty"`
	Proofs                       map[string]json.RawMessage `json:"proofs,omitempty"`
	Proof                        *DraftProof                `json:"proof,omitempty"`
	CredentialResponseEncryption json.RawMessage            `json:"credential_response_encryption,omitempty"`
}

// credentialRequestDoc is the credential request as the OpenAPI document shows it (1.0 form).
type credentialRequestDoc struct {
	CredentialConfigurationID string `json:"credential_configuration_id"`
	Proofs                    struct {
		JWT []string `json:"jwt"` // one openid4vci-proof+jwt
	} `json:"proofs"`
}

// DraftProof is the key proof as drafts before OpenID4VCI 1.0 sent it.
type DraftProof struct {
	ProofType string `json:"proof_type"`
	JWT       string `json:"jwt"`
}

// DeferredCredentialRequest is the deferred endpoint's body (§9.1).
type DeferredCredentialRequest struct {
	TransactionID string `json:"transaction_id"`
}

// keyProof is the request's one jwt key proof, after the checks of the request itself.
func (req WalletCredentialRequest) keyProof() (string, error) {
	invalid := func(desc string) (string, error) {
		return "", oauthError(http.StatusBadRequest, "invalid_credential_request", desc)
	}
	switch {
	case len(req.CredentialResponseEncryption) > 0 && string(req.CredentialResponseEncryption) != "null":
		return "", oauthError(http.StatusBadRequest, "invalid_encryption_parameters", "Este emisor no cifra las respuestas.")
	case req.CredentialIdentifier != "":
		return "", oauthError(http.StatusBadRequest, "unknown_credential_identifier", "Este emisor no usa credential_identifier.")
	case req.CredentialConfigurationID == "":
		return invalid("Falta credential_configuration_id.")
	case req.CredentialConfigurationID != credential.ConfigurationID:
		return "", oauthError(http.StatusBadRequest, "unknown_credential_configuration",
			"Solo se emite la configuracion "+credential.ConfigurationID+".")
	case req.Proofs != nil && req.Proof != nil:
		return invalid("Envia proofs o proof, no ambos.")
	case req.Proof != nil:
		if req.Proof.ProofType != "jwt" || req.Proof.JWT == "" {
			return "", errProofInvalid
		}
		return req.Proof.JWT, nil
	}
	raw, ok := req.Proofs["jwt"]
	if !ok || len(req.Proofs) != 1 {
		return "", errProofInvalid
	}
	var jwts []string
	if err := json.Unmarshal(raw, &jwts); err != nil || len(jwts) == 0 {
		return "", errProofInvalid
	}
	if len(jwts) > 1 {
		return invalid("Se emite una credencial por solicitud: envia una sola prueba.")
	}
	return jwts[0], nil
}

// decodeWalletJSON reads a wallet's JSON body: JSON content type, size limit, bounded nesting.
// Unknown members are ignored, as OpenID4VCI requires (unlike the app's own bodies).
func decodeWalletJSON[T any](r *http.Request) (T, error) {
	var v T
	bad := func(desc string) (T, error) {
		return v, oauthError(http.StatusBadRequest, "invalid_credential_request", desc)
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return bad("La solicitud debe enviarse como JSON (Content-Type: application/json).")
	}
	raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		return bad("No se pudo leer la solicitud o es demasiado grande.")
	}
	if depth(raw) > maxJSONDepth || json.Unmarshal(raw, &v) != nil {
		return bad("El cuerpo de la solicitud no es un objeto JSON valido.")
	}
	return v, nil
}
