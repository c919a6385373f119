package credential

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
)

// signSelf signs claims with key, its public JWK in the header, as a wallet does.
func signSelf(t *testing.T, key Key, typ string, claims jwt.MapClaims, header map[string]any) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	jwk := PublicJWK(key)
	delete(jwk, "kid")
	tok.Header["typ"], tok.Header["jwk"] = typ, jwk
	for k, v := range header {
		if v == nil {
			delete(tok.Header, k)
		} else {
			tok.Header[k] = v
		}
	}
	s, err := tok.SignedString(key.Private)
	require.NoError(t, err)
	return s
}

func TestKeyProofsAreCheckedAndGiveTheWalletKey(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	wallet := newTestKey(t)
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"aud": issuerURL, "iat": now.Unix(), "nonce": "n-1"}
		if change != nil {
			change(c)
		}
		return c
	}
	got, err := VerifyKeyProof(signSelf(t, wallet, typKeyProof, claims(nil), nil), issuerURL, now)
	require.NoError(t, err)
	require.Equal(t, wallet.ID, got.Key.Thumbprint, "the RFC 7638 thumbprint, as the issuer's own kid")
	require.Equal(t, "n-1", got.Nonce)
	require.Equal(t, map[string]any{"kty": "EC", "crv": "P-256", "x": PublicJWK(wallet)["x"], "y": PublicJWK(wallet)["y"]}, got.Key.JWK)

	other := newTestKey(t)
	otherJWK := PublicJWK(other)
	privateJWK := PublicJWK(wallet)
	privateJWK["d"] = "c2VjcmV0"
	for name, proof := range map[string]string{
		"typ":         signSelf(t, wallet, "JWT", claims(nil), nil),
		"aud":         signSelf(t, wallet, typKeyProof, claims(func(c jwt.MapClaims) { c["aud"] = "https://otro.example" }), nil),
		"no aud":      signSelf(t, wallet, typKeyProof, claims(func(c jwt.MapClaims) { delete(c, "aud") }), nil),
		"stale iat":   signSelf(t, wallet, typKeyProof, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(-6 * time.Minute).Unix() }), nil),
		"future iat":  signSelf(t, wallet, typKeyProof, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(2 * time.Minute).Unix() }), nil),
		"no iat":      signSelf(t, wallet, typKeyProof, claims(func(c jwt.MapClaims) { delete(c, "iat") }), nil),
		"kid too":     signSelf(t, wallet, typKeyProof, claims(nil), map[string]any{"kid": "k1"}),
		"no jwk":      signSelf(t, wallet, typKeyProof, claims(nil), map[string]any{"jwk": nil}),
		"private jwk": signSelf(t, wallet, typKeyProof, claims(nil), map[string]any{"jwk": privateJWK}),
		"other key":   signSelf(t, wallet, typKeyProof, claims(nil), map[string]any{"jwk": otherJWK}),
		"not a JWT":   "abc.def",
		"alg none":    "eyJhbGciOiJub25lIiwidHlwIjoib3BlbmlkNHZjaS1wcm9vZitqd3QifQ.eyJhdWQiOiJodHRwczovL3BlcmZpbHNlZ3Vyby5teCJ9.",
	} {
		_, err := VerifyKeyProof(proof, issuerURL, now)
		require.ErrorIs(t, err, ErrProof, name)
	}
}

func TestDPoPProofsBindMethodURLAndToken(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	wallet := newTestKey(t)
	const url = "https://perfilseguro.mx/api/oid4vci/credential"
	sum := sha256.Sum256([]byte("token-1"))
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"htm": "POST", "htu": "https://PerfilSeguro.mx/api/oid4vci/credential?x=1", "iat": now.Unix(),
			"jti": "j-1", "ath": b64(sum[:])}
		if change != nil {
			change(c)
		}
		return c
	}
	got, err := VerifyDPoP(signSelf(t, wallet, typDPoP, claims(nil), nil), "POST", url, "token-1", now)
	require.NoError(t, err, "host case and query do not matter")
	require.Equal(t, wallet.ID, got.Key.Thumbprint)
	require.Equal(t, "j-1", got.JTI)
	_, err = VerifyDPoP(signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { delete(c, "ath") }), nil), "POST", url, "", now)
	require.NoError(t, err, "no ath before there is a token")

	for name, proof := range map[string]string{
		"typ":   signSelf(t, wallet, typKeyProof, claims(nil), nil),
		"htm":   signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { c["htm"] = "GET" }), nil),
		"htu":   signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { c["htu"] = "https://perfilseguro.mx/api/oid4vci/token" }), nil),
		"jti":   signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { delete(c, "jti") }), nil),
		"ath":   signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { c["ath"] = "otro" }), nil),
		"stale": signSelf(t, wallet, typDPoP, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(-time.Hour).Unix() }), nil),
	} {
		_, err := VerifyDPoP(proof, "POST", url, "token-1", now)
		require.ErrorIs(t, err, ErrProof, name)
	}
}

func TestHolderJWKMustBeAPublicP256Point(t *testing.T) {
	t.Parallel()
	jwk := PublicJWK(newTestKey(t))
	_, err := ParseHolderJWK(jwk)
	require.NoError(t, err)
	offCurve := map[string]any{"kty": "EC", "crv": "P-256", "x": jwk["x"], "y": jwk["x"]}
	_, err = ParseHolderJWK(offCurve)
	require.ErrorIs(t, err, ErrHolderKey)
	_, err = ParseHolderJWK(map[string]any{"kty": "EC", "crv": "P-384", "x": jwk["x"], "y": jwk["y"]})
	require.ErrorIs(t, err, ErrHolderKey)
}

func TestCredentialConfigurationMatchesTheTypeMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	conf := f.issuer.CredentialConfiguration(issuerURL + "/logo.svg")
	require.Equal(t, "dc+sd-jwt", conf["format"])
	require.Equal(t, f.issuer.VCT(), conf["vct"])
	meta := conf["credential_metadata"].(map[string]any)
	display := meta["display"].([]map[string]any)
	require.Equal(t, "es-MX", display[0]["locale"])
	claims := meta["claims"].([]map[string]any)
	typeClaims := f.issuer.TypeMetadata()["claims"].([]map[string]any)
	require.Len(t, claims, len(typeClaims))
	for n, c := range claims {
		require.Equal(t, typeClaims[n]["path"], c["path"])
		label := typeClaims[n]["display"].([]map[string]any)[0]["label"]
		require.Equal(t, []map[string]any{{"name": label, "locale": "es-MX"}}, c["display"])
	}
}
