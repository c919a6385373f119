package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/credential"
)

// verifierPEM is a certificate and key naming host, both in one PEM (as the development one).
func verifierPEM(t *testing.T, host string) string {
	t.Helper()
	dir := t.TempDir()
	_, err := credential.EnsureDevVerifier(dir, host)
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, "verifier-dev-"+host+".pem"))
	require.NoError(t, err)
	return string(data)
}

func TestVerifierCertificateIsWiredAndCheckedAgainstThePublicHost(t *testing.T) {
	t.Parallel()
	pemData := verifierPEM(t, "perfilseguro.mx")
	wire := func(base, certPEM, keyPEM string) (*api.Deps, error) {
		a := &app{logger: slog.New(slog.DiscardHandler), cfg: config.Config{Env: config.EnvDevelopment,
			PublicBaseURL: base, DataDir: t.TempDir(), Verifier: config.Verifier{CertPEM: certPEM, KeyPEM: keyPEM}}}
		var d api.Deps
		return &d, a.wireCredentialsAPI(&d)
	}

	d, err := wire("https://PerfilSeguro.mx", pemData, pemData)
	require.NoError(t, err)
	require.NotNil(t, d.Verifier)
	require.Equal(t, "x509_san_dns:perfilseguro.mx", d.Verifier.ClientID())

	// Unset: no verifier at start (the API makes the development one when first asked).
	d, err = wire("http://localhost:8080", "", "")
	require.NoError(t, err)
	require.Nil(t, d.Verifier)
	require.NotNil(t, d.Credentials)

	// A certificate for another host, or a key of another certificate, stops the start.
	_, err = wire("https://verifica.perfilseguro.mx", pemData, pemData)
	require.ErrorContains(t, err, "VERIFIER_CERT_PEM")
	require.ErrorContains(t, err, "verifica.perfilseguro.mx")
	_, err = wire("https://perfilseguro.mx", pemData, verifierPEM(t, "perfilseguro.mx"))
	require.ErrorContains(t, err, "does not belong to the leaf certificate")
}
