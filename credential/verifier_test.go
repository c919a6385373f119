package credential

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
)

func TestTheDevVerifierIsMadeOnceAndSignsWithItsCertificate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	v, err := EnsureDevVerifier(dir, "localhost")
	require.NoError(t, err)
	require.Equal(t, "x509_san_dns:localhost", v.ClientID())
	info, err := os.Stat(filepath.Join(dir, "verifier-dev-localhost.pem"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	again, err := EnsureDevVerifier(dir, "localhost")
	require.NoError(t, err)
	require.True(t, again.Key.Equal(v.Key), "the second run reads the first one's")
	other, err := EnsureDevVerifier(dir, "perfilseguro.test")
	require.NoError(t, err)
	require.False(t, other.Key.Equal(v.Key), "each host its own certificate")

	signed, err := v.SignRequestObject(map[string]any{"client_id": v.ClientID(), "nonce": "n"})
	require.NoError(t, err)
	tok, err := jwt.Parse(signed, func(tok *jwt.Token) (any, error) {
		x5c := tok.Header["x5c"].([]any)
		der, err := base64.StdEncoding.DecodeString(x5c[0].(string))
		require.NoError(t, err)
		cert, err := x509.ParseCertificate(der)
		require.NoError(t, err)
		require.Equal(t, []string{"localhost"}, cert.DNSNames)
		return cert.PublicKey.(*ecdsa.PublicKey), nil
	}, jwt.WithValidMethods([]string{"ES256"}))
	require.NoError(t, err)
	require.Equal(t, "oauth-authz-req+jwt", tok.Header["typ"])
	require.Equal(t, "x509_san_dns:localhost", tok.Claims.(jwt.MapClaims)["client_id"])

	// A certificate for another host, a key of another certificate, a damaged file: refused.
	pemData, err := os.ReadFile(filepath.Join(dir, "verifier-dev-localhost.pem"))
	require.NoError(t, err)
	_, err = NewVerifier(pemData, pemData, "perfilseguro.mx")
	require.Error(t, err)
	otherPEM, err := os.ReadFile(filepath.Join(dir, "verifier-dev-perfilseguro.test.pem"))
	require.NoError(t, err)
	_, err = NewVerifier(pemData, otherPEM, "localhost")
	require.Error(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "verifier-dev-roto.pem"), []byte("no es PEM"), 0o600))
	_, err = EnsureDevVerifier(dir, "roto")
	require.ErrorContains(t, err, "damaged")
	_, err = EnsureDevVerifier(dir, "../fuera")
	require.Error(t, err)
}
