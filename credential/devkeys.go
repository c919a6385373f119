package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// devKeyFile is the file, inside the directory given to EnsureDevKeys, that keeps the development key.
const devKeyFile = "credential-dev-key.pem"

// EnsureDevKeys returns the development key kept in dir/credential-dev-key.pem (0600), creating it
// on first run. Processes starting together race safely: each writes a complete temporary file and
// hard-links it into place, so the name only ever points at a whole key; the losers read the
// winner's. A damaged file is reported, never replaced, so a real key is not overwritten by mistake.
func EnsureDevKeys(dir string) ([]Key, error) { return ensureDevKeys(dir, nil) }

// ensureDevKeys is EnsureDevKeys with a hook run just before the link, where tests play the rival process.
func ensureDevKeys(dir string, beforeLink func(path string)) ([]Key, error) {
	path := filepath.Join(dir, devKeyFile)
	keys, err := readDevKeys(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return keys, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dev key: create %s: %w", dir, err)
	}
	tmp, err := writeNewDevKey(dir)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp) // the link (if any) keeps the content; the temporary name goes either way
	if beforeLink != nil {
		beforeLink(path)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("dev key: link %s: %w", path, err)
	}
	// Read back whatever is in place: ours, or the key of a process that linked first.
	return readDevKeys(path)
}

// readDevKeys loads the dev key file; a missing file is returned as fs.ErrNotExist.
func readDevKeys(path string) ([]Key, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dev key: read %s: %w", path, err)
	}
	keys, err := ParseKeysPEM(data)
	if err != nil {
		return nil, fmt.Errorf("dev key: %s is damaged (fix or delete it): %w", path, err)
	}
	return keys, nil
}

// writeNewDevKey generates a P-256 key into a complete, synced 0600 temporary file in dir and returns its path.
func writeNewDevKey(dir string) (string, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", fmt.Errorf("dev key: generate: %w", err)
	}
	key, err := NewKey(priv)
	if err != nil {
		return "", fmt.Errorf("dev key: %w", err)
	}
	data, err := EncodeKeyPEM(key)
	if err != nil {
		return "", fmt.Errorf("dev key: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+devKeyFile+".*.tmp") // CreateTemp makes the file 0600
	if err != nil {
		return "", fmt.Errorf("dev key: temporary file: %w", err)
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("dev key: write %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}
