package credential

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// unsigned builds "<header>.<payload>.<fake signature>~<disclosures>~" for tests of Disclosed,
// which does not look at the signature.
func unsigned(t *testing.T, payload map[string]any, disclosures ...string) string {
	t.Helper()
	raw, err := json.Marshal(payload)
	require.NoError(t, err)
	enc := base64.RawURLEncoding.EncodeToString
	jwt := enc([]byte(`{"alg":"ES256","typ":"dc+sd-jwt"}`)) + "." + enc(raw) + "." + enc([]byte("sig"))
	return compact{jwt: jwt}.join(disclosures)
}

// mustDisclosure is disclosureWithSalt that fails the test on error.
func mustDisclosure(t *testing.T, salt, name string, value any) string {
	t.Helper()
	d, err := disclosureWithSalt(salt, name, value)
	require.NoError(t, err)
	return d
}

func TestDisclosedRoundTripsOwnDisclosures(t *testing.T) {
	t.Parallel()
	name := mustDisclosure(t, rfcSalt, "family_name", "Möbius")
	scores := mustDisclosure(t, "s2", "scores", map[string]float64{"liveness": 0.5})
	sdjwt := unsigned(t, map[string]any{
		"iss": issuerURL, "_sd_alg": "sha-256", "_sd": []string{digest(name), digest(scores), "decoy"},
	}, name, scores)

	claims, err := Disclosed(sdjwt)
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"iss": issuerURL, "family_name": "Möbius", "scores": map[string]any{"liveness": 0.5},
	}, claims)

	// Undisclosed claims stay hidden; the decoy and the withheld digest are simply not resolved.
	claims, err = Disclosed(unsigned(t, map[string]any{"_sd": []string{digest(name), digest(scores)}}, name))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"family_name": "Möbius"}, claims)
}

func TestDisclosedResolvesNestedAndArrayDisclosures(t *testing.T) {
	t.Parallel()
	city := mustDisclosure(t, "s1", "city", "Monterrey")
	address := mustDisclosure(t, "s2", "address", map[string]any{"country": "MX", "_sd": []string{digest(city)}})
	element := encodeDisclosureJSON([]byte(`["s3","es-MX"]`))
	sdjwt := unsigned(t, map[string]any{
		"_sd":       []string{digest(address)},
		"languages": []any{map[string]any{"...": digest(element)}, map[string]any{"...": "withheld"}, "en"},
	}, address, city, element)

	claims, err := Disclosed(sdjwt)
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"address":   map[string]any{"country": "MX", "city": "Monterrey"},
		"languages": []any{"es-MX", "en"},
	}, claims)
}

func TestDisclosedRefusesInconsistentDisclosures(t *testing.T) {
	t.Parallel()
	name := mustDisclosure(t, "s1", "name", "Ana")
	clash := mustDisclosure(t, "s2", "iss", "https://evil.example")
	element := encodeDisclosureJSON([]byte(`["s3","x"]`))
	for label, sdjwt := range map[string]string{
		"unreferenced":        unsigned(t, map[string]any{"_sd": []string{"other"}}, name),
		"repeated disclosure": unsigned(t, map[string]any{"_sd": []string{digest(name)}}, name, name),
		"digest twice":        unsigned(t, map[string]any{"_sd": []string{digest(name), digest(name)}}, name),
		"digest in two places": unsigned(t, map[string]any{
			"_sd": []string{digest(name)}, "nested": map[string]any{"_sd": []string{digest(name)}},
		}, name),
		"decoy twice":       unsigned(t, map[string]any{"_sd": []string{"decoy", "decoy"}}),
		"overrides a claim": unsigned(t, map[string]any{"iss": issuerURL, "_sd": []string{digest(clash)}}, clash),
		"element in _sd":    unsigned(t, map[string]any{"_sd": []string{digest(element)}}, element),
		"property in array": unsigned(t, map[string]any{"a": []any{map[string]any{"...": digest(name)}}}, name),
	} {
		_, err := Disclosed(sdjwt)
		require.ErrorIs(t, err, ErrDisclosure, label)
	}
}

func TestDisclosedRefusesMalformedInput(t *testing.T) {
	t.Parallel()
	for label, sdjwt := range map[string]string{
		"empty":            "",
		"plain JWT":        "a.b.c",
		"two parts":        "YQ.YQ~",
		"not base64":       "a!.b.c~",
		"key binding JWT":  unsigned(t, map[string]any{}) + "eyJ.eyJ.sig",
		"empty disclosure": unsigned(t, map[string]any{}) + "~",
		"payload array":    "e30.W10.c2ln~",
		"_sd not array":    unsigned(t, map[string]any{"_sd": "x"}),
		"other _sd_alg":    unsigned(t, map[string]any{"_sd_alg": "sha-512"}),
	} {
		_, err := Disclosed(sdjwt)
		require.ErrorIs(t, err, ErrMalformed, label)
	}
}
