package devfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFirstWriterWinsForEveryone(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "key.pem")
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := WriteOnce(path, []byte(fmt.Sprintf("writer %d", i)))
			require.NoError(t, err)
			got[i] = b
		}()
	}
	wg.Wait()
	onDisk, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, b := range got {
		require.Equal(t, onDisk, b)
	}
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".dev-*.tmp"))
	require.Empty(t, left, "temp files are removed")
}
