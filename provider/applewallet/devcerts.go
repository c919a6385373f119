package applewallet

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/perfilseguro/perfilseguro/provider/devfiles"
)

// Development identifiers, also written into the development pass certificate.
const (
	DevPassTypeIdentifier = "pass.mx.perfilseguro.dev"
	DevTeamIdentifier     = "PSDEVTEAM1"
)

// Files EnsureDevCertificates keeps in its directory.
const (
	// DevBundleFile holds, in order, the pass certificate, its key, the WWDR and the root (0600).
	DevBundleFile = "applewallet-dev.pem"
	// DevRootFile holds the development root certificate, to verify signatures with openssl.
	DevRootFile = "applewallet-dev-root.pem"
)

// EnsureDevCertificates returns development signing material kept in dir,
// creating it on the first run: a self-signed root "Perfil Seguro DEV Root", an
// intermediate "Perfil Seguro DEV WWDR" and the leaf "Pass Type ID:
// pass.mx.perfilseguro.dev" (ECDSA P-256, 20 years). The root and intermediate
// keys are discarded. Processes starting together agree on one set: each
// writes a private temporary file and hard-links it into place, and a loser
// reads the winner's file. A damaged bundle is reported, not replaced: delete
// it to start over.
func EnsureDevCertificates(dir string) (certPEM, keyPEM, wwdrPEM []byte, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, nil, fmt.Errorf("applewallet: dev certificate dir: %w", err)
	}
	path := filepath.Join(dir, DevBundleFile)
	bundle, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		bundle, err = createDevBundle(path)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("applewallet: dev certificates: %w", err)
	}
	blocks := splitPEM(bundle)
	if len(blocks) != 4 {
		return nil, nil, nil, fmt.Errorf("applewallet: %s is damaged (%d PEM blocks, want 4); delete it to regenerate", path, len(blocks))
	}
	if err := writeFileAtomic(filepath.Join(dir, DevRootFile), blocks[3], 0o644); err != nil {
		return nil, nil, nil, fmt.Errorf("applewallet: dev root: %w", err)
	}
	return blocks[0], blocks[1], blocks[2], nil
}

// DevConfig returns a Config for development, signing with EnsureDevCertificates(dir).
func DevConfig(dir string) (Config, error) {
	certPEM, keyPEM, wwdrPEM, err := EnsureDevCertificates(dir)
	if err != nil {
		return Config{}, err
	}
	return LoadConfigFromPEM(certPEM, keyPEM, wwdrPEM, DevPassTypeIdentifier, DevTeamIdentifier)
}

// createDevBundle generates a chain and links it to path unless another process got there first.
func createDevBundle(path string) ([]byte, error) {
	bundle, err := generateDevBundle(time.Now())
	if err != nil {
		return nil, err
	}
	return devfiles.WriteOnce(path, bundle)
}

// generateDevBundle creates root, intermediate and leaf and returns them PEM-encoded in bundle order.
func generateDevBundle(now time.Time) ([]byte, error) {
	notBefore, notAfter := now.Add(-time.Hour), now.AddDate(20, 0, 0)
	root, err := newDevCA("Perfil Seguro DEV Root", nil, notBefore, notAfter)
	if err != nil {
		return nil, err
	}
	wwdr, err := newDevCA("Perfil Seguro DEV WWDR", &root, notBefore, notAfter)
	if err != nil {
		return nil, err
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	leaf := &x509.Certificate{
		Subject: pkix.Name{
			CommonName:         "Pass Type ID: " + DevPassTypeIdentifier,
			OrganizationalUnit: []string{DevTeamIdentifier},
			Organization:       []string{"Perfil Seguro"},
			ExtraNames:         []pkix.AttributeTypeAndValue{{Type: oidUserID, Value: DevPassTypeIdentifier}},
		},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		// Apple's Pass Type ID extended key usage, as in real pass certificates.
		UnknownExtKeyUsage: []asn1.ObjectIdentifier{{1, 2, 840, 113635, 100, 4, 14}},
	}
	leafDER, _, err := issue(leaf, wwdr.cert, &leafKey.PublicKey, wwdr.key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, b := range []*pem.Block{
		{Type: "CERTIFICATE", Bytes: leafDER},
		{Type: "PRIVATE KEY", Bytes: keyDER},
		{Type: "CERTIFICATE", Bytes: wwdr.der},
		{Type: "CERTIFICATE", Bytes: root.der},
	} {
		out = append(out, pem.EncodeToMemory(b)...)
	}
	return out, nil
}

// devCA is a development certificate authority: its certificate (DER and parsed) and key.
type devCA struct {
	der  []byte
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// newDevCA makes a certificate authority named name with a fresh key, valid from notBefore to
// notAfter: a self-signed root when parent is nil, else an intermediate that parent signs and
// that may sign only end certificates (path length zero).
func newDevCA(name string, parent *devCA, notBefore, notAfter time.Time) (devCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return devCA{}, err
	}
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: name, Organization: []string{"Perfil Seguro"}},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        parent != nil,
	}
	issuer, signer := tmpl, key
	if parent != nil {
		issuer, signer = parent.cert, parent.key
	}
	der, cert, err := issue(tmpl, issuer, &key.PublicKey, signer)
	if err != nil {
		return devCA{}, err
	}
	return devCA{der: der, cert: cert, key: key}, nil
}

// issue signs tmpl with a random serial number and returns the DER and the parsed certificate.
func issue(tmpl, parent *x509.Certificate, pub *ecdsa.PublicKey, signer *ecdsa.PrivateKey) ([]byte, *x509.Certificate, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, err
	}
	tmpl.SerialNumber = serial
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, signer)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return der, cert, err
}

// splitPEM re-encodes each PEM block of b separately.
func splitPEM(b []byte) [][]byte {
	var out [][]byte
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			return out
		}
		out = append(out, pem.EncodeToMemory(block))
	}
}

// writeFileAtomic replaces path with data through a temporary file and a rename.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".applewallet-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
