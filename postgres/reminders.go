package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Reminder channels (expiry_reminders.channel).
const (
	ReminderEmail    = "email"
	ReminderWhatsApp = "whatsapp"
)

// ReminderDays are the reminders before a validity ends, in days.
var ReminderDays = []int{30, 7}

// ExpiryReminder is one reminder of one validity on one channel.
type ExpiryReminder struct {
	ID         int64      `db:"id"`
	UserID     int64      `db:"user_id"`
	ValidUntil time.Time  `db:"valid_until"`
	DaysBefore int        `db:"days_before"`
	Channel    string     `db:"channel"`
	SentAt     *time.Time `db:"sent_at"`
	FailedAt   *time.Time `db:"failed_at"`
}

// ErrReminderNotFound is a reminder that does not exist (its account was deleted).
var ErrReminderNotFound = errors.New("reminder not found")

// RecordDueReminders writes, once each, the reminders due at now: the 30-day one from 30 days
// before the end until 7 days before it, the 7-day one from then until the end, on each channel
// the person has. Revoked and expired profiles get none. It returns how many rows are new.
func (s *Store) RecordDueReminders(ctx context.Context, now time.Time) (int64, error) {
	// The shortest validity is one year: the range on fecha_validacion keeps the scan on the
	// partial index of unexpired validations (0008); the exact window is checked row by row.
	const q = `INSERT INTO expiry_reminders (user_id, valid_until, days_before, channel)
		SELECT u.id, e.valid_until, d.days, c.channel
		FROM users u
		CROSS JOIN LATERAL (SELECT validity_end(u.fecha_validacion, u.vigencia, u.document_expires_on) AS valid_until) e
		CROSS JOIN (VALUES (30), (7)) d (days)
		CROSS JOIN LATERAL (VALUES ('email', u.email), ('whatsapp', u.phone_number)) c (channel, destination)
		WHERE u.fecha_validacion IS NOT NULL AND u.expired_at IS NULL AND u.revoked_at IS NULL
		  AND u.verification_level = 3 AND c.destination IS NOT NULL
		  -- reminders are a secondary purpose: none for a person who objected to them
		  AND COALESCE((SELECT granted FROM consents WHERE user_id = u.id AND purpose = 'reminders'
		      ORDER BY accepted_at DESC, id DESC LIMIT 1), true)
		  AND (u.fecha_validacion <= $1::timestamptz - interval '1 year' + interval '30 days'
		       OR u.document_expires_on <= $1::date + 31)
		  AND $1 >= e.valid_until - make_interval(days => d.days) AND $1 < e.valid_until
		  AND (d.days = 7 OR $1 < e.valid_until - interval '7 days')
		ON CONFLICT (user_id, valid_until, days_before, channel) DO NOTHING`
	res, err := s.DB.ExecContext(ctx, q, now)
	if err != nil {
		return 0, fmt.Errorf("record due reminders: %w", err)
	}
	return res.RowsAffected()
}

// UnsentReminders lists up to limit reminders neither sent nor failed, oldest first.
func (s *Store) UnsentReminders(ctx context.Context, limit int) ([]int64, error) {
	var ids []int64
	err := s.DB.SelectContext(ctx, &ids, `SELECT id FROM expiry_reminders
		WHERE sent_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("unsent reminders: %w", err)
	}
	return ids, nil
}

// ReminderByID finds a reminder.
func (s *Store) ReminderByID(ctx context.Context, id int64) (ExpiryReminder, error) {
	var r ExpiryReminder
	err := getOne(ctx, s.DB, &r, ErrReminderNotFound, fmt.Sprintf("reminder %d", id),
		`SELECT id, user_id, valid_until, days_before, channel, sent_at, failed_at
		FROM expiry_reminders WHERE id = $1`, id)
	return r, err
}

// MarkReminderSent records the delivery of a reminder.
func (s *Store) MarkReminderSent(ctx context.Context, id int64) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE expiry_reminders SET sent_at = now() WHERE id = $1 AND sent_at IS NULL`, id); err != nil {
		return fmt.Errorf("mark reminder %d sent: %w", id, err)
	}
	return nil
}

// MarkReminderFailed records that a reminder will never be sent, and why.
func (s *Store) MarkReminderFailed(ctx context.Context, id int64, why string) error {
	if len(why) > 500 {
		why = why[:500]
	}
	_, err := s.DB.ExecContext(ctx, `UPDATE expiry_reminders SET failed_at = now(), failure = $2
		WHERE id = $1 AND sent_at IS NULL AND failed_at IS NULL`, id, why)
	if err != nil {
		return fmt.Errorf("mark reminder %d failed: %w", id, err)
	}
	return nil
}
