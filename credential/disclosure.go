package credential

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// sdAlg is the only digest algorithm this package writes or reads (_sd_alg).
const sdAlg = "sha-256"

// saltBytes is the salt length: RFC 9901 §9.3 recommends 128 bits.
const saltBytes = 16

// disclosure is a decoded Disclosure: [salt, name, value] for an object property, [salt, value] for an array element.
type disclosure struct {
	name    string
	value   any
	element bool // an array element: no name
}

// newDisclosure makes the Disclosure for one object property with a fresh random salt.
func newDisclosure(name string, value any) (string, error) {
	salt, err := randomB64(saltBytes)
	if err != nil {
		return "", err
	}
	return disclosureWithSalt(salt, name, value)
}

// disclosureWithSalt makes the Disclosure [salt, name, value]; fixed salts are for test vectors.
func disclosureWithSalt(salt, name string, value any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & as themselves; the JSON is the same either way
	if err := enc.Encode([]any{salt, name, value}); err != nil {
		return "", fmt.Errorf("disclosure %q: %w", name, err)
	}
	return encodeDisclosureJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// encodeDisclosureJSON is the Disclosure for already serialized JSON: RFC 9901 hashes the
// exact string, so any JSON spelling (spaces included) is valid.
func encodeDisclosureJSON(raw []byte) string { return b64(raw) }

// digest is the _sd digest of a Disclosure: base64url(SHA-256(the ASCII Disclosure string)).
func digest(encoded string) string {
	sum := sha256.Sum256([]byte(encoded))
	return b64(sum[:])
}

// decoyDigest is a digest of random data, indistinguishable from a real one (RFC 9901 §4.2.5).
func decoyDigest() (string, error) {
	random, err := randomB64(saltBytes)
	if err != nil {
		return "", err
	}
	return digest(random), nil
}

// parseDisclosure decodes a Disclosure string.
func parseDisclosure(encoded string) (disclosure, error) {
	raw, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return disclosure{}, fmt.Errorf("%w: disclosure is not base64url: %v", ErrDisclosure, err)
	}
	var parts []any
	if err := json.Unmarshal(raw, &parts); err != nil {
		return disclosure{}, fmt.Errorf("%w: disclosure is not a JSON array: %v", ErrDisclosure, err)
	}
	if len(parts) > 0 {
		if _, ok := parts[0].(string); !ok {
			return disclosure{}, fmt.Errorf("%w: disclosure salt is not a string", ErrDisclosure)
		}
	}
	switch len(parts) {
	case 2:
		return disclosure{value: parts[1], element: true}, nil
	case 3:
		name, ok := parts[1].(string)
		if !ok || name == "_sd" || name == "..." {
			return disclosure{}, fmt.Errorf("%w: disclosure claim name %v is not allowed", ErrDisclosure, parts[1])
		}
		return disclosure{name: name, value: parts[2]}, nil
	default:
		return disclosure{}, fmt.Errorf("%w: disclosure has %d elements, want 2 or 3", ErrDisclosure, len(parts))
	}
}

// randomB64 is n random bytes, base64url.
func randomB64(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return b64(b), nil
}
