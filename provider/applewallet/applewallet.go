// Package applewallet builds signed Apple Wallet passes (.pkpass archives):
// pass.json, brand images, manifest.json with SHA-1 hashes and a detached
// PKCS#7 signature (SHA-256) by the Pass Type ID certificate with the WWDR
// intermediate included.
package applewallet

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/sha1" //nolint:gosec // Apple's manifest format requires SHA-1 file hashes.
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smallstep/pkcs7"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// DefaultOrganizationName is shown on the lock screen and used when Config.OrganizationName is empty.
const DefaultOrganizationName = "Perfil Seguro"

// Config holds the identifiers and signing material of one Pass Type ID.
type Config struct {
	PassTypeIdentifier string            // e.g. pass.mx.perfilseguro
	TeamIdentifier     string            // Apple developer team ID
	OrganizationName   string            // defaults to DefaultOrganizationName
	Certificate        *x509.Certificate // Pass Type ID certificate
	PrivateKey         crypto.Signer     // key of Certificate
	WWDR               *x509.Certificate // Apple WWDR intermediate that issued Certificate
}

// Builder builds signed .pkpass archives; it is safe for concurrent use.
type Builder struct {
	cfg Config
}

var _ perfilseguro.ApplePassBuilder = (*Builder)(nil)

// New checks cfg (identifiers present, key matching the certificate, certificate issued by WWDR) and returns a Builder.
func New(cfg Config) (*Builder, error) {
	switch {
	case cfg.PassTypeIdentifier == "":
		return nil, errors.New("applewallet: missing pass type identifier")
	case cfg.TeamIdentifier == "":
		return nil, errors.New("applewallet: missing team identifier")
	case cfg.Certificate == nil:
		return nil, errors.New("applewallet: missing pass certificate")
	case cfg.PrivateKey == nil:
		return nil, errors.New("applewallet: missing private key")
	case cfg.WWDR == nil:
		return nil, errors.New("applewallet: missing WWDR intermediate certificate")
	}
	if cfg.OrganizationName == "" {
		cfg.OrganizationName = DefaultOrganizationName
	}
	pub, ok := cfg.PrivateKey.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(cfg.Certificate.PublicKey) {
		return nil, errors.New("applewallet: private key does not match the pass certificate")
	}
	if err := cfg.Certificate.CheckSignatureFrom(cfg.WWDR); err != nil {
		return nil, fmt.Errorf("applewallet: pass certificate not issued by the WWDR certificate: %w", err)
	}
	return &Builder{cfg: cfg}, nil
}

// archiveFile is one entry of the .pkpass zip.
type archiveFile struct {
	name string
	data []byte
}

// BuildPass returns a signed .pkpass archive showing p, with the QR encoding p.VerifyURL.
func (b *Builder) BuildPass(p perfilseguro.PassData) ([]byte, error) {
	passJSON, err := b.passJSON(p)
	if err != nil {
		return nil, err
	}
	files := append([]archiveFile{{"pass.json", passJSON}}, brandImages()...)

	manifest := make(map[string]string, len(files))
	for _, f := range files {
		sum := sha1.Sum(f.data) //nolint:gosec // required by the pass format
		manifest[f.name] = hex.EncodeToString(sum[:])
	}
	manifestJSON, err := json.Marshal(manifest) // map keys marshal sorted: deterministic
	if err != nil {
		return nil, fmt.Errorf("applewallet: manifest: %w", err)
	}
	signature, err := b.sign(manifestJSON)
	if err != nil {
		return nil, err
	}
	files = append(files, archiveFile{"manifest.json", manifestJSON}, archiveFile{"signature", signature})
	return zipFiles(files, time.Now())
}

// sign returns the detached PKCS#7 signature (DER) of the manifest.
func (b *Builder) sign(manifest []byte) ([]byte, error) {
	sd, err := pkcs7.NewSignedData(manifest)
	if err != nil {
		return nil, fmt.Errorf("applewallet: signature: %w", err)
	}
	sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
	// AddSignerChain adds the signing-time attribute and both certificates.
	if err := sd.AddSignerChain(b.cfg.Certificate, b.cfg.PrivateKey, []*x509.Certificate{b.cfg.WWDR}, pkcs7.SignerInfoConfig{}); err != nil {
		return nil, fmt.Errorf("applewallet: sign manifest: %w", err)
	}
	sd.Detach()
	der, err := sd.Finish()
	if err != nil {
		return nil, fmt.Errorf("applewallet: finish signature: %w", err)
	}
	return der, nil
}

// zipFiles writes files in the given order, all stamped with modified. PNGs
// are already compressed, so they are stored: deflating them again took most
// of the build time and saved nothing.
func zipFiles(files []archiveFile, modified time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		method := zip.Deflate
		if strings.HasSuffix(f.name, ".png") {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: method, Modified: modified})
		if err != nil {
			return nil, fmt.Errorf("applewallet: zip %s: %w", f.name, err)
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, fmt.Errorf("applewallet: zip %s: %w", f.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("applewallet: zip: %w", err)
	}
	return buf.Bytes(), nil
}
