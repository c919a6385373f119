// Package devfiles writes the development material (certificates, keys) that processes
// generate on first run, safely when several processes start at once.
package devfiles

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteOnce stores data at path (mode 0600) unless the file already exists, and returns what
// the file holds: a process that loses the race reads the winner's data. The data goes to a
// private temp file first and is hard-linked into place, since a link, unlike a rename, fails
// when the target exists.
func WriteOnce(path string, data []byte) ([]byte, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".dev-*.tmp") // mode 0600
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return os.ReadFile(path)
		}
		return nil, err
	}
	return data, nil
}
