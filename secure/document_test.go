package secure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLookupHashNormalisesAndSeparatesKeysAndKinds(t *testing.T) {
	t.Parallel()
	k := NewDocumentKey("key-one-0123456789abcdef0123456789")
	h := k.Hash(LookupCURP, "LOHJ880314MDFPRS09")
	require.Len(t, h, 64)
	require.Equal(t, h, k.Hash(LookupCURP, " lohj 880314mdfprs09\t"), "case and spaces do not matter")
	require.NotEqual(t, h, k.Hash(LookupCURP, "LOHJ880314MDFPRS08"), "another CURP")
	require.NotEqual(t, h, k.Hash(LookupDocumentNumber, "LOHJ880314MDFPRS09"), "another kind")
	require.NotEqual(t, h, NewDocumentKey("key-two-0123456789abcdef0123456789").Hash(LookupCURP, "LOHJ880314MDFPRS09"), "another key")
	require.NotContains(t, strings.ToUpper(h), "LOHJ")
	require.Equal(t, h, LookupHash(k.Lookup, LookupCURP, "lohj880314mdfprs09"))
}

func TestDocumentKeySealsUnderItsOwnLabel(t *testing.T) {
	t.Parallel()
	k := NewDocumentKey("secret-0123456789abcdef0123456789ab")
	require.True(t, k.Valid())
	require.False(t, DocumentKey{}.Valid())
	sealed := k.Sealer.Seal("IDMEX2031456789")
	require.NotContains(t, sealed, "IDMEX2031456789")
	got, err := k.Sealer.Open(sealed)
	require.NoError(t, err)
	require.Equal(t, "IDMEX2031456789", got)
	// The same secret used as SECRET_KEY's sealer does not open document data.
	_, err = NewSealer("secret-0123456789abcdef0123456789ab").Open(sealed)
	require.Error(t, err)
}

func TestTheDevelopmentDocumentKeyIsMadeOnceAndKept(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	first, err := EnsureDevDocumentKey(dir)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(first), 32)
	again, err := EnsureDevDocumentKey(dir)
	require.NoError(t, err)
	require.Equal(t, first, again, "a restart keeps the key, or sealed data would be lost")
	info, err := os.Stat(filepath.Join(dir, devDocumentKeyFile))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	other, err := EnsureDevDocumentKey(t.TempDir())
	require.NoError(t, err)
	require.NotEqual(t, first, other, "each data directory makes its own random key")

	require.NoError(t, os.WriteFile(filepath.Join(dir, devDocumentKeyFile), []byte("short\n"), 0o600))
	_, err = EnsureDevDocumentKey(dir)
	require.ErrorContains(t, err, "damaged")
}
