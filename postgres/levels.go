package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// InsertEmailToken stores a new e-mail verification link token (its SHA-256 hash) and returns its id.
func (s *Store) InsertEmailToken(ctx context.Context, tx *sqlx.Tx, userID int64, tokenHash string, expires time.Time, autoBiometric bool) (int64, error) {
	const q = `INSERT INTO email_verification_tokens (user_id, token_hash, expires_at, auto_biometric)
		VALUES ($1, $2, $3, $4) RETURNING id`
	var id int64
	if err := tx.GetContext(ctx, &id, q, userID, tokenHash, expires, autoBiometric); err != nil {
		return 0, fmt.Errorf("insert email token: %w", err)
	}
	return id, nil
}

// EmailTokenDelivery is what the e-mail job needs to know about a stored link token.
type EmailTokenDelivery struct {
	ID        int64     `db:"id"`
	UserID    int64     `db:"user_id"`
	Nombre    string    `db:"nombre"`
	Email     *string   `db:"email"`
	IsUsed    bool      `db:"is_used"`
	ExpiresAt time.Time `db:"expires_at"`
	Mode      int64     `db:"mode"` // the person's (perfilseguro.User.Mode)
}

// EmailTokenForDelivery reads a link token with its user's name and e-mail (nil when it does not exist).
func (s *Store) EmailTokenForDelivery(ctx context.Context, id int64) (*EmailTokenDelivery, error) {
	const q = `SELECT t.id, t.user_id, u.nombre, u.email, t.is_used, t.expires_at, coalesce(u.test_partner_id, 0) AS mode
		FROM email_verification_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = $1`
	return getOptional[EmailTokenDelivery](ctx, s.DB, "email token for delivery", q, id)
}

// Outcomes of following an e-mail verification link.
const (
	EmailTokenVerified    = "verified"      // level 2 granted now
	EmailTokenUnknown     = "unknown"       // no such token
	EmailTokenUsed        = "used"          // already followed once
	EmailTokenExpired     = "expired"       // older than its 24 hours
	EmailTokenNeedsLevel1 = "needs_level_1" // the phone is not verified yet; the token stays usable
)

// EmailTokenResult is what following a link did.
type EmailTokenResult struct {
	Outcome           string // one of the EmailToken* outcomes
	UserID            int64
	AutoBiometric     bool // continue straight to the biometric step
	BiometricVerified bool
}

// ConsumeEmailToken follows a link exactly once: it marks the token used and grants level 2
// (is_email_verified, level raised to at least 2) when the user holds level 1. Levels never go down.
func (s *Store) ConsumeEmailToken(ctx context.Context, tokenHash string) (EmailTokenResult, error) {
	var res EmailTokenResult
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var row struct {
			ID                int64 `db:"id"`
			UserID            int64 `db:"user_id"`
			IsUsed            bool  `db:"is_used"`
			Expired           bool  `db:"expired"`
			AutoBiometric     bool  `db:"auto_biometric"`
			Level             int   `db:"verification_level"`
			BiometricVerified bool  `db:"biometric_verified"`
		}
		const find = `SELECT t.id, t.user_id, t.is_used, t.expires_at <= now() AS expired, t.auto_biometric,
			u.verification_level, u.biometric_verified
			FROM email_verification_tokens t JOIN users u ON u.id = t.user_id
			WHERE t.token_hash = $1 FOR UPDATE OF t, u`
		if err := tx.GetContext(ctx, &row, find, tokenHash); err != nil {
			if isNoRows(err) {
				res.Outcome = EmailTokenUnknown
				return nil
			}
			return fmt.Errorf("find email token: %w", err)
		}
		res = EmailTokenResult{UserID: row.UserID, AutoBiometric: row.AutoBiometric, BiometricVerified: row.BiometricVerified}
		switch {
		case row.IsUsed:
			res.Outcome = EmailTokenUsed
			return nil
		case row.Expired:
			res.Outcome = EmailTokenExpired
			return nil
		case row.Level < 1:
			res.Outcome = EmailTokenNeedsLevel1
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE email_verification_tokens SET is_used = true WHERE id = $1`, row.ID); err != nil {
			return fmt.Errorf("use email token: %w", err)
		}
		const grant = `UPDATE users SET is_email_verified = true, verification_level = GREATEST(verification_level, 2),
			updated_at = now() WHERE id = $1 AND verification_level >= 1`
		if _, err := tx.ExecContext(ctx, grant, row.UserID); err != nil {
			return fmt.Errorf("grant level 2: %w", err)
		}
		res.Outcome = EmailTokenVerified
		return nil
	})
	return res, err
}
