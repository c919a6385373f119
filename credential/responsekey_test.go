package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"
)

// encryptTo encrypts payload as a wallet does: to the published JWK, with its alg and kid.
func encryptTo(t *testing.T, jwk map[string]any, enc jose.ContentEncryption, payload any) string {
	t.Helper()
	raw, err := json.Marshal(jwk)
	require.NoError(t, err)
	var pub jose.JSONWebKey
	require.NoError(t, pub.UnmarshalJSON(raw))
	e, err := jose.NewEncrypter(enc, jose.Recipient{Algorithm: jose.KeyAlgorithm(jwk["alg"].(string)), Key: pub.Key, KeyID: pub.KeyID},
		(&jose.EncrypterOptions{}).WithType("oauth-authz-resp+jwt"))
	require.NoError(t, err)
	body, err := json.Marshal(payload)
	require.NoError(t, err)
	obj, err := e.Encrypt(body)
	require.NoError(t, err)
	out, err := obj.CompactSerialize()
	require.NoError(t, err)
	return out
}

func TestAResponseEncryptedToTheRequestKeyDecrypts(t *testing.T) {
	t.Parallel()
	key, err := NewResponseKey()
	require.NoError(t, err)
	pub := key.PublicJWK()
	require.Equal(t, "ECDH-ES", pub["alg"])
	require.Equal(t, "enc", pub["use"])
	require.Equal(t, key.ID, pub["kid"])
	require.NotContains(t, pub, "d")

	// The private JWK round-trips (it is stored sealed between request and answer).
	stored, err := key.PrivateJWK()
	require.NoError(t, err)
	again, err := ParseResponseKey(stored)
	require.NoError(t, err)
	require.Equal(t, key.ID, again.ID)

	for _, enc := range []jose.ContentEncryption{jose.A128GCM, jose.A256GCM} {
		jwe := encryptTo(t, pub, enc, map[string]any{"vp_token": map[string]any{"q": []string{"x~"}}, "state": "s"})
		params, err := again.Decrypt(jwe)
		require.NoError(t, err, enc)
		require.Equal(t, "s", params["state"])
	}

	// Another key, another enc, another alg, garbage: refused.
	other, err := NewResponseKey()
	require.NoError(t, err)
	_, err = other.Decrypt(encryptTo(t, pub, jose.A128GCM, map[string]any{}))
	require.ErrorIs(t, err, ErrResponse, "the kid names another key")
	unnamed := other.PublicJWK()
	delete(unnamed, "kid")
	_, err = key.Decrypt(encryptTo(t, unnamed, jose.A128GCM, map[string]any{}))
	require.ErrorIs(t, err, ErrResponse, "encrypted to another key")
	_, err = key.Decrypt(encryptTo(t, pub, jose.A128CBC_HS256, map[string]any{}))
	require.ErrorIs(t, err, ErrResponse, "enc not offered")
	kw := map[string]any{}
	for k, v := range pub {
		kw[k] = v
	}
	kw["alg"] = "ECDH-ES+A128KW"
	_, err = key.Decrypt(encryptTo(t, kw, jose.A128GCM, map[string]any{}))
	require.ErrorIs(t, err, ErrResponse, "alg not offered")
	_, err = key.Decrypt(encryptTo(t, pub, jose.A128GCM, []string{"not an object"}))
	require.ErrorIs(t, err, ErrResponse)
	_, err = key.Decrypt("a.b.c.d.e")
	require.ErrorIs(t, err, ErrResponse)

	// Only P-256 keys are made or read.
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	require.NoError(t, err)
	raw, err := jose.JSONWebKey{Key: p384}.MarshalJSON()
	require.NoError(t, err)
	_, err = ParseResponseKey(raw)
	require.Error(t, err)
	_, err = ParseResponseKey([]byte(`{"kty":"oct","k":"` + base64.RawURLEncoding.EncodeToString([]byte("0123456789abcdef")) + `"}`))
	require.Error(t, err)
}
