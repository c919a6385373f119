package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// InsertSessionToken stores a registration session token (its hash).
func (s *Store) InsertSessionToken(ctx context.Context, tx *sqlx.Tx, userID int64, tokenHash string, expires time.Time) error {
	const q = `INSERT INTO session_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`
	_, err := tx.ExecContext(ctx, q, tokenHash, userID, expires)
	return err
}

// UserIDForSessionToken resolves an unused, unexpired registration token (0 when none).
func (s *Store) UserIDForSessionToken(ctx context.Context, tokenHash string) (int64, error) {
	var id int64
	const q = `SELECT user_id FROM session_tokens WHERE token_hash = $1 AND NOT is_used AND expires_at > now()`
	if err := s.DB.GetContext(ctx, &id, q, tokenHash); err != nil {
		if isNoRows(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("session token: %w", err)
	}
	return id, nil
}

// UseSessionToken marks a registration token used.
func (s *Store) UseSessionToken(ctx context.Context, tx *sqlx.Tx, tokenHash string) error {
	_, err := tx.ExecContext(ctx, `UPDATE session_tokens SET is_used = true WHERE token_hash = $1`, tokenHash)
	return err
}

// InsertUserSession starts a sign-in session (stored hashed).
func (s *Store) InsertUserSession(ctx context.Context, tx *sqlx.Tx, userID int64, tokenHash string, expires time.Time, ip, ua string) error {
	const q = `INSERT INTO user_sessions (token_hash, user_id, expires_at, ip_address, user_agent) VALUES ($1, $2, $3, $4, $5)`
	_, err := tx.ExecContext(ctx, q, tokenHash, userID, expires, ip, ua)
	return err
}

// UserIDForSession resolves a live sign-in session (0 when none).
func (s *Store) UserIDForSession(ctx context.Context, tokenHash string) (int64, error) {
	var id int64
	const q = `SELECT user_id FROM user_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`
	if err := s.DB.GetContext(ctx, &id, q, tokenHash); err != nil {
		if isNoRows(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("user session: %w", err)
	}
	return id, nil
}

// RevokeUserSession ends a sign-in session for good.
func (s *Store) RevokeUserSession(ctx context.Context, tokenHash string) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE user_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`, tokenHash)
	return err
}

// InTx runs fn in a transaction, committing only if fn succeeds. Inside an audited action
// (Audited) it joins that action's transaction instead: the caller commits.
func (s *Store) InTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	if tx := actionTx(ctx); tx != nil {
		return fn(tx)
	}
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// UserIDForSessionTokenAny resolves a registration token even after use (to find one's own profile).
func (s *Store) UserIDForSessionTokenAny(ctx context.Context, tokenHash string) (int64, error) {
	var id int64
	if err := s.DB.GetContext(ctx, &id, `SELECT user_id FROM session_tokens WHERE token_hash = $1`, tokenHash); err != nil {
		if isNoRows(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("session token: %w", err)
	}
	return id, nil
}
