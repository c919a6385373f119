package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
)

// The key a wallet encrypts its answer to (OpenID4VP 1.0 §8.3, response mode direct_post.jwt):
// one ephemeral P-256 key per request, published in the request's client_metadata.jwks, used
// with ECDH-ES (direct key agreement) and AES-GCM. A key per request means an answer can be
// read only through its own request, and nothing is left to rotate.

// Response encryption parameters this verifier accepts.
const (
	responseKeyAlg = "ECDH-ES"
	responseKeyUse = "enc"
)

// ResponseEncValues are the JWE enc values offered in encrypted_response_enc_values_supported.
var ResponseEncValues = []string{"A128GCM", "A256GCM"}

// ErrResponse: an encrypted response that is not a compact JWE to this key with the offered
// algorithms, or that does not decrypt.
var ErrResponse = errors.New("credential: bad encrypted response")

// ResponseKey is one request's ephemeral ECDH-ES key.
type ResponseKey struct {
	ID      string // kid: the RFC 7638 thumbprint of the public key
	private *ecdsa.PrivateKey
}

// NewResponseKey makes a fresh P-256 key.
func NewResponseKey() (ResponseKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return ResponseKey{}, fmt.Errorf("response key: %w", err)
	}
	return responseKey(priv)
}

func responseKey(priv *ecdsa.PrivateKey) (ResponseKey, error) {
	x, y, err := publicXY(priv)
	if err != nil {
		return ResponseKey{}, fmt.Errorf("response key: %w", err)
	}
	return ResponseKey{ID: thumbprint(x, y), private: priv}, nil
}

// ParseResponseKey reads what PrivateJWK wrote.
func ParseResponseKey(privateJWK []byte) (ResponseKey, error) {
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(privateJWK); err != nil {
		return ResponseKey{}, fmt.Errorf("response key: %w", err)
	}
	priv, ok := k.Key.(*ecdsa.PrivateKey)
	if !ok {
		return ResponseKey{}, fmt.Errorf("response key: a %T, want an EC private key", k.Key)
	}
	return responseKey(priv)
}

// PrivateJWK is the private key as a JWK, for the caller to store sealed until the answer.
func (k ResponseKey) PrivateJWK() ([]byte, error) {
	return jose.JSONWebKey{Key: k.private, KeyID: k.ID, Algorithm: responseKeyAlg, Use: responseKeyUse}.MarshalJSON()
}

// PublicJWK is the key as the request publishes it: kid, use enc and alg ECDH-ES, which
// OpenID4VP 1.0 §8.3 requires (the JWE's alg must equal the key's).
func (k ResponseKey) PublicJWK() map[string]any {
	x, y, err := publicXY(k.private)
	if err != nil {
		return nil
	}
	return map[string]any{"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": k.ID, "use": responseKeyUse, "alg": responseKeyAlg}
}

// Decrypt opens a compact JWE (alg ECDH-ES, enc one of ResponseEncValues) addressed to this key
// and returns its JSON object payload (the authorization response parameters).
func (k ResponseKey) Decrypt(compactJWE string) (map[string]any, error) {
	encs := make([]jose.ContentEncryption, 0, len(ResponseEncValues))
	for _, e := range ResponseEncValues {
		encs = append(encs, jose.ContentEncryption(e))
	}
	obj, err := jose.ParseEncryptedCompact(compactJWE, []jose.KeyAlgorithm{jose.ECDH_ES}, encs)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrResponse, err)
	}
	if obj.Header.KeyID != "" && obj.Header.KeyID != k.ID {
		return nil, fmt.Errorf("%w: kid %q is not this request's key", ErrResponse, obj.Header.KeyID)
	}
	plain, err := obj.Decrypt(k.private)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrResponse, err)
	}
	var params map[string]any
	if err := json.Unmarshal(plain, &params); err != nil || params == nil {
		return nil, fmt.Errorf("%w: the payload is not a JSON object", ErrResponse)
	}
	return params, nil
}
