// Package bintest builds the perfilseguro binary for tests and benchmarks that run it as real
// processes (the fault tests, the sign-in pipeline benchmark).
package bintest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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

// FreePort asks the kernel for a loopback port nobody listens on.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("bintest: free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// FreeAddr is a loopback address (host:port) nobody listens on yet.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", FreePort(t))
}

// WaitTCP waits up to 20 s for something to listen on a loopback port.
func WaitTCP(t testing.TB, port int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("bintest: port %d never opened", port)
}

// LastLines is the end of a process's output, for a failure message.
func LastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
