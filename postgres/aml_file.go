package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/identity"
)

// A person's LFPIORPI file (issue 53 items 5 and 6), assembled from the operation, the identity
// the file kept when the person was added (AMLPersonIdentity), the declarations shared with the
// business, the screenings and their hits, the avisos and every access (aml_file_accesses, 0042).
// The audit trail is read from those rows themselves (who recorded, resolved, filed, downloaded),
// so it cannot drift from what the file says.

// ErrAMLFileNotFound is a person who is not in that operation of this business (and mode).
var ErrAMLFileNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "Esa persona no está en la operación.")

// AMLFilePerson is one person's row of an operation: whose file it is and whether it is locked.
type AMLFilePerson struct {
	ID             int64      `db:"id"`
	OperationID    string     `db:"operation_id"`
	PartnerID      int64      `db:"partner_id"`
	TestMode       bool       `db:"test_mode"`
	UserID         *int64     `db:"user_id"`
	DeletedAt      *time.Time `db:"person_deleted_at"` // the person deleted their account: the file is locked
	RetentionUntil time.Time  `db:"retention_until"`
}

// Locked reports whether the person deleted their account: nobody may add to the file.
func (p AMLFilePerson) Locked() bool { return p.DeletedAt != nil }

const amlFilePersonQuery = `SELECT p.id, p.operation_id, o.partner_id, o.test_mode, p.user_id, p.person_deleted_at, o.retention_until
	FROM aml_operation_people p JOIN aml_operations o ON o.id = p.operation_id`

// AMLFilePersonOf finds person personID of a partner's operation in a mode (ErrAMLFileNotFound).
func (s *Store) AMLFilePersonOf(ctx context.Context, partnerID int64, testMode bool, operationID string, personID int64) (AMLFilePerson, error) {
	var p AMLFilePerson
	err := getOne(ctx, s.q(ctx), &p, ErrAMLFileNotFound, "aml file person",
		amlFilePersonQuery+` WHERE p.id = $1 AND p.operation_id = $2 AND o.partner_id = $3 AND o.test_mode = $4`,
		personID, operationID, partnerID, testMode)
	return p, err
}

// AMLFilePersonByID finds person personID of an operation of any business (an authority's request).
func (s *Store) AMLFilePersonByID(ctx context.Context, operationID string, personID int64) (AMLFilePerson, error) {
	var p AMLFilePerson
	err := getOne(ctx, s.q(ctx), &p, ErrAMLFileNotFound, "aml file person",
		amlFilePersonQuery+` WHERE p.id = $1 AND p.operation_id = $2`, personID, operationID)
	return p, err
}

// AMLFileAccess is one reading of a file.
type AMLFileAccess struct {
	PersonID           int64  // aml_operation_people.id
	ActorKind          string // "partner_user" or "admin"
	ActorID            int64
	ActorLabel         string // e-mail and role, as the file names them
	Format             string // pdf or json
	Purpose            string // why, in Spanish
	Authority          string // the authority that asked (admin only)
	AuthorityReference string // its request's reference, e.g. the oficio number (admin only)
	At                 time.Time
}

// RecordAMLFileAccess writes an access to the file (in the caller's transaction when ctx has one).
func (s *Store) RecordAMLFileAccess(ctx context.Context, a AMLFileAccess) error {
	var authority, reference *string
	if a.ActorKind == "admin" {
		authority, reference = &a.Authority, &a.AuthorityReference
	}
	_, err := s.q(ctx).ExecContext(ctx, `INSERT INTO aml_file_accesses (operation_person_id, actor_kind, actor_id, actor_label,
			format, purpose, authority, authority_reference, accessed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		a.PersonID, a.ActorKind, a.ActorID, a.ActorLabel, a.Format, a.Purpose, authority, reference, a.At)
	if err != nil {
		return fmt.Errorf("record aml file access: %w", err)
	}
	return nil
}

// AMLFile assembles the file of p as of now.
func (s *Store) AMLFile(ctx context.Context, p AMLFilePerson, now time.Time) (expediente.File, error) {
	q := s.q(ctx)
	f := expediente.File{GeneratedAt: now, RetentionUntil: expediente.DateOf(p.RetentionUntil),
		Declarations: []expediente.Declaration{}, Screenings: []expediente.Screening{}, Avisos: []expediente.Aviso{},
		Audit: []expediente.AuditLine{}}
	wrap := func(err error) error { return fmt.Errorf("aml file %d: %w", p.ID, err) }

	var biz struct {
		Name string `db:"partner_name"`
	}
	if err := sqlx.GetContext(ctx, q, &biz, `SELECT partner_name FROM api_keys WHERE id = $1`, p.PartnerID); err != nil {
		return f, wrap(err)
	}
	f.Business = expediente.Business{Name: biz.Name, PartnerID: p.PartnerID}

	var row amlOperationRow
	if err := sqlx.GetContext(ctx, q, &row, `SELECT `+amlOperationColumns+` FROM aml_operations WHERE id = $1`, p.OperationID); err != nil {
		return f, wrap(err)
	}
	var op struct {
		Role          string    `db:"role"`
		PersonAddedAt time.Time `db:"created_at"`
		ScreenedName  *string   `db:"screened_name"`
	}
	if err := sqlx.GetContext(ctx, q, &op, `SELECT role, created_at, screened_name FROM aml_operation_people WHERE id = $1`, p.ID); err != nil {
		return f, wrap(err)
	}
	o := row.operation()
	f.Operation = expediente.Operation{Kind: o.Kind, Amount: o.Amount, Date: expediente.DateOf(o.OperationDate),
		Reference: o.PropertyReference, Role: personRoleText[op.Role]}
	tables, err := s.AMLTables(ctx)
	if err != nil {
		return f, wrap(err)
	}
	avisoRequired := false
	if res, err := aml.Requirement(o.Kind, o.Amount, o.OperationDate, tables); err == nil {
		f.Operation.Thresholds = expediente.Thresholds{UMAYear: res.UMAYear, UMADaily: res.UMADaily,
			Identification: res.IdentificationPesos, Aviso: res.AvisoPesos, Identify: res.Identify, NeedsAviso: res.Aviso,
			Source: res.Threshold.Source}
		avisoRequired = res.Aviso
	}

	id, err := s.AMLPersonIdentity(ctx, p.ID)
	if err != nil {
		return f, wrap(err)
	}
	if id == nil { // recorded before 0037 kept identities: the name screened, if any
		id = &AMLIdentity{Name: deref(op.ScreenedName)}
	}
	f.Person, f.Verification = amlFilePerson(*id), amlFileVerification(*id)

	if f.Declarations, err = s.amlFileDeclarations(ctx, p); err != nil {
		return f, wrap(err)
	}
	if f.Risk, err = s.amlFileRisk(ctx, o, avisoRequired, f.Declarations); err != nil {
		return f, wrap(err)
	}
	var hitLines []expediente.AuditLine
	if f.Screenings, hitLines, err = s.amlFileScreenings(ctx, p.ID); err != nil {
		return f, wrap(err)
	}
	var avisoLines []expediente.AuditLine
	if f.Avisos, avisoLines, err = s.amlFileAvisos(ctx, p); err != nil {
		return f, wrap(err)
	}

	var accessLines []expediente.AuditLine
	if accessLines, err = s.amlFileAccessLines(ctx, p.ID); err != nil {
		return f, wrap(err)
	}
	audit := []expediente.AuditLine{{At: o.CreatedAt, Actor: o.CreatedByLabel, Action: "Registró la operación " + o.ID},
		{At: op.PersonAddedAt, Actor: o.CreatedByLabel, Action: "Agregó a la persona al expediente con la identidad de su documento"}}
	for _, d := range f.Declarations {
		audit = append(audit, expediente.AuditLine{At: d.SignedAt, Actor: "La persona",
			Action: fmt.Sprintf("Firmó la declaración, versión %d (%s)", d.Version, d.Method.Text())})
	}
	for _, sc := range f.Screenings {
		audit = append(audit, expediente.AuditLine{At: sc.CheckedAt, Actor: "Sistema",
			Action: fmt.Sprintf("Cotejó a la persona con «%s», versión %s: %d coincidencia(s) posible(s)", sc.ListName, sc.ListVersion, len(sc.Candidates))})
	}
	audit = append(audit, hitLines...)
	audit = append(audit, avisoLines...)
	if o.StoppedAt != nil {
		audit = append(audit, expediente.AuditLine{At: *o.StoppedAt, Actor: "Sistema",
			Action: "Detuvo la operación: " + o.StoppedReason})
	}
	if p.DeletedAt != nil {
		audit = append(audit, expediente.AuditLine{At: *p.DeletedAt, Actor: "Sistema", Action: "La persona eliminó su cuenta; " +
			"el expediente queda bloqueado y se conserva hasta el " + f.RetentionUntil.Spanish() + " (LFPIORPI, art. 18)"})
	}
	audit = append(audit, accessLines...)
	sort.SliceStable(audit, func(i, j int) bool { return audit[i].At.Before(audit[j].At) })
	f.Audit = audit
	return f, nil
}

// amlFileRisk is the operation's risk (aml.AssessRisk with the administrators' weights): its hits
// and people's nationalities across the operation, PEP and third-party beneficiary from this
// person's latest declaration.
func (s *Store) amlFileRisk(ctx context.Context, o AMLOperation, avisoRequired bool, decls []expediente.Declaration) (expediente.Risk, error) {
	var weights []struct {
		Key    string `db:"key"`
		Kind   string `db:"kind"`
		Weight int    `db:"weight"`
	}
	if err := sqlx.SelectContext(ctx, s.q(ctx), &weights, `SELECT key, kind, weight FROM aml_risk_weights`); err != nil {
		return expediente.Risk{}, fmt.Errorf("risk weights: %w", err)
	}
	w := aml.RiskWeights{Factors: map[string]int{}}
	for _, r := range weights {
		switch r.Key {
		case aml.RiskCutMedium:
			w.Medium = r.Weight
		case aml.RiskCutHigh:
			w.High = r.Weight
		default:
			w.Factors[r.Key] = r.Weight
		}
	}
	facts := aml.RiskFacts{Cash: o.Cash, AvisoRequired: avisoRequired}
	err := sqlx.GetContext(ctx, s.q(ctx), &facts.PendingHits,
		`SELECT count(*) FROM aml_hits WHERE operation_id = $1 AND status = 'pendiente'`, o.ID)
	if err == nil {
		err = sqlx.GetContext(ctx, s.q(ctx), &facts.ConfirmedHits,
			`SELECT count(*) FROM aml_hits WHERE operation_id = $1 AND status = 'confirmada'`, o.ID)
	}
	if err == nil {
		err = sqlx.GetContext(ctx, s.q(ctx), &facts.ForeignNationals, `SELECT count(*) FROM aml_operation_people
			WHERE operation_id = $1 AND nationality IS NOT NULL AND nationality NOT IN ('MEX', '')`, o.ID)
	}
	if err != nil {
		return expediente.Risk{}, fmt.Errorf("risk facts: %w", err)
	}
	if n := len(decls); n > 0 {
		facts.PEP, facts.ThirdPartyBeneficiary = decls[n-1].Answers.PEP, decls[n-1].Answers.ForBeneficiary
	}
	res := aml.AssessRisk(facts, w)
	r := expediente.Risk{Level: expediente.Level(res.Level), Factors: []expediente.Factor{}}
	for _, f := range res.Factors {
		r.Factors = append(r.Factors, expediente.Factor{Description: f.Text, Weight: f.Weight})
	}
	return r, nil
}

var personRoleText = map[string]string{"comprador": "Comprador", "vendedor": "Vendedor", "arrendador": "Arrendador",
	"arrendatario": "Arrendatario", "otro": "Otro"}

var documentTypeText = map[string]string{
	perfilseguro.DocumentINE: "Credencial para votar", perfilseguro.DocumentPassport: "Pasaporte",
	perfilseguro.DocumentDrivingLicence: "Licencia de conducir", perfilseguro.DocumentResidencePermit: "Tarjeta de residente",
}

// maskLast4 hides all but the last 4 characters of an identifier (the CURP, the document's number).
func maskLast4(v string) string {
	r := []rune(strings.TrimSpace(v))
	if len(r) == 0 {
		return ""
	}
	if len(r) <= 4 {
		return strings.Repeat("•", len(r))
	}
	return strings.Repeat("•", len(r)-4) + string(r[len(r)-4:])
}

func amlFilePerson(a AMLIdentity) expediente.Person {
	p := expediente.Person{DocumentName: a.Name}
	d := a.Document
	if d == nil {
		return p
	}
	if d.FullName != "" {
		p.DocumentName = d.FullName
	} else if n := strings.Join(nonBlank(d.GivenNames, d.FirstSurname, d.SecondSurname), " "); n != "" {
		p.DocumentName = n
	}
	p.GivenNames, p.Surnames = d.GivenNames, strings.Join(nonBlank(d.FirstSurname, d.SecondSurname), " ")
	if !d.DateOfBirth.IsZero() {
		p.BirthDate = expediente.DateOf(d.DateOfBirth)
	}
	p.Sex, p.Nationality, p.CURP = d.Sex, d.Nationality, maskLast4(d.PersonalNumber)
	p.Document = expediente.IDDoc{Type: documentTypeText[d.DocumentType], Number: maskLast4(d.DocumentNumber),
		Issuer: strings.Join(nonBlank(d.IssuingCountry, d.IssuingState), ", ")}
	if p.Document.Type == "" {
		p.Document.Type = d.DocumentType
	}
	if !d.ExpiryDate.IsZero() {
		p.Document.Expiry = expediente.DateOf(d.ExpiryDate)
	}
	return p
}

func nonBlank(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

var verdictText = map[identity.Verdict]string{
	identity.VerdictMatch:      "Coincide con el documento",
	identity.VerdictNear:       "Coincidencia cercana, revisada por Perfil Seguro",
	identity.VerdictNoDocument: "Sin nombre legible en el documento, revisada por Perfil Seguro",
	identity.VerdictMismatch:   "No coincide; la persona adoptó el nombre del documento",
}

var registryText = map[string]string{"mex_curp": "RENAPO", "mex_ine": "INE"}

var registryFieldText = map[string]string{"full_name": "Nombre", "identification_number": "CURP o número",
	"date_of_birth": "Fecha de nacimiento", "personal_number": "CURP"}

var registryResultText = map[string]string{perfilseguro.RegistryMatch: "Coincide", perfilseguro.RegistryPartialMatch: "Coincide en parte",
	perfilseguro.RegistryNoMatch: "No coincide", perfilseguro.RegistryNotAvailable: "Registro no disponible"}

func amlFileVerification(a AMLIdentity) expediente.Verification {
	v := expediente.Verification{Registries: []expediente.RegistryCheck{}}
	if a.NameSource != "document" {
		v.NameMatch.Verdict = "Sin verificación con documento: el nombre es el que la persona escribió"
		return v
	}
	v.Provider = a.Provider
	if strings.EqualFold(v.Provider, "didit") {
		v.Provider = "Didit"
	}
	if a.VerifiedAt != nil {
		v.At = *a.VerifiedAt
	}
	score := func(s *float64) expediente.Check {
		c := expediente.Check{Passed: true} // the check certified the profile: the provider approved it
		if s != nil {
			c.Score = *s
		}
		return c
	}
	v.FaceMatch, v.Liveness, v.Document = score(a.FaceMatchScore), score(a.LivenessScore), score(a.DocumentScore)
	var as identity.Assessment
	if len(a.Findings) > 0 {
		_ = json.Unmarshal(a.Findings, &as) // the assessment as stored; an old shape leaves it empty
	}
	verdict := identity.Verdict(a.Verdict)
	if verdict == "" {
		verdict = as.Verdict
	}
	v.NameMatch.Verdict = verdictText[verdict]
	if v.NameMatch.Verdict == "" {
		v.NameMatch.Verdict = "Coincide con el documento"
	}
	v.NameMatch.Findings = []string{}
	for _, f := range as.Findings {
		v.NameMatch.Findings = append(v.NameMatch.Findings, f.Text)
	}
	for _, r := range as.Registry {
		name := registryText[r.Registry]
		if name == "" {
			name = r.Registry
		}
		field := registryFieldText[r.Field]
		if field == "" {
			field = r.Field
		}
		v.Registries = append(v.Registries, expediente.RegistryCheck{Registry: name, Field: field,
			Matched: r.Result == perfilseguro.RegistryMatch})
		if r.Result != perfilseguro.RegistryMatch {
			v.Registries[len(v.Registries)-1].Detail = registryResultText[r.Result]
		}
	}
	return v
}

// amlFileDeclarations are the versions the person shared with the file's business (in its mode),
// oldest first; after the deletion, those the file kept (aml_file_declarations).
func (s *Store) amlFileDeclarations(ctx context.Context, p AMLFilePerson) ([]expediente.Declaration, error) {
	var rows []struct {
		Version  int       `db:"version"`
		SignedAt time.Time `db:"signed_at"`
		Method   string    `db:"method"`
		SHA      string    `db:"text_sha256"`
		Answers  string    `db:"answers_sealed"`
	}
	err := sqlx.SelectContext(ctx, s.q(ctx), &rows, `SELECT d.version, d.signed_at, d.method, d.text_sha256, d.answers_sealed
		FROM aml_declarations d
		WHERE d.test_mode = $3 AND (
			(d.user_id = $2 AND EXISTS (SELECT 1 FROM aml_declaration_shares sh WHERE sh.declaration_id = d.id AND sh.partner_id = $4))
			OR d.id IN (SELECT declaration_id FROM aml_file_declarations WHERE operation_person_id = $1))
		ORDER BY d.version, d.signed_at`, p.ID, p.UserID, p.TestMode, p.PartnerID)
	if err != nil {
		return nil, fmt.Errorf("declarations: %w", err)
	}
	out := []expediente.Declaration{}
	for _, r := range rows {
		d := expediente.Declaration{Version: r.Version, SignedAt: r.SignedAt, Method: expediente.Method(r.Method), TextSHA256: r.SHA}
		if !s.Documents.Valid() {
			return nil, ErrNoDocumentKey
		}
		raw, err := s.Documents.Sealer.Open(r.Answers)
		if err != nil {
			return nil, fmt.Errorf("declaration %d: %w", r.Version, err)
		}
		if err := json.Unmarshal([]byte(raw), &d.Answers); err != nil {
			return nil, fmt.Errorf("declaration %d: %w", r.Version, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// amlFileScreenings are the person's screenings (oldest first) with the candidates each raised,
// and the audit lines of the rulings.
func (s *Store) amlFileScreenings(ctx context.Context, personID int64) ([]expediente.Screening, []expediente.AuditLine, error) {
	var rows []struct {
		ID         int64          `db:"id"`
		Subject    string         `db:"subject"`
		Source     string         `db:"source"`
		ListName   sql.NullString `db:"list_name"`
		Version    sql.NullInt64  `db:"version"`
		SHA        sql.NullString `db:"sha256"`
		ImportedAt *time.Time     `db:"imported_at"`
		CheckedAt  time.Time      `db:"checked_at"`
		Name       string         `db:"screened_name"`
	}
	err := sqlx.SelectContext(ctx, s.q(ctx), &rows, `SELECT sc.id, sc.subject, sc.source, l.name AS list_name, v.version, v.sha256,
			v.imported_at, sc.checked_at, sc.screened_name
		FROM aml_screenings sc LEFT JOIN screening_lists l ON l.id = sc.list_id
		LEFT JOIN screening_list_versions v ON v.id = sc.version_id
		WHERE sc.operation_person_id = $1 ORDER BY sc.checked_at, sc.id`, personID)
	if err != nil {
		return nil, nil, fmt.Errorf("screenings: %w", err)
	}
	var hits []struct {
		ScreeningID int64      `db:"screening_id"`
		ListName    string     `db:"list_name"`
		Matched     string     `db:"matched_name"`
		Score       float64    `db:"score"`
		Reasons     []string   `db:"-"`
		RawReasons  string     `db:"reasons"`
		Status      string     `db:"status"`
		Reason      *string    `db:"resolution_reason"`
		By          *string    `db:"resolved_by_label"`
		At          *time.Time `db:"resolved_at"`
	}
	err = sqlx.SelectContext(ctx, s.q(ctx), &hits, `SELECT screening_id, list_name, matched_name, score::float8 AS score,
			array_to_json(reasons)::text AS reasons, status, resolution_reason, resolved_by_label, resolved_at
		FROM aml_hits WHERE operation_person_id = $1 ORDER BY created_at, id`, personID)
	if err != nil {
		return nil, nil, fmt.Errorf("hits: %w", err)
	}
	out := make([]expediente.Screening, 0, len(rows))
	at := map[int64]int{}
	for _, r := range rows {
		sc := expediente.Screening{CheckedAt: r.CheckedAt, Candidates: []expediente.Candidate{}}
		if r.Source == "proveedor" {
			sc.ListName, sc.ListVersion = "Revisión de listas del proveedor de verificación", "Resultado de la verificación"
			sc.ImportedAt = r.CheckedAt
		} else {
			sc.ListName = r.ListName.String
			sha := r.SHA.String
			if len(sha) > 12 {
				sha = sha[:12]
			}
			sc.ListVersion = fmt.Sprintf("%d (SHA-256 %s…)", r.Version.Int64, sha)
			if r.ImportedAt != nil {
				sc.ImportedAt = *r.ImportedAt
			}
		}
		if r.Subject == "beneficiario" {
			sc.ListName += " — beneficiario controlador: " + r.Name
		}
		at[r.ID] = len(out)
		out = append(out, sc)
	}
	var lines []expediente.AuditLine
	for _, h := range hits {
		c := expediente.Candidate{Name: h.Matched, Score: h.Score, Reasons: []string{}}
		_ = json.Unmarshal([]byte(h.RawReasons), &c.Reasons)
		if h.Status != "pendiente" && h.At != nil {
			c.Resolution = &expediente.Resolution{Decision: expediente.Decision(h.Status), By: deref(h.By), At: *h.At, Reason: deref(h.Reason)}
			lines = append(lines, expediente.AuditLine{At: *h.At, Actor: deref(h.By), Action: fmt.Sprintf("Marcó como %s la coincidencia con «%s» (%s): %s",
				strings.ToLower(c.Resolution.Decision.Text()), h.Matched, h.ListName, deref(h.Reason))})
		}
		if i, ok := at[h.ScreeningID]; ok {
			out[i].Candidates = append(out[i].Candidates, c)
		}
	}
	return out, lines, nil
}

var avisoKind = map[string]expediente.AvisoKind{"umbral": expediente.AvisoThreshold, "sospechosa": expediente.AvisoSuspicious,
	"sin_operaciones": expediente.AvisoNoOperations}

// amlFileAvisos are the operation's avisos and the audit lines of their filing.
func (s *Store) amlFileAvisos(ctx context.Context, p AMLFilePerson) ([]expediente.Aviso, []expediente.AuditLine, error) {
	var rows []struct {
		Kind    string     `db:"kind"`
		Due     time.Time  `db:"due_at"`
		Filed   *time.Time `db:"filed_at"`
		Ack     *string    `db:"acknowledgement"`
		FiledBy *string    `db:"filed_by_label"`
	}
	err := sqlx.SelectContext(ctx, s.q(ctx), &rows, `SELECT kind, due_at, filed_at, acknowledgement, filed_by_label
		FROM aml_avisos WHERE operation_id = $1 AND partner_id = $2 AND test_mode = $3 ORDER BY due_at, id`,
		p.OperationID, p.PartnerID, p.TestMode)
	if err != nil {
		return nil, nil, fmt.Errorf("avisos: %w", err)
	}
	out := []expediente.Aviso{}
	var lines []expediente.AuditLine
	for _, r := range rows {
		a := expediente.Aviso{Kind: avisoKind[r.Kind], Due: r.Due, Filed: r.Filed, Acknowledgement: deref(r.Ack)}
		out = append(out, a)
		if r.Filed != nil {
			lines = append(lines, expediente.AuditLine{At: *r.Filed, Actor: deref(r.FiledBy),
				Action: fmt.Sprintf("Marcó como presentado el %s (acuse %s)", strings.ToLower(a.Kind.Text()), a.Acknowledgement)})
		}
	}
	return out, lines, nil
}

func (s *Store) amlFileAccessLines(ctx context.Context, personID int64) ([]expediente.AuditLine, error) {
	var rows []struct {
		Kind      string    `db:"actor_kind"`
		Label     string    `db:"actor_label"`
		Format    string    `db:"format"`
		Purpose   string    `db:"purpose"`
		Authority *string   `db:"authority"`
		Reference *string   `db:"authority_reference"`
		At        time.Time `db:"accessed_at"`
	}
	err := sqlx.SelectContext(ctx, s.q(ctx), &rows, `SELECT actor_kind, actor_label, format, purpose, authority, authority_reference, accessed_at
		FROM aml_file_accesses WHERE operation_person_id = $1 ORDER BY accessed_at, id`, personID)
	if err != nil {
		return nil, fmt.Errorf("accesses: %w", err)
	}
	var out []expediente.AuditLine
	for _, r := range rows {
		action := fmt.Sprintf("Descargó el expediente (%s): %s", strings.ToUpper(r.Format), r.Purpose)
		if r.Kind == "admin" {
			action = fmt.Sprintf("Descargó el expediente (%s) a petición de %s, oficio %s", strings.ToUpper(r.Format),
				deref(r.Authority), deref(r.Reference))
		}
		out = append(out, expediente.AuditLine{At: r.At, Actor: r.Label, Action: action})
	}
	return out, nil
}

// AMLFileKept is a business that keeps an LFPIORPI file about a person, and until when.
type AMLFileKept struct {
	PartnerID   int64     `db:"partner_id"`
	PartnerName string    `db:"partner_name"`
	Until       time.Time `db:"until"`
}

// AMLFilesAbout lists the businesses that keep a live file about the person (test files are a
// partner's rehearsal, not an obligation), with the latest retention day of each.
func (s *Store) AMLFilesAbout(ctx context.Context, userID int64) ([]AMLFileKept, error) {
	out := []AMLFileKept{}
	err := sqlx.SelectContext(ctx, s.q(ctx), &out, `SELECT o.partner_id, k.partner_name, max(o.retention_until) AS until
		FROM aml_operation_people p JOIN aml_operations o ON o.id = p.operation_id JOIN api_keys k ON k.id = o.partner_id
		WHERE p.user_id = $1 AND NOT o.test_mode GROUP BY o.partner_id, k.partner_name ORDER BY k.partner_name`, userID)
	if err != nil {
		return nil, fmt.Errorf("aml files about %d: %w", userID, err)
	}
	for i := range out {
		out[i].Until = aml.Day(out[i].Until)
	}
	return out, nil
}

// lockAMLFilesQuery runs in the account deletion ($1 the user, $2 the day in Mexico City): the
// person's files still within retention are locked, and the declarations each file cites are
// tied to it before aml_declarations.user_id becomes NULL; the person's other declarations go.
var lockAMLFilesQueries = []string{
	`UPDATE aml_operation_people p SET person_deleted_at = now() FROM aml_operations o
		WHERE o.id = p.operation_id AND p.user_id = $1 AND o.retention_until >= $2::date AND p.person_deleted_at IS NULL`,
	`INSERT INTO aml_file_declarations (operation_person_id, declaration_id)
		SELECT p.id, d.id FROM aml_operation_people p JOIN aml_operations o ON o.id = p.operation_id
		JOIN aml_declarations d ON d.user_id = p.user_id AND d.test_mode = o.test_mode
		JOIN aml_declaration_shares sh ON sh.declaration_id = d.id AND sh.partner_id = o.partner_id
		WHERE p.user_id = $1 AND p.person_deleted_at IS NOT NULL AND $2::date IS NOT NULL
		ON CONFLICT DO NOTHING`,
	`DELETE FROM aml_declarations d WHERE d.user_id = $1 AND $2::date IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM aml_file_declarations f WHERE f.declaration_id = d.id)`,
}

// lockAMLFiles applies lockAMLFilesQueries in the deletion's transaction.
func lockAMLFiles(ctx context.Context, tx *sqlx.Tx, userID int64, now time.Time) error {
	day := perfilseguro.MexicoDay(now).Format(time.DateOnly)
	for _, q := range lockAMLFilesQueries {
		if _, err := tx.ExecContext(ctx, q, userID, day); err != nil {
			return fmt.Errorf("lock aml files of %d: %w", userID, err)
		}
	}
	return nil
}

// PurgeExpiredAMLFiles deletes the operations whose retention ended before today (Mexico City),
// with everything their files hold (people and their sealed identities, screenings, hits, avisos,
// accesses: by cascade) and the declarations only those files kept. It returns how many operations.
func (s *Store) PurgeExpiredAMLFiles(ctx context.Context, now time.Time) (int64, error) {
	day := perfilseguro.MexicoDay(now).Format(time.DateOnly)
	var n int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var orphans []int64
		if err := tx.SelectContext(ctx, &orphans, `SELECT DISTINCT f.declaration_id FROM aml_file_declarations f
			JOIN aml_operation_people p ON p.id = f.operation_person_id JOIN aml_operations o ON o.id = p.operation_id
			WHERE o.retention_until < $1::date`, day); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM aml_operations WHERE retention_until < $1::date`, day)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		// A kept declaration of a deleted person goes when no file cites it any longer.
		_, err = tx.ExecContext(ctx, `DELETE FROM aml_declarations d WHERE d.id = ANY($1) AND d.user_id IS NULL
			AND NOT EXISTS (SELECT 1 FROM aml_file_declarations f WHERE f.declaration_id = d.id)`, pq.Int64Array(orphans))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("purge aml files: %w", err)
	}
	return n, nil
}

// ErrAMLFileLocked is an addition to a file whose person deleted their account (409).
var ErrAMLFileLocked = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"El expediente está bloqueado: la persona eliminó su cuenta y solo se conserva por obligación legal.")
