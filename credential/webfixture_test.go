package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// webFixture is what the web verifier's tests check: a credential issued by this package, the
// keys, and two status lists (valid, revoked). UPDATE_WEB_FIXTURE=1 writes it again.
const webFixture = "../web/src/features/credentials/lib/testdata/credential.json"

func TestWebVerifierFixtureComesFromThisIssuer(t *testing.T) {
	if os.Getenv("UPDATE_WEB_FIXTURE") != "1" {
		raw, err := os.ReadFile(webFixture)
		require.NoError(t, err, "run UPDATE_WEB_FIXTURE=1 go test ./credential to create it")
		var f map[string]any
		require.NoError(t, json.Unmarshal(raw, &f))
		require.Contains(t, f, "credential")
		require.Contains(t, f, "documentCredential", "run UPDATE_WEB_FIXTURE=1 go test ./credential to add it")
		return
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	key, err := NewKey(priv)
	require.NoError(t, err)
	iss := &Issuer{URL: "https://perfilseguro.example", Keys: []Key{key}}
	uri := iss.URL + "/api/credentials/status/1"
	cred, err := iss.Issue(Subject{ProfileID: "PS-1234-5678-90", Level: 3, Name: "Ana López",
		ValidatedAt: time.Date(2026, 1, 15, 18, 0, 0, 0, time.UTC), Origin: "Broker",
		Scores: map[string]float64{"overall": 97.5, "face_match": 99.1}, ExpiresAt: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC),
		StatusIdx: 4242, StatusURI: uri})
	require.NoError(t, err)
	// A profile certified by its ID (issue 52): the document's PID claims, age_equal_or_over's
	// "18" nested in it.
	documented, err := iss.Issue(Subject{ProfileID: "PS-2345-6789-01", Level: 3, Name: "Ana María Ruiz Soto",
		ValidatedAt: time.Date(2026, 1, 15, 18, 0, 0, 0, time.UTC), Origin: "Broker", ExpiresAt: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC),
		StatusIdx: 4243, StatusURI: uri, Document: &PID{GivenName: "Ana María", FamilyName: "Ruiz Soto",
			Birthdate: time.Date(1990, 3, 15, 0, 0, 0, 0, time.UTC), Nationalities: []string{"MX"}, CURP: "RUSA900315MJCZTN04"}})
	require.NoError(t, err)
	list := NewStatusList(1 << 17)
	valid, err := iss.SignStatusList(uri, list, 100*365*24*time.Hour, 5*time.Minute)
	require.NoError(t, err)
	require.NoError(t, list.Set(4242, true))
	revoked, err := iss.SignStatusList(uri, list, 100*365*24*time.Hour, 5*time.Minute)
	require.NoError(t, err)
	out, err := json.MarshalIndent(map[string]any{"issuer": iss.URL, "jwks": JWKS(iss.Keys), "credential": cred,
		"documentCredential": documented,
		"statusListValid":    valid, "statusListRevoked": revoked}, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(webFixture), 0o755))
	require.NoError(t, os.WriteFile(webFixture, append(out, '\n'), 0o644))
}
