package applewallet_test

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // the pass manifest format uses SHA-1
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/smallstep/pkcs7"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/applewallet"
	"github.com/perfilseguro/perfilseguro/provider/internal/passtest"
)

var samplePass = passtest.Sample

// setup returns a builder signing with fresh development certificates and the directory holding them.
func setup(t testing.TB) (*applewallet.Builder, string) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := applewallet.DevConfig(dir)
	require.NoError(t, err)
	b, err := applewallet.New(cfg)
	require.NoError(t, err)
	return b, dir
}

// unzip returns the archive's files by name and their order.
func unzip(t *testing.T, pkpass []byte) (map[string][]byte, []string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkpass), int64(len(pkpass)))
	require.NoError(t, err)
	files := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		files[f.Name] = data
		names = append(names, f.Name)
	}
	return files, names
}

// buildFiles builds the pass p and returns the archive's files by name, and their names in order.
func buildFiles(t *testing.T, b *applewallet.Builder, p perfilseguro.PassData) (map[string][]byte, []string) {
	t.Helper()
	pkpass, err := b.BuildPass(p)
	require.NoError(t, err)
	return unzip(t, pkpass)
}

func TestBuildPassManifestCoversEveryFile(t *testing.T) {
	t.Parallel()
	b, _ := setup(t)
	files, names := buildFiles(t, b, samplePass)
	require.Equal(t, []string{"pass.json", "icon.png", "icon@2x.png", "logo.png", "logo@2x.png", "manifest.json", "signature"}, names)

	var manifest map[string]string
	require.NoError(t, json.Unmarshal(files["manifest.json"], &manifest))
	require.Len(t, manifest, len(files)-2, "every file but manifest.json and signature")
	for name, data := range files {
		if name == "manifest.json" || name == "signature" {
			continue
		}
		sum := sha1.Sum(data) //nolint:gosec
		require.Equal(t, hex.EncodeToString(sum[:]), manifest[name], name)
	}
}

func TestBuildPassJSON(t *testing.T) {
	t.Parallel()
	b, _ := setup(t)
	files, _ := buildFiles(t, b, samplePass)

	var doc struct {
		FormatVersion      int    `json:"formatVersion"`
		PassTypeIdentifier string `json:"passTypeIdentifier"`
		SerialNumber       string `json:"serialNumber"`
		TeamIdentifier     string `json:"teamIdentifier"`
		OrganizationName   string `json:"organizationName"`
		Description        string `json:"description"`
		BackgroundColor    string `json:"backgroundColor"`
		ForegroundColor    string `json:"foregroundColor"`
		ExpirationDate     string `json:"expirationDate"`
		Generic            map[string][]struct {
			Key, Label, Value string
		} `json:"generic"`
		Barcodes []map[string]string `json:"barcodes"`
		Barcode  map[string]string   `json:"barcode"`
	}
	require.NoError(t, json.Unmarshal(files["pass.json"], &doc))
	require.Equal(t, 1, doc.FormatVersion)
	require.Equal(t, applewallet.DevPassTypeIdentifier, doc.PassTypeIdentifier)
	require.Equal(t, "PS-1234-5678-90", doc.SerialNumber)
	require.Equal(t, applewallet.DevTeamIdentifier, doc.TeamIdentifier)
	require.Equal(t, "Perfil Seguro", doc.OrganizationName)
	require.Equal(t, "Perfil Seguro – identidad validada", doc.Description)
	require.NotEmpty(t, doc.BackgroundColor)
	require.NotEmpty(t, doc.ForegroundColor)
	require.Equal(t, "2026-03-07T00:00:00Z", doc.ExpirationDate)

	require.Equal(t, "María José Núñez", doc.Generic["primaryFields"][0].Value)
	require.Equal(t, "PS-1234-5678-90", doc.Generic["secondaryFields"][0].Value)
	require.Equal(t, "Nivel 3", doc.Generic["secondaryFields"][1].Value)
	require.Equal(t, "Vigente hasta", doc.Generic["auxiliaryFields"][0].Label)
	require.Equal(t, "07/03/2026", doc.Generic["auxiliaryFields"][0].Value)

	want := map[string]string{
		"format":          "PKBarcodeFormatQR",
		"message":         samplePass.VerifyURL,
		"messageEncoding": "iso-8859-1",
		"altText":         "PS-1234-5678-90",
	}
	require.Equal(t, []map[string]string{want}, doc.Barcodes)
	require.Equal(t, want, doc.Barcode)
}

func TestBuildPassRejectsIncompleteData(t *testing.T) {
	t.Parallel()
	b, _ := setup(t)
	for name, mutate := range map[string]func(*perfilseguro.PassData){
		"no profile ID": func(p *perfilseguro.PassData) { p.ProfileID = "" },
		"no name":       func(p *perfilseguro.PassData) { p.Name = "" },
		"no verify URL": func(p *perfilseguro.PassData) { p.VerifyURL = "" },
		"no validity":   func(p *perfilseguro.PassData) { p.ValidUntil = time.Time{} },
		"non-ASCII URL": func(p *perfilseguro.PassData) { p.VerifyURL = "https://perfilseguro.mx/verificación" },
	} {
		p := samplePass
		mutate(&p)
		_, err := b.BuildPass(p)
		require.Error(t, err, name)
	}
}

func TestSignatureStructure(t *testing.T) {
	t.Parallel()
	b, dir := setup(t)
	files, _ := buildFiles(t, b, samplePass)

	p7, err := pkcs7.Parse(files["signature"])
	require.NoError(t, err)
	require.Empty(t, p7.Content, "signature must be detached")
	require.Len(t, p7.Signers, 1)
	require.True(t, p7.Signers[0].DigestAlgorithm.Algorithm.Equal(pkcs7.OIDDigestAlgorithmSHA256), "digest %v", p7.Signers[0].DigestAlgorithm.Algorithm)

	_, _, wwdrPEM, err := applewallet.EnsureDevCertificates(dir)
	require.NoError(t, err)
	wwdr := parseCert(t, wwdrPEM)
	var subjects []string
	hasWWDR := false
	for _, c := range p7.Certificates {
		subjects = append(subjects, c.Subject.CommonName)
		hasWWDR = hasWWDR || bytes.Equal(c.Raw, wwdr.Raw)
	}
	require.True(t, hasWWDR, "WWDR intermediate included; got %v", subjects)
	require.Contains(t, subjects, "Pass Type ID: "+applewallet.DevPassTypeIdentifier)

	var signingTime time.Time
	require.NoError(t, p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeSigningTime, &signingTime))
	require.WithinDuration(t, time.Now(), signingTime, time.Minute)

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(mustRead(t, filepath.Join(dir, applewallet.DevRootFile)))
	p7.Content = files["manifest.json"]
	require.NoError(t, p7.VerifyWithChain(roots))
	p7.Content = append([]byte(nil), files["manifest.json"]...)
	p7.Content[len(p7.Content)-2] ^= 1
	require.Error(t, p7.VerifyWithChain(roots), "tampered manifest must not verify")
}

func TestSignatureVerifiesWithOpenSSL(t *testing.T) {
	t.Parallel()
	b, dir := setup(t)
	pkpass, err := b.BuildPass(samplePass)
	require.NoError(t, err)
	opensslVerify(t, pkpass, filepath.Join(dir, applewallet.DevRootFile))
}

// TestRSAChainVerifiesWithOpenSSL signs with an RSA 2048 chain shaped like Apple's production one.
func TestRSAChainVerifiesWithOpenSSL(t *testing.T) {
	t.Parallel()
	b, rootDER := rsaBuilder(t, "Test")
	pkpass, err := b.BuildPass(samplePass)
	require.NoError(t, err)
	rootFile := filepath.Join(t.TempDir(), "root.pem")
	require.NoError(t, os.WriteFile(rootFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rootDER}), 0o600))
	opensslVerify(t, pkpass, rootFile)
}

// opensslVerify checks the pass signature with openssl, and that a tampered manifest fails.
func opensslVerify(t *testing.T, pkpass []byte, rootFile string) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	files, _ := unzip(t, pkpass)
	dir := t.TempDir()
	sig := filepath.Join(dir, "signature")
	manifest := filepath.Join(dir, "manifest.json")
	require.NoError(t, os.WriteFile(sig, files["signature"], 0o600))
	require.NoError(t, os.WriteFile(manifest, files["manifest.json"], 0o600))
	verify := func() ([]byte, error) {
		return exec.Command("openssl", "smime", "-verify", "-binary", "-inform", "DER",
			"-in", sig, "-content", manifest, "-CAfile", rootFile, "-purpose", "any", "-out", os.DevNull).CombinedOutput()
	}
	out, err := verify()
	require.NoError(t, err, "openssl: %s", out)
	require.Contains(t, string(out), "Verification successful")

	tampered := bytes.Replace(files["manifest.json"], []byte(`"pass.json":"`), []byte(`"pass.json":"0`), 1)
	require.NotEqual(t, files["manifest.json"], tampered)
	require.NoError(t, os.WriteFile(manifest, tampered, 0o600))
	out, err = verify()
	require.Error(t, err, "tampered manifest must fail: %s", out)
}

func TestNewRejectsMismatchedMaterial(t *testing.T) {
	t.Parallel()
	cfg, err := applewallet.DevConfig(t.TempDir())
	require.NoError(t, err)
	other, err := applewallet.DevConfig(t.TempDir())
	require.NoError(t, err)

	wrongKey := cfg
	wrongKey.PrivateKey = other.PrivateKey
	_, err = applewallet.New(wrongKey)
	require.ErrorContains(t, err, "does not match")

	wrongWWDR := cfg
	wrongWWDR.WWDR = other.WWDR
	_, err = applewallet.New(wrongWWDR)
	require.ErrorContains(t, err, "not issued by the WWDR")

	noTeam := cfg
	noTeam.TeamIdentifier = ""
	_, err = applewallet.New(noTeam)
	require.Error(t, err)
}

func parseCert(t *testing.T, pemBytes []byte) *x509.Certificate {
	t.Helper()
	block, _ := pem.Decode(pemBytes)
	require.NotNil(t, block)
	c, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	return c
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// rsaCert issues an RSA 2048 certificate; a nil parent makes it self-signed.
// rsaBuilder returns a builder signing with a fresh RSA 2048 chain shaped like Apple's production
// one (a root and a WWDR certificate named after prefix, then the pass type's), and the root's DER.
func rsaBuilder(t testing.TB, prefix string) (*applewallet.Builder, []byte) {
	t.Helper()
	rootKey, rootCert, rootDER := rsaCert(t, prefix+" Root", nil, nil, true)
	wwdrKey, wwdrCert, _ := rsaCert(t, prefix+" WWDR", rootCert, rootKey, true)
	leafKey, leafCert, _ := rsaCert(t, "Pass Type ID: pass.mx.perfilseguro", wwdrCert, wwdrKey, false)
	b, err := applewallet.New(applewallet.Config{
		PassTypeIdentifier: "pass.mx.perfilseguro", TeamIdentifier: "ABCDE12345",
		Certificate: leafCert, PrivateKey: leafKey, WWDR: wwdrCert,
	})
	require.NoError(t, err)
	return b, rootDER
}

func rsaCert(t testing.TB, cn string, parent *x509.Certificate, parentKey *rsa.PrivateKey, ca bool) (*rsa.PrivateKey, *x509.Certificate, []byte) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		BasicConstraintsValid: true,
		IsCA:                  ca,
		KeyUsage:              x509.KeyUsageDigitalSignature,
	}
	if ca {
		tmpl.KeyUsage = x509.KeyUsageCertSign
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return key, cert, der
}

// BenchmarkBuildPass measures whole-pass throughput (pass.json, manifest,
// signature, zip) with the development ECDSA chain and with an RSA 2048 chain
// like Apple's production certificates.
func BenchmarkBuildPass(b *testing.B) {
	dev, _ := setup(b)
	production, _ := rsaBuilder(b, "Bench")
	b.Run("ecdsa-dev", func(b *testing.B) { benchmarkBuild(b, dev) })
	b.Run("rsa2048", func(b *testing.B) { benchmarkBuild(b, production) })
}

func benchmarkBuild(b *testing.B, builder *applewallet.Builder) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := builder.BuildPass(samplePass); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A pass whose validation ended is voided and says why where the validity was.
func TestAnEndedValidationVoidsThePass(t *testing.T) {
	t.Parallel()
	b, _ := setup(t)
	for status, word := range map[string]string{perfilseguro.PassExpired: "Expirado", perfilseguro.PassRevoked: "Revocado", perfilseguro.PassValid: ""} {
		p := samplePass
		p.Status = status
		files, _ := buildFiles(t, b, p)
		var doc struct {
			Voided  bool `json:"voided"`
			Generic struct {
				AuxiliaryFields []struct{ Key, Label, Value string } `json:"auxiliaryFields"`
			} `json:"generic"`
		}
		require.NoError(t, json.Unmarshal(files["pass.json"], &doc))
		aux := doc.Generic.AuxiliaryFields
		require.Len(t, aux, 1)
		if word == "" {
			require.False(t, doc.Voided, "a valid pass is not voided")
			require.Equal(t, "Vigente hasta", aux[0].Label)
			continue
		}
		require.True(t, doc.Voided, status)
		require.Equal(t, "Estado", aux[0].Label)
		require.Equal(t, word, aux[0].Value)
	}
}

// An ID that ends the validity before the plan (issue 52): its date on the face and why on the
// back; an ended validation's pass says only that it ended.
func TestAnIDThatEndsTheValidityIsNamedOnThePass(t *testing.T) {
	t.Parallel()
	b, _ := setup(t)
	expiry := time.Date(2027, 3, 15, 0, 0, 0, 0, time.UTC)
	type field struct{ Key, Label, Value string }
	read := func(p perfilseguro.PassData) (aux, back []field) {
		files, _ := buildFiles(t, b, p)
		var doc struct {
			Generic struct {
				AuxiliaryFields []field `json:"auxiliaryFields"`
				BackFields      []field `json:"backFields"`
			} `json:"generic"`
		}
		require.NoError(t, json.Unmarshal(files["pass.json"], &doc))
		return doc.Generic.AuxiliaryFields, doc.Generic.BackFields
	}
	p := samplePass
	p.IDExpiresOn = &expiry
	aux, back := read(p)
	require.Equal(t, []field{{"validUntil", "Vigente hasta", "15/03/2027"}}, aux)
	require.Contains(t, back, field{"validity", "Vigencia", "Vigente hasta 15/03/2027 (vence tu identificación)"})

	p.Status = perfilseguro.PassExpired
	aux, back = read(p)
	require.Equal(t, "Expirado", aux[0].Value)
	for _, f := range back {
		require.NotContains(t, f.Value, "identificación", "an ended validation does not say how long it lasts")
	}

	aux, back = read(samplePass)
	require.Len(t, back, 1, "without the ID's cap, only the verification link")
	require.Equal(t, "Vigente hasta", aux[0].Label)
}
