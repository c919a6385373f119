package credential

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnsureDevKeysCreatesOnce(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")

	first, err := EnsureDevKeys(dir)
	require.NoError(t, err)
	require.Len(t, first, 1)
	info, err := os.Stat(filepath.Join(dir, "credential-dev-key.pem"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	second, err := EnsureDevKeys(dir)
	require.NoError(t, err)
	require.Equal(t, first[0].ID, second[0].ID)
	require.True(t, first[0].Private.Equal(second[0].Private))

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary files left behind")
}

func TestEnsureDevKeysConcurrentStartAgrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for n := range ids {
		wg.Go(func() {
			keys, err := EnsureDevKeys(dir)
			if assert.NoError(t, err) && assert.Len(t, keys, 1) {
				ids[n] = keys[0].ID
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		require.Equal(t, ids[0], id)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

func TestEnsureDevKeysReportsDamagedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "credential-dev-key.pem")
	require.NoError(t, os.WriteFile(path, []byte("-----BEGIN PRIVATE KEY-----\ntruncated"), 0o600))

	_, err := EnsureDevKeys(dir)
	require.ErrorContains(t, err, "damaged")
	content, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "-----BEGIN PRIVATE KEY-----\ntruncated", string(content), "not replaced")
}

func TestEnsureDevKeysLosingTheRaceReadsTheWinner(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	winner := newTestKey(t)
	winnerPEM, err := EncodeKeyPEM(winner)
	require.NoError(t, err)

	keys, err := ensureDevKeys(dir, func(path string) {
		// Another process links its key in between our check and our link.
		require.NoError(t, os.WriteFile(path, winnerPEM, 0o600))
	})
	require.NoError(t, err)
	require.Len(t, keys, 1)
	require.Equal(t, winner.ID, keys[0].ID)
	content, err := os.ReadFile(filepath.Join(dir, "credential-dev-key.pem"))
	require.NoError(t, err)
	require.Equal(t, winnerPEM, content, "the winner's file is not overwritten")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "our temporary file is removed")
}
