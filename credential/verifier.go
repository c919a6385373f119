package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/perfilseguro/perfilseguro/provider/devfiles"
)

// The verifier's identity towards wallets (OpenID4VP 1.0 §5.9.3): client_id
// "x509_san_dns:<host>", request objects signed ES256 by the key of a certificate whose
// subjectAltName dNSName is that host, sent in the x5c header. The host is PUBLIC_BASE_URL's,
// so the response_uri on the same host is one the wallet accepts for that client_id.

// typRequestObject is the JOSE typ of a signed authorization request (RFC 9101, required by
// OpenID4VP 1.0 §5).
const typRequestObject = "oauth-authz-req+jwt"

// devVerifierLifetime is how long a development certificate is valid.
const devVerifierLifetime = 20 * 365 * 24 * time.Hour

// Verifier signs request objects.
type Verifier struct {
	Host  string              // the dNSName that names the verifier (client_id without its prefix)
	Chain []*x509.Certificate // the leaf first, then any intermediates (not the root)
	Key   *ecdsa.PrivateKey   // the leaf's P-256 key
}

// ClientID is the client identifier with its prefix, as requests and key binding JWTs carry it.
func (v *Verifier) ClientID() string { return "x509_san_dns:" + v.Host }

// NewVerifier reads a certificate chain (PEM, leaf first) and its P-256 key (PKCS#8 or SEC 1
// PEM), and checks that the leaf names host as a dNSName and belongs to the key.
func NewVerifier(chainPEM, keyPEM []byte, host string) (*Verifier, error) {
	var chain []*x509.Certificate
	for _, block := range pemBlocks(chainPEM, "CERTIFICATE") {
		cert, err := x509.ParseCertificate(block)
		if err != nil {
			return nil, fmt.Errorf("verifier certificate: %w", err)
		}
		chain = append(chain, cert)
	}
	if len(chain) == 0 {
		return nil, errors.New("verifier certificate: no CERTIFICATE block")
	}
	var onlyKeys []byte // the key may share a file with the certificates
	for _, typ := range []string{"PRIVATE KEY", "EC PRIVATE KEY"} {
		for _, der := range pemBlocks(keyPEM, typ) {
			onlyKeys = append(onlyKeys, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})...)
		}
	}
	keys, err := ParseKeysPEM(onlyKeys)
	if err != nil {
		return nil, fmt.Errorf("verifier key: %w", err)
	}
	leaf, key := chain[0], keys[0].Private
	if pub, ok := leaf.PublicKey.(*ecdsa.PublicKey); !ok || !pub.Equal(&key.PublicKey) {
		return nil, errors.New("verifier: the key does not belong to the leaf certificate")
	}
	if !slices.Contains(leaf.DNSNames, host) {
		return nil, fmt.Errorf("verifier: the leaf certificate names %v, not %q (x509_san_dns needs the host of PUBLIC_BASE_URL)", leaf.DNSNames, host)
	}
	return &Verifier{Host: host, Chain: chain, Key: key}, nil
}

// pemBlocks returns the DER of every PEM block of the given type, in order.
func pemBlocks(data []byte, typ string) [][]byte {
	var out [][]byte
	for rest := data; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return out
		}
		if block.Type == typ {
			out = append(out, block.Bytes)
		}
	}
}

// EnsureDevVerifier returns a development verifier for host, kept in
// dir/verifier-dev-<host>.pem (0600: a self-signed certificate and its key), creating it on
// first run as the other development material is (provider/devfiles: processes starting
// together agree on one). A damaged file is reported, not replaced.
func EnsureDevVerifier(dir, host string) (*Verifier, error) {
	if host == "" || strings.ContainsAny(host, `/\:`) {
		return nil, fmt.Errorf("dev verifier: %q is not a host name", host)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dev verifier: %w", err)
	}
	path := filepath.Join(dir, "verifier-dev-"+host+".pem")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		var fresh []byte
		if fresh, err = newDevVerifierPEM(host, time.Now()); err == nil {
			data, err = devfiles.WriteOnce(path, fresh)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dev verifier: %w", err)
	}
	v, err := NewVerifier(data, data, host)
	if err != nil {
		return nil, fmt.Errorf("dev verifier: %s is damaged (delete it to make a new one): %w", path, err)
	}
	return v, nil
}

// newDevVerifierPEM makes a self-signed certificate for host and its key, PEM-encoded together.
func newDevVerifierPEM(host string, now time.Time) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: host, Organization: []string{"Perfil Seguro DEV Verifier"}},
		DNSNames:     []string{host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(devVerifierLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	k, err := NewKey(key)
	if err != nil {
		return nil, err
	}
	keyPEM, err := EncodeKeyPEM(k)
	if err != nil {
		return nil, err
	}
	return append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), keyPEM...), nil
}

// SignRequestObject signs an authorization request's claims as a request object: typ
// oauth-authz-req+jwt, ES256, and the chain in x5c (standard base64 DER, RFC 7515 §4.1.6).
func (v *Verifier) SignRequestObject(claims map[string]any) (string, error) {
	x5c := make([]string, 0, len(v.Chain))
	for _, c := range v.Chain {
		x5c = append(x5c, base64.StdEncoding.EncodeToString(c.Raw))
	}
	token := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims(claims))
	token.Header["typ"] = typRequestObject
	token.Header["x5c"] = x5c
	signed, err := token.SignedString(v.Key)
	if err != nil {
		return "", fmt.Errorf("sign request object: %w", err)
	}
	return signed, nil
}
