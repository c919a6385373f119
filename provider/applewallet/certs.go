package applewallet

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
)

// oidUserID is the subject attribute in which Apple puts the pass type identifier.
var oidUserID = asn1.ObjectIdentifier{0, 9, 2342, 19200300, 100, 1, 1}

// LoadConfigFromPEM parses production signing material. Each of certPEM,
// keyPEM and wwdrPEM may be PEM text, or standard base64 of PEM text (handy in
// environment variables); certificates may also be DER or base64 of DER (Apple
// ships the WWDR certificate as DER .cer). The key must be unencrypted PKCS#8,
// PKCS#1 (RSA) or SEC 1 (EC): export it with `openssl pkcs12 -nodes`. Empty
// passTypeID or teamID are read from the certificate subject (UID and OU), as
// Apple issues them. The result is checked by New, not here.
func LoadConfigFromPEM(certPEM, keyPEM, wwdrPEM []byte, passTypeID, teamID string) (Config, error) {
	cert, err := parseCertificate(certPEM)
	if err != nil {
		return Config{}, fmt.Errorf("applewallet: pass certificate: %w", err)
	}
	wwdr, err := parseCertificate(wwdrPEM)
	if err != nil {
		return Config{}, fmt.Errorf("applewallet: WWDR certificate: %w", err)
	}
	key, err := parsePrivateKey(keyPEM)
	if err != nil {
		return Config{}, fmt.Errorf("applewallet: private key: %w", err)
	}
	if passTypeID == "" {
		for _, atv := range cert.Subject.Names {
			if s, ok := atv.Value.(string); ok && atv.Type.Equal(oidUserID) {
				passTypeID = s
			}
		}
	}
	if teamID == "" && len(cert.Subject.OrganizationalUnit) > 0 {
		teamID = cert.Subject.OrganizationalUnit[0]
	}
	return Config{
		PassTypeIdentifier: passTypeID,
		TeamIdentifier:     teamID,
		OrganizationName:   DefaultOrganizationName,
		Certificate:        cert,
		PrivateKey:         key,
		WWDR:               wwdr,
	}, nil
}

// pemOrDER returns the DER inside b, which is PEM, base64 of PEM, DER or base64 of DER.
func pemOrDER(b []byte, wantPEM bool) ([]byte, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("empty")
	}
	if bytes.Contains(b, []byte("-----BEGIN")) {
		block, _ := pem.Decode(b)
		if block == nil {
			return nil, errors.New("invalid PEM")
		}
		if block.Headers["Proc-Type"] != "" {
			return nil, errors.New("encrypted PEM is not supported")
		}
		return block.Bytes, nil
	}
	if decoded, err := base64.StdEncoding.DecodeString(string(b)); err == nil {
		if bytes.Contains(decoded, []byte("-----BEGIN")) {
			return pemOrDER(decoded, wantPEM)
		}
		if !wantPEM {
			return decoded, nil
		}
	}
	if wantPEM {
		return nil, errors.New("neither PEM nor base64 of PEM")
	}
	return b, nil
}

func parseCertificate(b []byte) (*x509.Certificate, error) {
	der, err := pemOrDER(b, false)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

func parsePrivateKey(b []byte) (crypto.Signer, error) {
	der, err := pemOrDER(b, true)
	if err != nil {
		return nil, err
	}
	if k, err := x509.ParsePKCS8PrivateKey(der); err == nil {
		s, ok := k.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("unsupported key type %T", k)
		}
		return s, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(der); err == nil {
		return k, nil
	}
	if k, err := x509.ParseECPrivateKey(der); err == nil {
		return k, nil
	}
	return nil, errors.New("not a PKCS#8, PKCS#1 or SEC 1 private key")
}
