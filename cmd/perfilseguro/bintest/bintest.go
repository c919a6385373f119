// Package bintest builds the perfilseguro binary for tests and benchmarks that run it as real
// processes (the fault tests, the sign-in pipeline benchmark).
package bintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once sync.Once
	path string
	err  error
)

// Path builds perfilseguro once per test binary and returns where it is.
func Path(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir, mkErr := os.MkdirTemp("", "perfilseguro-bin")
		if mkErr != nil {
			err = mkErr
			return
		}
		path = filepath.Join(dir, "perfilseguro")
		if out, buildErr := exec.Command("go", "build", "-o", path, "github.com/perfilseguro/perfilseguro/cmd/perfilseguro").CombinedOutput(); buildErr != nil {
			err = fmt.Errorf("go build: %v\n%s", buildErr, out)
		}
	})
	if err != nil {
		t.Fatalf("bintest: %v", err)
	}
	return path
}
