package docdata

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/secure"
)

// personalValues are the strings in the fixtures that name, number, date, locate or picture the
// person: none may be left in the kept part.
var personalValues = []string{
	"IDMEX2031456789", "LOHJ880314MDFPRS09", "G12345678", "MARÍA", "MARIA", "LÓPEZ", "LOPEZ", "Maria Lopez",
	"1988-03-14", "ASTURIAS", "Asturias", "06890", "s3.amazonaws.com", "example.com/", ".jpg", ".mp4", ".pdf",
	"5512345678", "maria.lopez", "187.190.12.34", "19.409", "-99.134", "123456789012", "María José",
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

func fixtures(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(names), 4)
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	return names
}

func semantic(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

func TestRedactDecisionKeepsNoPersonalFieldInClear(t *testing.T) {
	t.Parallel()
	for _, name := range fixtures(t) {
		raw := fixture(t, name)
		kept, personal, err := RedactDecision(raw)
		require.NoError(t, err, name)
		require.NotNil(t, personal, name)
		found := 0
		for _, v := range personalValues {
			require.NotContains(t, string(kept), v, "%s: %q left in clear", name, v)
			if strings.Contains(string(raw), v) {
				found++
				require.Contains(t, string(personal), strings.ReplaceAll(v, "/", `/`), "%s: %q kept in the personal part", name, v)
			}
		}
		require.GreaterOrEqual(t, found, 8, "%s: the fixture carries personal data to remove", name)
		// What the product reads for its decisions stays: the session, its status and scores,
		// the document's type and dates, the registries' verdicts.
		for _, v := range []string{`"session_id"`, `"status":"Approved"`, `"expiration_date":"2031-12-31"`, `"issuing_state":"MEX"`} {
			require.Contains(t, string(kept), v, name)
		}
	}
	kept, _, err := RedactDecision(fixture(t, "decision_v3_ine.json"))
	require.NoError(t, err)
	for _, v := range []string{`"score":92.5`, `"full_name":"full_match"`, `"document_type":"Identity Card"`, `"vendor_data":"42"`, `"gender":"F"`} {
		require.Contains(t, string(kept), v)
	}
}

func TestRedactDecisionIsUndoneByRestoreAndIdempotent(t *testing.T) {
	t.Parallel()
	for _, name := range fixtures(t) {
		raw := fixture(t, name)
		kept, personal, err := RedactDecision(raw)
		require.NoError(t, err)
		back, err := RestoreDecision(kept, personal)
		require.NoError(t, err)
		require.Equal(t, semantic(t, raw), semantic(t, back), "%s: restore gives the provider's answer back", name)

		again, none, err := RedactDecision(kept)
		require.NoError(t, err)
		require.Nil(t, none, "%s: a redacted answer has nothing left to remove", name)
		require.Equal(t, kept, again)
	}
}

func TestRedactDecisionRefusesWhatIsNotAnObject(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{``, `[]`, `"x"`, `{`, `null`} {
		_, _, err := RedactDecision([]byte(raw))
		require.Error(t, err, raw)
	}
	_, err := RestoreDecision([]byte(`{"a":1}`), []byte(`{"version":1,"fields":[{"path":["a","b"],"value":1}]}`))
	require.Error(t, err, "a path that does not fit the kept part")
	_, err = RestoreDecision([]byte(`{"a":[]}`), []byte(`{"version":1,"fields":[{"path":["a",3,"b"],"value":1}]}`))
	require.Error(t, err, "an index out of range")
	_, err = RestoreDecision([]byte(`{}`), []byte(`{"version":2,"fields":[]}`))
	require.Error(t, err, "an unknown version")
}

func TestSealAndOpenUnderTheDocumentKey(t *testing.T) {
	t.Parallel()
	key := secure.NewDocumentKey("doc-key-0123456789abcdef0123456789abcdef")
	raw := fixture(t, "webhook_v3.json")
	kept, sealed, err := Seal(key, raw)
	require.NoError(t, err)
	require.NotNil(t, sealed)
	for _, v := range personalValues {
		require.NotContains(t, *sealed, v)
		require.NotContains(t, string(kept), v)
	}
	back, err := Open(key, kept, sealed)
	require.NoError(t, err)
	require.Equal(t, semantic(t, raw), semantic(t, back))

	_, err = Open(secure.NewDocumentKey("another-key-0123456789abcdef0123456789"), kept, sealed)
	require.Error(t, err, "another key does not open it")
	_, err = Open(secure.DocumentKey{}, kept, sealed)
	require.Error(t, err)

	// Without a key the personal part is dropped, never stored in clear.
	kept2, sealed2, err := Seal(secure.DocumentKey{}, raw)
	require.NoError(t, err)
	require.Nil(t, sealed2)
	require.Equal(t, kept, kept2)

	// Nothing personal: nothing sealed, kept as given.
	plain := []byte(`{"session_id":"s","status":"In Progress"}`)
	k3, s3, err := Seal(key, plain)
	require.NoError(t, err)
	require.Nil(t, s3)
	require.Equal(t, plain, k3)
	got, err := Open(key, k3, s3)
	require.NoError(t, err)
	require.Equal(t, plain, got)
}

func TestSealKeepsNothingOfAnAnswerThatIsNotAnObject(t *testing.T) {
	t.Parallel()
	key := secure.NewDocumentKey("doc-key-0123456789abcdef0123456789abcdef")
	raw := []byte(`["LOHJ880314MDFPRS09", "MARÍA JOSÉ"]`)
	kept, sealed, err := Seal(key, raw)
	require.NoError(t, err)
	require.Equal(t, Unparsable, kept)
	require.NotNil(t, sealed)
	require.NotContains(t, *sealed, "LOHJ")
	back, err := Open(key, kept, sealed)
	require.NoError(t, err)
	require.Equal(t, raw, back)
}
