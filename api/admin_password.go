package api

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// adminBcryptCost is the cost of hashes printed by `perfilseguro admin hash-password`.
const adminBcryptCost = 12

// HashAdminPassword returns a bcrypt hash for ADMIN_PASSWORD_HASH.
func HashAdminPassword(password string) (string, error) {
	if strings.TrimSpace(password) == "" {
		return "", fmt.Errorf("the password must not be blank")
	}
	if len(password) > 72 {
		return "", fmt.Errorf("bcrypt accepts at most 72 bytes of password")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), adminBcryptCost)
	return string(h), err
}

// CheckAdminPassword compares a password with a bcrypt ($2a$/$2b$/$2y$) or argon2id
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash, unpadded base64) hash in constant time.
func CheckAdminPassword(hash, password string) bool {
	switch {
	case hash == "" || password == "":
		return false
	case strings.HasPrefix(hash, "$argon2id$"):
		return checkArgon2id(hash, password)
	default:
		return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
	}
}

func checkArgon2id(hash, password string) bool {
	parts := strings.Split(hash, "$") // "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 {
		return false
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil ||
		memory == 0 || time == 0 || threads == 0 || memory > 4<<20 {
		return false
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
