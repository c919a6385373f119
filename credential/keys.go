package credential

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
)

// Key is one ES256 issuer key; ID is its JWK "kid" (RFC 7638 thumbprint of the public key, base64url).
type Key struct {
	ID      string            // RFC 7638 SHA-256 thumbprint, base64url without padding
	Private *ecdsa.PrivateKey // a P-256 key
}

// NewKey wraps a P-256 private key and computes its kid; other curves are refused.
func NewKey(priv *ecdsa.PrivateKey) (Key, error) {
	x, y, err := publicXY(priv)
	if err != nil {
		return Key{}, fmt.Errorf("new key: %w", err)
	}
	return Key{ID: thumbprint(x, y), Private: priv}, nil
}

// ParseKeysPEM reads one or more "PRIVATE KEY" (PKCS#8) or "EC PRIVATE KEY" (SEC 1) blocks, in order.
func ParseKeysPEM(pemData []byte) ([]Key, error) {
	var keys []Key
	seen := map[string]bool{}
	rest := pemData
	for n := 1; ; n++ {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			if len(bytes.TrimSpace(rest)) > 0 {
				return nil, fmt.Errorf("parse keys: block %d: not a PEM block", n)
			}
			break
		}
		key, err := parseKeyBlock(block)
		if err != nil {
			return nil, fmt.Errorf("parse keys: block %d: %w", n, err)
		}
		if seen[key.ID] {
			return nil, fmt.Errorf("parse keys: block %d: duplicate of an earlier key (kid %s)", n, key.ID)
		}
		seen[key.ID] = true
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return nil, errors.New("parse keys: no PEM key block found")
	}
	return keys, nil
}

// parseKeyBlock turns one PEM block into a Key.
func parseKeyBlock(block *pem.Block) (Key, error) {
	switch block.Type {
	case "PRIVATE KEY":
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return Key{}, fmt.Errorf("PKCS#8: %w", err)
		}
		priv, ok := parsed.(*ecdsa.PrivateKey)
		if !ok {
			return Key{}, fmt.Errorf("PKCS#8 holds a %T, want an ECDSA P-256 key", parsed)
		}
		return NewKey(priv)
	case "EC PRIVATE KEY":
		priv, err := x509.ParseECPrivateKey(block.Bytes)
		if err != nil {
			return Key{}, fmt.Errorf("SEC 1: %w", err)
		}
		return NewKey(priv)
	default:
		return Key{}, fmt.Errorf("unsupported PEM type %q", block.Type)
	}
}

// EncodeKeyPEM writes the key as a PKCS#8 "PRIVATE KEY" PEM block.
func EncodeKeyPEM(k Key) ([]byte, error) {
	if _, _, err := publicXY(k.Private); err != nil {
		return nil, fmt.Errorf("encode key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.Private)
	if err != nil {
		return nil, fmt.Errorf("encode key %s: %w", k.ID, err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// PublicJWK is the key's public half as a JWK; nil when the Key holds no valid P-256 key.
func PublicJWK(k Key) map[string]any {
	x, y, err := publicXY(k.Private)
	if err != nil {
		return nil
	}
	return map[string]any{"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": k.ID, "alg": "ES256", "use": "sig"}
}

// JWKS is the JWK Set that publishes the keys, in order (keys without a valid key are left out).
func JWKS(keys []Key) map[string]any {
	list := make([]map[string]any, 0, len(keys))
	for _, k := range keys {
		if jwk := PublicJWK(k); jwk != nil {
			list = append(list, jwk)
		}
	}
	return map[string]any{"keys": list}
}

// publicXY returns the base64url x and y coordinates of a P-256 key's public point.
func publicXY(priv *ecdsa.PrivateKey) (x, y string, err error) {
	if priv == nil {
		return "", "", errors.New("no private key")
	}
	if priv.Curve != elliptic.P256() {
		return "", "", fmt.Errorf("curve %s is not P-256 (ES256 only)", curveName(priv.Curve))
	}
	point, err := priv.PublicKey.Bytes() // 0x04 || X (32 bytes) || Y (32 bytes)
	if err != nil {
		return "", "", fmt.Errorf("public key: %w", err)
	}
	return b64(point[1:33]), b64(point[33:65]), nil
}

// curveName names a curve for an error message, nil-safe.
func curveName(c elliptic.Curve) string {
	if c == nil || c.Params() == nil {
		return "<none>"
	}
	return c.Params().Name
}

// b64 is base64url without padding, the encoding JOSE and SD-JWT use everywhere.
func b64(data []byte) string { return base64.RawURLEncoding.EncodeToString(data) }
