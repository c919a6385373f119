package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Profile event kinds (profile_events.kind).
const (
	ProfileExpired = "expired"
	ProfileRevoked = "revoked"
	ProfileRenewed = "renewed"
	ProfileLifted  = "lifted" // an administrador lifted a revocation (0023)
)

// ProfileEvent is one step of a profile's lifecycle, with who made it and when.
type ProfileEvent struct {
	Kind      string    `db:"kind"`
	Reason    *string   `db:"reason"`
	Actor     string    `db:"actor"` // "system" or "admin"
	ActorIP   *string   `db:"actor_ip"`
	AdminID   *int64    `db:"admin_id"`    // the administrator who acted (nil: system, or before 0017)
	AdminName *string   `db:"actor_label"` // their e-mail at the time
	CreatedAt time.Time `db:"created_at"`
}

// ErrAlreadyRevoked is the conflict of revoking a revoked profile.
var ErrAlreadyRevoked = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Este perfil ya está revocado.")

// RevokeProfile records an administrator's revocation with its reason and their address (no
// named administrator; see Revoke).
func (s *Store) RevokeProfile(ctx context.Context, userID int64, reason, actorIP string) (perfilseguro.User, error) {
	return s.Revoke(ctx, Revocation{UserID: userID, Reason: reason, ActorIP: actorIP})
}

// Revocation is an administrator's revocation of a profile.
type Revocation struct {
	UserID     int64
	Reason     string
	ActorIP    string
	AdminID    int64       // 0: not recorded
	AdminLabel string      // the administrator's e-mail, as the history shows it
	Audit      *AuditEvent // appended in the same transaction when set
}

// Revoke records an administrator's revocation with its reason, and the event with the
// administrator and their address. The account stays; partners are told by the outbox trigger (0008).
func (s *Store) Revoke(ctx context.Context, rv Revocation) (perfilseguro.User, error) {
	userID := rv.UserID
	var adminID *int64
	if rv.AdminID != 0 {
		adminID = &rv.AdminID
	}
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var revoked *time.Time
		err := getOne(ctx, tx, &revoked, ErrUserNotFound, fmt.Sprintf("revoke %d", userID),
			`SELECT revoked_at FROM users WHERE id = $1 FOR UPDATE`, userID)
		if err != nil {
			return err
		}
		if revoked != nil {
			return ErrAlreadyRevoked
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET revoked_at = now(), revoked_reason = $2, updated_at = now()
			WHERE id = $1`, userID, rv.Reason); err != nil {
			return fmt.Errorf("revoke %d: %w", userID, err)
		}
		if _, err = tx.ExecContext(ctx, `INSERT INTO profile_events (user_id, kind, reason, actor, actor_ip, admin_id, actor_label)
			VALUES ($1, 'revoked', $2, 'admin', $3, $4, $5)`, userID, rv.Reason, rv.ActorIP, adminID, nullable(rv.AdminLabel)); err != nil {
			return fmt.Errorf("revoke %d: %w", userID, err)
		}
		if rv.Audit != nil {
			return AppendAudit(ctx, tx, *rv.Audit)
		}
		return nil
	})
	if err != nil {
		return perfilseguro.User{}, err
	}
	return s.UserByID(ctx, userID)
}

// ErrNotRevoked is the conflict of lifting a revocation that is not there.
var ErrNotRevoked = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Este perfil no está revocado: no hay revocación que levantar.")

// RevocationLift is an administrador's lift of a revocation.
type RevocationLift struct {
	UserID     int64
	Reason     string
	ActorIP    string
	AdminID    int64       // 0: not recorded
	AdminLabel string      // the administrator's e-mail, as the history shows it
	Audit      *AuditEvent // appended in the same transaction when set
	// Then runs inside the transaction once the 'lifted' event is written, with its id: the
	// person's e-mail is queued there, so a lift is never left untold (Redis down: no lift).
	Then func(tx *sqlx.Tx, eventID int64) error
}

// LiftRevocation ends a revocation, with its 'lifted' event and audit record, in one transaction.
// The revoked validation does not come back: it is annulled as a change of name annuls one
// (RenameUser), so every surface says "not validated" and the person may start a new biometric
// check, not charged again when they had been validated. ErrNotRevoked: nothing to lift.
func (s *Store) LiftRevocation(ctx context.Context, l RevocationLift) (perfilseguro.User, error) {
	var adminID *int64
	if l.AdminID != 0 {
		adminID = &l.AdminID
	}
	var u perfilseguro.User
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var revoked *time.Time
		err := getOne(ctx, tx, &revoked, ErrUserNotFound, fmt.Sprintf("lift revocation %d", l.UserID),
			`SELECT revoked_at FROM users WHERE id = $1 FOR UPDATE`, l.UserID)
		if err != nil {
			return err
		}
		if revoked == nil {
			return ErrNotRevoked
		}
		// A person who had been validated (or whose validation a change of name annulled) has
		// paid for, or was given, that validation: the next check is theirs (revalidation_required_at).
		const lift = `UPDATE users SET revoked_at = NULL, revoked_reason = NULL, updated_at = now(),
			revalidation_required_at = CASE WHEN biometric_verified OR fecha_validacion IS NOT NULL
				THEN now() ELSE revalidation_required_at END,
			biometric_verified = false, fecha_validacion = NULL, expired_at = NULL,
			verification_level = LEAST(verification_level, CASE WHEN is_email_verified THEN 2 ELSE 1 END)
			WHERE id = $1`
		if _, err := tx.ExecContext(ctx, lift, l.UserID); err != nil {
			return fmt.Errorf("lift revocation %d: %w", l.UserID, err)
		}
		var eventID int64
		if err := tx.GetContext(ctx, &eventID, `INSERT INTO profile_events (user_id, kind, reason, actor, actor_ip, admin_id, actor_label)
			VALUES ($1, 'lifted', $2, 'admin', $3, $4, $5) RETURNING id`,
			l.UserID, l.Reason, l.ActorIP, adminID, nullable(l.AdminLabel)); err != nil {
			return fmt.Errorf("lift revocation %d: %w", l.UserID, err)
		}
		if l.Audit != nil {
			if err := AppendAudit(ctx, tx, *l.Audit); err != nil {
				return err
			}
		}
		if l.Then != nil {
			if err := l.Then(tx, eventID); err != nil {
				return err
			}
		}
		u, err = s.getUser(ctx, tx, "WHERE u.id = $1", l.UserID)
		return err
	})
	if err != nil {
		return perfilseguro.User{}, err
	}
	return u, nil
}

// LiftNotice is a lift of a revocation as its e-mail to the person tells it.
type LiftNotice struct {
	EventID    int64      `db:"id"`
	UserID     int64      `db:"user_id"`
	Reason     *string    `db:"reason"`
	CreatedAt  time.Time  `db:"created_at"`
	NotifiedAt *time.Time `db:"notified_at"`
}

// ErrLiftNotFound: no such lift (not committed yet, or the account is gone).
var ErrLiftNotFound = errors.New("lift event not found")

// LiftByID reads the 'lifted' event eventID; ErrLiftNotFound when there is none.
func (s *Store) LiftByID(ctx context.Context, eventID int64) (LiftNotice, error) {
	var n LiftNotice
	err := getOne(ctx, s.DB, &n, ErrLiftNotFound, fmt.Sprintf("lift event %d", eventID),
		`SELECT id, user_id, reason, created_at, notified_at FROM profile_events
		WHERE id = $1 AND kind = 'lifted'`, eventID)
	return n, err
}

// MarkLiftNotified records that the person was told of the lift eventID.
func (s *Store) MarkLiftNotified(ctx context.Context, eventID int64, at time.Time) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE profile_events SET notified_at = $2 WHERE id = $1 AND notified_at IS NULL`,
		eventID, at); err != nil {
		return fmt.Errorf("mark lift %d notified: %w", eventID, err)
	}
	return nil
}

// ProfileEvents lists a profile's lifecycle, newest first.
func (s *Store) ProfileEvents(ctx context.Context, userID int64) ([]ProfileEvent, error) {
	events := []ProfileEvent{}
	err := s.DB.SelectContext(ctx, &events, `SELECT kind, reason, actor, actor_ip, admin_id, actor_label, created_at FROM profile_events
		WHERE user_id = $1 ORDER BY created_at DESC, id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("profile events %d: %w", userID, err)
	}
	return events, nil
}

// ExpireProfiles records, once, the expiry of up to batch profiles whose validity
// (fecha_validacion + vigencia years) ended by now, oldest first, and returns their ids. Rows
// locked by another transaction are left for the next run (SKIP LOCKED), so two workers never
// record one expiry twice; partners are told by the outbox trigger (0008).
func (s *Store) ExpireProfiles(ctx context.Context, now time.Time, batch int) ([]int64, error) {
	// The shortest validity is one year unless the ID expires first: the range on
	// fecha_validacion and the one on document_expires_on keep the scan on partial indexes, the
	// exact end is checked row by row.
	const q = `WITH due AS (
		SELECT id FROM users
		WHERE fecha_validacion IS NOT NULL AND expired_at IS NULL
		  AND (fecha_validacion <= $1::timestamptz - interval '1 year' OR document_expires_on < $1::date)
		  AND validity_end(fecha_validacion, vigencia, document_expires_on) <= $1
		ORDER BY fecha_validacion LIMIT $2 FOR UPDATE SKIP LOCKED
	), expired AS (
		UPDATE users u SET expired_at = $1 FROM due WHERE u.id = due.id RETURNING u.id
	), logged AS (
		INSERT INTO profile_events (user_id, kind, actor, created_at) SELECT id, 'expired', 'system', $1 FROM expired
	)
	SELECT id FROM expired`
	var ids []int64
	if err := s.DB.SelectContext(ctx, &ids, q, now, batch); err != nil {
		return nil, fmt.Errorf("expire profiles: %w", err)
	}
	return ids, nil
}
