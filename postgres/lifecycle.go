package postgres

import (
	"context"
	"database/sql"
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
		err := tx.GetContext(ctx, &revoked, `SELECT revoked_at FROM users WHERE id = $1 FOR UPDATE`, userID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUserNotFound
		}
		if err != nil {
			return fmt.Errorf("revoke %d: %w", userID, err)
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
	// The shortest validity is one year: the range on fecha_validacion keeps the scan on the
	// partial index, the exact end is checked row by row.
	const q = `WITH due AS (
		SELECT id FROM users
		WHERE fecha_validacion IS NOT NULL AND expired_at IS NULL AND fecha_validacion <= $1::timestamptz - interval '1 year'
		  AND fecha_validacion + make_interval(years => vigencia) <= $1
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
