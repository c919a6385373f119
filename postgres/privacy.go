package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/expediente"
)

// Consent is one recorded decision about a purpose.
type Consent struct {
	ID            int64     `db:"id"`
	Purpose       string    `db:"purpose"`
	Granted       bool      `db:"granted"`
	NoticeVersion string    `db:"notice_version"`
	RecordedAt    time.Time `db:"accepted_at"`
	IP            *string   `db:"ip_address"`
	UserAgent     *string   `db:"user_agent"`
}

// ConsentHistory lists a person's consent decisions, newest first.
func (s *Store) ConsentHistory(ctx context.Context, userID int64) ([]Consent, error) {
	const q = `SELECT id, purpose, granted, notice_version, accepted_at, ip_address, user_agent
		FROM consents WHERE user_id = $1 ORDER BY accepted_at DESC, id DESC`
	var out []Consent
	if err := s.q(ctx).SelectContext(ctx, &out, q, userID); err != nil {
		return nil, fmt.Errorf("consent history %d: %w", userID, err)
	}
	return out, nil
}

// NewConsent is a decision to record.
type NewConsent struct {
	UserID        int64
	Purpose       string
	Granted       bool
	NoticeVersion string
	IP, UserAgent string
}

// AddConsent appends a decision (q: the store's pool or a transaction).
func (s *Store) AddConsent(ctx context.Context, q sqlx.QueryerContext, c NewConsent) (Consent, error) {
	const stmt = `INSERT INTO consents (user_id, purpose, granted, notice_version, ip_address, user_agent)
		VALUES ($1, $2, $3, $4, NULLIF($5, ''), NULLIF($6, ''))
		RETURNING id, purpose, granted, notice_version, accepted_at, ip_address, user_agent`
	var out Consent
	if err := sqlx.GetContext(ctx, q, &out, stmt, c.UserID, c.Purpose, c.Granted, c.NoticeVersion, c.IP, c.UserAgent); err != nil {
		return Consent{}, fmt.Errorf("add consent: %w", err)
	}
	return out, nil
}

// HasConsent reports whether the person's latest decision on purpose grants it for version.
func (s *Store) HasConsent(ctx context.Context, userID int64, purpose, version string) (bool, error) {
	const q = `SELECT COALESCE((SELECT granted AND notice_version = $3 FROM consents
		WHERE user_id = $1 AND purpose = $2 ORDER BY accepted_at DESC, id DESC LIMIT 1), false)`
	var ok bool
	if err := s.q(ctx).GetContext(ctx, &ok, q, userID, purpose, version); err != nil {
		return false, fmt.Errorf("has consent: %w", err)
	}
	return ok, nil
}

// AllowsSecondaryUse reports whether the person has not objected to a secondary purpose (they
// hold until the person's latest decision withdraws them).
func (s *Store) AllowsSecondaryUse(ctx context.Context, q sqlx.QueryerContext, userID int64, purpose string) (bool, error) {
	const stmt = `SELECT COALESCE((SELECT granted FROM consents WHERE user_id = $1 AND purpose = $2
		ORDER BY accepted_at DESC, id DESC LIMIT 1), true)`
	var ok bool
	if err := sqlx.GetContext(ctx, q, &ok, stmt, userID, purpose); err != nil {
		return false, fmt.Errorf("secondary use: %w", err)
	}
	return ok, nil
}

// ArcoRequest is one request under the ARCO rights.
type ArcoRequest struct {
	ID         int64      `db:"id"`
	UserID     *int64     `db:"user_id"`
	ProfileID  string     `db:"profile_id"`
	Nombre     *string    `db:"nombre"` // the person's current name, when the account exists
	Type       string     `db:"type"`
	State      string     `db:"state"`
	Channel    string     `db:"channel"`
	Details    *string    `db:"details"`
	Resolution *string    `db:"resolution"`
	ReceivedAt time.Time  `db:"received_at"`
	DueAt      time.Time  `db:"due_at"`
	ResolvedAt *time.Time `db:"resolved_at"`
}

// What the app writes in the ARCO requests it answers itself: what was asked, never the values
// (an old name or e-mail in the administrators' list would outlive the account). Deletion keeps
// these words and blanks whatever a person or an administrator typed (forgetArcoText).
const (
	ArcoNameCorrected  = "Nombre corregido"
	ArcoEmailChanged   = "Correo cambiado"
	ArcoPhoneChanged   = "Teléfono cambiado"
	ArcoDeletionAsked  = "Eliminación de la cuenta desde Mi Perfil"
	ArcoExportAsked    = "Descarga de mis datos"
	ArcoAnsweredInApp  = "Atendida desde Mi Perfil."
	ArcoObjectionDone  = "Finalidad secundaria desactivada desde Mi Perfil."
	ArcoExportAnswered = "Copia de los datos enviada por correo electrónico."
)

// arcoAppWords are the texts above: the only details and answers a deletion keeps.
var arcoAppWords = []string{ArcoNameCorrected, ArcoEmailChanged, ArcoPhoneChanged, ArcoDeletionAsked, ArcoExportAsked,
	ArcoAnsweredInApp, ArcoObjectionDone, ArcoExportAnswered}

// forgetArcoText blanks, in a deletion's transaction, the free text of the person's ARCO requests
// (an e-mailed request's description, an administrator's answer): the rows stay, with the profile
// ID, as the record that each request was answered. An objection's details are a purpose code.
const forgetArcoText = `UPDATE arco_requests SET
	details = CASE WHEN details IS NULL OR details = ANY($2) OR type = 'oposicion' AND channel = 'app' THEN details ELSE '[eliminado]' END,
	resolution = CASE WHEN resolution IS NULL OR resolution = ANY($2) THEN resolution ELSE '[eliminado]' END
	WHERE user_id = $1`

// NewArcoRequest is a request to record; a State of atendida records one already answered.
type NewArcoRequest struct {
	UserID     int64
	Type       string
	Channel    string
	State      string // empty: recibida
	Details    string
	Resolution string
	Now        time.Time
}

// AddArcoRequest records a request with its legal deadline.
func (s *Store) AddArcoRequest(ctx context.Context, q sqlx.QueryerContext, r NewArcoRequest) (int64, error) {
	state := r.State
	if state == "" {
		state = perfilseguro.ArcoReceived
	}
	var resolved *time.Time
	if state == perfilseguro.ArcoDone || state == perfilseguro.ArcoRejected {
		resolved = &r.Now
	}
	const stmt = `INSERT INTO arco_requests (user_id, profile_id, type, state, channel, details, resolution,
		received_at, due_at, resolved_at)
		SELECT id, id_validado, $2, $3, $4, NULLIF($5, ''), NULLIF($6, ''), $7, $8, $9 FROM users WHERE id = $1
		RETURNING id`
	var id int64
	err := sqlx.GetContext(ctx, q, &id, stmt, r.UserID, r.Type, state, r.Channel, r.Details, r.Resolution,
		r.Now, perfilseguro.AddBusinessDays(r.Now, perfilseguro.ArcoAnswerDays), resolved)
	if isNoRows(err) {
		return 0, ErrUserNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("add arco request: %w", err)
	}
	return id, nil
}

const arcoColumns = `a.id, a.user_id, a.profile_id, u.nombre, a.type, a.state, a.channel, a.details, a.resolution,
	a.received_at, a.due_at, a.resolved_at FROM arco_requests a LEFT JOIN users u ON u.id = a.user_id`

// ArcoRequestsOf lists a person's own requests, newest first.
func (s *Store) ArcoRequestsOf(ctx context.Context, userID int64) ([]ArcoRequest, error) {
	var out []ArcoRequest
	if err := s.q(ctx).SelectContext(ctx, &out, `SELECT `+arcoColumns+` WHERE a.user_id = $1 ORDER BY a.received_at DESC, a.id DESC`, userID); err != nil {
		return nil, fmt.Errorf("arco requests of %d: %w", userID, err)
	}
	return out, nil
}

// ArcoRequests lists requests for the administrators, oldest first: only open ones unless all.
func (s *Store) ArcoRequests(ctx context.Context, all bool, limit int) ([]ArcoRequest, error) {
	q := `SELECT ` + arcoColumns + ` WHERE $1 OR a.state IN ('recibida', 'en_proceso') ORDER BY a.received_at, a.id LIMIT $2`
	var out []ArcoRequest
	if err := s.q(ctx).SelectContext(ctx, &out, q, all, limit); err != nil {
		return nil, fmt.Errorf("arco requests: %w", err)
	}
	return out, nil
}

// ArcoRequestByID reads one request.
func (s *Store) ArcoRequestByID(ctx context.Context, id int64) (ArcoRequest, error) {
	var out ArcoRequest
	err := s.q(ctx).GetContext(ctx, &out, `SELECT `+arcoColumns+` WHERE a.id = $1`, id)
	if isNoRows(err) {
		return ArcoRequest{}, ErrArcoNotFound
	}
	return out, err
}

// ResolveArcoRequest moves an open request to state (en_proceso, atendida or rechazada).
// ErrArcoClosed: it was already answered.
func (s *Store) ResolveArcoRequest(ctx context.Context, id int64, state, resolution string, now time.Time) (ArcoRequest, error) {
	const q = `UPDATE arco_requests SET state = $2, resolution = NULLIF($3, ''),
		resolved_at = CASE WHEN $2 IN ('atendida', 'rechazada') THEN $4::timestamptz END
		WHERE id = $1 AND state IN ('recibida', 'en_proceso') RETURNING id`
	var got int64
	err := s.q(ctx).GetContext(ctx, &got, q, id, state, resolution, now)
	if isNoRows(err) {
		var exists bool
		if err := s.q(ctx).GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM arco_requests WHERE id = $1)`, id); err != nil {
			return ArcoRequest{}, err
		}
		if !exists {
			return ArcoRequest{}, ErrArcoNotFound
		}
		return ArcoRequest{}, ErrArcoClosed
	}
	if err != nil {
		return ArcoRequest{}, fmt.Errorf("resolve arco request %d: %w", id, err)
	}
	return s.ArcoRequestByID(ctx, id)
}

// ARCO request errors.
var (
	ErrArcoNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No existe esa solicitud.")
	ErrArcoClosed   = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esa solicitud ya fue respondida.")
)

// Consultation is one lookup of a person's profile as the person sees it: never an address.
type Consultation struct {
	ID          int64     `db:"id"`
	At          time.Time `db:"scanned_at"`
	Channel     string    `db:"access_type"`
	PartnerName *string   `db:"partner_name"`
}

// Consultations lists lookups of the person's profile, newest first, before the keyset cursor
// (beforeAt, beforeID; zero time: from the newest). The index (user_id, scanned_at DESC) serves it.
func (s *Store) Consultations(ctx context.Context, userID int64, beforeAt time.Time, beforeID int64, limit int) ([]Consultation, error) {
	const q = `SELECT l.id, l.scanned_at, l.access_type, k.partner_name
		FROM verification_logs l LEFT JOIN api_keys k ON k.id = l.partner_id
		WHERE l.user_id = $1 AND l.granted AND ($2::timestamptz IS NULL OR (l.scanned_at, l.id) < ($2, $3))
		ORDER BY l.scanned_at DESC, l.id DESC LIMIT $4`
	var before *time.Time
	if !beforeAt.IsZero() {
		before = &beforeAt
	}
	var out []Consultation
	err := s.lagging(ctx, func(db sqlx.QueryerContext) error {
		out = nil
		return sqlx.SelectContext(ctx, db, &out, q, userID, before, beforeID, limit)
	})
	if err != nil {
		return nil, fmt.Errorf("consultations of %d: %w", userID, err)
	}
	return out, nil
}

// ConfirmSession records that the session's holder just entered a confirmation code.
func (s *Store) ConfirmSession(ctx context.Context, q sqlx.ExecerContext, tokenHash string, at time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE user_sessions SET confirmed_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL`, tokenHash, at)
	return err
}

// SessionConfirmedAt is when the session last confirmed a sensitive action (nil: never).
func (s *Store) SessionConfirmedAt(ctx context.Context, tokenHash string) (*time.Time, error) {
	var at *time.Time
	err := s.q(ctx).GetContext(ctx, &at, `SELECT confirmed_at FROM user_sessions WHERE token_hash = $1 AND revoked_at IS NULL`, tokenHash)
	if isNoRows(err) {
		return nil, nil
	}
	return at, err
}

// RenameUser changes a person's name. When annul is set (a validated person), the biometric
// validation is annulled in the same transaction: the result belonged to the old name. The
// users' triggers revoke credentials and notify the public cache as for any other change.
func (s *Store) RenameUser(ctx context.Context, userID int64, nombre string, annul bool, now time.Time) (before, after perfilseguro.User, err error) {
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		if before, err = s.getUser(ctx, tx, "WHERE u.id = $1 FOR UPDATE OF u", userID); err != nil {
			return err
		}
		const q = `UPDATE users SET nombre = $2, updated_at = now(),
			biometric_verified = CASE WHEN $3 THEN false ELSE biometric_verified END,
			verification_level = CASE WHEN $3 THEN LEAST(verification_level, 2) ELSE verification_level END,
			fecha_validacion = CASE WHEN $3 THEN NULL ELSE fecha_validacion END,
			revalidation_required_at = CASE WHEN $3 THEN $4::timestamptz ELSE revalidation_required_at END
			WHERE id = $1`
		if _, err := tx.ExecContext(ctx, q, userID, nombre, annul, now); err != nil {
			return fmt.Errorf("rename user %d: %w", userID, err)
		}
		if annul { // the credentials name the old person
			if _, err := tx.ExecContext(ctx, `UPDATE credentials SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, userID, now); err != nil {
				return fmt.Errorf("revoke credentials of %d: %w", userID, err)
			}
		}
		after, err = s.getUser(ctx, tx, "WHERE u.id = $1", userID)
		return err
	})
	return before, after, err
}

// ChangeContact replaces the person's e-mail or phone with a verified new one (the code proved
// it). ErrAlreadyRegistered: another account holds it now.
func (s *Store) ChangeContact(ctx context.Context, tx *sqlx.Tx, userID int64, channel, address string) error {
	q := `UPDATE users SET email = $2, is_email_verified = true, updated_at = now() WHERE id = $1`
	if channel == ChannelPhone {
		q = `UPDATE users SET phone_number = $2, is_phone_verified = true, updated_at = now() WHERE id = $1`
	}
	if _, err := tx.ExecContext(ctx, q, userID, address); err != nil {
		if _, ok := IsUniqueViolation(err); ok {
			return ErrAlreadyRegistered
		}
		return fmt.Errorf("change contact of %d: %w", userID, err)
	}
	return nil
}

// ActiveCodeFor is the person's usable code of one purpose (nil when none).
func (s *Store) ActiveCodesFor(ctx context.Context, userID int64, purpose string) ([]ActiveCode, error) {
	const q = `SELECT id, 'phone' AS channel, destination, code_hash, attempts FROM verification_codes
		WHERE user_id = $1 AND purpose = $3 AND NOT is_used AND expires_at > now() AND attempts < $2
		UNION ALL
		SELECT id, 'email' AS channel, destination, code_hash, attempts FROM email_verification_codes
		WHERE user_id = $1 AND purpose = $3 AND NOT is_used AND expires_at > now() AND attempts < $2`
	var codes []ActiveCode
	if err := s.q(ctx).SelectContext(ctx, &codes, q, userID, MaxCodeAttempts, purpose); err != nil {
		return nil, fmt.Errorf("active codes: %w", err)
	}
	return codes, nil
}

// LatestCodeAt is when the person's newest usable code of purpose was made (nil: none), for
// the resend cooldown.
func (s *Store) LatestCodeAt(ctx context.Context, userID int64, purpose string) (*time.Time, error) {
	const q = `SELECT max(created_at) FROM (
		SELECT created_at FROM verification_codes WHERE user_id = $1 AND purpose = $2 AND NOT is_used AND expires_at > now()
		UNION ALL
		SELECT created_at FROM email_verification_codes WHERE user_id = $1 AND purpose = $2 AND NOT is_used AND expires_at > now()) c`
	var at *time.Time
	if err := s.q(ctx).GetContext(ctx, &at, q, userID, purpose); err != nil {
		return nil, fmt.Errorf("latest code: %w", err)
	}
	return at, nil
}

// PersonalData is everything held about one person, as the JSON of their data export: each key
// a section, each value what the tables hold (never a secret: no code, token or key hashes, and
// never a verifier's address).
func (s *Store) PersonalData(ctx context.Context, userID int64) (json.RawMessage, error) {
	const q = `SELECT json_build_object(
		'perfil', (SELECT row_to_json(p) FROM (SELECT u.id_validado AS id_perfil, u.nombre, u.email, u.phone_number AS telefono,
			u.origen, inv.nombre AS invitado_por, k.partner_name AS plataforma_de_origen, u.vigencia AS vigencia_anos,
			u.fecha_validacion, u.verification_level AS nivel_verificacion, u.is_phone_verified AS telefono_verificado,
			u.is_email_verified AS correo_verificado, u.biometric_verified AS biometria_verificada, u.plan,
			u.revoked_at AS revocado_en, u.revoked_reason AS motivo_revocacion, u.expired_at AS vencido_en,
			u.name_source AS nombre_tomado_de, u.document_expires_on AS identificacion_vigente_hasta,
			u.created_at AS creado_en, u.updated_at AS actualizado_en
			FROM users u LEFT JOIN users inv ON inv.id = u.invited_by LEFT JOIN api_keys k ON k.id = u.partner_id
			WHERE u.id = $1) p),
		'consentimientos', (SELECT COALESCE(json_agg(c ORDER BY c.fecha), '[]') FROM (SELECT purpose AS finalidad, granted AS otorgado,
			notice_version AS version_aviso, accepted_at AS fecha, ip_address AS ip, user_agent AS navegador
			FROM consents WHERE user_id = $1) c),
		'verificaciones_biometricas', (SELECT COALESCE(json_agg(v ORDER BY v.creada_en), '[]') FROM (SELECT provider AS proveedor,
			session_id AS sesion, verification_status AS estado, overall_score AS puntaje_general,
			face_match_score AS puntaje_rostro, document_score AS puntaje_documento, liveness_score AS puntaje_vida,
			environment AS ambiente, created_at AS creada_en, completed_at AS terminada_en
			FROM verification_sessions WHERE user_id = $1) v),
		'documentos_de_identidad', (SELECT COALESCE(json_agg(d ORDER BY d.leido_en), '[]') FROM (SELECT v.session_id AS sesion,
			v.doc_type AS tipo, v.doc_issuing_country AS pais_emisor, v.doc_issuing_state AS estado_emisor,
			v.doc_given_names AS nombres, v.doc_first_surname AS primer_apellido, v.doc_second_surname AS segundo_apellido,
			v.doc_full_name AS nombre_completo, v.doc_birth_date AS fecha_nacimiento, v.doc_sex AS sexo,
			v.doc_nationality AS nacionalidad, v.doc_issue_date AS expedida_el, v.doc_expiry_date AS vigente_hasta,
			v.doc_number_sealed AS numero, v.doc_curp_sealed AS curp, v.doc_address_sealed AS domicilio,
			(v.doc_curp_hash IS NOT NULL OR v.doc_number_hash IS NOT NULL) AS huella_guardada,
			v.identity_verdict AS resultado, COALESCE(v.id = u.identity_verification_id, false) AS certifica_tu_perfil,
			v.document_read_at AS leido_en
			FROM verification_sessions v JOIN users u ON u.id = v.user_id
			WHERE v.user_id = $1 AND v.document_read_at IS NOT NULL) d),
		'pagos', (SELECT COALESCE(json_agg(p ORDER BY p.creado_en), '[]') FROM (SELECT id AS folio, plan, years AS anos,
			amount_centavos / 100.0 AS monto, upper(currency) AS moneda, payment_method AS metodo, status AS estado,
			voucher_number AS referencia_oxxo, paid_at AS pagado_en, refunded_at AS reembolsado_en, created_at AS creado_en
			FROM payments WHERE user_id = $1) p),
		'invitaciones_enviadas', (SELECT COALESCE(json_agg(i ORDER BY i.creada_en), '[]') FROM (SELECT invitee_name AS nombre,
			invitee_email AS correo, invitee_phone AS telefono, type AS tipo, status AS estado, company_name AS empresa,
			personal_message AS mensaje, expires_at AS vence, accepted_at AS aceptada_en, created_at AS creada_en
			FROM invitations WHERE inviter_id = $1) i),
		'invitaciones_recibidas', (SELECT COALESCE(json_agg(i ORDER BY i.creada_en), '[]') FROM (SELECT inv.nombre AS de,
			i.type AS tipo, i.status AS estado, i.accepted_at AS aceptada_en, i.created_at AS creada_en
			FROM invitations i JOIN users inv ON inv.id = i.inviter_id WHERE i.accepted_user_id = $1) i),
		'pases', (SELECT COALESCE(json_agg(w ORDER BY w.generado_en), '[]') FROM (SELECT kind AS tipo, built_at AS generado_en
			FROM wallet_passes WHERE user_id = $1) w),
		'credenciales', (SELECT COALESCE(json_agg(c ORDER BY c.creada_en), '[]') FROM (SELECT id AS numero, issued_at AS emitida_en,
			expires_at AS vence, revoked_at AS revocada_en, holder_jwk IS NOT NULL AS ligada_a_tu_llave, created_at AS creada_en
			FROM credentials WHERE user_id = $1) c),
		'consultas_a_tu_perfil', (SELECT COALESCE(json_agg(l ORDER BY l.fecha), '[]') FROM (SELECT l.scanned_at AS fecha,
			l.access_type AS canal, k.partner_name AS plataforma, l.reason AS resultado
			FROM verification_logs l LEFT JOIN api_keys k ON k.id = l.partner_id WHERE l.user_id = $1 AND l.granted) l),
		'sesiones', (SELECT COALESCE(json_agg(s ORDER BY s.iniciada_en), '[]') FROM (SELECT created_at AS iniciada_en,
			expires_at AS vence, revoked_at AS cerrada_en, ip_address AS ip, user_agent AS navegador
			FROM user_sessions WHERE user_id = $1) s),
		'solicitudes_arco', (SELECT COALESCE(json_agg(a ORDER BY a.recibida_en), '[]') FROM (SELECT type AS tipo, state AS estado,
			channel AS canal, received_at AS recibida_en, due_at AS fecha_limite, resolved_at AS respondida_en
			FROM arco_requests WHERE user_id = $1) a),
		'recordatorios', (SELECT COALESCE(json_agg(r ORDER BY r.enviado_en), '[]') FROM (SELECT days_before AS dias_antes,
			channel AS canal, sent_at AS enviado_en FROM expiry_reminders WHERE user_id = $1) r),
		'llaves_de_acceso', (SELECT COALESCE(json_agg(k ORDER BY k.creada_en), '[]') FROM (SELECT name AS nombre,
			backup_state AS sincronizada, created_at AS creada_en, last_used_at AS ultimo_uso
			FROM webauthn_credentials WHERE user_id = $1) k)
	) WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)`
	var doc json.RawMessage
	if err := getOne(ctx, s.q(ctx), &doc, ErrUserNotFound, fmt.Sprintf("personal data of %d", userID), q, userID); err != nil {
		return nil, err
	}
	doc, err := s.openExportDocuments(doc, userID)
	if err != nil {
		return nil, err
	}
	return s.withExportDeclarations(ctx, doc, userID)
}

// withExportDeclarations adds the person's LFPIORPI declarations (issue 53): every signed
// version, the answers in words (opened: they are the person's own), when and how each was
// signed, and which businesses received it.
func (s *Store) withExportDeclarations(ctx context.Context, doc json.RawMessage, userID int64) (json.RawMessage, error) {
	var rows []struct {
		Version  int       `db:"version"`
		TestMode bool      `db:"test_mode"`
		SignedAt time.Time `db:"signed_at"`
		Method   string    `db:"method"`
		SHA      string    `db:"text_sha256"`
		Answers  string    `db:"answers_sealed"`
		Shared   string    `db:"shared_with"`
	}
	err := sqlx.SelectContext(ctx, s.q(ctx), &rows, `SELECT d.version, d.test_mode, d.signed_at, d.method, d.text_sha256, d.answers_sealed,
			COALESCE((SELECT string_agg(k.partner_name, ', ' ORDER BY sh.shared_at) FROM aml_declaration_shares sh
				JOIN api_keys k ON k.id = sh.partner_id WHERE sh.declaration_id = d.id), '') AS shared_with
		FROM aml_declarations d WHERE d.user_id = $1 ORDER BY d.test_mode, d.version`, userID)
	if err != nil {
		return nil, fmt.Errorf("personal data of %d: declarations: %w", userID, err)
	}
	yes := map[bool]string{true: "Sí", false: "No"}
	out := []map[string]any{}
	for _, r := range rows {
		if !s.Documents.Valid() {
			return nil, fmt.Errorf("personal data of %d: %w", userID, ErrNoDocumentKey)
		}
		raw, err := s.Documents.Sealer.Open(r.Answers)
		if err != nil {
			return nil, fmt.Errorf("personal data of %d: declaration %d: %w", userID, r.Version, err)
		}
		var a expediente.Answers
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			return nil, fmt.Errorf("personal data of %d: declaration %d: %w", userID, r.Version, err)
		}
		d := map[string]any{"version": r.Version, "de_prueba": r.TestMode, "firmada_el": r.SignedAt,
			"firmada_con": expediente.Method(r.Method).Text(), "huella_del_texto": r.SHA, "ocupacion": a.Occupation,
			"domicilio": a.Address, "rfc": a.RFC, "nacionalidad": a.Nationality, "actua_por_un_tercero": yes[a.ForBeneficiary],
			"persona_politicamente_expuesta": yes[a.PEP], "cargo_publico": a.PEPPosition, "compartida_con": r.Shared}
		if b := a.Beneficiary; b != nil {
			d["beneficiario_nombre"], d["beneficiario_fecha_nacimiento"] = b.Name, b.BirthDate.String()
			d["beneficiario_curp_o_rfc"], d["beneficiario_relacion"] = b.CURPOrRFC, b.Relationship
		}
		out = append(out, d)
	}
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(doc, &sections); err != nil {
		return nil, fmt.Errorf("personal data of %d: %w", userID, err)
	}
	decls, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	sections["declaraciones_lfpiorpi"] = decls
	return json.Marshal(sections)
}

// exportSealed are the keys of an export's documentos_de_identidad stored sealed: the export
// gives them to their owner opened, in full.
var exportSealed = []string{"numero", "curp", "domicilio"}

// openExportDocuments opens the sealed fields of the identity documents in an export: the person
// is entitled to their own document's number, CURP and address. It needs the document-data key
// once a document holds one (ErrNoDocumentKey otherwise: never the sealed text in their place).
func (s *Store) openExportDocuments(doc json.RawMessage, userID int64) (json.RawMessage, error) {
	var sections map[string]json.RawMessage
	if err := json.Unmarshal(doc, &sections); err != nil {
		return nil, fmt.Errorf("personal data of %d: %w", userID, err)
	}
	var documents []map[string]any
	if err := json.Unmarshal(sections["documentos_de_identidad"], &documents); err != nil || len(documents) == 0 {
		return doc, err
	}
	for _, d := range documents {
		for _, k := range exportSealed {
			sealed, ok := d[k].(string)
			if !ok {
				continue
			}
			if !s.Documents.Valid() {
				return nil, fmt.Errorf("personal data of %d: %w", userID, ErrNoDocumentKey)
			}
			v, err := s.Documents.Sealer.Open(sealed)
			if err != nil {
				return nil, fmt.Errorf("personal data of %d: document %s: %w", userID, k, err)
			}
			d[k] = v
		}
	}
	opened, err := json.Marshal(documents)
	if err != nil {
		return nil, err
	}
	sections["documentos_de_identidad"] = opened
	return json.Marshal(sections)
}
