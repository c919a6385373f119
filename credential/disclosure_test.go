package credential

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// The example Disclosure of RFC 9901 §4.2.1 (its JSON has a space after each comma) and its digest.
const (
	rfcSalt       = "_26bc4LT-ac6q2KI6cBW5es"
	rfcJSON       = `["_26bc4LT-ac6q2KI6cBW5es", "family_name", "Möbius"]`
	rfcDisclosure = "WyJfMjZiYzRMVC1hYzZxMktJNmNCVzVlcyIsICJmYW1pbHlfbmFtZSIsICJNw7ZiaXVzIl0"
	rfcDigest     = "X9yH0Ajrdm1Oij4tWso9UzzKJvPoDxwmuEcO3XAdRC0"
)

// requireParsesAs checks that an encoded Disclosure parses back to want.
func requireParsesAs(t *testing.T, encoded string, want disclosure) {
	t.Helper()
	d, err := parseDisclosure(encoded)
	require.NoError(t, err)
	require.Equal(t, want, d)
}

func TestDisclosureMatchesRFC9901Example(t *testing.T) {
	t.Parallel()
	require.Equal(t, rfcDisclosure, encodeDisclosureJSON([]byte(rfcJSON)))
	require.Equal(t, rfcDigest, digest(rfcDisclosure))

	requireParsesAs(t, rfcDisclosure, disclosure{name: "family_name", value: "Möbius"})
}

func TestDisclosureWithFixedSalt(t *testing.T) {
	t.Parallel()
	own, err := disclosureWithSalt(rfcSalt, "family_name", "Möbius")
	require.NoError(t, err)
	// Same array as the RFC's, compact JSON, UTF-8 kept as is (not \u00f6).
	require.Equal(t, encodeDisclosureJSON([]byte(`["_26bc4LT-ac6q2KI6cBW5es","family_name","Möbius"]`)), own)
	// The digest covers the exact string, so a different JSON spelling has a different digest.
	require.NotEqual(t, rfcDigest, digest(own))

	requireParsesAs(t, own, disclosure{name: "family_name", value: "Möbius"})
}

func TestDisclosureKeepsHTMLCharacters(t *testing.T) {
	t.Parallel()
	own, err := disclosureWithSalt("salt", "name", "<a&b>")
	require.NoError(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(own)
	require.NoError(t, err)
	require.Equal(t, `["salt","name","<a&b>"]`, string(raw))
}

func TestFreshDisclosuresHaveDistinct128BitSalts(t *testing.T) {
	t.Parallel()
	a, err := newDisclosure("name", "Ana")
	require.NoError(t, err)
	b, err := newDisclosure("name", "Ana")
	require.NoError(t, err)
	require.NotEqual(t, a, b)

	raw, err := base64.RawURLEncoding.DecodeString(a)
	require.NoError(t, err)
	var arr []any
	require.NoError(t, json.Unmarshal(raw, &arr))
	salt, err := base64.RawURLEncoding.DecodeString(arr[0].(string))
	require.NoError(t, err)
	require.Len(t, salt, 16)
}

func TestParseDisclosureRefusesBadShapes(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string]string{
		"not json":       `nope`,
		"object":         `{"a":1}`,
		"one element":    `["salt"]`,
		"four elements":  `["salt","a",1,2]`,
		"numeric salt":   `[1,"a",1]`,
		"numeric name":   `["salt",1,1]`,
		"reserved _sd":   `["salt","_sd",[]]`,
		"reserved dots":  `["salt","...","x"]`,
		"not base64 url": "",
	} {
		encoded := encodeDisclosureJSON([]byte(raw))
		if name == "not base64 url" {
			encoded = "!!!"
		}
		_, err := parseDisclosure(encoded)
		require.ErrorIs(t, err, ErrDisclosure, name)
	}
}
