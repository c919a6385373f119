package googlewallet

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfilseguro/perfilseguro/provider/devfiles"
)

// Development identity used with EnsureDevKey; Google rejects its links, which only serve local testing.
const (
	DevIssuerID            = "3388000000000000000"
	DevClassSuffix         = "perfil_seguro_dev"
	DevServiceAccountEmail = "perfil-seguro-dev@perfil-seguro-dev.iam.gserviceaccount.com"
	// DevKeyFile is the PKCS#8 PEM key EnsureDevKey keeps in its directory (0600).
	DevKeyFile = "googlewallet-dev-key.pem"
)

// LoadServiceAccountJSON reads a Google Cloud service-account key file and returns its client_email and RSA private_key.
func LoadServiceAccountJSON(b []byte) (email string, key *rsa.PrivateKey, err error) {
	var f struct {
		Type        string `json:"type"`
		ClientEmail string `json:"client_email"`
		PrivateKey  string `json:"private_key"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return "", nil, fmt.Errorf("googlewallet: service account JSON: %w", err)
	}
	if f.Type != "" && f.Type != "service_account" {
		return "", nil, fmt.Errorf("googlewallet: key file type %q, want service_account", f.Type)
	}
	if f.ClientEmail == "" {
		return "", nil, errors.New("googlewallet: service account JSON has no client_email")
	}
	key, err = parseRSAKey([]byte(f.PrivateKey))
	if err != nil {
		return "", nil, fmt.Errorf("googlewallet: service account private_key: %w", err)
	}
	return f.ClientEmail, key, nil
}

// DevConfig returns a development Config signing with EnsureDevKey(dir).
func DevConfig(dir string, origins []string) (Config, error) {
	key, err := EnsureDevKey(dir)
	if err != nil {
		return Config{}, err
	}
	return Config{
		IssuerID:            DevIssuerID,
		ClassSuffix:         DevClassSuffix,
		ServiceAccountEmail: DevServiceAccountEmail,
		PrivateKey:          key,
		Origins:             origins,
	}, nil
}

// EnsureDevKey returns the RSA 2048 development key kept in dir, creating it
// on the first run. Processes starting together agree on one key: each writes
// a private temporary file and hard-links it into place, and a loser reads the
// winner's file. A damaged key file is reported, not replaced.
func EnsureDevKey(dir string) (*rsa.PrivateKey, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("googlewallet: dev key dir: %w", err)
	}
	path := filepath.Join(dir, DevKeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = createDevKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("googlewallet: dev key: %w", err)
	}
	key, err := parseRSAKey(b)
	if err != nil {
		return nil, fmt.Errorf("googlewallet: %s is damaged (%v); delete it to regenerate", path, err)
	}
	return key, nil
}

// createDevKey generates a key and links it to path unless another process got there first.
func createDevKey(path string) ([]byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	return devfiles.WriteOnce(path, data)
}

// parseRSAKey decodes a PEM PKCS#8 or PKCS#1 RSA private key.
func parseRSAKey(b []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("not a PKCS#8 or PKCS#1 key: %w", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("key type %T, want RSA", k)
	}
	return rk, nil
}
