package credential

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// sampleCURP is the CURP of samplePID (a made-up person).
const sampleCURP = "RUSA900315MJCZTN04"

// samplePID is a document-certified person born on 15 March 1990.
func samplePID() *PID {
	return &PID{GivenName: "Ana María", FamilyName: "Ruiz Soto", Birthdate: time.Date(1990, 3, 15, 0, 0, 0, 0, time.UTC),
		Nationalities: []string{"MX"}, CURP: sampleCURP}
}

// decoded is a disclosure as JSON: [salt, name, value].
func decoded(t *testing.T, d string) []any {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(d)
	require.NoError(t, err)
	var out []any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// The document's claims are each a disclosure under its EUDI PID name, never in clear in the
// signed payload, referenced from _sd (age_equal_or_over's "18" from the object it discloses).
func TestTheDocumentsClaimsAreEachSelectivelyDisclosable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.subject.Document = samplePID()
	sdjwt := f.issue(t)
	jwt, disclosures := parts(t, sdjwt)
	payload := jwtPart(t, jwt, 1)
	rawPayload, err := base64.RawURLEncoding.DecodeString(strings.Split(jwt, ".")[1])
	require.NoError(t, err)
	for _, clear := range []string{sampleCURP, "1990-03-15", "Ana María", "Ruiz Soto", "given_name", "personal_administrative_number"} {
		require.NotContains(t, string(rawPayload), clear, "nothing of the document in clear in the JWT")
	}
	sd := toStrings(t, payload["_sd"])
	require.Len(t, disclosures, 4+7, "4 claims of the profile, 6 of the document and the nested 18")
	require.Len(t, sd, 4+6+decoys)

	byName := map[string][]any{}
	for _, d := range disclosures {
		parts := decoded(t, d)
		require.Len(t, parts, 3)
		byName[parts[1].(string)] = parts
		if parts[1] == "18" {
			require.NotContains(t, sd, digest(d), "the nested member is referenced from its object, not the top")
			continue
		}
		require.Contains(t, sd, digest(d))
	}
	require.Equal(t, "Ana María", byName["given_name"][2])
	require.Equal(t, "Ruiz Soto", byName["family_name"][2])
	require.Equal(t, "1990-03-15", byName["birthdate"][2])
	require.Equal(t, []any{"MX"}, byName["nationalities"][2])
	require.Equal(t, sampleCURP, byName["personal_administrative_number"][2])
	require.Equal(t, true, byName["18"][2])
	age := byName["age_equal_or_over"][2].(map[string]any)
	require.Equal(t, []any{digestOfNamed(t, disclosures, "18")}, age["_sd"])

	claims, err := Verify(sdjwt, f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"18": true}, claims["age_equal_or_over"])
	require.Equal(t, sampleCURP, claims["personal_administrative_number"])
	require.Equal(t, "María José Pérez <Ñ&>", claims["name"], "the profile's claims stay as they were")
}

func digestOfNamed(t *testing.T, disclosures []string, name string) string {
	t.Helper()
	for _, d := range disclosures {
		if decoded(t, d)[1] == name {
			return digest(d)
		}
	}
	t.Fatalf("no disclosure of %q", name)
	return ""
}

// A presentation of the given name alone shows neither the CURP nor the birth date; asking for
// age_equal_or_over brings its nested "18" along, and nothing else.
func TestAPresentationOfTheGivenNameDoesNotRevealTheCURP(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.subject.Document = samplePID()
	sdjwt := f.issue(t)

	shown, err := Present(sdjwt, "given_name")
	require.NoError(t, err)
	_, disclosures := parts(t, shown)
	require.Len(t, disclosures, 1)
	for _, d := range disclosures {
		raw, _ := base64.RawURLEncoding.DecodeString(d)
		require.NotContains(t, string(raw), sampleCURP)
		require.NotContains(t, string(raw), "1990")
	}
	require.NotContains(t, shown, sampleCURP)
	claims, err := Verify(shown, f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, "Ana María", claims["given_name"])
	for _, hidden := range []string{"personal_administrative_number", "birthdate", "family_name", "age_equal_or_over", "nationalities", "name"} {
		require.NotContains(t, claims, hidden)
	}

	shown, err = Present(sdjwt, "age_equal_or_over")
	require.NoError(t, err)
	_, disclosures = parts(t, shown)
	require.Len(t, disclosures, 2, "the object and its member")
	claims, err = Verify(shown, f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"18": true}, claims["age_equal_or_over"])
	require.NotContains(t, claims, "birthdate", "proving legal age does not tell the birth date")

	// The object without its member verifies and says nothing about the age.
	jwt, all := parts(t, sdjwt)
	var parentOnly []string
	for _, d := range all {
		if decoded(t, d)[1] == "age_equal_or_over" {
			parentOnly = append(parentOnly, d)
		}
	}
	claims, err = Verify(compact{jwt: jwt}.join(parentOnly), f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, map[string]any{}, claims["age_equal_or_over"])
}

// age_equal_or_over is computed on the day of issuance in Mexico City: the day before the 18th
// birthday it is false, on the birthday true.
func TestAgeOverIsComputedOnTheDayOfIssuance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		now  time.Time
		want bool
	}{
		{time.Date(2026, 3, 15, 5, 0, 0, 0, time.UTC), false}, // 14 March, 23:00 in Mexico City
		{time.Date(2026, 3, 15, 7, 0, 0, 0, time.UTC), true},  // 15 March, 01:00 in Mexico City
	} {
		f := setup(t)
		f.issuer.Now = func() time.Time { return c.now }
		f.subject.ExpiresAt = c.now.AddDate(1, 0, 0)
		pid := samplePID()
		pid.Birthdate = time.Date(2008, 3, 15, 0, 0, 0, 0, time.UTC)
		f.subject.Document = pid
		claims, err := Verify(f.issue(t), f.issuer.Keys, c.now)
		require.NoError(t, err)
		require.Equal(t, map[string]any{"18": c.want}, claims["age_equal_or_over"], c.now)
	}
}

// A profile validated before documents were read (no Document) gets none of the PID claims; a
// document without a birth date gets neither birthdate nor age_equal_or_over.
func TestWithoutADocumentTheCredentialIsAsBefore(t *testing.T) {
	t.Parallel()
	f := setup(t)
	claims, err := Verify(f.issue(t), f.issuer.Keys, f.now)
	require.NoError(t, err)
	for _, name := range []string{"given_name", "family_name", "birthdate", "age_equal_or_over", "nationalities", "personal_administrative_number"} {
		require.NotContains(t, claims, name)
	}
	_, disclosures := parts(t, f.issue(t))
	require.Len(t, disclosures, 4)

	pid := samplePID()
	pid.Birthdate, pid.CURP = time.Time{}, ""
	f.subject.Document = pid
	claims, err = Verify(f.issue(t), f.issuer.Keys, f.now)
	require.NoError(t, err)
	require.Equal(t, "Ana María", claims["given_name"])
	for _, name := range []string{"birthdate", "age_equal_or_over", "personal_administrative_number"} {
		require.NotContains(t, claims, name)
	}
}

// PIDOf writes the names in proper case as printed (first + second surname), the nationality
// in ISO 3166-1 alpha-2, and an INE without a nationality as Mexican.
func TestPIDOfADocument(t *testing.T) {
	t.Parallel()
	birth := time.Date(1990, 3, 15, 0, 0, 0, 0, time.UTC)
	doc := identity.SampleDocument("Ana María Ruiz Soto", birth)
	p := PIDOf(doc)
	require.NotNil(t, p)
	require.Equal(t, "Ana María", p.GivenName)
	require.Equal(t, "Ruiz Soto", p.FamilyName)
	require.Equal(t, birth, p.Birthdate)
	require.Equal(t, []string{"MX"}, p.Nationalities)
	require.Equal(t, doc.PersonalNumber, p.CURP)

	doc = perfilseguro.DocumentIdentity{DocumentType: perfilseguro.DocumentPassport, GivenNames: "JOSÉ LUIS",
		FirstSurname: "DE LA GARZA", SecondSurname: "", Nationality: "ESP"}
	p = PIDOf(doc)
	require.Equal(t, "José Luis", p.GivenName)
	require.Equal(t, "De la Garza", p.FamilyName)
	require.Equal(t, []string{"ES"}, p.Nationalities)

	doc.Nationality = ""
	require.Empty(t, PIDOf(doc).Nationalities, "a passport without a nationality states none")
	doc.DocumentType, doc.Nationality = perfilseguro.DocumentINE, ""
	require.Equal(t, []string{"MX"}, PIDOf(doc).Nationalities, "an INE is issued to Mexican citizens")
	doc.Nationality = "XXX"
	require.Empty(t, PIDOf(doc).Nationalities, "not a country")
	require.Nil(t, PIDOf(perfilseguro.DocumentIdentity{Nationality: "MEX"}), "no name: nothing to certify")

	for in, want := range map[string]string{"MEX": "MX", "mex": "MX", "USA": "US", "GTM": "GT", "MX": "MX"} {
		got, ok := Alpha2(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "D", "XXX", "123"} {
		_, ok := Alpha2(bad)
		require.False(t, ok, bad)
	}
}
