package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// ErrHolderKey: a JWK that is not a public EC P-256 key (a private part, another curve, a
// point off the curve).
var ErrHolderKey = errors.New("credential: holder key is not a public EC P-256 JWK")

// HolderKey is a wallet's public key: the one a credential is bound to (cnf.jwk), and the one
// that signs its key proofs and DPoP proofs. ES256 only, like everything this package signs.
type HolderKey struct {
	Public     *ecdsa.PublicKey
	JWK        map[string]any // kty, crv, x, y and nothing else: what goes into cnf.jwk
	Thumbprint string         // RFC 7638 SHA-256 thumbprint, base64url (DPoP's jkt)
}

// ParseHolderJWK reads a public EC P-256 JWK; the coordinates must be 32 bytes and on the curve.
func ParseHolderJWK(jwk map[string]any) (HolderKey, error) {
	kty, _ := jwk["kty"].(string)
	crv, _ := jwk["crv"].(string)
	if _, private := jwk["d"]; private || kty != "EC" || crv != "P-256" {
		return HolderKey{}, ErrHolderKey
	}
	var point []byte
	for _, name := range []string{"x", "y"} {
		s, _ := jwk[name].(string)
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil || len(b) != 32 {
			return HolderKey{}, fmt.Errorf("%w: %s is not 32 bytes of base64url", ErrHolderKey, name)
		}
		point = append(point, b...)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append([]byte{4}, point...))
	if err != nil {
		return HolderKey{}, fmt.Errorf("%w: %v", ErrHolderKey, err)
	}
	x, y := b64(point[:32]), b64(point[32:]) // re-encoded: the canonical form the thumbprint needs
	return HolderKey{Public: pub, JWK: map[string]any{"kty": "EC", "crv": "P-256", "x": x, "y": y},
		Thumbprint: thumbprint(x, y)}, nil
}

// thumbprint is the RFC 7638 SHA-256 thumbprint of a P-256 public key: the required members
// only, in lexicographic order, no whitespace (§3.2).
func thumbprint(x, y string) string {
	sum := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	return b64(sum[:])
}
