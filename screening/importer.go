package screening

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// ImportResult is what one import did.
type ImportResult struct {
	ListID    int64  // screening_lists.id
	VersionID int64  // the latest version after the import
	Version   int    // its number
	Created   bool   // false: the file was identical to the latest version, nothing was added
	Entries   int    // entries in that version
	SHA256    string // the file's checksum
}

// Store keeps list versions (postgres.Store implements it).
type Store interface {
	// ImportScreeningList stores l as a new version of the list (owner, l.Kind, l.Name,
	// testMode) in one transaction, creating the list on its first import; a file identical to
	// the latest version (same SHA-256) adds nothing and reports Created false. owner 0 is a
	// public list.
	ImportScreeningList(ctx context.Context, owner int64, testMode bool, l List) (ImportResult, error)
}

// SourceEnv is the environment variable naming where the UN list is read from: a file path, an
// http(s) URL (the UN publishes https://scsanctions.un.org/resources/xml/en/consolidated.xml),
// or FixtureSource.
const SourceEnv = "UN_LIST_SOURCE"

// DefaultUNSource is the source when UN_LIST_SOURCE is unset: the fixture in development and
// test, nothing in production (the import then refuses to run rather than screen against the
// fixture).
func DefaultUNSource(production bool) string {
	if production {
		return ""
	}
	return FixtureSource
}

// maxListBytes bounds a downloaded list; the real consolidated.xml is a few megabytes.
const maxListBytes = 64 << 20

// httpClient fetches a list by URL.
var httpClient = &http.Client{Timeout: 2 * time.Minute}

// ImportUNList reads the UN Security Council Consolidated List from source (see SourceEnv),
// parses it and stores it as the public, live UN list's new version, unless it is identical to
// the latest. A scheduler job calls it; it is safe to run twice.
func ImportUNList(ctx context.Context, store Store, source string) (ImportResult, error) {
	return importUN(ctx, store, source, false)
}

// ImportTestModeUNList stores the embedded fixture as the UN list test keys screen against,
// so that nothing test reaches the live list (identical re-imports add nothing).
func ImportTestModeUNList(ctx context.Context, store Store) (ImportResult, error) {
	return importUN(ctx, store, FixtureSource, true)
}

func importUN(ctx context.Context, store Store, source string, testMode bool) (ImportResult, error) {
	if strings.TrimSpace(source) == "" {
		return ImportResult{}, fmt.Errorf("import UN list: no source configured (%s)", SourceEnv)
	}
	data, err := readSource(ctx, source)
	if err != nil {
		return ImportResult{}, fmt.Errorf("import UN list: %w", err)
	}
	l, err := ParseUNList(data, source)
	if err != nil {
		return ImportResult{}, fmt.Errorf("import UN list from %s: %w", source, err)
	}
	res, err := store.ImportScreeningList(ctx, 0, testMode, l)
	if err != nil {
		return ImportResult{}, fmt.Errorf("import UN list: %w", err)
	}
	return res, nil
}

func readSource(ctx context.Context, source string) ([]byte, error) {
	switch {
	case source == FixtureSource:
		return FixtureUNList(), nil
	case strings.HasPrefix(source, "https://"), strings.HasPrefix(source, "http://"):
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, source, nil)
		if err != nil {
			return nil, fmt.Errorf("list URL: %w", err)
		}
		resp, err := httpClient.Do(req)
		if err != nil {
			return nil, fmt.Errorf("download list: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("download list: HTTP %d", resp.StatusCode)
		}
		return readBounded(resp.Body)
	default:
		f, err := os.Open(source)
		if err != nil {
			return nil, fmt.Errorf("open list file: %w", err)
		}
		defer f.Close()
		return readBounded(f)
	}
}

func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read list: %w", err)
	}
	if len(data) > maxListBytes {
		return nil, fmt.Errorf("read list: larger than %d bytes", maxListBytes)
	}
	return data, nil
}

// ImportUpload reads a list a business uploaded (ReadUpload) and stores it as the new version of
// that partner's list named listName. A malformed file returns the *UploadError and stores
// nothing.
func ImportUpload(ctx context.Context, store Store, owner int64, testMode bool, data []byte, fileName, listName string, m ColumnMapping) (ImportResult, error) {
	l, err := ReadUpload(data, fileName, listName, m)
	if err != nil {
		return ImportResult{}, err
	}
	return store.ImportScreeningList(ctx, owner, testMode, l)
}
