package identity

import (
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Verdict is what an approved biometric check certifies once its document has been read.
type Verdict string

// The verdicts of Assess, as stored in verification_sessions.identity_verdict.
const (
	VerdictMatch      Verdict = "match"            // level 3, under the document's name
	VerdictNear       Verdict = "near"             // an administrator decides (the review queue)
	VerdictNoDocument Verdict = "no_document"      // the decision carried no readable name: reviewed too
	VerdictMismatch   Verdict = "mismatch"         // the person may adopt the document's name
	VerdictDuplicate  Verdict = "duplicate"        // the document certifies another live profile (set by the store)
	VerdictExpired    Verdict = "expired_document" // the ID had expired on the day of the check
	VerdictUnderAge   Verdict = "under_age"        // the person is younger than LegalAge
)

// Declined reports whether the verdict refuses level 3 outright (a new check with another ID
// is the only way on).
func (v Verdict) Declined() bool {
	return v == VerdictExpired || v == VerdictUnderAge || v == VerdictDuplicate
}

// InReview reports whether the verdict waits for an administrator.
func (v Verdict) InReview() bool { return v == VerdictNear || v == VerdictNoDocument }

// Finding is one thing the assessment noticed, for the review screen and Mi Perfil.
type Finding struct {
	Code string `json:"code"` // a Reason, a CURPProblem, "registry_no_match", ...
	Text string `json:"text"` // the finding in Spanish
}

// Assessment is Assess's verdict with what it rests on; stored as identity_findings (JSON).
type Assessment struct {
	Verdict      Verdict                      `json:"verdict"`
	Findings     []Finding                    `json:"findings"`
	NameOutcome  Outcome                      `json:"nameOutcome,omitempty"`
	NameScore    float64                      `json:"nameScore"`
	DocumentName string                       `json:"documentName,omitempty"` // proper case, the name to certify
	CURPValid    *bool                        `json:"curpValid,omitempty"`    // nil: the document gave no CURP
	Age          int                          `json:"age,omitempty"`
	Registry     []perfilseguro.RegistryCheck `json:"registry,omitempty"`
}

// Texts of the findings that are not name reasons or CURP problems.
const (
	textNoDocument      = "La decisión del proveedor no trae el nombre del documento."
	textNoBirthDate     = "El documento no trae la fecha de nacimiento."
	textExpired         = "La identificación estaba vencida el día de la verificación."
	textUnderAge        = "La persona es menor de 18 años."
	textCURPName        = "La CURP no corresponde al nombre del documento."
	textRegistryNoMatch = "El registro oficial no coincide con el documento."
	textRegistryPartial = "El registro oficial coincide solo en parte con el documento."
)

// Assess compares what a person typed with the document an approved check read, on the day of
// the check (a date in Mexico City). The order of the rules: no readable name → review; an
// expired ID or a minor → declined; a name that is not the person's → mismatch; a name the
// matcher cannot decide, a CURP that is invalid or disagrees with the document, a registry that
// does not confirm it, or no birth date → review; else match. Nothing here passes silently: a
// finding always comes with a verdict other than match.
func Assess(typed string, doc *perfilseguro.DocumentIdentity, registry []perfilseguro.RegistryCheck, day time.Time) Assessment {
	a := Assessment{Registry: registry}
	name := DocumentName{}
	if doc != nil {
		name = DocumentName{GivenNames: doc.GivenNames, FirstSurname: doc.FirstSurname,
			SecondSurname: doc.SecondSurname, FullName: doc.FullName}
	}
	if doc == nil || name == (DocumentName{}) {
		a.Verdict = VerdictNoDocument
		a.Findings = append(a.Findings, Finding{Code: string(VerdictNoDocument), Text: textNoDocument})
		return a
	}
	res := CompareNames(typed, name)
	a.NameOutcome, a.NameScore = res.Outcome, res.Score
	a.DocumentName = res.Document.Display()
	if a.DocumentName == "" {
		a.DocumentName = ProperName(doc.FullName)
	}
	for _, r := range res.Reasons {
		a.Findings = append(a.Findings, Finding{Code: string(r), Text: r.Text()})
	}

	dates := CheckDocumentDates(doc.DateOfBirth, doc.ExpiryDate, day)
	if !doc.DateOfBirth.IsZero() {
		a.Age = dates.Age
	}
	switch {
	case dates.Expired:
		return a.decide(VerdictExpired, Finding{Code: string(VerdictExpired), Text: textExpired})
	case !doc.DateOfBirth.IsZero() && dates.UnderAge:
		return a.decide(VerdictUnderAge, Finding{Code: string(VerdictUnderAge), Text: textUnderAge})
	case res.Outcome == Mismatch:
		return a.decide(VerdictMismatch)
	}

	verdict := VerdictMatch
	if res.Outcome == Near {
		verdict = VerdictNear
	}
	if doc.DateOfBirth.IsZero() {
		verdict = VerdictNear
		a.Findings = append(a.Findings, Finding{Code: "no_birth_date", Text: textNoBirthDate})
	}
	if doc.PersonalNumber != "" {
		c := CheckCURP(doc.PersonalNumber, doc.DateOfBirth, SexFromICAO(doc.Sex), "")
		ok := c.OK() && CURPMatchesName(doc.PersonalNumber, res.Document)
		a.CURPValid = &ok
		for _, p := range c.Problems {
			a.Findings = append(a.Findings, Finding{Code: "curp_" + string(p), Text: p.Text()})
		}
		if c.OK() && !CURPMatchesName(doc.PersonalNumber, res.Document) {
			a.Findings = append(a.Findings, Finding{Code: "curp_name", Text: textCURPName})
		}
		if !ok {
			verdict = VerdictNear
		}
	}
	for _, r := range registry {
		switch r.Result {
		case perfilseguro.RegistryNoMatch:
			verdict = VerdictNear
			a.Findings = appendOnce(a.Findings, Finding{Code: "registry_no_match", Text: textRegistryNoMatch})
		case perfilseguro.RegistryPartialMatch:
			verdict = VerdictNear
			a.Findings = appendOnce(a.Findings, Finding{Code: "registry_partial_match", Text: textRegistryPartial})
		}
	}
	return a.decide(verdict)
}

func (a Assessment) decide(v Verdict, f ...Finding) Assessment {
	a.Verdict = v
	a.Findings = append(a.Findings, f...)
	return a
}

func appendOnce(fs []Finding, f Finding) []Finding {
	for _, g := range fs {
		if g.Code == f.Code {
			return fs
		}
	}
	return append(fs, f)
}
