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
	CreatedAt time.Time `db:"created_at"`
}

// ErrAlreadyRevoked is the conflict of revoking a revoked profile.
var ErrAlreadyRevoked = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Este perfil ya está revocado.")

// RevokeProfile records an administrator's revocation with its reason, and the event with the
// administrator's address. The account stays; partners are told by the outbox trigger (0008).
func (s *Store) RevokeProfile(ctx context.Context, userID int64, reason, actorIP string) (perfilseguro.User, error) {
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
			WHERE id = $1`, userID, reason); err != nil {
			return fmt.Errorf("revoke %d: %w", userID, err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO profile_events (user_id, kind, reason, actor, actor_ip)
			VALUES ($1, 'revoked', $2, 'admin', $3)`, userID, reason, actorIP)
		return err
	})
	if err != nil {
		return perfilseguro.User{}, err
	}
	return s.UserByID(ctx, userID)
}

// ProfileEvents lists a profile's lifecycle, newest first.
func (s *Store) ProfileEvents(ctx context.Context, userID int64) ([]ProfileEvent, error) {
	events := []ProfileEvent{}
	err := s.DB.SelectContext(ctx, &events, `SELECT kind, reason, actor, actor_ip, created_at FROM profile_events
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
