package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Admin is a named administrator account.
type Admin struct {
	ID         int64      `db:"id" json:"id"`
	Email      string     `db:"email" json:"email"`
	Name       string     `db:"name" json:"name"`
	Role       string     `db:"role" json:"role" enum:"administrador,soporte,finanzas"`
	CreatedAt  time.Time  `db:"created_at" json:"createdAt"`
	DisabledAt *time.Time `db:"disabled_at" json:"disabledAt"`
	CreatedBy  *int64     `db:"created_by" json:"createdBy"`
	Enrolled   bool       `db:"enrolled" json:"enrolled"` // has used an enrolment link (registered a passkey)
}

// Label is how the audit trail and the lifecycle history name the administrator.
func (a Admin) Label() string { return a.Email }

const selectAdmin = `SELECT a.id, a.email, a.name, a.role, a.created_at, a.disabled_at, a.created_by,
	EXISTS (SELECT 1 FROM admin_enrolments e WHERE e.admin_id = a.id AND e.used_at IS NOT NULL) AS enrolled
	FROM admins a `

// Administrator account errors.
var (
	ErrAdminExists        = &perfilseguro.Error{Code: perfilseguro.ECONFLICT, Message: "Ya existe un administrador con ese correo.", Fields: map[string]string{"email": "Ya existe un administrador con ese correo."}}
	ErrAdminNotFound      = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No existe ese administrador.")
	ErrLastAdministrator  = perfilseguro.Errorf(perfilseguro.ECONFLICT, "No puedes dejar el panel sin un administrador activo: primero da el rol de administrador a otra persona.")
	ErrAdminAlreadyOff    = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esa cuenta ya está desactivada.")
	ErrEnrolmentNotUsable = perfilseguro.Errorf(perfilseguro.EGONE, "Este enlace de registro ya se usó o venció. Pide uno nuevo a un administrador.")
)

// CreateAdmin creates an administrator and their first enrolment link (only its hash is stored).
func (s *Store) CreateAdmin(ctx context.Context, a perfilseguro.NewAdmin, enrolTokenHash string, expires time.Time) (Admin, error) {
	if err := a.Validate(); err != nil {
		return Admin{}, err
	}
	var id int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &id, `INSERT INTO admins (email, name, role, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
			a.Email, a.Name, a.Role, a.CreatedBy)
		if _, dup := IsUniqueViolation(err); dup {
			return ErrAdminExists
		}
		if err != nil {
			return fmt.Errorf("insert admin: %w", err)
		}
		return adminEnrolments.insert(ctx, tx, id, enrolTokenHash, expires)
	})
	if err != nil {
		return Admin{}, err
	}
	return s.AdminByID(ctx, id)
}

// NewAdminEnrolment issues another enrolment link to an active administrator (a lost passkey);
// the links issued before and not used are void from then on.
func (s *Store) NewAdminEnrolment(ctx context.Context, adminID int64, tokenHash string, expires time.Time) error {
	a, err := s.AdminByID(ctx, adminID)
	if err != nil {
		return err
	}
	if a.DisabledAt != nil {
		return ErrAdminAlreadyOff
	}
	return adminEnrolments.replace(ctx, s.q(ctx), adminID, tokenHash, expires)
}

// EnsureAdmin returns the administrator with this e-mail, creating them with name and role if
// missing (the development administrator; idempotent).
func (s *Store) EnsureAdmin(ctx context.Context, email, name, role string) (Admin, error) {
	const q = `INSERT INTO admins (email, name, role) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING`
	if _, err := s.q(ctx).ExecContext(ctx, q, email, name, role); err != nil {
		return Admin{}, fmt.Errorf("ensure admin %s: %w", email, err)
	}
	return s.AdminByEmail(ctx, email)
}

// AdminByID finds an administrator (disabled ones too).
func (s *Store) AdminByID(ctx context.Context, id int64) (Admin, error) {
	return s.getAdmin(ctx, `WHERE a.id = $1`, id)
}

// AdminByEmail finds an administrator by e-mail (case-insensitive).
func (s *Store) AdminByEmail(ctx context.Context, email string) (Admin, error) {
	return s.getAdmin(ctx, `WHERE a.email = lower($1)`, email)
}

func (s *Store) getAdmin(ctx context.Context, where string, args ...any) (Admin, error) {
	var a Admin
	if err := getOne(ctx, s.q(ctx), &a, ErrAdminNotFound, "admin", selectAdmin+where, args...); err != nil {
		return Admin{}, err
	}
	return a, nil
}

// Admins lists every administrator, active ones first, then by name.
func (s *Store) Admins(ctx context.Context) ([]Admin, error) {
	out := []Admin{}
	if err := s.q(ctx).SelectContext(ctx, &out, selectAdmin+`ORDER BY a.disabled_at IS NOT NULL, lower(a.name), a.id`); err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	return out, nil
}

// AdminEnrolment returns the administrator a usable (unused, unexpired) enrolment link belongs
// to, or ErrEnrolmentNotUsable.
func (s *Store) AdminEnrolment(ctx context.Context, tokenHash string, now time.Time) (Admin, error) {
	a, err := s.getAdmin(ctx, `JOIN admin_enrolments en ON en.admin_id = a.id
		WHERE en.token_hash = $1 AND en.used_at IS NULL AND en.expires_at > $2 AND a.disabled_at IS NULL`, tokenHash, now)
	if err == ErrAdminNotFound {
		return Admin{}, ErrEnrolmentNotUsable
	}
	return a, err
}

// ConsumeAdminEnrolment uses an enrolment link once (atomically) inside tx and returns its
// administrator's id, or ErrEnrolmentNotUsable.
func (s *Store) ConsumeAdminEnrolment(ctx context.Context, tx sqlx.QueryerContext, tokenHash string, now time.Time) (int64, error) {
	const q = `UPDATE admin_enrolments en SET used_at = $2 FROM admins a
		WHERE en.token_hash = $1 AND en.used_at IS NULL AND en.expires_at > $2 AND a.id = en.admin_id AND a.disabled_at IS NULL
		RETURNING en.admin_id`
	var id int64
	if err := sqlx.GetContext(ctx, tx, &id, q, tokenHash, now); err != nil {
		if isNoRows(err) {
			return 0, ErrEnrolmentNotUsable
		}
		return 0, fmt.Errorf("consume admin enrolment: %w", err)
	}
	return id, nil
}

// lockActiveAdministrators locks the active administradores and counts those other than id.
func lockActiveAdministrators(ctx context.Context, tx *sqlx.Tx, id int64) (int, error) {
	return lockOthers(ctx, tx, id, "administrators", `SELECT id FROM admins WHERE role = 'administrador' AND disabled_at IS NULL
		ORDER BY id FOR UPDATE`)
}

// SetAdminRole changes an administrator's role and returns the account before and after;
// ErrLastAdministrator when it would leave no active administrador.
func (s *Store) SetAdminRole(ctx context.Context, id int64, role string) (before, after Admin, err error) {
	before, err = s.AdminByID(ctx, id)
	if err != nil {
		return before, after, err
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		others, err := lockActiveAdministrators(ctx, tx, id)
		if err != nil {
			return err
		}
		if role != perfilseguro.RoleAdministrator && others == 0 {
			return ErrLastAdministrator
		}
		_, err = tx.ExecContext(ctx, `UPDATE admins SET role = $2 WHERE id = $1`, id, role)
		return err
	})
	if err != nil {
		return before, after, err
	}
	after, err = s.AdminByID(ctx, id)
	return before, after, err
}

// DisableAdmin disables an administrator for good and ends their sessions; ErrLastAdministrator
// when they are the last active administrador.
func (s *Store) DisableAdmin(ctx context.Context, id int64, now time.Time) (Admin, error) {
	a, err := s.AdminByID(ctx, id)
	if err != nil {
		return Admin{}, err
	}
	if a.DisabledAt != nil {
		return Admin{}, ErrAdminAlreadyOff
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		others, err := lockActiveAdministrators(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.Role == perfilseguro.RoleAdministrator && others == 0 {
			return ErrLastAdministrator
		}
		if _, err := tx.ExecContext(ctx, `UPDATE admins SET disabled_at = $2 WHERE id = $1 AND disabled_at IS NULL`, id, now); err != nil {
			return fmt.Errorf("disable admin %d: %w", id, err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE admin_sessions SET revoked_at = $2 WHERE admin_id = $1 AND revoked_at IS NULL`, id, now)
		return err
	})
	if err != nil {
		return Admin{}, err
	}
	return s.AdminByID(ctx, id)
}

// AdminSessionStart is a new administrator session.
type AdminSessionStart struct {
	TokenHash   string
	AdminID     int64
	Created     time.Time
	Expires     time.Time // absolute end
	IP          string
	UserAgent   string
	Asserted    bool // opened with a passkey: asserted_at = Created
	DevPassword bool // opened with the development password (never in production)
}

// InsertAdminSession starts an administrator session (the token is stored hashed).
func (s *Store) InsertAdminSession(ctx context.Context, st AdminSessionStart) error {
	var asserted *time.Time
	if st.Asserted {
		asserted = &st.Created
	}
	const q = `INSERT INTO admin_sessions (token_hash, admin_id, created_at, expires_at, last_seen_at, asserted_at,
		dev_password, ip_address, user_agent) VALUES ($1, $2, $3, $4, $3, $5, $6, $7, $8)`
	_, err := s.q(ctx).ExecContext(ctx, q, st.TokenHash, st.AdminID, st.Created, st.Expires, asserted, st.DevPassword,
		st.IP, nullable(st.UserAgent))
	if err != nil {
		return fmt.Errorf("insert admin session: %w", err)
	}
	return nil
}

// AdminSession is a live administrator session with its administrator.
type AdminSession struct {
	ID          int64      `db:"session_id"`
	ExpiresAt   time.Time  `db:"expires_at"`
	LastSeenAt  time.Time  `db:"last_seen_at"`
	AssertedAt  *time.Time `db:"asserted_at"`
	DevPassword bool       `db:"dev_password"`
	Admin
}

// AdminSessionByToken returns the live session of tokenHash at now, or nil: not revoked, before
// its absolute end, seen within idle, and its administrator not disabled. A live session's
// last_seen_at moves to now (at most every 30 seconds, to spare writes).
func (s *Store) AdminSessionByToken(ctx context.Context, tokenHash string, now time.Time, idle time.Duration) (*AdminSession, error) {
	const q = `SELECT s.id AS session_id, s.expires_at, s.last_seen_at, s.asserted_at, s.dev_password,
		a.id, a.email, a.name, a.role, a.created_at, a.disabled_at, a.created_by, true AS enrolled
		FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
		WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3
		  AND a.disabled_at IS NULL`
	var sess AdminSession
	if err := s.q(ctx).GetContext(ctx, &sess, q, tokenHash, now, now.Add(-idle)); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("admin session: %w", err)
	}
	if now.Sub(sess.LastSeenAt) > 30*time.Second {
		if _, err := s.q(ctx).ExecContext(ctx, `UPDATE admin_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`,
			sess.ID, now); err != nil {
			return nil, fmt.Errorf("touch admin session: %w", err)
		}
		sess.LastSeenAt = now
	}
	return &sess, nil
}

// MarkAdminAsserted records a fresh passkey assertion on a session.
func (s *Store) MarkAdminAsserted(ctx context.Context, sessionID int64, now time.Time) error {
	if _, err := s.q(ctx).ExecContext(ctx, `UPDATE admin_sessions SET asserted_at = $2 WHERE id = $1`, sessionID, now); err != nil {
		return fmt.Errorf("mark admin session asserted: %w", err)
	}
	return nil
}

// RevokeAdminSession ends an administrator session for good.
func (s *Store) RevokeAdminSession(ctx context.Context, tokenHash string, now time.Time) error {
	const q = `UPDATE admin_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL`
	if _, err := s.q(ctx).ExecContext(ctx, q, tokenHash, now); err != nil {
		return fmt.Errorf("revoke admin session: %w", err)
	}
	return nil
}
