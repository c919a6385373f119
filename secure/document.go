package secure

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// DocumentKey protects the personal data read from identity documents (CONVENTIONS 15): Sealer
// encrypts the CURP, the document number and the raw decision's personal fields (AES-256-GCM);
// Lookup keys the hashes stored beside them, so that "one ID, one profile" can find a document
// without decrypting anything. Both derive from DOCUMENT_DATA_KEY, each under its own label.
type DocumentKey struct {
	Sealer Sealer // seals and opens document fields
	Lookup []byte // the HMAC key of LookupHash
}

// NewDocumentKey derives the sealer and the lookup key from secret (DOCUMENT_DATA_KEY).
func NewDocumentKey(secret string) DocumentKey {
	lookup := sha256.Sum256([]byte("document-lookup:" + secret))
	return DocumentKey{Sealer: NewSealer("document-data:" + secret), Lookup: lookup[:]}
}

// Valid reports whether the key was made by NewDocumentKey.
func (k DocumentKey) Valid() bool { return k.Sealer.Valid() && len(k.Lookup) > 0 }

// Hash is LookupHash under this key.
func (k DocumentKey) Hash(kind, value string) string { return LookupHash(k.Lookup, kind, value) }

// Lookup-hash kinds: the same value under two kinds hashes differently.
const (
	LookupCURP           = "curp"
	LookupDocumentNumber = "document_number" // value: the issuing country, ":" and the number
)

// LookupHash is the keyed hash (hex HMAC-SHA256) stored beside an encrypted identifier, for
// equality lookups. The value is normalised first (upper case, no spaces or other white space)
// so that "lohj 880314mdfprs09" and "LOHJ880314MDFPRS09" find the same row; kind keeps CURPs
// and document numbers apart.
func LookupHash(key []byte, kind, value string) string {
	m := hmac.New(sha256.New, key)
	io.WriteString(m, kind+"\x00"+NormalizeIdentifier(value))
	return hex.EncodeToString(m.Sum(nil))
}

// NormalizeIdentifier is an identifier as LookupHash compares it: upper case, white space removed.
func NormalizeIdentifier(v string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, v)
}

// devDocumentKeyFile is where the development DOCUMENT_DATA_KEY is kept, in DATA_DIR.
const devDocumentKeyFile = "document-data.key"

// EnsureDevDocumentKey returns the development document-data key kept in dir, generating it on
// first use (0600, written whole under a temporary name and linked into place, so that two
// processes starting together agree on one key). Production never calls it: config refuses a
// missing DOCUMENT_DATA_KEY there.
func EnsureDevDocumentKey(dir string) (string, error) {
	path := filepath.Join(dir, devDocumentKeyFile)
	if key, err := readDevDocumentKey(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("development document key: create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, devDocumentKeyFile+".*")
	if err != nil {
		return "", fmt.Errorf("development document key: %w", err)
	}
	defer os.Remove(tmp.Name())
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	if _, err := tmp.WriteString(hex.EncodeToString(b) + "\n"); err != nil {
		tmp.Close()
		return "", fmt.Errorf("development document key: write: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("development document key: link %s: %w", path, err)
	}
	// Whatever is in place now: ours, or the key of a process that linked first.
	return readDevDocumentKey(path)
}

func readDevDocumentKey(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("development document key: read %s: %w", path, err)
	}
	key := strings.TrimSpace(string(data))
	if len(key) < 32 {
		return "", fmt.Errorf("development document key: %s is damaged (delete it to make a new one; data sealed with it is lost)", path)
	}
	return key, nil
}
