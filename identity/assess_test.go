package identity

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// ine is a consistent INE for "ANA MARÍA RUIZ SOTO", born 1990-05-17, valid through 2031.
func ine() perfilseguro.DocumentIdentity {
	birth := day(1990, 5, 17)
	return perfilseguro.DocumentIdentity{DocumentType: perfilseguro.DocumentINE, IssuingCountry: "MEX",
		GivenNames: "ANA MARÍA", FirstSurname: "RUIZ", SecondSurname: "SOTO", DateOfBirth: birth, Sex: "F",
		PersonalNumber: ExampleCURP("ANA MARÍA", "RUIZ", "SOTO", birth, "M", "JC"),
		ExpiryDate:     day(2031, 12, 31), Nationality: "MEX"}
}

func codes(a Assessment) []string {
	out := []string{}
	for _, f := range a.Findings {
		out = append(out, f.Code)
	}
	return out
}

func TestAssessDecidesFromTheDocument(t *testing.T) {
	t.Parallel()
	checkDay := day(2026, 11, 28)
	with := func(change func(*perfilseguro.DocumentIdentity)) *perfilseguro.DocumentIdentity {
		d := ine()
		change(&d)
		return &d
	}
	cases := []struct {
		name     string
		typed    string
		doc      *perfilseguro.DocumentIdentity
		registry []perfilseguro.RegistryCheck
		verdict  Verdict
		finding  string // a finding code that must be there ("" none at all)
	}{
		{"the typed name is part of the document's", "Ana Ruiz", with(func(*perfilseguro.DocumentIdentity) {}), nil, VerdictMatch, ""},
		{"someone else's ID", "María López Hernández", with(func(*perfilseguro.DocumentIdentity) {}), nil, VerdictMismatch, "not_on_document"},
		{"one letter off in a long word", "Ana Ruiz Hernandes", with(func(d *perfilseguro.DocumentIdentity) {
			d.SecondSurname = "HERNÁNDEZ"
			d.PersonalNumber = ""
		}), nil, VerdictNear, "typo"},
		{"no document in the decision", "Ana Ruiz", nil, nil, VerdictNoDocument, "no_document"},
		{"a document without a name", "Ana Ruiz", &perfilseguro.DocumentIdentity{DocumentType: "ine"}, nil, VerdictNoDocument, "no_document"},
		{"expired the day before", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) { d.ExpiryDate = day(2026, 11, 27) }), nil, VerdictExpired, "expired_document"},
		{"expiring on the day still counts", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) { d.ExpiryDate = checkDay }), nil, VerdictMatch, ""},
		{"seventeen", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) {
			d.DateOfBirth = day(2008, 11, 29)
			d.PersonalNumber = ExampleCURP("ANA MARÍA", "RUIZ", "SOTO", d.DateOfBirth, "M", "JC")
		}), nil, VerdictUnderAge, "under_age"},
		{"eighteen today", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) {
			d.DateOfBirth = day(2008, 11, 28)
			d.PersonalNumber = ExampleCURP("ANA MARÍA", "RUIZ", "SOTO", d.DateOfBirth, "M", "JC")
		}), nil, VerdictMatch, ""},
		{"a CURP with a wrong check digit", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) {
			c := []byte(d.PersonalNumber)
			c[17] = '0' + (c[17]-'0'+1)%10
			d.PersonalNumber = string(c)
		}), nil, VerdictNear, "curp_check_digit"},
		{"a CURP of another birth date", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) { d.DateOfBirth = day(1990, 5, 18) }), nil, VerdictNear, "curp_birth_differs"},
		{"a CURP of another name", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) {
			d.PersonalNumber = ExampleCURP("JUAN", "PÉREZ", "GÓMEZ", d.DateOfBirth, "M", "JC")
		}), nil, VerdictNear, "curp_name"},
		{"the registry says no", "Ana Ruiz", with(func(*perfilseguro.DocumentIdentity) {}),
			[]perfilseguro.RegistryCheck{{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryNoMatch}}, VerdictNear, "registry_no_match"},
		{"the registry agrees", "Ana Ruiz", with(func(*perfilseguro.DocumentIdentity) {}),
			[]perfilseguro.RegistryCheck{{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryMatch}}, VerdictMatch, ""},
		{"no birth date", "Ana Ruiz", with(func(d *perfilseguro.DocumentIdentity) { d.DateOfBirth = time.Time{}; d.PersonalNumber = "" }), nil, VerdictNear, "no_birth_date"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Assess(c.typed, c.doc, c.registry, checkDay)
			require.Equal(t, c.verdict, a.Verdict, "findings %v", codes(a))
			if c.finding == "" {
				require.Empty(t, a.Findings)
			} else {
				require.Contains(t, codes(a), c.finding)
				for _, f := range a.Findings {
					require.NotEmpty(t, f.Text, "finding %s has its Spanish text", f.Code)
				}
			}
			if c.doc != nil && c.doc.SecondSurname == "SOTO" {
				require.Equal(t, "Ana María Ruiz Soto", a.DocumentName, "the name to certify is the document's, in proper case")
			}
		})
	}
}

func TestVerdictKinds(t *testing.T) {
	t.Parallel()
	require.True(t, VerdictDuplicate.Declined())
	require.True(t, VerdictUnderAge.Declined())
	require.False(t, VerdictMismatch.Declined(), "a mismatch may be settled by adopting the document's name")
	require.True(t, VerdictNoDocument.InReview())
	require.False(t, VerdictMatch.InReview())
}

func TestASampleDocumentMatchesTheNameItWasMadeFor(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Ana Ruiz", "María José López Hernández", "Jorge de la Garza Treviño", "Juan Ruiz de Velasco"} {
		d := SampleDocument(name, day(1988, 3, 9))
		a := Assess(name, &d, nil, day(2026, 11, 28))
		require.Equal(t, VerdictMatch, a.Verdict, "%s: %v", name, codes(a))
	}
}

func TestSplitNameKeepsParticlesWithTheSurname(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][2]string{
		"María José López Hernández": {"María José", "López Hernández"},
		"Jorge de la Garza Treviño":  {"Jorge", "de la Garza Treviño"},
		"Ana Ruiz":                   {"Ana", "Ruiz"},
		"Cher":                       {"Cher", ""},
	} {
		given, surnames := SplitName(name)
		require.Equal(t, want, [2]string{given, surnames}, name)
	}
}
