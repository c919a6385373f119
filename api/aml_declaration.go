package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/passkey"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The know-your-client declaration (issue 53 item 2): the person answers what LFPIORPI asks
// (occupation, address, RFC, nationality, beneficiario controlador, PEP), reviews the exact text
// and signs it with the code of POST /api/users/{id}/confirmation-code or a passkey (the options
// of POST /api/users/{id}/confirmation/passkey/options): the same confirmation as adopting the
// ID's name, but bound to the text, so the evidence names the channel or the credential. Each
// signature is a new version; the hosted flow shares the version the person confirmed, and a
// correction is shared with every business that received an earlier one.

// AMLBeneficiaryJSON is the beneficiario controlador the person acts for.
type AMLBeneficiaryJSON struct {
	Name         string `json:"name"`
	BirthDate    string `json:"birthDate" description:"AAAA-MM-DD"`
	CURPOrRFC    string `json:"curpOrRfc"`
	Relationship string `json:"relationship"`
}

// AMLAnswersJSON are the declaration's answers.
type AMLAnswersJSON struct {
	Occupation     string              `json:"occupation"`
	Address        string              `json:"address"`
	RFC            string              `json:"rfc"`
	Nationality    string              `json:"nationality" description:"ISO 3166-1 alfa-3; la de la identificación cuando la trae (no se puede cambiar)"`
	ForBeneficiary bool                `json:"forBeneficiary"`
	Beneficiary    *AMLBeneficiaryJSON `json:"beneficiary,omitempty"`
	PEP            bool                `json:"pep"`
	PEPPosition    string              `json:"pepPosition,omitempty"`
}

// AMLDeclarationDraft is what the person reviews: their answers; ConfirmRFC accepts an RFC whose
// only problem is its check digit.
type AMLDeclarationDraft struct {
	Answers    AMLAnswersJSON `json:"answers"`
	ConfirmRFC bool           `json:"confirmRfc,omitempty" description:"La persona confirma su RFC aunque su dígito verificador no coincida"`
}

// AMLDeclarationText is the exact text the person signs.
type AMLDeclarationText struct {
	Text       string `json:"text"`
	TextSHA256 string `json:"textSha256"`
}

// AMLDeclarationSign signs the reviewed text with a code.
type AMLDeclarationSign struct {
	AMLDeclarationDraft
	TextSHA256 string `json:"textSha256" description:"El SHA-256 del texto que la persona revisó (de …/aml-declaration/text)"`
	Code       string `json:"code" description:"El código de POST /api/users/{id}/confirmation-code"`
}

// AMLDeclarationPasskeySign signs the reviewed text with a passkey.
type AMLDeclarationPasskeySign struct {
	AMLDeclarationDraft
	TextSHA256 string          `json:"textSha256"`
	Credential json.RawMessage `json:"credential" description:"La respuesta de navigator.credentials.get a las opciones de POST /api/users/{id}/confirmation/passkey/options"`
}

// AMLDeclarationJSON is one signed version.
type AMLDeclarationJSON struct {
	Version    int            `json:"version"`
	SignedAt   time.Time      `json:"signedAt"`
	Method     string         `json:"method" enum:"passkey,codigo"`
	TextSHA256 string         `json:"textSha256"`
	Answers    AMLAnswersJSON `json:"answers"`
}

// AMLDeclarationOwn is a version as its signer reads it: with the text.
type AMLDeclarationOwn struct {
	AMLDeclarationJSON
	Text string `json:"text"`
}

// AMLDeclarationPrefill is what the form starts from: the ID's address and nationality.
type AMLDeclarationPrefill struct {
	Address     string `json:"address"`
	Nationality string `json:"nationality"`
	// NationalityFromID: the ID gives the nationality; the form shows it without letting it change.
	NationalityFromID bool `json:"nationalityFromId"`
}

// AMLDeclarationState is the person's declaration: the current version, every version, who
// received each and the form's prefill.
type AMLDeclarationState struct {
	Current *AMLDeclarationOwn             `json:"current"`
	History []AMLDeclarationJSON           `json:"history"`
	Shares  []postgres.AMLDeclarationShare `json:"shares"`
	Prefill AMLDeclarationPrefill          `json:"prefill"`
}

// AMLDeclarationSigned is a new version and how many businesses were told of it.
type AMLDeclarationSigned struct {
	Declaration AMLDeclarationOwn `json:"declaration"`
	Notified    int               `json:"notified" description:"Negocios que recibieron una versión anterior y a los que se compartió esta (cada uno recibe aml.declaration_updated si tiene webhook)"`
}

func (s *Server) mountAMLDeclaration() {
	tag := option.Tags("Declaración de conocimiento del cliente")
	fuego.Get(s.f, "/api/users/{id}/aml-declaration", s.amlDeclarationState, tag,
		option.Summary("Mi declaración de conocimiento del cliente: la versión vigente, las anteriores y quién recibió cada una"),
		option.AddError(403, "Solo la persona dueña del perfil", ErrorBody{}))
	fuego.Post(s.f, "/api/users/{id}/aml-declaration/text", s.amlDeclarationText, tag,
		option.Summary("El texto exacto de la declaración que la persona revisa antes de firmar"),
		option.AddError(400, "Una respuesta falta o no es válida (RFC, beneficiario controlador, cargo)", ErrorBody{}),
		option.AddError(403, "Solo la persona dueña del perfil", ErrorBody{}))
	fuego.Post(s.f, "/api/users/{id}/aml-declaration", s.signAMLDeclarationCode, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Firmar la declaración con el código enviado a mi contacto (una nueva versión)"),
		option.AddError(400, "Una respuesta no es válida, o el código es incorrecto o expiró", ErrorBody{}),
		option.AddError(403, "Solo la persona dueña del perfil", ErrorBody{}),
		option.AddError(409, "El texto cambió desde que lo revisaste", ErrorBody{}))
	fuego.Post(s.f, "/api/users/{id}/aml-declaration/passkey", s.signAMLDeclarationPasskey, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Firmar la declaración con mi llave de acceso (una nueva versión)"),
		option.AddError(400, "Una respuesta no es válida, o la llave no se pudo comprobar", ErrorBody{}),
		option.AddError(403, "Solo la persona dueña del perfil", ErrorBody{}),
		option.AddError(409, "El texto cambió desde que lo revisaste", ErrorBody{}))
}

// curpShapeOf is a CURP's shape (identity/curp.go's): a beneficiary is named by CURP or RFC.
var curpShapeOf = regexp.MustCompile(`^[A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$`)

var errDeclarationTextChanged = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"El texto de la declaración cambió desde que lo revisaste. Revísalo de nuevo antes de firmar.")

// declarationAnswers checks the answers and makes them the file's (EINVALID with each field in
// Spanish). nationality is the ID's (it replaces the typed one when set).
func declarationAnswers(d AMLDeclarationDraft, idNationality string) (expediente.Answers, error) {
	a := d.Answers
	fields := map[string]string{}
	trim := func(s *string, field, msg string, maxLen int) {
		*s = strings.Join(strings.Fields(*s), " ")
		if *s == "" {
			fields[field] = msg
		} else if utf8.RuneCountInString(*s) > maxLen {
			fields[field] = fmt.Sprintf("Escribe como máximo %d caracteres.", maxLen)
		}
	}
	trim(&a.Occupation, "occupation", "Escribe tu ocupación o actividad económica.", 200)
	trim(&a.Address, "address", "Escribe tu domicilio.", 300)
	out := expediente.Answers{Occupation: a.Occupation, Address: a.Address, RFC: aml.NormalizeRFC(a.RFC),
		ForBeneficiary: a.ForBeneficiary, PEP: a.PEP}
	if _, err := aml.ValidRFC(out.RFC); err != nil && !(errors.Is(err, aml.ErrRFCCheckDigit) && d.ConfirmRFC) {
		fields["rfc"] = aml.RFCErrorText(err)
		if errors.Is(err, aml.ErrRFCCheckDigit) {
			fields["rfc"] += ". Si estás seguro de que es el tuyo, confírmalo."
		}
	}
	out.Nationality = strings.ToUpper(strings.TrimSpace(a.Nationality))
	if idNationality != "" {
		out.Nationality = idNationality
	} else if len(out.Nationality) != 3 || strings.Trim(out.Nationality, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		fields["nationality"] = "Elige tu nacionalidad."
	}
	if a.ForBeneficiary {
		b := a.Beneficiary
		if b == nil {
			b = &AMLBeneficiaryJSON{}
		}
		trim(&b.Name, "beneficiary.name", "Escribe el nombre completo de la persona por quien actúas.", 200)
		trim(&b.Relationship, "beneficiary.relationship", "Escribe tu relación con esa persona.", 100)
		id := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(b.CURPOrRFC), " ", ""))
		if !curpShapeOf.MatchString(id) {
			if _, err := aml.ValidRFC(id); err != nil && !errors.Is(err, aml.ErrRFCCheckDigit) {
				fields["beneficiary.curpOrRfc"] = "Escribe la CURP (18 caracteres) o el RFC de esa persona."
			}
		}
		birth, err := expediente.ParseDate(strings.TrimSpace(b.BirthDate))
		if err != nil || birth.Year < 1900 || time.Date(birth.Year, birth.Month, birth.Day, 0, 0, 0, 0, time.UTC).After(time.Now()) {
			fields["beneficiary.birthDate"] = "Escribe la fecha de nacimiento de esa persona (AAAA-MM-DD)."
		}
		out.Beneficiary = &expediente.Beneficiary{Name: b.Name, BirthDate: birth, CURPOrRFC: id, Relationship: b.Relationship}
	}
	if a.PEP {
		trim(&a.PEPPosition, "pepPosition", "Escribe el cargo público (tuyo o de tu familiar) y dónde lo ocupa u ocupó.", 200)
		out.PEPPosition = a.PEPPosition
	}
	for _, f := range []string{"occupation", "address", "rfc", "nationality", "beneficiary.name", "beneficiary.birthDate",
		"beneficiary.curpOrRfc", "beneficiary.relationship", "pepPosition"} {
		if m, ok := fields[f]; ok {
			return expediente.Answers{}, &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: m, Fields: fields}
		}
	}
	return out, nil
}

// declarationText is the exact text the person signs, in plain Spanish.
func declarationText(name string, a expediente.Answers) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Yo, %s, declaro bajo protesta de decir verdad que:\n", name)
	fmt.Fprintf(&b, "1. Mi ocupación o actividad económica es: %s.\n", a.Occupation)
	fmt.Fprintf(&b, "2. Mi domicilio es: %s.\n", a.Address)
	fmt.Fprintf(&b, "3. Mi RFC es: %s.\n", a.RFC)
	fmt.Fprintf(&b, "4. Mi nacionalidad es: %s.\n", a.Nationality)
	if a.ForBeneficiary && a.Beneficiary != nil {
		fmt.Fprintf(&b, "5. Actúo por cuenta de otra persona (beneficiario controlador): %s, nacida el %s, CURP o RFC %s, que es mi %s.\n",
			a.Beneficiary.Name, a.Beneficiary.BirthDate.Spanish(), a.Beneficiary.CURPOrRFC, a.Beneficiary.Relationship)
	} else {
		b.WriteString("5. Actúo por cuenta propia: nadie más es dueño ni controla los recursos de esta operación.\n")
	}
	if a.PEP {
		fmt.Fprintf(&b, "6. Yo o un familiar cercano desempeñamos o desempeñamos una función pública destacada: %s.\n", a.PEPPosition)
	} else {
		b.WriteString("6. Ni yo ni un familiar cercano desempeñamos ni hemos desempeñado una función pública destacada.\n")
	}
	b.WriteString("Sé que esta declaración se entrega a los negocios con los que la comparto, que la conservan 10 años como exige la " +
		"Ley Federal para la Prevención e Identificación de Operaciones con Recursos de Procedencia Ilícita, y que si algo cambia debo corregirla.")
	return b.String()
}

func answersJSON(a expediente.Answers) AMLAnswersJSON {
	out := AMLAnswersJSON{Occupation: a.Occupation, Address: a.Address, RFC: a.RFC, Nationality: a.Nationality,
		ForBeneficiary: a.ForBeneficiary, PEP: a.PEP, PEPPosition: a.PEPPosition}
	if a.Beneficiary != nil {
		out.Beneficiary = &AMLBeneficiaryJSON{Name: a.Beneficiary.Name, BirthDate: a.Beneficiary.BirthDate.String(),
			CURPOrRFC: a.Beneficiary.CURPOrRFC, Relationship: a.Beneficiary.Relationship}
	}
	return out
}

func declarationJSON(d postgres.AMLDeclaration) AMLDeclarationJSON {
	return AMLDeclarationJSON{Version: d.Version, SignedAt: d.SignedAt, Method: d.Method, TextSHA256: d.TextSHA256, Answers: answersJSON(d.Answers)}
}

// declarationPrefill is the ID's address and nationality, for the form.
func (s *Server) declarationPrefill(ctx context.Context, u perfilseguro.User) (AMLDeclarationPrefill, error) {
	if !u.NameFromDocument {
		return AMLDeclarationPrefill{}, nil
	}
	doc, err := s.store.ProfileDocument(ctx, u.ID)
	if err != nil || doc == nil {
		return AMLDeclarationPrefill{}, err
	}
	n := strings.ToUpper(strings.TrimSpace(doc.Nationality))
	return AMLDeclarationPrefill{Address: strings.TrimSpace(doc.Address), Nationality: n, NationalityFromID: n != ""}, nil
}

func (s *Server) amlDeclarationState(c fuego.ContextNoBody) (AMLDeclarationState, error) {
	ctx := c.Request().Context()
	u, err := s.ownerRecord(c, "privacy-read", s.limits.PrivacyReadsPerUser)
	if err != nil {
		return AMLDeclarationState{}, err
	}
	test := u.TestPartnerID != nil
	all, err := s.store.AMLDeclarations(ctx, u.ID, test)
	if err != nil {
		return AMLDeclarationState{}, err
	}
	out := AMLDeclarationState{History: []AMLDeclarationJSON{}}
	for i, d := range all {
		if i == 0 {
			out.Current = &AMLDeclarationOwn{AMLDeclarationJSON: declarationJSON(d), Text: d.Text}
		}
		out.History = append(out.History, declarationJSON(d))
	}
	if out.Shares, err = s.store.AMLDeclarationShares(ctx, u.ID, test); err != nil {
		return AMLDeclarationState{}, err
	}
	out.Prefill, err = s.declarationPrefill(ctx, u)
	return out, err
}

// reviewed checks a draft of the signed-in owner and makes its text.
func (s *Server) reviewed(ctx context.Context, u perfilseguro.User, d AMLDeclarationDraft) (expediente.Answers, string, error) {
	pre, err := s.declarationPrefill(ctx, u)
	if err != nil {
		return expediente.Answers{}, "", err
	}
	var idNationality string
	if pre.NationalityFromID {
		idNationality = pre.Nationality
	}
	a, err := declarationAnswers(d, idNationality)
	if err != nil {
		return expediente.Answers{}, "", err
	}
	return a, declarationText(u.Nombre, a), nil
}

func (s *Server) amlDeclarationText(c fuego.ContextWithBody[AMLDeclarationDraft]) (AMLDeclarationText, error) {
	r := c.Request()
	u, err := s.ownerRecord(c, "aml-declaration", rectificationsPerHour)
	if err != nil {
		return AMLDeclarationText{}, err
	}
	d, err := decodeJSON[AMLDeclarationDraft](r)
	if err != nil {
		return AMLDeclarationText{}, err
	}
	_, text, err := s.reviewed(r.Context(), u, d)
	if err != nil {
		return AMLDeclarationText{}, err
	}
	return AMLDeclarationText{Text: text, TextSHA256: postgres.TextSHA256(text)}, nil
}

// declarationEvidence is how a version was signed: the channel or credential, the browser and
// a keyed hash of the address (never the address itself).
func (s *Server) declarationEvidence(r *http.Request, extra map[string]any) map[string]any {
	extra["userAgent"] = r.UserAgent()
	extra["ipHash"] = s.coder.Hash("aml-declaration-ip", clientIP(r))
	return extra
}

// signDeclaration stores the version in tx and queues the notifications after the commit.
func (s *Server) signDeclaration(r *http.Request, u perfilseguro.User, a expediente.Answers, text, method string,
	evidence map[string]any, inTx func(func(*sqlx.Tx) error) error) (AMLDeclarationSigned, error) {
	var d postgres.AMLDeclaration
	var deliveries []int64
	err := inTx(func(tx *sqlx.Tx) error {
		var err error
		d, deliveries, err = s.store.InsertAMLDeclaration(r.Context(), tx, postgres.NewAMLDeclaration{UserID: u.ID,
			TestMode: u.TestPartnerID != nil, Answers: a, Text: text, Method: method, Evidence: s.declarationEvidence(r, evidence), Now: s.now()})
		return err
	})
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	for _, id := range deliveries {
		s.notifyDelivery(r.Context(), id)
	}
	s.audit(r, postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorID: &u.ID, Action: "person.aml_declaration_sign",
		TargetKind: "aml_declaration", TargetID: fmt.Sprint(d.ID), Outcome: postgres.OutcomeOK})
	return AMLDeclarationSigned{Declaration: AMLDeclarationOwn{AMLDeclarationJSON: declarationJSON(d), Text: d.Text},
		Notified: d.SharedWith}, nil
}

// signable reads the owner and checks the draft against the text they reviewed.
func (s *Server) signable(c interface {
	PathParam(string) string
	Request() *http.Request
}, d AMLDeclarationDraft, sha string) (perfilseguro.User, expediente.Answers, string, error) {
	u, err := s.ownerRecord(c, "aml-declaration", rectificationsPerHour)
	if err != nil {
		return perfilseguro.User{}, expediente.Answers{}, "", err
	}
	a, text, err := s.reviewed(c.Request().Context(), u, d)
	if err != nil {
		return perfilseguro.User{}, expediente.Answers{}, "", err
	}
	if !strings.EqualFold(strings.TrimSpace(sha), postgres.TextSHA256(text)) {
		return perfilseguro.User{}, expediente.Answers{}, "", errDeclarationTextChanged
	}
	return u, a, text, nil
}

func (s *Server) signAMLDeclarationCode(c fuego.ContextWithBody[AMLDeclarationSign]) (AMLDeclarationSigned, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeJSON[AMLDeclarationSign](r)
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	u, a, text, err := s.signable(c, req.AMLDeclarationDraft, req.TextSHA256)
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	code := strings.TrimSpace(req.Code)
	if !validCodeFormat(code) {
		return AMLDeclarationSigned{}, errCodeFormat
	}
	if err := s.allow(ctx, limit{"verify:ip:" + clientIP(r), s.limits.VerifyPerIP},
		limit{"verify:user:" + fmt.Sprint(u.ID), s.limits.VerifyPerUser}); err != nil {
		return AMLDeclarationSigned{}, err
	}
	match, err := s.checkCodeFor(ctx, u.ID, purposeConfirmation, code)
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	masked := MaskEmail(match.Destination)
	if match.Channel == postgres.ChannelPhone {
		masked = MaskPhone(match.Destination)
	}
	out, err := s.signDeclaration(r, u, a, text, "codigo", map[string]any{"channel": match.Channel, "destination": masked},
		func(fn func(*sqlx.Tx) error) error {
			return s.store.InTx(ctx, func(tx *sqlx.Tx) error {
				ok, err := s.store.ConsumeCode(ctx, tx, match)
				if err != nil {
					return err
				}
				if !ok {
					return errCodeNone
				}
				return fn(tx)
			})
		})
	if err == nil {
		setStatus(c, http.StatusCreated)
	}
	return out, err
}

func (s *Server) signAMLDeclarationPasskey(c fuego.ContextWithBody[AMLDeclarationPasskeySign]) (AMLDeclarationSigned, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeJSON[AMLDeclarationPasskeySign](r)
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	u, a, text, err := s.signable(c, req.AMLDeclarationDraft, req.TextSHA256)
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	svc, err := s.passkeyService()
	if err != nil {
		return AMLDeclarationSigned{}, err
	}
	owner := passkey.Owner{Kind: passkey.KindUser, ID: u.ID}
	cred, err := svc.FinishAssertion(ctx, owner, passkey.SessionKeyFrom(r), req.Credential)
	if err != nil {
		s.auditPasskey(r, "person.passkey_confirm", u.ID, "", err)
		return AMLDeclarationSigned{}, err
	}
	out, err := s.signDeclaration(r, u, a, text, "passkey", map[string]any{"credentialId": cred.ID},
		func(fn func(*sqlx.Tx) error) error { return s.store.InTx(ctx, fn) })
	if err == nil {
		setStatus(c, http.StatusCreated)
	}
	return out, err
}

// sessionDeclaration is the declaration a completed session's partner reads: only while the
// claims are shared (nil otherwise).
func (s *Server) sessionDeclaration(ctx context.Context, v postgres.PartnerVerificationSession) (*AMLDeclarationJSON, error) {
	if !v.AMLProfile || v.Status != perfilseguro.SessionCompleted || v.SharedReason != nil {
		return nil, nil
	}
	d, err := s.store.SessionAMLDeclaration(ctx, v)
	if err != nil || d == nil {
		return nil, err
	}
	j := declarationJSON(*d)
	return &j, nil
}
