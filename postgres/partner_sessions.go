package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Verification sessions and the grants they leave (sql/migrations/0020_partner_keys_sessions.sql).
// Every change of status is one statement that names the statuses it may leave, so two racing
// changes cannot both count; a change a partner must hear of writes its notification in the same
// transaction (the outbox the partner:notify job sends).

// Session events sent to partners.
const (
	EventSessionCompleted = "verification_session.completed"
	EventSessionDeclined  = "verification_session.declined"
	EventSessionExpired   = "verification_session.expired"
	EventAccessRevoked    = "profile.access_revoked"
)

var (
	// ErrSessionNotFound is a session that does not exist for this partner and mode.
	ErrSessionNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "La sesión de verificación no existe.")
	// ErrSessionClosed is a session that can no longer change (ended, or its secret already used).
	ErrSessionClosed = perfilseguro.Errorf(perfilseguro.ECONFLICT, "La sesión de verificación ya terminó o ya se abrió.")
)

// PartnerVerificationSession is one partner request (a verification session), as stored.
type PartnerVerificationSession struct {
	ID            string         `db:"id"`
	PartnerID     int64          `db:"partner_id"`
	Livemode      bool           `db:"livemode"`
	Reference     string         `db:"reference"`
	RequiredLevel int            `db:"required_level"`
	Claims        pq.StringArray `db:"claims"`
	ReturnURL     *string        `db:"return_url"`
	Status        string         `db:"status"`
	UserID        *int64         `db:"user_id"`
	Shared        []byte         `db:"shared"` // JSON object, completed only (nil once SharedReason is set)
	Proof         *string        `db:"proof"`
	// SharedReason is why a completed session's shared data is gone: SharedWithdrawn or SharedDeleted.
	SharedReason *string    `db:"shared_reason"`
	CreatedAt    time.Time  `db:"created_at"`
	ExpiresAt    time.Time  `db:"expires_at"`
	OpenedAt     *time.Time `db:"opened_at"`
	EndedAt      *time.Time `db:"ended_at"`
	// AMLProfile: the session asks for the know-your-client declaration (issue 53 item 2).
	AMLProfile bool `db:"aml_profile"`
}

// StatusAt is the status as seen at now: an open session past its expiry is expired even before
// the sweep marks it.
func (v PartnerVerificationSession) StatusAt(now time.Time) string {
	open := v.Status == perfilseguro.SessionCreated || v.Status == perfilseguro.SessionInProgress
	if open && !now.Before(v.ExpiresAt) {
		return perfilseguro.SessionExpired
	}
	return v.Status
}

const sessionColumns = `id, partner_id, livemode, reference, required_level, claims, return_url, status, user_id,
	shared, proof, created_at, expires_at, opened_at, ended_at, shared_reason, aml_profile`

// InsertSession stores a new session with the hash of its client secret; it expires when the
// client secret does, unless the hosted flow opens it first (OpenSession).
func (s *Store) InsertSession(ctx context.Context, id string, partnerID int64, live bool, n perfilseguro.NewSession,
	secretHash string, now time.Time) (PartnerVerificationSession, error) {
	var v PartnerVerificationSession
	err := s.DB.GetContext(ctx, &v, `INSERT INTO partner_sessions
		(id, partner_id, livemode, reference, required_level, claims, return_url, secret_hash, created_at, expires_at, aml_profile)
		VALUES ($1, $2, $3, $4, $5, $6, NULLIF($7, ''), $8, $9, $10, $11) RETURNING `+sessionColumns,
		id, partnerID, live, n.Reference, n.RequiredLevel, pq.StringArray(n.Claims), n.ReturnURL, secretHash,
		now, now.Add(perfilseguro.ClientSecretLifetime), n.AMLProfile)
	if err != nil {
		return PartnerVerificationSession{}, fmt.Errorf("insert verification session: %w", err)
	}
	return v, nil
}

// PartnerSession reads one of a partner's sessions in a mode (ErrSessionNotFound otherwise).
func (s *Store) PartnerSession(ctx context.Context, partnerID int64, live bool, id string) (PartnerVerificationSession, error) {
	var v PartnerVerificationSession
	// Partners poll this (make bench-sessions): a prepared statement, scanned by hand (sqlx's
	// reflection was a visible share of the request's CPU).
	st, err := s.prepared(ctx, `SELECT `+sessionColumns+` FROM partner_sessions
		WHERE id = $1 AND partner_id = $2 AND livemode = $3`)
	if err == nil {
		err = st.QueryRowContext(ctx, id, partnerID, live).Scan(&v.ID, &v.PartnerID, &v.Livemode, &v.Reference, &v.RequiredLevel,
			&v.Claims, &v.ReturnURL, &v.Status, &v.UserID, &v.Shared, &v.Proof, &v.CreatedAt, &v.ExpiresAt, &v.OpenedAt, &v.EndedAt, &v.SharedReason, &v.AMLProfile)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return PartnerVerificationSession{}, ErrSessionNotFound
	}
	if err != nil {
		return PartnerVerificationSession{}, fmt.Errorf("verification session %s: %w", id, err)
	}
	return v, nil
}

// PartnerSessions lists a partner's sessions in a mode, newest first, limit at a time; after is
// the last id of the previous page ("" for the first): keyset pages, stable under inserts.
func (s *Store) PartnerSessions(ctx context.Context, partnerID int64, live bool, after string, limit int) ([]PartnerVerificationSession, error) {
	out := []PartnerVerificationSession{}
	err := s.DB.SelectContext(ctx, &out, `SELECT `+sessionColumns+` FROM partner_sessions
		WHERE partner_id = $1 AND livemode = $2
		  AND ($3 = '' OR (created_at, id) < (SELECT created_at, id FROM partner_sessions WHERE id = $3 AND partner_id = $1))
		ORDER BY created_at DESC, id DESC LIMIT $4`, partnerID, live, after, limit)
	if err != nil {
		return nil, fmt.Errorf("verification sessions: %w", err)
	}
	return out, nil
}

// CancelSession ends an open session at the partner's request.
func (s *Store) CancelSession(ctx context.Context, partnerID int64, live bool, id string, now time.Time) (PartnerVerificationSession, error) {
	var v PartnerVerificationSession
	err := s.DB.GetContext(ctx, &v, `UPDATE partner_sessions SET status = 'canceled', ended_at = $4
		WHERE id = $1 AND partner_id = $2 AND livemode = $3 AND status IN ('created', 'in_progress') AND expires_at > $4
		RETURNING `+sessionColumns, id, partnerID, live, now)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.PartnerSession(ctx, partnerID, live, id); err != nil {
			return PartnerVerificationSession{}, err
		}
		return PartnerVerificationSession{}, ErrSessionClosed
	}
	if err != nil {
		return PartnerVerificationSession{}, fmt.Errorf("cancel verification session %s: %w", id, err)
	}
	return v, nil
}

// HostedSession is a session as the hosted flow sees it: with its partner's name and origin.
type HostedSession struct {
	PartnerVerificationSession
	PartnerName   string `db:"partner_name"`
	PartnerDomain string `db:"domain"`
	PartnerKeyID  string `db:"key_id"` // the partner's key id (its live publishable key): a proof's audience
	// PartnerActive: false once an administrator deactivated the partner; the flow then shares nothing.
	PartnerActive bool `db:"is_active"`
}

// OpenSession lets the hosted flow take a session by its client secret, once: the session moves
// to in_progress and from then on answers only to flowHash. A used, unknown or ended secret, or
// one of another partner or mode than the publishable key's, is ErrSessionClosed (the caller says
// nothing more). Opening gives the person until SessionLifetime after the creation to finish.
func (s *Store) OpenSession(ctx context.Context, secretHash, flowHash string, partnerID int64, live bool, now time.Time) (HostedSession, error) {
	var h HostedSession
	err := getOne(ctx, s.DB, &h, ErrSessionClosed, "open verification session", `WITH opened AS (
			UPDATE partner_sessions SET status = 'in_progress', opened_at = $3, flow_hash = $2,
				expires_at = created_at + $6 * interval '1 second'
			WHERE secret_hash = $1 AND status = 'created' AND flow_hash IS NULL AND expires_at > $3
				AND partner_id = $4 AND livemode = $5
			RETURNING `+sessionColumns+`)
		SELECT o.*, a.partner_name, a.domain, a.key_id, a.is_active FROM opened o JOIN api_keys a ON a.id = o.partner_id AND a.is_active`,
		secretHash, flowHash, now, partnerID, live, perfilseguro.SessionLifetime.Seconds())
	if err != nil {
		return HostedSession{}, err
	}
	return h, nil
}

// FlowSession reads the session a hosted flow holds (ErrSessionNotFound when none).
func (s *Store) FlowSession(ctx context.Context, flowHash string) (HostedSession, error) {
	var h HostedSession
	err := getOne(ctx, s.DB, &h, ErrSessionNotFound, "flow session",
		`SELECT v.*, a.partner_name, a.domain, a.key_id, a.is_active FROM (SELECT `+sessionColumns+`
		FROM partner_sessions WHERE flow_hash = $1) v JOIN api_keys a ON a.id = v.partner_id`, flowHash)
	if err != nil {
		return HostedSession{}, err
	}
	return h, nil
}

// ProfileDocument is the identity document that certifies a profile (users.identity_verification_id,
// opened by DocumentOf); nil when the profile's name was typed (name_source 'typed': validated
// before documents were read, or never validated) or the document's data is gone.
func (s *Store) ProfileDocument(ctx context.Context, userID int64) (*perfilseguro.DocumentIdentity, error) {
	var verificationID *int64
	err := s.DB.GetContext(ctx, &verificationID, `SELECT identity_verification_id FROM users
		WHERE id = $1 AND name_source = 'document'`, userID)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && verificationID == nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("profile document of user %d: %w", userID, err)
	}
	return s.DocumentOf(ctx, *verificationID)
}

// SessionDecision is the person's answer in the hosted flow.
type SessionDecision struct {
	FlowHash string
	UserID   int64 // 0: nobody signed in (declining needs no account)
	Share    bool
	Shared   json.RawMessage // the claims as shared (Share only)
	// Granted are the claims the person agreed to share, as the grant records them: the asked
	// claims the screen showed with a value (an unavailable document claim is not granted).
	// nil grants every asked claim.
	Granted []string
	Proof   string // a JWS over the session and Shared (Share only)
	// AMLDeclarationID is the declaration version the person confirmed in an amlProfile session
	// (Share only; 0: none): it is shared with the partner with the claims.
	AMLDeclarationID int64
	Now              time.Time
}

// DecideSession ends an in-progress session as the person chose: completed (with a grant of the
// claims to the partner) or declined (nothing shared). A deactivated partner's session takes no
// decision (ErrSessionClosed): nothing is shared with a partner that is off. The partner's notification is written in
// the same transaction; its id is returned (0: the partner has no webhook).
func (s *Store) DecideSession(ctx context.Context, d SessionDecision) (PartnerVerificationSession, int64, error) {
	var v PartnerVerificationSession
	var deliveryID int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		status, event := perfilseguro.SessionDeclined, EventSessionDeclined
		var shared []byte
		var proof string
		if d.Share {
			status, event, shared, proof = perfilseguro.SessionCompleted, EventSessionCompleted, d.Shared, d.Proof
		}
		err := getOne(ctx, tx, &v, ErrSessionClosed, "decide verification session",
			`UPDATE partner_sessions SET status = $3, user_id = NULLIF($2, 0), shared = $4, proof = NULLIF($5, ''), ended_at = $6
			WHERE flow_hash = $1 AND status = 'in_progress' AND expires_at > $6
				AND EXISTS (SELECT 1 FROM api_keys k WHERE k.id = partner_id AND k.is_active)
			RETURNING `+sessionColumns,
			d.FlowHash, d.UserID, status, shared, proof, d.Now)
		if err != nil {
			return err
		}
		if d.Share {
			// One current grant per partner, person and mode: a new session's claims replace the old.
			if _, err := tx.ExecContext(ctx, `UPDATE partner_grants SET revoked_at = $4
				WHERE partner_id = $1 AND user_id = $2 AND livemode = $3 AND revoked_at IS NULL`, v.PartnerID, d.UserID, v.Livemode, d.Now); err != nil {
				return fmt.Errorf("replace grant: %w", err)
			}
			granted := v.Claims
			if d.Granted != nil {
				granted = pq.StringArray(d.Granted)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via, session_id, granted_at)
				VALUES ($1, $2, $3, $4, 'session', $5, $6)`, v.PartnerID, d.UserID, v.Livemode, granted, v.ID, d.Now); err != nil {
				return fmt.Errorf("grant: %w", err)
			}
			if d.AMLDeclarationID != 0 { // a version already shared keeps its first share
				if _, err := tx.ExecContext(ctx, `INSERT INTO aml_declaration_shares (declaration_id, partner_id, partner_session_id, shared_at)
					SELECT id, $2, $3, $4 FROM aml_declarations WHERE id = $1 AND user_id = $5 AND test_mode = NOT $6
					ON CONFLICT DO NOTHING`, d.AMLDeclarationID, v.PartnerID, v.ID, d.Now, d.UserID, v.Livemode); err != nil {
					return fmt.Errorf("share declaration: %w", err)
				}
			}
		}
		deliveryID, err = insertSessionEvent(ctx, tx, v, event)
		return err
	})
	return v, deliveryID, err
}

// sessionPayload is the body of a session notification: what GET …/verification-sessions/{id}
// answers, so a partner can act on the webhook alone. A completed session whose data is gone
// says only why ("shared": null and "sharedReason", as blankSharedQuery rewrites a stored one).
func sessionPayload(v PartnerVerificationSession, event string) ([]byte, error) {
	body := map[string]any{"event": event, "id": v.ID, "reference": v.Reference, "status": v.Status,
		"livemode": v.Livemode, "requiredLevel": v.RequiredLevel, "createdAt": v.CreatedAt.UTC(), "endedAt": v.EndedAt}
	switch {
	case v.Status != perfilseguro.SessionCompleted:
	case v.SharedReason != nil:
		body["shared"], body["sharedReason"] = nil, *v.SharedReason
	default:
		body["claims"] = json.RawMessage(v.Shared)
		body["proof"] = v.Proof
		var shared map[string]any
		if err := json.Unmarshal(v.Shared, &shared); err != nil {
			return nil, fmt.Errorf("shared claims of %s: %w", v.ID, err)
		}
		if missing := perfilseguro.UnavailableClaims(v.Claims, shared); len(missing) > 0 {
			body["unavailableClaims"] = missing
		}
	}
	return json.Marshal(body)
}

func insertSessionEvent(ctx context.Context, tx *sqlx.Tx, v PartnerVerificationSession, event string) (int64, error) {
	payload, err := sessionPayload(v, event)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.GetContext(ctx, &id, `INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
		SELECT k.id, $2, $3, $4 FROM api_keys k WHERE k.id = $1 AND k.is_active AND k.webhook_url IS NOT NULL RETURNING id`,
		v.PartnerID, v.UserID, event, payload)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("notify %s %s: %w", event, v.ID, err)
	}
	return id, nil
}

// ExpireSessions marks open sessions past their expiry as expired and writes each partner's
// notification; it returns the notifications' ids.
func (s *Store) ExpireSessions(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var expired []PartnerVerificationSession
		if err := tx.SelectContext(ctx, &expired, `UPDATE partner_sessions SET status = 'expired', ended_at = $1
			WHERE id IN (SELECT id FROM partner_sessions WHERE status IN ('created', 'in_progress') AND expires_at <= $1
				ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
			RETURNING `+sessionColumns, now, limit); err != nil {
			return fmt.Errorf("expire verification sessions: %w", err)
		}
		for _, v := range expired {
			id, err := insertSessionEvent(ctx, tx, v, EventSessionExpired)
			if err != nil {
				return err
			}
			if id != 0 {
				ids = append(ids, id)
			}
		}
		return nil
	})
	return ids, err
}

// Grant is what a person shared with a partner.
type Grant struct {
	ID          int64          `db:"id" json:"id"`
	PartnerID   int64          `db:"partner_id" json:"-"`
	PartnerName string         `db:"partner_name" json:"partnerName"`
	Domain      string         `db:"domain" json:"domain"`
	Livemode    bool           `db:"livemode" json:"-"`
	Claims      pq.StringArray `db:"claims" json:"claims"`
	Via         string         `db:"via" json:"via"`
	GrantedAt   time.Time      `db:"granted_at" json:"grantedAt"`
	RevokedAt   *time.Time     `db:"revoked_at" json:"revokedAt"`
}

const grantColumns = `g.id, g.partner_id, a.partner_name, a.domain, g.livemode, g.claims, g.via, g.granted_at, g.revoked_at`

// CurrentGrant is the person's live grant to a partner in a mode; nil when none.
func (s *Store) CurrentGrant(ctx context.Context, partnerID int64, live bool, userID int64) (*Grant, error) {
	return getOptional[Grant](ctx, s.DB, "current grant", `SELECT `+grantColumns+` FROM partner_grants g JOIN api_keys a ON a.id = g.partner_id
		WHERE g.partner_id = $1 AND g.livemode = $2 AND g.user_id = $3 AND g.revoked_at IS NULL`, partnerID, live, userID)
}

// UserGrants lists what a person shared with each partner, newest first, revoked included: a live
// person's live grants, a test person's test grants (test keys drive the same flow, withdrawal
// included).
func (s *Store) UserGrants(ctx context.Context, userID int64) ([]Grant, error) {
	out := []Grant{}
	err := s.DB.SelectContext(ctx, &out, `SELECT `+grantColumns+` FROM partner_grants g JOIN api_keys a ON a.id = g.partner_id
		JOIN users u ON u.id = g.user_id
		WHERE g.user_id = $1 AND g.livemode = (u.test_partner_id IS NULL)
		ORDER BY g.revoked_at IS NULL DESC, g.granted_at DESC, g.id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("user grants: %w", err)
	}
	return out, nil
}

// ErrGrantNotFound is a grant that is not the person's or is already revoked.
var ErrGrantNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "Esa plataforma ya no tiene acceso a tu perfil.")
