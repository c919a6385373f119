package perfilseguro

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ProofType is the JOSE "typ" of a session's proof.
const ProofType = "perfilseguro-session+jwt"

// IssuerMetadataPath is where Perfil Seguro publishes its issuer identifier and public keys.
const IssuerMetadataPath = "/.well-known/jwt-vc-issuer"

// proofLeeway absorbs clock differences when checking iat (and exp or nbf, if present).
const proofLeeway = time.Minute

// VerifyProof checks a session's proof (SessionView.Proof, or SessionEvent.Proof from a webhook)
// and returns its claims: iss, iat, sub (the session id), aud (the partner's publishable key),
// reference, livemode, required_level and claims (what the person shared).
//
// jwksURL is Perfil Seguro's address ("https://perfilseguro.mx"), to which IssuerMetadataPath is
// added, or the full metadata URL. The document there, {issuer, jwks: {keys: [...]}}, gives the
// key: the proof must be ES256 with typ perfilseguro-session+jwt, signed by the published key
// whose kid it names, and its iss must be the published issuer. The keys are fetched on each
// call.
//
// Check, besides, that sub is the session you opened and aud your publishable key.
func VerifyProof(ctx context.Context, proof string, jwksURL string) (map[string]any, error) {
	return verifyProof(ctx, nil, proof, jwksURL)
}

// issuerMetadata is the document at IssuerMetadataPath.
type issuerMetadata struct {
	Issuer string `json:"issuer"`
	JWKS   struct {
		Keys []jwk `json:"keys"`
	} `json:"jwks"`
}

// jwk is the part of a JSON Web Key that an ES256 public key needs.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid"`
	Alg string `json:"alg"`
	Use string `json:"use"`
}

func verifyProof(ctx context.Context, hc *http.Client, proof, base string) (map[string]any, error) {
	proof = strings.TrimSpace(proof)
	if proof == "" {
		return nil, errors.New("perfilseguro: la prueba está vacía (solo las sesiones completadas la tienen)")
	}
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	metaURL, err := issuerMetadataURL(base)
	if err != nil {
		return nil, err
	}
	meta, err := fetchIssuerMetadata(ctx, hc, metaURL)
	if err != nil {
		return nil, err
	}

	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodES256.Alg()}),
		jwt.WithIssuer(meta.Issuer),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(proofLeeway),
	)
	claims := jwt.MapClaims{}
	_, err = parser.ParseWithClaims(proof, claims, func(t *jwt.Token) (any, error) {
		if typ, _ := t.Header["typ"].(string); typ != ProofType {
			return nil, fmt.Errorf("typ es %q, se esperaba %q", typ, ProofType)
		}
		kid, _ := t.Header["kid"].(string)
		if kid == "" {
			return nil, errors.New("la prueba no dice con qué llave se firmó (kid)")
		}
		for _, k := range meta.JWKS.Keys {
			if k.Kid == kid {
				return k.publicKey()
			}
		}
		return nil, fmt.Errorf("ninguna llave publicada en %s tiene kid %q", metaURL, kid)
	})
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: la prueba no es válida: %w", err)
	}
	return map[string]any(claims), nil
}

// issuerMetadataURL adds IssuerMetadataPath to a base address, unless it is already there.
func issuerMetadataURL(base string) (string, error) {
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("perfilseguro: la dirección de las llaves %q no es válida", base)
	}
	if strings.HasSuffix(u.Path, IssuerMetadataPath) {
		return u.String(), nil
	}
	u.Path = strings.TrimRight(u.Path, "/") + IssuerMetadataPath
	u.RawPath = ""
	return u.String(), nil
}

func fetchIssuerMetadata(ctx context.Context, hc *http.Client, metaURL string) (*issuerMetadata, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, metaURL, nil)
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "perfilseguro-go/"+Version)
	res, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: no se pudieron obtener las llaves de %s: %w", metaURL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: no se pudieron leer las llaves de %s: %w", metaURL, err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("perfilseguro: %s respondió %d al pedir las llaves", metaURL, res.StatusCode)
	}
	var meta issuerMetadata
	if err := json.Unmarshal(body, &meta); err != nil {
		return nil, fmt.Errorf("perfilseguro: las llaves de %s no son JSON válido: %w", metaURL, err)
	}
	if meta.Issuer == "" || len(meta.JWKS.Keys) == 0 {
		return nil, fmt.Errorf("perfilseguro: %s no publica emisor ni llaves", metaURL)
	}
	return &meta, nil
}

// publicKey turns a P-256 JWK into an ECDSA public key, checking the point is on the curve.
func (k jwk) publicKey() (*ecdsa.PublicKey, error) {
	if k.Kty != "EC" || k.Crv != "P-256" {
		return nil, fmt.Errorf("la llave %q es %s/%s, no EC/P-256", k.Kid, k.Kty, k.Crv)
	}
	if k.Alg != "" && k.Alg != "ES256" {
		return nil, fmt.Errorf("la llave %q es para %s, no ES256", k.Kid, k.Alg)
	}
	if k.Use != "" && k.Use != "sig" {
		return nil, fmt.Errorf("la llave %q no es de firma (use %q)", k.Kid, k.Use)
	}
	x, errX := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
	y, errY := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.Y, "="))
	if errX != nil || errY != nil || len(x) != 32 || len(y) != 32 {
		return nil, fmt.Errorf("la llave %q no tiene coordenadas x, y de 32 bytes en base64url", k.Kid)
	}
	point := make([]byte, 0, 65)
	point = append(point, 4) // uncompressed: 0x04 || X || Y
	point = append(point, x...)
	point = append(point, y...)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		return nil, fmt.Errorf("la llave %q no es un punto de P-256: %w", k.Kid, err)
	}
	return pub, nil
}
