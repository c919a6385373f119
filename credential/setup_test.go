package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// issuerURL is the issuer identifier the tests use.
const issuerURL = "https://perfilseguro.mx"

// fixture is what most tests need: an issuer with a fixed clock and a complete subject.
type fixture struct {
	key     Key
	issuer  *Issuer
	now     time.Time
	subject Subject
}

// setup builds a fresh fixture; every test gets its own keys.
func setup(t *testing.T) fixture {
	t.Helper()
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	key := newTestKey(t)
	holder := newTestKey(t)
	holderJWK := PublicJWK(holder)
	delete(holderJWK, "kid")
	return fixture{
		key:    key,
		issuer: &Issuer{URL: issuerURL, Keys: []Key{key}, Now: func() time.Time { return now }},
		now:    now,
		subject: Subject{
			ProfileID:   "PS-7K3M-Q9XD",
			Level:       2,
			Name:        "María José Pérez <Ñ&>",
			ValidatedAt: time.Date(2026, 1, 10, 9, 30, 0, 0, time.FixedZone("CST", -6*3600)),
			Origin:      "didit",
			Scores:      map[string]float64{"liveness": 0.98, "face_match": 0.913},
			ExpiresAt:   now.AddDate(1, 0, 0),
			StatusIdx:   42,
			StatusURI:   issuerURL + "/status/1",
			HolderJWK:   holderJWK,
		},
	}
}

// newTestKey generates a P-256 Key.
func newTestKey(t *testing.T) Key {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	key, err := NewKey(priv)
	require.NoError(t, err)
	return key
}

// issue issues the fixture subject and fails the test on error.
func (f fixture) issue(t *testing.T) string {
	t.Helper()
	sdjwt, err := f.issuer.Issue(f.subject)
	require.NoError(t, err)
	return sdjwt
}

// parts splits a compact SD-JWT into its JWT and its disclosures.
func parts(t *testing.T, sdjwt string) (string, []string) {
	t.Helper()
	require.True(t, strings.HasSuffix(sdjwt, "~"), "an SD-JWT without key binding ends with ~")
	all := strings.Split(strings.TrimSuffix(sdjwt, "~"), "~")
	return all[0], all[1:]
}

// jwtPart decodes segment n (0 header, 1 payload) of a compact JWT as a JSON object.
func jwtPart(t *testing.T, jwt string, n int) map[string]any {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(strings.Split(jwt, ".")[n])
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// withPayload replaces the JWT payload (keeping header and signature) and re-serializes.
func withPayload(t *testing.T, sdjwt string, payload map[string]any) string {
	t.Helper()
	jwt, disclosures := parts(t, sdjwt)
	segments := strings.Split(jwt, ".")
	raw, err := json.Marshal(payload)
	require.NoError(t, err)
	segments[1] = base64.RawURLEncoding.EncodeToString(raw)
	return compact{jwt: strings.Join(segments, ".")}.join(disclosures)
}
