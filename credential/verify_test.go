package credential

import (
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIssuedCredentialVerifies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sdjwt := f.issue(t)

	claims, err := Verify(sdjwt, f.issuer.Keys, f.now.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"iss":                issuerURL,
		"iat":                float64(f.now.Unix()),
		"exp":                float64(f.subject.ExpiresAt.Unix()),
		"vct":                issuerURL + "/credentials/identidad-validada",
		"profile_id":         "PS-7K3M-Q9XD",
		"verification_level": float64(2),
		"status":             map[string]any{"status_list": map[string]any{"idx": float64(42), "uri": issuerURL + "/status/1"}},
		"cnf":                map[string]any{"jwk": f.subject.HolderJWK},
		"name":               "María José Pérez <Ñ&>",
		"validated_at":       "2026-01-10T15:30:00Z",
		"origin":             "didit",
		"scores":             map[string]any{"liveness": 0.98, "face_match": 0.913},
	}, claims)

	unverified, err := Disclosed(sdjwt)
	require.NoError(t, err)
	require.Equal(t, claims, unverified)
}

func TestIssuedCredentialShape(t *testing.T) {
	t.Parallel()
	f := setup(t)
	jwt, disclosures := parts(t, f.issue(t))

	header := jwtPart(t, jwt, 0)
	require.Equal(t, map[string]any{"alg": "ES256", "typ": "dc+sd-jwt", "kid": f.key.ID}, header)

	payload := jwtPart(t, jwt, 1)
	require.Equal(t, "sha-256", payload["_sd_alg"])
	for _, hidden := range []string{"name", "validated_at", "origin", "scores"} {
		require.NotContains(t, payload, hidden, "selectively disclosable claims live only in disclosures")
	}
	sd := toStrings(t, payload["_sd"])
	require.Len(t, disclosures, 4)
	require.Len(t, sd, len(disclosures)+2, "two decoys")
	require.True(t, sort.StringsAreSorted(sd))
	for _, d := range disclosures {
		require.Contains(t, sd, digest(d))
	}
}

func TestIssueOmitsEmptyClaims(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.subject.Scores = nil
	f.subject.Origin = ""
	f.subject.HolderJWK = nil
	jwt, disclosures := parts(t, f.issue(t))
	require.Len(t, disclosures, 2)
	payload := jwtPart(t, jwt, 1)
	require.Len(t, toStrings(t, payload["_sd"]), 4)
	require.NotContains(t, payload, "cnf")
}

func TestPresentKeepsSelectedClaims(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sdjwt := f.issue(t)

	presented, err := Present(sdjwt, "name")
	require.NoError(t, err)
	jwt, disclosures := parts(t, presented)
	require.Len(t, disclosures, 1)
	require.True(t, strings.HasPrefix(sdjwt, jwt+"~"), "the issuer-signed JWT is untouched")
	d, err := parseDisclosure(disclosures[0])
	require.NoError(t, err)
	require.Equal(t, "name", d.name)

	claims, err := Verify(presented, f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, "María José Pérez <Ñ&>", claims["name"])
	require.Equal(t, "PS-7K3M-Q9XD", claims["profile_id"], "always-visible claims stay")
	for _, hidden := range []string{"validated_at", "origin", "scores"} {
		require.NotContains(t, claims, hidden)
	}

	nothing, err := Present(sdjwt)
	require.NoError(t, err)
	require.Equal(t, jwt+"~", nothing)
	claims, err = Verify(nothing, f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.NotContains(t, claims, "name")
}

func TestVerifyRefusesTamperedPayload(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sdjwt := f.issue(t)
	jwt, _ := parts(t, sdjwt)
	payload := jwtPart(t, jwt, 1)
	payload["verification_level"] = 3

	_, err := Verify(withPayload(t, sdjwt, payload), f.issuer.Keys, f.now)
	require.ErrorIs(t, err, ErrSignature)
}

func TestVerifyRefusesUnknownOrWrongKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sdjwt := f.issue(t)
	other := newTestKey(t)

	_, err := Verify(sdjwt, []Key{other}, f.now)
	require.ErrorIs(t, err, ErrSignature, "unknown kid")
	_, err = Verify(sdjwt, nil, f.now)
	require.ErrorIs(t, err, ErrSignature, "no keys")
	_, err = Verify(sdjwt, []Key{{ID: f.key.ID, Private: other.Private}}, f.now)
	require.ErrorIs(t, err, ErrSignature, "right kid, other key")
}

func TestVerifyRefusesUnsignedToken(t *testing.T) {
	t.Parallel()
	f := setup(t)
	jwt, _ := parts(t, f.issue(t))
	payload := strings.Split(jwt, ".")[1]
	none := b64([]byte(`{"alg":"none","typ":"dc+sd-jwt","kid":"`+f.key.ID+`"}`)) + "." + payload + "."
	_, err := Verify(none+"~", f.issuer.Keys, f.now)
	require.ErrorIs(t, err, ErrSignature)
}

func TestVerifyRefusesExpiredCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.subject.ExpiresAt = f.now.Add(time.Hour)
	sdjwt := f.issue(t)

	_, err := Verify(sdjwt, f.issuer.Keys, f.now.Add(59*time.Minute))
	require.NoError(t, err)
	_, err = Verify(sdjwt, f.issuer.Keys, f.now.Add(time.Hour))
	require.ErrorIs(t, err, ErrExpired, "exp itself is already too late")
	_, err = Verify(sdjwt, f.issuer.Keys, f.now.Add(2*time.Hour))
	require.ErrorIs(t, err, ErrExpired)
	require.False(t, errors.Is(err, ErrSignature))
}

func TestVerifyRefusesForeignDisclosure(t *testing.T) {
	t.Parallel()
	f := setup(t)
	mine := f.issue(t)
	f.subject.Name = "Otra Persona"
	_, theirs := parts(t, f.issue(t))

	for _, d := range theirs {
		_, err := Verify(mine+d+"~", f.issuer.Keys, f.now)
		require.ErrorIs(t, err, ErrDisclosure)
		_, err = Disclosed(mine + d + "~")
		require.ErrorIs(t, err, ErrDisclosure)
	}
	_, err := Verify(mine+"bm90LWEtZGlzY2xvc3VyZQ~", f.issuer.Keys, f.now)
	require.ErrorIs(t, err, ErrDisclosure)
}

func TestVerifyRefusesGarbage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	statusToken, err := f.issuer.SignStatusList(issuerURL+"/status/1", NewStatusList(8), time.Hour, time.Minute)
	require.NoError(t, err)
	sdjwt := f.issue(t)

	for label, input := range map[string]string{
		"garbage":         "garbage",
		"empty":           "",
		"tildes":          "~~~",
		"bad header":      "bm90anNvbg.e30.c2ln~",
		"wrong typ":       statusToken + "~",
		"key binding JWT": sdjwt + "eyJhbGciOiJFUzI1NiJ9.e30.c2ln",
	} {
		_, err := Verify(input, f.issuer.Keys, f.now)
		require.ErrorIs(t, err, ErrMalformed, label)
	}
}

func TestIssueRefusesIncompleteInput(t *testing.T) {
	t.Parallel()
	for label, change := range map[string]func(*fixture){
		"no profile id":      func(f *fixture) { f.subject.ProfileID = "" },
		"no expiry":          func(f *fixture) { f.subject.ExpiresAt = time.Time{} },
		"expiry now":         func(f *fixture) { f.subject.ExpiresAt = f.now },
		"expiry past":        func(f *fixture) { f.subject.ExpiresAt = f.now.Add(-time.Second) },
		"no status uri":      func(f *fixture) { f.subject.StatusURI = "" },
		"negative index":     func(f *fixture) { f.subject.StatusIdx = -1 },
		"private holder key": func(f *fixture) { f.subject.HolderJWK = map[string]any{"kty": "EC", "d": "secret"} },
		"no key":             func(f *fixture) { f.issuer.Keys = nil },
		"keyless key":        func(f *fixture) { f.issuer.Keys = []Key{{ID: "x"}} },
		"no issuer url":      func(f *fixture) { f.issuer.URL = "" },
		"trailing slash":     func(f *fixture) { f.issuer.URL = issuerURL + "/" },
	} {
		f := setup(t)
		change(&f)
		_, err := f.issuer.Issue(f.subject)
		require.Error(t, err, label)
	}
}

// toStrings converts a decoded JSON array of strings.
func toStrings(t *testing.T, v any) []string {
	t.Helper()
	arr, ok := v.([]any)
	require.True(t, ok, "want a JSON array, got %T", v)
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		require.True(t, ok)
		out = append(out, s)
	}
	return out
}
