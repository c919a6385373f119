package devsim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/perfilseguro/perfilseguro/identity"
)

// SimDocument is the identity document the stand-in's page shows, pre-filled from the
// registered name and editable: what Didit would read from the ID. Dates are YYYY-MM-DD.
type SimDocument struct {
	DocumentType   string `json:"document_type"`   // Didit's words: "Identity Card" (an INE) or "Passport"
	DocumentNumber string `json:"document_number"` // an INE's CIC or a passport number
	PersonalNumber string `json:"personal_number"` // the CURP
	GivenNames     string `json:"given_names"`
	FirstSurname   string `json:"first_surname"`
	SecondSurname  string `json:"second_surname"`
	DateOfBirth    string `json:"date_of_birth"`
	Sex            string `json:"sex"`   // "F" or "M", as Didit's gender
	State          string `json:"state"` // CURP state code of birth and residence ("DF", "JC", ...)
	IssueDate      string `json:"issue_date"`
	ExpiryDate     string `json:"expiry_date"`
	// Registry is what RENAPO answers about the CURP: "full_match" or "no_match".
	Registry string `json:"registry"`
}

// UsedCURP is the fixed CURP of the "CURP ya usada" case: pressing it on two accounts presents
// the same ID twice. It is a valid CURP (check digit included) of a woman born 1 January 1990
// in Mexico City.
const UsedCURP = "RUSA900101MDFZTN03"

// Cases are the page's one-click documents, by the button's value, in the page's order.
var Cases = []struct{ Value, Label string }{
	{"name_differs", "Caso: nombre distinto"},
	{"near_name", "Caso: nombre parecido"},
	{"expired", "Caso: identificación vencida"},
	{"under_18", "Caso: menor de edad"},
	{"curp_used", "Caso: CURP ya usada"},
	{"registry_no_match", "Caso: el registro no coincide"},
}

// simStates are the CURP codes and names a default document is born in, picked by user.
var simStates = []struct{ Code, Name string }{
	{"DF", "Ciudad de México"}, {"JC", "Jalisco"}, {"NL", "Nuevo León"}, {"PL", "Puebla"}, {"YN", "Yucatán"},
}

// StateName says a CURP state code in words ("" for one the stand-in does not use).
func StateName(code string) string {
	for _, s := range simStates {
		if s.Code == code {
			return s.Name
		}
	}
	return ""
}

// DefaultDocument is an INE in the registered name, for a plausible adult born in one of
// simStates, with a valid CURP; the same user always gets the same document.
func DefaultDocument(registeredName, vendorData string, today time.Time) SimDocument {
	n, _ := strconv.ParseInt(vendorData, 10, 64)
	if n < 0 {
		n = -n
	}
	given, first, second := identity.NameParts(strings.ToUpper(registeredName))
	switch {
	case given == "":
		given, first, second = "ANA", "RUIZ", "SOTO"
	case first == "":
		first = "PÉREZ"
	}
	birth := time.Date(1975, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(n*389%9000)) // 1975..1999
	sex := "M"
	if strings.HasSuffix(strings.Fields(given + " X")[0], "A") {
		sex = "F"
	}
	d := SimDocument{
		DocumentType: "Identity Card", DocumentNumber: fmt.Sprintf("IDMEX%010d", 1000000000+n*7919%8999999999),
		GivenNames: given, FirstSurname: first, SecondSurname: second,
		DateOfBirth: birth.Format(time.DateOnly), Sex: sex, State: simStates[n%int64(len(simStates))].Code,
		IssueDate:  time.Date(today.Year()-2, 6, 10, 0, 0, 0, 0, time.UTC).Format(time.DateOnly),
		ExpiryDate: time.Date(today.Year()+8, 12, 31, 0, 0, 0, 0, time.UTC).Format(time.DateOnly),
		Registry:   "full_match",
	}
	d.PersonalNumber = d.CURP()
	return d
}

// WithCase returns the document changed as the one-click case says; ok is false for an unknown case.
func (d SimDocument) WithCase(c string, today time.Time) (SimDocument, bool) {
	switch c {
	case "name_differs":
		d.GivenNames, d.FirstSurname, d.SecondSurname = "ROBERTO CARLOS", "MENDOZA", "SALAS"
		d.Sex = "M"
	case "near_name":
		d.FirstSurname = oneLetterOff(d.FirstSurname)
	case "expired":
		d.IssueDate = time.Date(today.Year()-11, 3, 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		d.ExpiryDate = time.Date(today.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	case "under_18":
		d.DateOfBirth = today.AddDate(-17, 0, 0).Format(time.DateOnly)
		d.IssueDate = today.AddDate(0, -1, 0).Format(time.DateOnly)
	case "curp_used":
		d.DateOfBirth, d.Sex, d.State = "1990-01-01", "F", "DF"
		d.PersonalNumber = UsedCURP
		return d, true
	case "registry_no_match":
		d.Registry = "no_match"
		return d, true
	default:
		return d, false
	}
	d.PersonalNumber = d.CURP()
	return d, true
}

// oneLetterOff changes one letter inside a word, as a misread character would (S for Z, E for
// A, ...), keeping its length; a word too short to change stays as it is.
func oneLetterOff(w string) string {
	r := []rune(w)
	if len(r) < 3 {
		return w
	}
	i := len(r) - 1
	swap := map[rune]rune{'Z': 'S', 'S': 'Z', 'A': 'E', 'E': 'A', 'O': 'U', 'N': 'M', 'L': 'I', 'R': 'P'}
	if s, ok := swap[r[i]]; ok {
		r[i] = s
	} else {
		r[i] = 'O'
		if r[i] == []rune(w)[i] {
			r[i] = 'A'
		}
	}
	return string(r)
}

// CURP is the document's CURP by RENAPO's rules from its name, birth date, sex and state
// (identity.ExampleCURP), check digit included; "" without a readable birth date.
func (d SimDocument) CURP() string {
	birth, err := time.Parse(time.DateOnly, d.DateOfBirth)
	if err != nil {
		return ""
	}
	return identity.ExampleCURP(d.GivenNames, d.FirstSurname, d.SecondSurname, birth, identity.SexFromICAO(d.Sex), d.State)
}

// idVerification is the document as one entry of Didit's v3 id_verifications[] (the fields
// didit.ParseDecision reads, named and nested as Didit's data model has them).
func (d SimDocument) idVerification(status string) map[string]any {
	nullable := func(s string) any {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return s
	}
	lastName := strings.TrimSpace(d.FirstSurname + " " + d.SecondSurname)
	full := strings.Join(strings.Fields(d.GivenNames+" "+lastName), " ")
	age := any(nil)
	if birth, err := time.Parse(time.DateOnly, d.DateOfBirth); err == nil {
		now := time.Now()
		years := now.Year() - birth.Year()
		if now.YearDay() < birth.YearDay() {
			years--
		}
		age = years
	}
	var parsed any
	if name := StateName(d.State); name != "" {
		parsed = map[string]any{"address_type": "Calle", "city": name, "label": "Mexico ID Card Address",
			"region": name, "street_1": "Av. Simulada 123", "street_2": nil, "postal_code": "01000"}
	}
	issuingState, issuingName := "MEX", "Mexico"
	return map[string]any{
		"node_id": "feature_ocr", "status": status, "document_type": nullable(d.DocumentType),
		"document_number": nullable(d.DocumentNumber), "personal_number": nullable(d.PersonalNumber),
		"portrait_image": nil, "front_image": nil, "back_image": nil,
		"date_of_birth": nullable(d.DateOfBirth), "age": age,
		"expiration_date": nullable(d.ExpiryDate), "date_of_issue": nullable(d.IssueDate),
		"issuing_state": issuingState, "issuing_state_name": issuingName,
		"first_name": nullable(d.GivenNames), "last_name": nullable(lastName), "full_name": nullable(full),
		"gender": nullable(d.Sex), "nationality": "MEX", "place_of_birth": nullable(StateName(d.State)),
		"address": nil, "formatted_address": nil, "parsed_address": parsed,
		"marital_status": "UNKNOWN", "extra_fields": map[string]any{}, "warnings": []any{},
	}
}

// databaseValidation is RENAPO's answer on the CURP as one entry of Didit's v3
// database_validations[]: every compared field matches, or none does ("no_match").
func (d SimDocument) databaseValidation() map[string]any {
	result, status, outcome := "full_match", "Approved", "MATCH"
	if d.Registry == "no_match" {
		result, status, outcome = "no_match", "Declined", "NO_MATCH"
	}
	lastName := strings.TrimSpace(d.FirstSurname + " " + d.SecondSurname)
	return map[string]any{
		"node_id": "feature_db", "status": status, "match_type": result, "issuing_state": "MEX",
		"validation_type": "one_by_one",
		"screened_data": map[string]any{"personal_number": d.PersonalNumber, "first_name": d.GivenNames,
			"last_name": lastName, "date_of_birth": d.DateOfBirth},
		"validations": []map[string]any{{
			"service_id": "mex_curp", "service_name": "Mexico - CURP verification", "outcome_code": outcome,
			"validation": map[string]any{"full_name": result, "identification_number": result, "date_of_birth": result},
		}},
		"warnings": []any{},
	}
}
