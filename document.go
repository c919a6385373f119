package perfilseguro

import "time"

// Registry check results, field by field, as the issuing registry answered.
const (
	RegistryMatch        = "match"         // the registry holds the same value
	RegistryPartialMatch = "partial_match" // the registry holds a close but not equal value (e.g. one name token differs)
	RegistryNoMatch      = "no_match"      // the registry holds a different value, or no such record
	RegistryNotAvailable = "not_available" // the registry gave no usable answer for this field
)

// DocumentIdentity is what the identity document itself says, as read by the biometric
// provider: the data "ID Validado" certifies. Empty strings and zero dates mean the document
// (or the provider's reading of it) did not give the field. The document number and the CURP
// identify a person outside our system: never log them (CONVENTIONS 15).
type DocumentIdentity struct {
	DocumentType   string    // DocumentINE, DocumentPassport, DocumentDrivingLicence, DocumentResidencePermit or the provider's own words
	IssuingCountry string    // ISO 3166-1 alpha-3 country that issued the document ("MEX")
	IssuingState   string    // the state or region of issue printed on the document, when the provider reads one
	DocumentNumber string    // the document's own number (an INE's CIC or a passport number)
	PersonalNumber string    // the national personal number printed on it: the CURP on an INE or a Mexican passport
	GivenNames     string    // given names as printed ("MARÍA JOSÉ")
	FirstSurname   string    // first (paternal) surname, particles included ("DE LA GARZA")
	SecondSurname  string    // second (maternal) surname; empty when the document has one surname
	FullName       string    // the whole name as printed, for documents that give only that
	DateOfBirth    time.Time // date of birth (UTC midnight)
	Sex            string    // "M" or "F" as printed (ICAO letters); empty when unknown
	Nationality    string    // ISO 3166-1 alpha-3 nationality
	IssueDate      time.Time // date of issue (UTC midnight)
	ExpiryDate     time.Time // date of expiry (UTC midnight); an INE's "vigencia" year ends on 31 December
	Address        string    // the address printed on the document, when there is one
}

// Document types as we name them; the provider's other words are kept as they come.
const (
	DocumentINE             = "ine"              // Mexican voter card (credencial para votar), an "Identity Card" issued by MEX
	DocumentPassport        = "passport"         // a passport of any country
	DocumentDrivingLicence  = "driving_licence"  // a driving licence
	DocumentResidencePermit = "residence_permit" // a residence permit (tarjeta de residente)
)

// ExpiredOn reports whether the document had expired on day (its expiry day still counts as valid);
// a document without an expiry date never reads as expired here.
func (d DocumentIdentity) ExpiredOn(day time.Time) bool {
	if d.ExpiryDate.IsZero() {
		return false
	}
	y, m, dd := day.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).After(d.ExpiryDate)
}

// RegistryCheck is one field of one registry's answer (e.g. RENAPO on the CURP's full name).
type RegistryCheck struct {
	Registry string // the registry service that answered, as the provider names it ("mex_curp")
	Field    string // the field compared ("full_name", "identification_number", "date_of_birth")
	Result   string // RegistryMatch, RegistryPartialMatch, RegistryNoMatch or RegistryNotAvailable
}
