package applewallet_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/applewallet"
)

func TestEnsureDevCertificatesConcurrentFirstRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "certs")
	const n = 8
	type material struct{ cert, key, wwdr []byte }
	got := make([]material, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			got[i].cert, got[i].key, got[i].wwdr, errs[i] = applewallet.EnsureDevCertificates(dir)
		})
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		require.Equal(t, got[0], got[i], "every caller gets the same chain")
	}

	again := material{}
	var err error
	again.cert, again.key, again.wwdr, err = applewallet.EnsureDevCertificates(dir)
	require.NoError(t, err)
	require.Equal(t, got[0], again, "later runs reuse the chain")

	info, err := os.Stat(filepath.Join(dir, applewallet.DevBundleFile))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "bundle holds the key")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "bundle and root only, no temporary files left")

	leaf := parseCert(t, got[0].cert)
	require.Equal(t, "Pass Type ID: pass.mx.perfilseguro.dev", leaf.Subject.CommonName)
	require.Equal(t, "Perfil Seguro DEV WWDR", leaf.Issuer.CommonName)
	root := parseCert(t, mustRead(t, filepath.Join(dir, applewallet.DevRootFile)))
	require.Equal(t, "Perfil Seguro DEV Root", root.Subject.CommonName)
	require.NoError(t, parseCert(t, got[0].wwdr).CheckSignatureFrom(root))
}

func TestEnsureDevCertificatesReportsDamage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, applewallet.DevBundleFile), []byte("garbage"), 0o600))
	_, _, _, err := applewallet.EnsureDevCertificates(dir)
	require.ErrorContains(t, err, "damaged")
}

func TestLoadConfigFromPEMAcceptsBase64AndDerivesIDs(t *testing.T) {
	t.Parallel()
	certPEM, keyPEM, wwdrPEM, err := applewallet.EnsureDevCertificates(t.TempDir())
	require.NoError(t, err)
	b64 := func(b []byte) []byte { return []byte(base64.StdEncoding.EncodeToString(b)) }

	cfg, err := applewallet.LoadConfigFromPEM(b64(certPEM), b64(keyPEM), wwdrPEM, "", "")
	require.NoError(t, err)
	require.Equal(t, applewallet.DevPassTypeIdentifier, cfg.PassTypeIdentifier)
	require.Equal(t, applewallet.DevTeamIdentifier, cfg.TeamIdentifier)
	_, err = applewallet.New(cfg)
	require.NoError(t, err)

	cfg, err = applewallet.LoadConfigFromPEM(certPEM, keyPEM, wwdrPEM, "pass.mx.other", "TEAM")
	require.NoError(t, err)
	require.Equal(t, "pass.mx.other", cfg.PassTypeIdentifier)
	require.Equal(t, "TEAM", cfg.TeamIdentifier)

	_, err = applewallet.LoadConfigFromPEM(certPEM, []byte("not a key"), wwdrPEM, "", "")
	require.Error(t, err)
	_, err = applewallet.LoadConfigFromPEM(nil, keyPEM, wwdrPEM, "", "")
	require.Error(t, err)
}
