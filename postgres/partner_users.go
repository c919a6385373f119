package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// The partner console's people, their enrolment links and their sessions (migration 0021). Each
// change that an audit event records writes that event in the same transaction.

// ActorPartnerUser names a partner user as the actor of an audit event.
const ActorPartnerUser = "partner_user"

// PartnerUser is one of a partner's people in the console.
type PartnerUser struct {
	ID           int64      `db:"id" json:"id"`
	PartnerID    int64      `db:"partner_id" json:"-"`
	Email        string     `db:"email" json:"email"`
	Name         string     `db:"name" json:"name"`
	Role         string     `db:"role" json:"role" enum:"propietario,desarrollador,cumplimiento,lectura"`
	CreatedAt    time.Time  `db:"created_at" json:"createdAt"`
	InvitedBy    *string    `db:"invited_by" json:"invitedBy"`         // who invited them, as named then
	DisabledAt   *time.Time `db:"disabled_at" json:"disabledAt"`       // nil: active
	Enrolled     bool       `db:"enrolled" json:"enrolled"`            // has registered a passkey
	LastSignInAt *time.Time `db:"last_sign_in_at" json:"lastSignInAt"` // nil: never signed in
}

// Label is how the audit trail names the partner user.
func (u PartnerUser) Label() string { return u.Email }

const selectPartnerUser = `SELECT u.id, u.partner_id, u.email, u.name, u.role, u.created_at, u.invited_by, u.disabled_at,
	EXISTS (SELECT 1 FROM webauthn_credentials c WHERE c.partner_user_id = u.id) AS enrolled,
	(SELECT max(s.created_at) FROM partner_console_sessions s WHERE s.partner_user_id = u.id) AS last_sign_in_at
	FROM partner_users u `

// Partner user errors, in the console's voice.
var (
	ErrPartnerUserExists = &perfilseguro.Error{Code: perfilseguro.ECONFLICT, Message: "Ya hay una persona con ese correo en tu plataforma.",
		Fields: map[string]string{"email": "Ya hay una persona con ese correo en tu plataforma."}}
	ErrPartnerUserNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos a esa persona en tu plataforma.")
	ErrLastPartnerOwner    = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Tu plataforma necesita al menos un propietario activo: primero da ese rol a otra persona.")
	ErrPartnerUserOff            = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esa cuenta ya está desactivada.")
	ErrPartnerEnrolmentNotUsable = perfilseguro.Errorf(perfilseguro.EGONE,
		"Este enlace de registro ya se usó o venció. Pide uno nuevo a quien administra tu plataforma.")
)

// auditIn appends e inside tx, naming the target it changed.
func auditIn(ctx context.Context, tx sqlx.ExecerContext, e AuditEvent, targetKind string, targetID int64, changes map[string]Change) error {
	e.TargetKind, e.TargetID = targetKind, strconv.FormatInt(targetID, 10)
	if len(changes) > 0 {
		e.Changes = changes
	}
	return AppendAudit(ctx, tx, e)
}

// CreatePartnerUser invites a person to a partner's console: the account and its first
// enrolment link (only its hash is stored), with the audit event e, in one transaction.
func (s *Store) CreatePartnerUser(ctx context.Context, u perfilseguro.NewPartnerUser, enrolTokenHash string, expires time.Time,
	e AuditEvent) (PartnerUser, error) {
	if err := u.Validate(); err != nil {
		return PartnerUser{}, err
	}
	var id int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &id, `INSERT INTO partner_users (partner_id, email, name, role, invited_by)
			VALUES ($1, $2, $3, $4, NULLIF($5, '')) RETURNING id`, u.PartnerID, u.Email, u.Name, u.Role, u.InvitedBy)
		if _, dup := IsUniqueViolation(err); dup {
			return ErrPartnerUserExists
		}
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Code == "23503" { // no such partner
			return ErrPartnerNotFound
		}
		if err != nil {
			return fmt.Errorf("insert partner user: %w", err)
		}
		if err := partnerEnrolments.insert(ctx, tx, id, enrolTokenHash, expires); err != nil {
			return err
		}
		return auditIn(ctx, tx, e, "partner_user", id, map[string]Change{
			"email": {After: u.Email}, "name": {After: u.Name}, "role": {After: u.Role}})
	})
	if err != nil {
		return PartnerUser{}, err
	}
	return s.PartnerUserByID(ctx, u.PartnerID, id)
}

// NewPartnerUserEnrolment issues another enrolment link to an active user of the partner (a lost
// or new device); the links issued before and not used are void from then on.
func (s *Store) NewPartnerUserEnrolment(ctx context.Context, partnerID, userID int64, tokenHash string, expires time.Time,
	e AuditEvent) (PartnerUser, error) {
	u, err := s.activePartnerUser(ctx, partnerID, userID)
	if err != nil {
		return PartnerUser{}, err
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := partnerEnrolments.replace(ctx, tx, userID, tokenHash, expires); err != nil {
			return err
		}
		return auditIn(ctx, tx, e, "partner_user", userID, nil)
	})
	return u, err
}

// PartnerUserByID finds one of the partner's users (disabled ones too); another partner's user
// is ErrPartnerUserNotFound.
func (s *Store) PartnerUserByID(ctx context.Context, partnerID, id int64) (PartnerUser, error) {
	var u PartnerUser
	if err := getOne(ctx, s.DB, &u, ErrPartnerUserNotFound, fmt.Sprintf("partner user %d", id),
		selectPartnerUser+`WHERE u.id = $1 AND u.partner_id = $2`, id, partnerID); err != nil {
		return PartnerUser{}, err
	}
	return u, nil
}

// activePartnerUser finds one of the partner's users who can still act on the account:
// ErrPartnerUserOff, with the account, when they are disabled.
func (s *Store) activePartnerUser(ctx context.Context, partnerID, id int64) (PartnerUser, error) {
	u, err := s.PartnerUserByID(ctx, partnerID, id)
	if err == nil && u.DisabledAt != nil {
		err = ErrPartnerUserOff
	}
	return u, err
}

// PartnerUsers lists a partner's users, active ones first, then by name.
func (s *Store) PartnerUsers(ctx context.Context, partnerID int64) ([]PartnerUser, error) {
	out := []PartnerUser{}
	err := s.DB.SelectContext(ctx, &out, selectPartnerUser+`WHERE u.partner_id = $1
		ORDER BY u.disabled_at IS NOT NULL, lower(u.name), u.id`, partnerID)
	if err != nil {
		return nil, fmt.Errorf("partner users: %w", err)
	}
	return out, nil
}

// lockActiveOwners locks the partner's active propietarios and counts those other than id.
func lockActiveOwners(ctx context.Context, tx *sqlx.Tx, partnerID, id int64) (int, error) {
	return lockOthers(ctx, tx, id, "partner owners", `SELECT id FROM partner_users WHERE partner_id = $1 AND role = $2 AND disabled_at IS NULL
		ORDER BY id FOR UPDATE`, partnerID, perfilseguro.PartnerRoleOwner)
}

// SetPartnerUserRole changes a partner user's role and returns the account before and after;
// ErrLastPartnerOwner when it would leave the partner without an active propietario.
func (s *Store) SetPartnerUserRole(ctx context.Context, partnerID, id int64, role string, e AuditEvent) (before, after PartnerUser, err error) {
	if !perfilseguro.ValidPartnerRole(role) {
		return before, after, perfilseguro.FieldError("role", perfilseguro.MsgPartnerRole)
	}
	before, err = s.activePartnerUser(ctx, partnerID, id)
	if err != nil {
		return before, after, err
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		others, err := lockActiveOwners(ctx, tx, partnerID, id)
		if err != nil {
			return err
		}
		if role != perfilseguro.PartnerRoleOwner && before.Role == perfilseguro.PartnerRoleOwner && others == 0 {
			return ErrLastPartnerOwner
		}
		if _, err := tx.ExecContext(ctx, `UPDATE partner_users SET role = $3 WHERE id = $1 AND partner_id = $2`, id, partnerID, role); err != nil {
			return fmt.Errorf("set partner user role: %w", err)
		}
		var changes map[string]Change
		if before.Role != role {
			changes = map[string]Change{"role": {Before: before.Role, After: role}}
		}
		return auditIn(ctx, tx, e, "partner_user", id, changes)
	})
	if err != nil {
		return before, after, err
	}
	after, err = s.PartnerUserByID(ctx, partnerID, id)
	return before, after, err
}

// DisablePartnerUser disables a partner user for good and ends their console sessions;
// ErrLastPartnerOwner when they are the partner's last active propietario.
func (s *Store) DisablePartnerUser(ctx context.Context, partnerID, id int64, now time.Time, e AuditEvent) (PartnerUser, error) {
	u, err := s.activePartnerUser(ctx, partnerID, id)
	if err != nil {
		return PartnerUser{}, err
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		others, err := lockActiveOwners(ctx, tx, partnerID, id)
		if err != nil {
			return err
		}
		if u.Role == perfilseguro.PartnerRoleOwner && others == 0 {
			return ErrLastPartnerOwner
		}
		res, err := tx.ExecContext(ctx, `UPDATE partner_users SET disabled_at = $3 WHERE id = $1 AND partner_id = $2 AND disabled_at IS NULL`,
			id, partnerID, now)
		if err != nil {
			return fmt.Errorf("disable partner user %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrPartnerUserOff
		}
		if _, err := tx.ExecContext(ctx, `UPDATE partner_console_sessions SET revoked_at = $2 WHERE partner_user_id = $1 AND revoked_at IS NULL`,
			id, now); err != nil {
			return fmt.Errorf("end partner user sessions: %w", err)
		}
		return auditIn(ctx, tx, e, "partner_user", id, map[string]Change{"disabledAt": {After: now.UTC()}})
	})
	if err != nil {
		return PartnerUser{}, err
	}
	return s.PartnerUserByID(ctx, partnerID, id)
}

// PartnerEnrolment is whom a usable enrolment link is for, and for which platform.
type PartnerEnrolment struct {
	PartnerUser
	PartnerName   string `db:"partner_name"`
	PartnerActive bool   `db:"partner_active"` // false: the partner is deactivated (no console)
}

// PartnerEnrolmentByToken returns the user a usable (unused, unexpired, user active) enrolment
// link belongs to, or ErrPartnerEnrolmentNotUsable.
func (s *Store) PartnerEnrolmentByToken(ctx context.Context, tokenHash string, now time.Time) (PartnerEnrolment, error) {
	var en PartnerEnrolment
	err := getOne(ctx, s.DB, &en, ErrPartnerEnrolmentNotUsable, "partner enrolment",
		`SELECT pu.*, a.partner_name, a.is_active AS partner_active FROM (`+selectPartnerUser+`) pu
		JOIN partner_user_enrolments en ON en.partner_user_id = pu.id JOIN api_keys a ON a.id = pu.partner_id
		WHERE en.token_hash = $1 AND en.used_at IS NULL AND en.expires_at > $2 AND pu.disabled_at IS NULL`, tokenHash, now)
	if err != nil {
		return PartnerEnrolment{}, err
	}
	return en, nil
}

// ConsumePartnerEnrolment uses an enrolment link once (atomically; in the audited action's
// transaction when ctx carries one) and returns its user's id, or ErrPartnerEnrolmentNotUsable.
func (s *Store) ConsumePartnerEnrolment(ctx context.Context, tokenHash string, now time.Time) (int64, error) {
	const q = `UPDATE partner_user_enrolments en SET used_at = $2 FROM partner_users u
		WHERE en.token_hash = $1 AND en.used_at IS NULL AND en.expires_at > $2 AND u.id = en.partner_user_id AND u.disabled_at IS NULL
		RETURNING en.partner_user_id`
	var id int64
	if err := getOne(ctx, s.q(ctx), &id, ErrPartnerEnrolmentNotUsable, "consume partner enrolment", q, tokenHash, now); err != nil {
		return 0, err
	}
	return id, nil
}

// PartnerUserForSignIn finds a partner user by id with their partner's name, whatever the partner
// (a passkey names its owner; the caller checks that the account is active).
func (s *Store) PartnerUserForSignIn(ctx context.Context, id int64) (PartnerEnrolment, error) {
	var u PartnerEnrolment
	err := getOne(ctx, s.DB, &u, ErrPartnerUserNotFound, fmt.Sprintf("partner user %d", id),
		`SELECT pu.*, a.partner_name, a.is_active AS partner_active FROM (`+selectPartnerUser+`) pu
		JOIN api_keys a ON a.id = pu.partner_id WHERE pu.id = $1`, id)
	if err != nil {
		return PartnerEnrolment{}, err
	}
	return u, nil
}

// PartnerConsoleSessionStart is a new console session.
type PartnerConsoleSessionStart struct {
	TokenHash string
	UserID    int64
	Created   time.Time
	Expires   time.Time // absolute end
	IP        string
	UserAgent string
}

// InsertPartnerConsoleSession starts a console session (the token is stored hashed).
func (s *Store) InsertPartnerConsoleSession(ctx context.Context, st PartnerConsoleSessionStart) error {
	ua := st.UserAgent
	if len(ua) > 500 {
		ua = ua[:500]
	}
	const q = `INSERT INTO partner_console_sessions (token_hash, partner_user_id, created_at, expires_at, last_seen_at, ip_address, user_agent)
		VALUES ($1, $2, $3, $4, $3, NULLIF($5, ''), NULLIF($6, ''))`
	if _, err := s.DB.ExecContext(ctx, q, st.TokenHash, st.UserID, st.Created, st.Expires, st.IP, ua); err != nil {
		return fmt.Errorf("insert partner console session: %w", err)
	}
	return nil
}

// PartnerConsoleSession is a live console session with its user and their partner.
type PartnerConsoleSession struct {
	SessionID     int64     `db:"session_id"`
	ExpiresAt     time.Time `db:"expires_at"`
	PartnerName   string    `db:"partner_name"`
	PartnerDomain string    `db:"domain"`
	PartnerActive bool      `db:"is_active"`
	PartnerUser
}

// PartnerConsoleSessionByToken returns the live session of tokenHash at now, or nil: not revoked,
// before its end, its user not disabled. last_seen_at moves to now at most once a minute.
func (s *Store) PartnerConsoleSessionByToken(ctx context.Context, tokenHash string, now time.Time) (*PartnerConsoleSession, error) {
	const q = `SELECT s.id AS session_id, s.expires_at, s.last_seen_at AS seen, a.partner_name, a.domain, a.is_active, pu.*
		FROM partner_console_sessions s JOIN (` + selectPartnerUser + `) pu ON pu.id = s.partner_user_id
		JOIN api_keys a ON a.id = pu.partner_id
		WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND pu.disabled_at IS NULL`
	var row struct {
		PartnerConsoleSession
		Seen time.Time `db:"seen"`
	}
	if err := s.DB.GetContext(ctx, &row, q, tokenHash, now); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("partner console session: %w", err)
	}
	if now.Sub(row.Seen) > time.Minute {
		if _, err := s.DB.ExecContext(ctx, `UPDATE partner_console_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`,
			row.SessionID, now); err != nil {
			return nil, fmt.Errorf("touch partner console session: %w", err)
		}
	}
	return &row.PartnerConsoleSession, nil
}

// RevokePartnerConsoleSession ends a console session for good.
func (s *Store) RevokePartnerConsoleSession(ctx context.Context, tokenHash string, now time.Time) error {
	const q = `UPDATE partner_console_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL`
	if _, err := s.DB.ExecContext(ctx, q, tokenHash, now); err != nil {
		return fmt.Errorf("revoke partner console session: %w", err)
	}
	return nil
}
