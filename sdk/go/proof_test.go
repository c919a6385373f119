package perfilseguro

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// issuerServer publishes keys at /.well-known/jwt-vc-issuer as Perfil Seguro does; issuer ""
// means the server's own URL.
type issuerServer struct {
	*httptest.Server
	issuer string
	keys   []map[string]any
	status int
	hits   atomic.Int32
}

func newIssuerServer(t *testing.T, keys ...map[string]any) *issuerServer {
	t.Helper()
	s := &issuerServer{keys: keys, status: http.StatusOK}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != IssuerMetadataPath {
			http.NotFound(w, r)
			return
		}
		issuer := s.issuer
		if issuer == "" {
			issuer = s.URL
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.status)
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "jwks": map[string]any{"keys": s.keys}})
	}))
	t.Cleanup(s.Close)
	return s
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// publicJWK is the key as credential.PublicJWK publishes it.
func publicJWK(t *testing.T, k *ecdsa.PrivateKey, kid string) map[string]any {
	t.Helper()
	point, err := k.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	return map[string]any{"kty": "EC", "crv": "P-256", "x": b64(point[1:33]), "y": b64(point[33:65]), "kid": kid, "alg": "ES256", "use": "sig"}
}

// signProof signs a proof as the server's credential.Issuer.SignSessionProof does.
func signProof(t *testing.T, k *ecdsa.PrivateKey, kid, typ string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	tok.Header["typ"] = typ
	tok.Header["kid"] = kid
	s, err := tok.SignedString(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func proofClaims(iss string) jwt.MapClaims {
	return jwt.MapClaims{
		"iss": iss, "iat": time.Now().Unix(), "sub": "vs_0123456789abcdef01234567", "aud": "pk_test_casalista",
		"reference": "pedido-123", "livemode": false, "required_level": 3,
		"claims": map[string]any{"name": "Ana López", "validUntil": "2027-01-31"},
	}
}

func TestVerifyProof(t *testing.T) {
	current, older := newKey(t), newKey(t)
	srv := newIssuerServer(t, publicJWK(t, current, "k2"), publicJWK(t, older, "k1"))
	ctx := context.Background()

	proof := signProof(t, current, "k2", ProofType, proofClaims(srv.URL))
	claims, err := VerifyProof(ctx, proof, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if claims["sub"] != "vs_0123456789abcdef01234567" || claims["aud"] != "pk_test_casalista" || claims["iss"] != srv.URL {
		t.Errorf("claims = %v", claims)
	}
	if shared, _ := claims["claims"].(map[string]any); shared["name"] != "Ana López" {
		t.Errorf("shared = %v", claims["claims"])
	}

	// A proof signed by a rotated key that is still published verifies, and the full metadata
	// URL works as well as the base.
	old := signProof(t, older, "k1", ProofType, proofClaims(srv.URL))
	for _, where := range []string{srv.URL + "/", srv.URL + IssuerMetadataPath} {
		if _, err := VerifyProof(ctx, old, where); err != nil {
			t.Errorf("%s: %v", where, err)
		}
	}
}

func TestVerifyProofRefuses(t *testing.T) {
	key, stranger := newKey(t), newKey(t)
	srv := newIssuerServer(t, publicJWK(t, key, "k1"))
	ctx := context.Background()
	good := signProof(t, key, "k1", ProofType, proofClaims(srv.URL))

	parts := strings.Split(good, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), "Ana", "Eva", 1))) + "." + parts[2]

	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, proofClaims(srv.URL))
	hs.Header["typ"] = ProofType
	hs.Header["kid"] = "k1"
	hmacProof, _ := hs.SignedString([]byte("secreto"))

	future := proofClaims(srv.URL)
	future["iat"] = time.Now().Add(time.Hour).Unix()
	expired := proofClaims(srv.URL)
	expired["exp"] = time.Now().Add(-time.Hour).Unix()
	noKid := jwt.NewWithClaims(jwt.SigningMethodES256, proofClaims(srv.URL))
	noKid.Header["typ"] = ProofType
	noKidProof, _ := noKid.SignedString(key)

	for name, proof := range map[string]string{
		"empty":             "",
		"not a JWS":         "hola",
		"tampered payload":  tampered,
		"another key":       signProof(t, stranger, "k1", ProofType, proofClaims(srv.URL)),
		"unknown kid":       signProof(t, key, "k9", ProofType, proofClaims(srv.URL)),
		"no kid":            noKidProof,
		"another typ":       signProof(t, key, "k1", "dc+sd-jwt", proofClaims(srv.URL)),
		"another issuer":    signProof(t, key, "k1", ProofType, proofClaims("https://impostor.example")),
		"HS256":             hmacProof,
		"issued in future":  signProof(t, key, "k1", ProofType, future),
		"expired":           signProof(t, key, "k1", ProofType, expired),
		"alg none":          "eyJhbGciOiJub25lIiwidHlwIjoicGVyZmlsc2VndXJvLXNlc3Npb24rand0Iiwia2lkIjoiazEifQ.eyJzdWIiOiJ2c18xIn0.",
		"signature dropped": parts[0] + "." + parts[1] + ".",
	} {
		claims, err := VerifyProof(ctx, proof, srv.URL)
		t.Logf("%s: %v", name, err)
		if err == nil || claims != nil {
			t.Errorf("%s: accepted (%v)", name, claims)
		}
	}

	if _, err := VerifyProof(ctx, good, srv.URL); err != nil {
		t.Fatalf("the good proof, after all that: %v", err)
	}
}

func TestVerifyProofNeedsUsableKeys(t *testing.T) {
	key := newKey(t)
	ctx := context.Background()
	check := func(name string, srv *issuerServer, base string) {
		t.Helper()
		proof := signProof(t, key, "k1", ProofType, proofClaims(srv.URL))
		_, err := VerifyProof(ctx, proof, base)
		t.Logf("%s: %v", name, err)
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}

	down := newIssuerServer(t, publicJWK(t, key, "k1"))
	down.status = http.StatusInternalServerError
	check("metadata answers 500", down, down.URL)

	empty := newIssuerServer(t)
	check("no keys", empty, empty.URL)

	wrongPath := newIssuerServer(t, publicJWK(t, key, "k1"))
	check("nothing at that path", wrongPath, wrongPath.URL+"/otra/cosa"+IssuerMetadataPath+"x")

	offCurve := publicJWK(t, key, "k1")
	offCurve["y"] = offCurve["x"]
	bad := newIssuerServer(t, offCurve)
	check("a point off the curve", bad, bad.URL)

	short := publicJWK(t, key, "k1")
	short["x"] = "AAAA"
	shortSrv := newIssuerServer(t, short)
	check("a short coordinate", shortSrv, shortSrv.URL)

	rsa := publicJWK(t, key, "k1")
	rsa["kty"] = "RSA"
	rsaSrv := newIssuerServer(t, rsa)
	check("not an EC key", rsaSrv, rsaSrv.URL)

	p384 := publicJWK(t, key, "k1")
	p384["crv"] = "P-384"
	p384Srv := newIssuerServer(t, p384)
	check("another curve", p384Srv, p384Srv.URL)

	if _, err := VerifyProof(ctx, "a.b.c", "ftp://perfilseguro.mx"); err == nil {
		t.Error("an ftp URL was accepted")
	}
}

func TestClientVerifyProofUsesItsBaseURL(t *testing.T) {
	key := newKey(t)
	srv := newIssuerServer(t, publicJWK(t, key, "k1"))
	c := newTestClient(t, srv.URL)
	claims, err := c.VerifyProof(context.Background(), signProof(t, key, "k1", ProofType, proofClaims(srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	if claims["reference"] != "pedido-123" || srv.hits.Load() != 1 {
		t.Errorf("claims = %v after %d requests", claims, srv.hits.Load())
	}
}
