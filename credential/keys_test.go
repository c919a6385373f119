package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
)

func TestNewKeyThumbprint(t *testing.T) {
	t.Parallel()
	key := newTestKey(t)
	// RFC 7638 computed independently: the point taken from the key's X.509 encoding (a P-256
	// SubjectPublicKeyInfo ends with the 65-byte uncompressed point), members in lexicographic order.
	der, err := x509.MarshalPKIXPublicKey(&key.Private.PublicKey)
	require.NoError(t, err)
	point := der[len(der)-65:]
	require.Equal(t, byte(4), point[0])
	enc := base64.RawURLEncoding.EncodeToString
	x, y := enc(point[1:33]), enc(point[33:])
	sum := sha256.Sum256(fmt.Appendf(nil, `{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, x, y))
	require.Equal(t, enc(sum[:]), key.ID)

	jwk := PublicJWK(key)
	require.Equal(t, map[string]any{"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": key.ID, "alg": "ES256", "use": "sig"}, jwk)
}

func TestNewKeyRefusesOtherCurves(t *testing.T) {
	t.Parallel()
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	require.NoError(t, err)
	_, err = NewKey(p384)
	require.ErrorContains(t, err, "P-384")
	_, err = NewKey(nil)
	require.Error(t, err)
}

func TestParseKeysPEMKeepsOrder(t *testing.T) {
	t.Parallel()
	first, second := newTestKey(t), newTestKey(t)
	pkcs8, err := EncodeKeyPEM(first)
	require.NoError(t, err)
	sec1DER, err := x509.MarshalECPrivateKey(second.Private)
	require.NoError(t, err)
	sec1 := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1DER})

	keys, err := ParseKeysPEM(append(append([]byte{}, pkcs8...), sec1...))
	require.NoError(t, err)
	require.Len(t, keys, 2)
	require.Equal(t, first.ID, keys[0].ID)
	require.Equal(t, second.ID, keys[1].ID)
	require.True(t, first.Private.Equal(keys[0].Private))
}

func TestParseKeysPEMNamesTheBadBlock(t *testing.T) {
	t.Parallel()
	good, err := EncodeKeyPEM(newTestKey(t))
	require.NoError(t, err)
	broken := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not DER")})
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("x")})

	for label, input := range map[string][]byte{
		"broken second":  append(append([]byte{}, good...), broken...),
		"wrong type":     append(append([]byte{}, good...), cert...),
		"duplicate":      append(append([]byte{}, good...), good...),
		"trailing bytes": append(append([]byte{}, good...), []byte("garbage")...),
	} {
		_, err := ParseKeysPEM(input)
		require.ErrorContains(t, err, "block 2", label)
	}
	_, err = ParseKeysPEM(broken)
	require.ErrorContains(t, err, "block 1")
	_, err = ParseKeysPEM(nil)
	require.Error(t, err)
	_, err = ParseKeysPEM([]byte("  \n"))
	require.Error(t, err)
}

func TestKeyRotation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	old, fresh := f.key, newTestKey(t)
	earlier := f.issue(t)

	rotated := &Issuer{URL: issuerURL, Keys: []Key{fresh, old}, Now: f.issuer.Now}
	_, err := Verify(earlier, rotated.Keys, f.now)
	require.NoError(t, err, "a credential signed by the old key still verifies")

	later, err := rotated.Issue(f.subject)
	require.NoError(t, err)
	jwtPartOfLater, _ := parts(t, later)
	require.Equal(t, fresh.ID, jwtPart(t, jwtPartOfLater, 0)["kid"])
	_, err = Verify(later, rotated.Keys, f.now)
	require.NoError(t, err)
	_, err = Verify(later, []Key{old}, f.now)
	require.ErrorIs(t, err, ErrSignature)

	// What a wallet or verifier sees: the published JWKS (as JSON) verifies both credentials.
	published, err := json.Marshal(rotated.Metadata())
	require.NoError(t, err)
	var metadata struct {
		Issuer string `json:"issuer"`
		JWKS   struct {
			Keys []map[string]any `json:"keys"`
		} `json:"jwks"`
	}
	require.NoError(t, json.Unmarshal(published, &metadata))
	require.Equal(t, issuerURL, metadata.Issuer)
	require.Len(t, metadata.JWKS.Keys, 2)
	require.Equal(t, fresh.ID, metadata.JWKS.Keys[0]["kid"])
	require.Equal(t, old.ID, metadata.JWKS.Keys[1]["kid"])
	for _, sdjwt := range []string{earlier, later} {
		signed, _ := parts(t, sdjwt)
		requireVerifiesWithJWKS(t, signed, metadata.JWKS.Keys, f.now)
	}
}

// requireVerifiesWithJWKS checks a JWT with golang-jwt, finding the key in a published JWK Set by kid.
func requireVerifiesWithJWKS(t *testing.T, signed string, jwks []map[string]any, now time.Time) {
	t.Helper()
	_, err := jwt.Parse(signed, func(token *jwt.Token) (any, error) {
		for _, jwk := range jwks {
			if jwk["kid"] == token.Header["kid"] {
				return publicKeyFromJWK(t, jwk), nil
			}
		}
		return nil, fmt.Errorf("kid %v not published", token.Header["kid"])
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithTimeFunc(func() time.Time { return now }))
	require.NoError(t, err)
}

// publicKeyFromJWK rebuilds a P-256 public key from the JWK's x and y.
func publicKeyFromJWK(t *testing.T, jwk map[string]any) *ecdsa.PublicKey {
	t.Helper()
	x, err := base64.RawURLEncoding.DecodeString(jwk["x"].(string))
	require.NoError(t, err)
	y, err := base64.RawURLEncoding.DecodeString(jwk["y"].(string))
	require.NoError(t, err)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	require.NoError(t, err)
	return pub
}
