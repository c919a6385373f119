package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Code channels and the table each is stored in.
const (
	ChannelPhone = "phone" // WhatsApp, SMS fallback: verification_codes
	ChannelEmail = "email" // e-mail: email_verification_codes
)

func codeTable(channel string) string {
	if channel == ChannelEmail {
		return "email_verification_codes"
	}
	return "verification_codes"
}

// MaxCodeAttempts kills a code after this many wrong tries.
const MaxCodeAttempts = 5

// NewCode is one code to store (hashed).
type NewCode struct {
	UserID      int64
	Channel     string
	Destination string
	Purpose     string // register, login, widget, invitation
	Hash        string
	ExpiresAt   time.Time
}

// InsertCode stores a new code and retires the user's earlier unused codes of that channel,
// in one statement (one round trip on the sign-in path).
func (s *Store) InsertCode(ctx context.Context, tx *sqlx.Tx, c NewCode) (int64, error) {
	table := codeTable(c.Channel)
	q := `WITH retired AS (UPDATE ` + table + ` SET is_used = true WHERE user_id = $1 AND NOT is_used)
		INSERT INTO ` + table + ` (user_id, code_hash, destination, purpose, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`
	var id int64
	if err := tx.GetContext(ctx, &id, q, c.UserID, c.Hash, c.Destination, c.Purpose, c.ExpiresAt); err != nil {
		return 0, fmt.Errorf("insert code: %w", err)
	}
	return id, nil
}

// PendingCodeSince returns when the user's newest still-usable code was created (for the resend cooldown).
func (s *Store) PendingCodeSince(ctx context.Context, userID int64) (*time.Time, error) {
	const q = `SELECT max(created_at) FROM (
		SELECT created_at FROM verification_codes WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2
		UNION ALL
		SELECT created_at FROM email_verification_codes WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2) c`
	var t *time.Time
	if err := s.DB.GetContext(ctx, &t, q, userID, MaxCodeAttempts); err != nil {
		return nil, fmt.Errorf("pending code: %w", err)
	}
	return t, nil
}

// ActiveCode is a code that may still be used.
type ActiveCode struct {
	ID       int64  `db:"id"`
	Channel  string `db:"channel"`
	Hash     string `db:"code_hash"`
	Attempts int    `db:"attempts"`
}

// ActiveCodes lists the user's usable codes (at most one per channel).
func (s *Store) ActiveCodes(ctx context.Context, userID int64) ([]ActiveCode, error) {
	const q = `SELECT id, 'phone' AS channel, code_hash, attempts FROM verification_codes
		WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2
		UNION ALL
		SELECT id, 'email' AS channel, code_hash, attempts FROM email_verification_codes
		WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2`
	var codes []ActiveCode
	if err := s.DB.SelectContext(ctx, &codes, q, userID, MaxCodeAttempts); err != nil {
		return nil, fmt.Errorf("active codes: %w", err)
	}
	return codes, nil
}

// RecordWrongAttempt counts a failed try and returns the new count.
func (s *Store) RecordWrongAttempt(ctx context.Context, c ActiveCode) (int, error) {
	var n int
	q := `UPDATE ` + codeTable(c.Channel) + ` SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`
	if err := s.DB.GetContext(ctx, &n, q, c.ID); err != nil {
		return 0, fmt.Errorf("record attempt: %w", err)
	}
	return n, nil
}

// ConsumeCode marks a code used exactly once; false means someone else used it first or it died.
func (s *Store) ConsumeCode(ctx context.Context, tx *sqlx.Tx, c ActiveCode) (bool, error) {
	q := `UPDATE ` + codeTable(c.Channel) + ` SET is_used = true
		WHERE id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2`
	res, err := tx.ExecContext(ctx, q, c.ID, MaxCodeAttempts)
	if err != nil {
		return false, fmt.Errorf("consume code: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// CodeForDelivery is what the delivery job needs to know about a stored code.
type CodeForDelivery struct {
	ID        int64      `db:"id"`
	UserID    int64      `db:"user_id"`
	IsUsed    bool       `db:"is_used"`
	ExpiresAt time.Time  `db:"expires_at"`
	SentAt    *time.Time `db:"sent_at"`
}

// CodeForDelivery reads a code row for the delivery job (nil when it does not exist).
func (s *Store) CodeForDelivery(ctx context.Context, channel string, id int64) (*CodeForDelivery, error) {
	var c CodeForDelivery
	q := `SELECT id, user_id, is_used, expires_at, sent_at FROM ` + codeTable(channel) + ` WHERE id = $1`
	if err := s.DB.GetContext(ctx, &c, q, id); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("code for delivery: %w", err)
	}
	return &c, nil
}

// MarkCodeSent records the delivery so that a retried job does not send again.
func (s *Store) MarkCodeSent(ctx context.Context, channel string, id int64) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE `+codeTable(channel)+` SET sent_at = now() WHERE id = $1 AND sent_at IS NULL`, id)
	return err
}

// MarkPhoneVerified sets is_phone_verified and raises the level to at least 1.
func (s *Store) MarkPhoneVerified(ctx context.Context, tx *sqlx.Tx, userID int64) error {
	const q = `UPDATE users SET is_phone_verified = true, verification_level = GREATEST(verification_level, 1),
		updated_at = now() WHERE id = $1`
	_, err := tx.ExecContext(ctx, q, userID)
	return err
}
