package didit

import (
	"sort"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// idVerification is the part of a v3 ID verification report (id_verifications[], or the v2
// singular id_verification) we read: its verdict and what it read from the document.
type idVerification struct {
	Status           string         `json:"status"`
	DocumentType     string         `json:"document_type"`
	DocumentNumber   string         `json:"document_number"`
	PersonalNumber   string         `json:"personal_number"`
	DateOfBirth      string         `json:"date_of_birth"`
	ExpirationDate   string         `json:"expiration_date"`
	DateOfIssue      string         `json:"date_of_issue"`
	IssuingState     string         `json:"issuing_state"` // ISO 3166-1 alpha-3 country, despite the name
	FirstName        string         `json:"first_name"`
	LastName         string         `json:"last_name"`
	FullName         string         `json:"full_name"`
	Gender           string         `json:"gender"`
	Nationality      string         `json:"nationality"`
	Address          string         `json:"address"`
	FormattedAddress string         `json:"formatted_address"`
	ParsedAddress    *parsedAddress `json:"parsed_address"`
}

// parsedAddress is the part of Didit's geocoded address we read: the region (state).
type parsedAddress struct {
	Region string `json:"region"`
}

// databaseValidation is one Database Validation report: one node run against one issuing
// state, with one validations[] entry per registry service that answered.
type databaseValidation struct {
	Status      string              `json:"status"`
	MatchType   *string             `json:"match_type"`
	Validations []registryValidated `json:"validations"`
}

// registryValidated is one registry service's answer: validation maps each compared field to
// full_match, partial_match or no_match (null when the registry gave nothing usable).
type registryValidated struct {
	ServiceID   string             `json:"service_id"`
	ServiceName string             `json:"service_name"`
	OutcomeCode string             `json:"outcome_code"`
	Validation  map[string]*string `json:"validation"`
}

func idReports(reports []idVerification) []report {
	out := make([]report, len(reports))
	for i, r := range reports {
		out[i] = report{Status: r.Status}
	}
	return out
}

func idReport(r *idVerification) *report {
	if r == nil {
		return nil
	}
	return &report{Status: r.Status}
}

// completed reports whether a document report has finished reading the document: approved,
// declined (an expired ID is still read) or sent to review. "Not Finished" and an empty status
// are attempts still under way, or abandoned, and are skipped.
func (r idVerification) completed() bool {
	switch strings.ToLower(strings.TrimSpace(r.Status)) {
	case "approved", "declined", "in review":
		return true
	}
	return false
}

// documentIdentity reads the last completed document report (v3 array, or the v2 object when
// the array is absent); nil when there is none.
func documentIdentity(reports []idVerification, legacy *idVerification) *perfilseguro.DocumentIdentity {
	if len(reports) == 0 && legacy != nil {
		reports = []idVerification{*legacy}
	}
	for i := len(reports) - 1; i >= 0; i-- {
		if reports[i].completed() {
			return reports[i].identity()
		}
	}
	return nil
}

func (r idVerification) identity() *perfilseguro.DocumentIdentity {
	first, second := splitSurnames(r.LastName, upper(r.PersonalNumber))
	d := &perfilseguro.DocumentIdentity{
		DocumentType:   documentType(r.DocumentType, r.IssuingState),
		IssuingCountry: upper(r.IssuingState),
		DocumentNumber: strings.TrimSpace(r.DocumentNumber),
		PersonalNumber: upper(r.PersonalNumber),
		GivenNames:     clean(r.FirstName),
		FirstSurname:   first,
		SecondSurname:  second,
		FullName:       clean(r.FullName),
		DateOfBirth:    date(r.DateOfBirth),
		Sex:            sex(r.Gender),
		Nationality:    upper(r.Nationality),
		IssueDate:      date(r.DateOfIssue),
		ExpiryDate:     date(r.ExpirationDate),
		Address:        clean(r.FormattedAddress),
	}
	if d.Address == "" {
		d.Address = clean(r.Address)
	}
	if r.ParsedAddress != nil {
		d.IssuingState = clean(r.ParsedAddress.Region)
	}
	if d.FullName == "" {
		d.FullName = strings.TrimSpace(d.GivenNames + " " + clean(r.LastName))
	}
	return d
}

// documentType names Didit's document types our way; a Mexican "Identity Card" is the INE
// (the only national identity card Mexico issues). Unknown types are kept as Didit wrote them.
func documentType(t, country string) string {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "identity card":
		if upper(country) == "MEX" {
			return perfilseguro.DocumentINE
		}
	case "passport":
		return perfilseguro.DocumentPassport
	case "driver's license", "drivers license", "driving license":
		return perfilseguro.DocumentDrivingLicence
	case "residence permit":
		return perfilseguro.DocumentResidencePermit
	}
	return strings.TrimSpace(t)
}

// surnameParticles join the word after them into one surname ("DE LA GARZA", "DEL RÍO").
var surnameParticles = map[string]bool{"DE": true, "DEL": true, "LA": true, "LAS": true, "LOS": true,
	"Y": true, "MC": true, "MAC": true, "VAN": true, "VON": true, "DA": true, "DI": true}

// splitSurnames splits Didit's last_name ("LÓPEZ HERNÁNDEZ", "DE LA GARZA RUIZ") into the first
// and second surname; particles stay with the surname that follows them. With more than two
// words left ("RUIZ DE VELASCO PÉREZ") the CURP decides where it can: its third letter is the
// second surname's initial, so the second surname starts at the last word with that initial;
// without one, the first word is the first surname and the rest the second. One surname leaves
// the second empty.
func splitSurnames(lastName, curp string) (first, second string) {
	var groups []string
	var pending []string
	for _, w := range strings.Fields(clean(lastName)) {
		pending = append(pending, w)
		if surnameParticles[strings.ToUpper(w)] {
			continue
		}
		groups = append(groups, strings.Join(pending, " "))
		pending = nil
	}
	if len(pending) > 0 { // a trailing particle: keep it with the last surname
		if len(groups) == 0 {
			groups = append(groups, strings.Join(pending, " "))
		} else {
			groups[len(groups)-1] += " " + strings.Join(pending, " ")
		}
	}
	switch len(groups) {
	case 0:
		return "", ""
	case 1:
		return groups[0], ""
	}
	at := 1
	if len(groups) > 2 && len(curp) == 18 {
		for k := len(groups) - 1; k >= 1; k-- {
			if surnameInitial(groups[k]) == curp[2] {
				at = k
				break
			}
		}
	}
	return strings.Join(groups[:at], " "), strings.Join(groups[at:], " ")
}

// surnameInitial is a surname's first letter as a CURP writes it: past its particles, without
// accents, Ñ as X.
func surnameInitial(surname string) byte {
	for _, w := range strings.Fields(surname) {
		if surnameParticles[strings.ToUpper(w)] {
			continue
		}
		r := []rune(strings.ToUpper(w))[0]
		switch r {
		case 'Á':
			return 'A'
		case 'É':
			return 'E'
		case 'Í':
			return 'I'
		case 'Ó':
			return 'O'
		case 'Ú', 'Ü':
			return 'U'
		case 'Ñ':
			return 'X'
		}
		if r < 0x80 {
			return byte(r)
		}
		return 0
	}
	return 0
}

// sex keeps the ICAO letters M and F; Didit's U (unknown) and anything else read as unknown.
func sex(g string) string {
	switch g = upper(g); g {
	case "M", "F":
		return g
	}
	return ""
}

// date reads Didit's YYYY-MM-DD dates; anything else reads as absent (the zero time).
func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// registryResults maps Didit's per-field validation values to ours.
var registryResults = map[string]string{
	"full_match":    perfilseguro.RegistryMatch,
	"partial_match": perfilseguro.RegistryPartialMatch,
	"no_match":      perfilseguro.RegistryNoMatch,
}

// registryChecks flattens database_validations[] (or the v2 singular object) into one check per
// registry service and field, fields in name order; a null or unknown value is not_available.
func registryChecks(reports []databaseValidation, legacy *databaseValidation) []perfilseguro.RegistryCheck {
	if len(reports) == 0 && legacy != nil {
		reports = []databaseValidation{*legacy}
	}
	var out []perfilseguro.RegistryCheck
	for _, rep := range reports {
		for _, v := range rep.Validations {
			registry := v.ServiceID
			if registry == "" {
				registry = v.ServiceName
			}
			fields := make([]string, 0, len(v.Validation))
			for f := range v.Validation {
				fields = append(fields, f)
			}
			sort.Strings(fields)
			for _, f := range fields {
				result := perfilseguro.RegistryNotAvailable
				if val := v.Validation[f]; val != nil {
					if r, ok := registryResults[strings.ToLower(*val)]; ok {
						result = r
					}
				}
				out = append(out, perfilseguro.RegistryCheck{Registry: registry, Field: f, Result: result})
			}
		}
	}
	return out
}
