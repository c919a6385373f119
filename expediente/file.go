package expediente

import (
	"errors"
	"fmt"
	"time"

	"github.com/perfilseguro/perfilseguro/aml"
)

// File is one client's expediente for one operation, as the caller assembled it. Masking is the
// caller's choice: the fields are printed as given (a CURP or document number may arrive masked).
type File struct {
	Business     Business      `json:"business"`     // the business that keeps the file
	Person       Person        `json:"person"`       // the client, as their document says
	Verification Verification  `json:"verification"` // how the identity was checked
	Declarations []Declaration `json:"declarations"` // every signed version, oldest first
	Screenings   []Screening   `json:"screenings"`   // one per list consulted
	Operation    Operation     `json:"operation"`    // the operation and the thresholds applied
	Risk         Risk          `json:"risk"`         // the risk level and its factors
	Avisos       []Aviso       `json:"avisos"`       // avisos due or filed for the operation
	Audit        []AuditLine   `json:"audit"`        // who did what to the file, oldest first
	GeneratedAt  time.Time     `json:"generatedAt"`  // when this copy was made
	// RetentionUntil is the last day the file must be kept (10 years from the operation, art. 18).
	RetentionUntil Date `json:"retentionUntil"`
}

// Business is the actividad vulnerable that keeps the file.
type Business struct {
	Name      string `json:"name"`      // trade or legal name
	RFC       string `json:"rfc"`       // the business's RFC
	PartnerID int64  `json:"partnerId"` // api_keys.id, the partner in Perfil Seguro
}

// Person is the client as read from their identity document.
type Person struct {
	DocumentName string `json:"documentName"` // the full name exactly as the document prints it
	GivenNames   string `json:"givenNames"`
	Surnames     string `json:"surnames"`
	BirthDate    Date   `json:"birthDate"`
	Sex          string `json:"sex"`         // as the document says it (H, M, X), printed as given
	Nationality  string `json:"nationality"` // in Spanish ("Mexicana") or the ISO code, as given
	CURP         string `json:"curp"`
	Document     IDDoc  `json:"document"`
}

// IDDoc is the identity document the person showed.
type IDDoc struct {
	Type   string `json:"type"`   // in Spanish: "Credencial para votar", "Pasaporte"
	Number string `json:"number"` // masked or full, as the caller gives it
	Issuer string `json:"issuer"` // "INE", "SRE", the issuing country
	Expiry Date   `json:"expiry"`
}

// Verification is how Perfil Seguro checked that the person is who the document says.
type Verification struct {
	At         time.Time       `json:"at"`         // when the provider decided
	Provider   string          `json:"provider"`   // who ran the biometric check ("Didit")
	FaceMatch  Check           `json:"faceMatch"`  // selfie against the document's photo
	Liveness   Check           `json:"liveness"`   // a live person, not a photo or a mask
	Document   Check           `json:"document"`   // the document's authenticity
	Registries []RegistryCheck `json:"registries"` // each field checked against an official registry
	NameMatch  NameMatch       `json:"nameMatch"`  // how the declared name matched the document's
}

// Check is one test of the verification and its outcome.
type Check struct {
	Passed bool    `json:"passed"`
	Score  float64 `json:"score"`  // 0–100, as the provider reports it; 0 when it gives none
	Detail string  `json:"detail"` // in Spanish, optional
}

// RegistryCheck is one field compared with an official registry (RENAPO for the CURP, the INE's
// list for the credential).
type RegistryCheck struct {
	Registry string `json:"registry"` // "RENAPO", "INE"
	Field    string `json:"field"`    // in Spanish: "CURP", "Nombre", "Fecha de nacimiento"
	Matched  bool   `json:"matched"`
	Detail   string `json:"detail"` // in Spanish, optional
}

// NameMatch is the name matcher's outcome (identity.Assess), already in Spanish.
type NameMatch struct {
	Verdict  string   `json:"verdict"`  // in Spanish: "Coincide", "Coincidencia cercana, revisada"
	Findings []string `json:"findings"` // in Spanish, one per difference found
}

// Method is how a declaration was signed.
type Method string

// The two ways a person signs a declaration.
const (
	MethodPasskey Method = "passkey"
	MethodCode    Method = "codigo"
)

var methodText = map[Method]string{
	MethodPasskey: "Llave de acceso (passkey)",
	MethodCode:    "Código de un solo uso",
}

// Text is the method in Spanish.
func (m Method) Text() string { return methodText[m] }

// Declaration is one signed version of what the person declared (know-your-client questions).
type Declaration struct {
	Version    int       `json:"version"` // 1, 2, …: a correction is a new version
	SignedAt   time.Time `json:"signedAt"`
	Method     Method    `json:"method"`
	TextSHA256 string    `json:"textSha256"` // hex SHA-256 of the exact text the person signed
	Answers    Answers   `json:"answers"`
}

// Answers are the declaration's answers.
type Answers struct {
	Occupation string `json:"occupation"` // occupation or economic activity
	Address    string `json:"address"`
	RFC        string `json:"rfc"`
	// Nationality is the person's nationality (ISO 3166-1 alfa-3), from the ID when it gives one.
	Nationality string `json:"nationality,omitempty"`
	// ForBeneficiary: the person acts for someone else (the beneficiario controlador below).
	ForBeneficiary bool         `json:"forBeneficiary"`
	Beneficiary    *Beneficiary `json:"beneficiary,omitempty"`
	PEP            bool         `json:"pep"`                   // they or a close relative hold(-held) a prominent public function
	PEPPosition    string       `json:"pepPosition,omitempty"` // the position, when PEP
}

// Beneficiary is the beneficiario controlador the person declared acting for.
type Beneficiary struct {
	Name         string `json:"name"`
	BirthDate    Date   `json:"birthDate"`
	CURPOrRFC    string `json:"curpOrRfc"`
	Relationship string `json:"relationship"`
}

// Screening is one list consulted for the person and what it gave.
type Screening struct {
	ListName    string      `json:"listName"`    // "Lista consolidada del Consejo de Seguridad de la ONU"
	ListVersion string      `json:"listVersion"` // the import's version (date generated, checksum)
	ImportedAt  time.Time   `json:"importedAt"`  // when that version was imported
	CheckedAt   time.Time   `json:"checkedAt"`   // when the person was screened against it
	Candidates  []Candidate `json:"candidates"`  // none: sin coincidencias
}

// Candidate is one possible hit and what the compliance officer decided.
type Candidate struct {
	Name       string      `json:"name"`    // the list entry's name that matched
	Score      float64     `json:"score"`   // 0–1, screening's score
	Reasons    []string    `json:"reasons"` // in Spanish, from screening
	Resolution *Resolution `json:"resolution,omitempty"`
}

// Decision is a compliance officer's ruling on a candidate.
type Decision string

// The two rulings.
const (
	Discarded Decision = "descartada"
	Confirmed Decision = "confirmada"
)

// Text is the decision in Spanish.
func (d Decision) Text() string {
	switch d {
	case Discarded:
		return "Descartada"
	case Confirmed:
		return "Confirmada"
	}
	return ""
}

// Resolution is a candidate's ruling: by whom, when and why.
type Resolution struct {
	Decision Decision  `json:"decision"`
	By       string    `json:"by"` // the officer's name and role
	At       time.Time `json:"at"`
	Reason   string    `json:"reason"`
}

// Operation is the operation the file is about and how it measured against the thresholds.
type Operation struct {
	Kind      aml.Activity `json:"kind"`
	Amount    aml.Centavos `json:"amountCentavos"` // monthly for rent
	Date      Date         `json:"date"`
	Reference string       `json:"reference"` // the property's reference
	Role      string       `json:"role"`      // in Spanish: the client's role ("Comprador", "Arrendatario")
	// Thresholds are those applied (aml.Requirement's result), with the UMA in force.
	Thresholds Thresholds `json:"thresholds"`
}

// Thresholds are the LFPIORPI thresholds applied to the operation, in pesos.
type Thresholds struct {
	UMAYear        int          `json:"umaYear"`
	UMADaily       aml.Centavos `json:"umaDailyCentavos"`
	Identification aml.Centavos `json:"identificationCentavos"` // 0: always
	Aviso          aml.Centavos `json:"avisoCentavos"`          // 0: always
	Identify       bool         `json:"identify"`               // identification required
	NeedsAviso     bool         `json:"aviso"`                  // aviso required
	Source         string       `json:"source"`                 // the legal text the thresholds come from
}

// Level is a risk level.
type Level string

// The risk levels.
const (
	Low    Level = "bajo"
	Medium Level = "medio"
	High   Level = "alto"
)

// Text is the level in Spanish.
func (l Level) Text() string {
	switch l {
	case Low:
		return "Bajo"
	case Medium:
		return "Medio"
	case High:
		return "Alto"
	}
	return ""
}

// Risk is the operation's risk level and the factors that made it.
type Risk struct {
	Level   Level    `json:"level"`
	Factors []Factor `json:"factors"`
}

// Factor is one risk factor that applied and its weight (weights are data, issue 53 item 4).
type Factor struct {
	Description string `json:"description"` // in Spanish
	Weight      int    `json:"weight"`
}

// AvisoKind is what an aviso is for.
type AvisoKind string

// The kinds of aviso.
const (
	AvisoThreshold    AvisoKind = "umbral"        // the operation reached the aviso threshold
	AvisoSuspicious   AvisoKind = "24_horas"      // a confirmed hit or a suspicious operation
	AvisoNoOperations AvisoKind = "sin_operacion" // the monthly report of no operations
)

var avisoText = map[AvisoKind]string{
	AvisoThreshold:    "Aviso por umbral",
	AvisoSuspicious:   "Aviso de 24 horas",
	AvisoNoOperations: "Informe de no operaciones",
}

// Text is the kind in Spanish.
func (k AvisoKind) Text() string { return avisoText[k] }

// Aviso is one aviso to the SAT for the operation.
type Aviso struct {
	Kind            AvisoKind  `json:"kind"`
	Due             time.Time  `json:"due"`
	Filed           *time.Time `json:"filed,omitempty"`
	Acknowledgement string     `json:"acknowledgement,omitempty"` // the SAT portal's acuse number
}

// AuditLine is one recorded action on the file.
type AuditLine struct {
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`  // who, in words ("Ana López (cumplimiento)", "Sistema")
	Action string    `json:"action"` // what, in Spanish
}

// ErrInvalid is what Validate wraps.
var ErrInvalid = errors.New("expediente: invalid file")

// Validate checks what the PDF cannot do without: whom the file is about, when it was made, how
// long it is kept, and that every code has its Spanish words.
func (f File) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	switch {
	case f.Person.DocumentName == "":
		return bad("the person's document name is missing")
	case f.Business.Name == "":
		return bad("the business's name is missing")
	case f.GeneratedAt.IsZero():
		return bad("generatedAt is missing")
	case f.RetentionUntil.IsZero():
		return bad("retentionUntil is missing")
	case f.Operation.Kind != "" && !f.Operation.Kind.Valid():
		return bad("unknown operation kind %q", f.Operation.Kind)
	case f.Risk.Level != "" && f.Risk.Level.Text() == "":
		return bad("unknown risk level %q", f.Risk.Level)
	}
	for _, d := range f.Declarations {
		if d.Method.Text() == "" {
			return bad("declaration %d: unknown method %q", d.Version, d.Method)
		}
	}
	for _, s := range f.Screenings {
		if s.ListName == "" {
			return bad("a screening has no list name")
		}
		for _, c := range s.Candidates {
			if c.Resolution != nil && c.Resolution.Decision.Text() == "" {
				return bad("candidate %q: unknown decision %q", c.Name, c.Resolution.Decision)
			}
		}
	}
	for _, a := range f.Avisos {
		if a.Kind.Text() == "" {
			return bad("unknown aviso kind %q", a.Kind)
		}
	}
	return nil
}
