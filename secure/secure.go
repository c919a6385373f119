// Package secure makes and checks the secrets of the product: one-time codes, random tokens
// and their stored hashes. Only hashes ever reach the database.
package secure

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
)

// NewCode returns a 6-digit one-time code from a cryptographic source.
func NewCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// NewToken returns nbytes of randomness as hex (2*nbytes characters).
func NewToken(nbytes int) string {
	b := make([]byte, nbytes)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// RandomString returns n characters drawn uniformly from alphabet (one byte each) from a
// cryptographic source: invitation codes, simulated provider ids.
func RandomString(alphabet string, n int) string {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err)
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

// IsToken reports whether v looks like a token NewToken(nbytes) made: 2*nbytes lowercase hex
// characters. Check it before a lookup, so that junk never reaches the database.
func IsToken(v string, nbytes int) bool {
	if len(v) != 2*nbytes {
		return false
	}
	for _, c := range v {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// HashToken is the stored form of a high-entropy token (SHA-256 hex, 64 characters).
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Coder hashes one-time codes with a server secret; a 6-digit space needs a keyed hash.
type Coder struct{ key []byte }

// NewCoder keys the code hash with secret.
func NewCoder(secret string) Coder { return Coder{key: []byte("otp:" + secret)} }

// Hash binds a code to the phone or e-mail it is sent to, so that equal codes sent to different
// people hash differently. (Not to the user id: sign-in stores the code in the same statement
// that finds the user, so the id is not known when the hash is made.)
func (c Coder) Hash(destination, code string) string {
	m := hmac.New(sha256.New, c.key)
	io.WriteString(m, destination+"\x00"+code)
	return hex.EncodeToString(m.Sum(nil))
}

// Matches compares in constant time.
func (c Coder) Matches(destination, code, storedHash string) bool {
	return hmac.Equal([]byte(c.Hash(destination, code)), []byte(storedHash))
}

// Sealer encrypts small secrets (codes in job payloads) so that Redis never holds them in clear.
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives an AES-256-GCM key from secret.
func NewSealer(secret string) Sealer {
	key := sha256.Sum256([]byte("seal:" + secret))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return Sealer{aead: aead}
}

// Valid reports whether the Sealer was made by NewSealer (the zero Sealer cannot seal).
func (s Sealer) Valid() bool { return s.aead != nil }

// Seal encrypts plaintext to base64 (nonce included).
func (s Sealer) Seal(plaintext string) string {
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plaintext), nil))
}

// Open decrypts what Seal produced.
func (s Sealer) Open(sealed string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errors.New("sealed value malformed")
	}
	out, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("sealed value does not open")
	}
	return string(out), nil
}
