package credential

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDCQLAsksForTopLevelClaimsOfThisCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	q, err := f.issuer.DCQL("identidad", []string{"name", "validated_at"})
	require.NoError(t, err)
	raw, err := json.Marshal(q)
	require.NoError(t, err)
	require.JSONEq(t, `{"credentials":[{"id":"identidad","format":"dc+sd-jwt",
		"meta":{"vct_values":["`+f.issuer.VCT()+`"]},"claims":[{"path":["name"]},{"path":["validated_at"]}]}]}`, string(raw))
	id, claims := q.Requested()
	require.Equal(t, "identidad", id)
	require.Equal(t, []string{"name", "validated_at"}, claims)

	// No claims: only proof that a valid credential is held; claims is left out, not empty.
	q, err = f.issuer.DCQL("identidad", nil)
	require.NoError(t, err)
	raw, _ = json.Marshal(q)
	require.NotContains(t, string(raw), "claims")

	for _, bad := range [][]string{{"nombre"}, {"name", "name"}, {""}} {
		_, err := f.issuer.DCQL("identidad", bad)
		require.Error(t, err, bad)
	}
	_, err = f.issuer.DCQL("con espacio", nil)
	require.Error(t, err)
}

func TestCanonicalAcceptsOnlyWhatThisCredentialCanAnswer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	yes, no := true, false
	good := func() DCQLCredential {
		return DCQLCredential{ID: "pid", Format: "dc+sd-jwt", Meta: DCQLMeta{VCTValues: []string{"https://otro.example/vct", f.issuer.VCT()}},
			Claims: []DCQLClaim{{ID: "n", Path: []string{"name"}}}, Multiple: &no, RequireCryptographicHolderBinding: &yes}
	}
	got, err := f.issuer.Canonical(DCQLQuery{Credentials: []DCQLCredential{good()}})
	require.NoError(t, err)
	want, err := f.issuer.DCQL("pid", []string{"name"})
	require.NoError(t, err)
	require.Equal(t, want, got)

	// The document's claims (issue 52), and the PID way of asking for legal age.
	pid := good()
	pid.Claims = []DCQLClaim{{Path: []string{"given_name"}}, {Path: []string{"personal_administrative_number"}},
		{Path: []string{"age_equal_or_over", "18"}}, {Path: []string{"birthdate"}}}
	got, err = f.issuer.Canonical(DCQLQuery{Credentials: []DCQLCredential{pid}})
	require.NoError(t, err)
	_, claims := got.Requested()
	require.Equal(t, []string{"given_name", "personal_administrative_number", "age_equal_or_over", "birthdate"}, claims)

	for name, change := range map[string]func(*DCQLQuery){
		"another nested member":  func(q *DCQLQuery) { q.Credentials[0].Claims[0].Path = []string{"age_equal_or_over", "21"} },
		"a PID claim we lack":    func(q *DCQLQuery) { q.Credentials[0].Claims[0].Path = []string{"place_of_birth"} },
		"two credential queries": func(q *DCQLQuery) { q.Credentials = append(q.Credentials, good()) },
		"none":                   func(q *DCQLQuery) { q.Credentials = nil },
		"another format":         func(q *DCQLQuery) { q.Credentials[0].Format = "mso_mdoc" },
		"another vct":            func(q *DCQLQuery) { q.Credentials[0].Meta.VCTValues = []string{"https://otro.example/vct"} },
		"multiple":               func(q *DCQLQuery) { q.Credentials[0].Multiple = &yes },
		"without holder binding": func(q *DCQLQuery) { q.Credentials[0].RequireCryptographicHolderBinding = &no },
		"empty claims":           func(q *DCQLQuery) { q.Credentials[0].Claims = []DCQLClaim{} },
		"nested path":            func(q *DCQLQuery) { q.Credentials[0].Claims[0].Path = []string{"scores", "liveness"} },
		"unknown claim":          func(q *DCQLQuery) { q.Credentials[0].Claims[0].Path = []string{"curp"} },
		"bad claim id":           func(q *DCQLQuery) { q.Credentials[0].Claims[0].ID = "a b" },
	} {
		q := DCQLQuery{Credentials: []DCQLCredential{good()}}
		change(&q)
		_, err := f.issuer.Canonical(q)
		require.Error(t, err, name)
	}
}
