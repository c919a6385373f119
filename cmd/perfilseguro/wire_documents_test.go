package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

func TestTheAPIAndTheWorkerShareOneDocumentKey(t *testing.T) {
	t.Parallel()
	// Development: both sides take the key generated once in DATA_DIR, so what the API seals the
	// worker opens.
	dir := t.TempDir()
	a := &app{cfg: config.Config{Env: config.EnvDevelopment, DataDir: dir}}
	var ad api.Deps
	var wd worker.Deps
	require.NoError(t, a.wireDocumentsAPI(&ad))
	require.NoError(t, a.wireDocumentsWorker(&wd))
	require.True(t, ad.Documents.Valid())
	sealed := ad.Documents.Sealer.Seal("LOHJ880314MDFPRS09")
	opened, err := wd.Documents.Sealer.Open(sealed)
	require.NoError(t, err)
	require.Equal(t, "LOHJ880314MDFPRS09", opened)
	_, err = os.Stat(filepath.Join(dir, "document-data.key"))
	require.NoError(t, err, "kept for the next start")

	// DOCUMENT_DATA_KEY wins over the development key.
	set := &app{cfg: config.Config{Env: config.EnvDevelopment, DataDir: dir, DocumentDataKey: "configured-key-0123456789abcdef0123456789"}}
	require.NoError(t, set.wireDocumentsAPI(&ad))
	want := secure.NewDocumentKey("configured-key-0123456789abcdef0123456789")
	require.Equal(t, want.Hash(secure.LookupCURP, "X"), ad.Documents.Hash(secure.LookupCURP, "X"))
	_, err = ad.Documents.Sealer.Open(sealed)
	require.Error(t, err, "another key")

	// Production never makes one.
	prod := &app{cfg: config.Config{Env: config.EnvProduction, DataDir: t.TempDir()}}
	require.ErrorContains(t, prod.wireDocumentsWorker(&wd), "DOCUMENT_DATA_KEY")
}
