package credential

import (
	"strings"
	"time"

	"golang.org/x/text/language"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// The document's data under the EUDI PID claim names (PID Rule Book, SD-JWT VC encoding):
// given_name, family_name, birthdate, age_equal_or_over, nationalities and
// personal_administrative_number (the CURP). Issue 52 item 6: only a profile whose name was
// read from its identity document carries them, each selectively disclosable.
const (
	ClaimGivenName   = "given_name"
	ClaimFamilyName  = "family_name"
	ClaimBirthdate   = "birthdate"
	ClaimAgeOver     = "age_equal_or_over"
	ClaimNationality = "nationalities"
	ClaimCURP        = "personal_administrative_number"
)

// PID is what the identity document certifies, as the credential states it.
type PID struct {
	GivenName     string    // given names, proper case ("María José")
	FamilyName    string    // first and second surname as printed, proper case ("Ruiz Soto")
	Birthdate     time.Time // date of birth (its calendar date is what counts)
	Nationalities []string  // ISO 3166-1 alpha-2 ("MX")
	CURP          string    // personal_administrative_number; never logged
}

// PIDOf is the credential's view of a document: names in proper case (identity.ProperName),
// the nationality as an ISO 3166-1 alpha-2 code (an INE, issued only to Mexican citizens, says
// MX when the provider read no nationality). Nil when the document gives no name.
func PIDOf(d perfilseguro.DocumentIdentity) *PID {
	p := PID{
		GivenName:  identity.ProperName(d.GivenNames),
		FamilyName: identity.ProperName(strings.TrimSpace(d.FirstSurname + " " + d.SecondSurname)),
		Birthdate:  d.DateOfBirth,
		CURP:       strings.ToUpper(strings.TrimSpace(d.PersonalNumber)),
	}
	if p.GivenName == "" && p.FamilyName == "" {
		return nil
	}
	nationality := d.Nationality
	if nationality == "" && d.DocumentType == perfilseguro.DocumentINE {
		nationality = "MEX"
	}
	if code, ok := Alpha2(nationality); ok {
		p.Nationalities = []string{code}
	}
	return &p
}

// Alpha2 converts an ISO 3166-1 country code (alpha-3 as documents print it, or alpha-2) to
// alpha-2 with golang.org/x/text's region table; false for anything that is not a country.
func Alpha2(code string) (string, bool) {
	code = strings.TrimSpace(code)
	if code == "" {
		return "", false
	}
	r, err := language.ParseRegion(code)
	if err != nil || !r.IsCountry() {
		return "", false
	}
	return r.String(), true
}

// claims are the PID's selectively disclosable claims that have a value, on day (a date in
// Mexico City: age_equal_or_over is computed then). age_equal_or_over is returned apart: its
// "18" member is itself a disclosure nested in it.
func (p PID) claims(day time.Time) (flat map[string]any, ageOver *bool) {
	flat = map[string]any{}
	if p.GivenName != "" {
		flat[ClaimGivenName] = p.GivenName
	}
	if p.FamilyName != "" {
		flat[ClaimFamilyName] = p.FamilyName
	}
	if !p.Birthdate.IsZero() {
		flat[ClaimBirthdate] = p.Birthdate.Format(time.DateOnly)
		over := identity.AgeOn(p.Birthdate, day) >= identity.LegalAge
		ageOver = &over
	}
	if len(p.Nationalities) > 0 {
		flat[ClaimNationality] = p.Nationalities
	}
	if p.CURP != "" {
		flat[ClaimCURP] = p.CURP
	}
	return flat, ageOver
}
