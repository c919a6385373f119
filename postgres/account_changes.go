package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Who changed an account's contact or name (account_changes.actor).
const (
	ChangedByPerson = "person"
	ChangedByAdmin  = "admin"
)

// The fields an account change names (account_changes.field).
const (
	FieldEmail  = "email"
	FieldPhone  = "phone"
	FieldNombre = "nombre"
)

// AccountChange is one changed field of a person's account, and where its notice goes.
type AccountChange struct {
	UserID int64
	Field  string  // FieldEmail, FieldPhone or FieldNombre
	Old    *string // the value before (nil: the account had none)
	New    *string
	Actor  string // ChangedByPerson or ChangedByAdmin
	// NotifyVia (ChannelEmail or ChannelPhone) and NotifyTo: the contact the person had before
	// the change; empty when the account has nowhere to be told.
	NotifyVia, NotifyTo string
	// UndoTokenHash and UndoTokenSealed: the undo link's token, hashed for its lookup and sealed
	// for the notice; empty when the change cannot be undone from the notice.
	UndoTokenHash, UndoTokenSealed string
	UndoUntil                      time.Time
}

// RecordAccountChange stores a change in tx and returns its id (its notice's job names it).
func (s *Store) RecordAccountChange(ctx context.Context, tx *sqlx.Tx, c AccountChange) (int64, error) {
	const q = `INSERT INTO account_changes (user_id, field, old_value, new_value, actor, notify_via, notify_to,
		undo_token_hash, undo_token_sealed, undo_until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`
	var until *time.Time
	if c.UndoTokenHash != "" {
		until = &c.UndoUntil
	}
	var id int64
	err := tx.GetContext(ctx, &id, q, c.UserID, c.Field, c.Old, c.New, c.Actor, nullable(c.NotifyVia), nullable(c.NotifyTo),
		nullable(c.UndoTokenHash), nullable(c.UndoTokenSealed), until)
	if err != nil {
		return 0, fmt.Errorf("record account change of %d: %w", c.UserID, err)
	}
	return id, nil
}

// EndOtherSessions ends every sign-in session of the person but the one whose token hash is
// keep ("" ends them all), and returns how many it ended.
func (s *Store) EndOtherSessions(ctx context.Context, tx *sqlx.Tx, userID int64, keep string) (int64, error) {
	res, err := tx.ExecContext(ctx, `UPDATE user_sessions SET revoked_at = now()
		WHERE user_id = $1 AND revoked_at IS NULL AND token_hash <> $2`, userID, keep)
	if err != nil {
		return 0, fmt.Errorf("end sessions of %d: %w", userID, err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// AccountChangeNotice is a change as its notice tells it.
type AccountChangeNotice struct {
	ID              int64      `db:"id"`
	UserID          int64      `db:"user_id"`
	Field           string     `db:"field"`
	New             *string    `db:"new_value"`
	Actor           string     `db:"actor"`
	NotifyVia       *string    `db:"notify_via"`
	NotifyTo        *string    `db:"notify_to"`
	UndoTokenSealed *string    `db:"undo_token_sealed"`
	UndoUntil       *time.Time `db:"undo_until"`
	UndoneAt        *time.Time `db:"undone_at"`
	NotifiedAt      *time.Time `db:"notified_at"`
	CreatedAt       time.Time  `db:"created_at"`
}

// ErrAccountChangeNotFound: no such change (not committed yet, or the account is gone).
var ErrAccountChangeNotFound = errors.New("account change not found")

// AccountChangeByID reads the change id for its notice; ErrAccountChangeNotFound when there is none.
func (s *Store) AccountChangeByID(ctx context.Context, id int64) (AccountChangeNotice, error) {
	var n AccountChangeNotice
	err := getOne(ctx, s.DB, &n, ErrAccountChangeNotFound, fmt.Sprintf("account change %d", id),
		`SELECT id, user_id, field, new_value, actor, notify_via, notify_to, undo_token_sealed, undo_until, undone_at,
			notified_at, created_at FROM account_changes WHERE id = $1`, id)
	return n, err
}

// MarkAccountChangeNotified records that the person was told of the change id.
func (s *Store) MarkAccountChangeNotified(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE account_changes SET notified_at = $2 WHERE id = $1 AND notified_at IS NULL`,
		id, at); err != nil {
		return fmt.Errorf("mark account change %d notified: %w", id, err)
	}
	return nil
}

// The undo link's refusals.
var (
	ErrUndoUnknown = errors.New("undo link unknown")
	ErrUndoSpent   = errors.New("undo link used or expired")
	// ErrUndoTaken: the old address belongs to another account by now.
	ErrUndoTaken = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Tu dato anterior ya está registrado en otra cuenta.")
)

// UndoContactChanges undoes, from the undo link whose token hashes to tokenHash, its change and
// every contact change the person made after it (a thief who changed the phone and then the
// e-mail is undone by either link), newest first, in one transaction: the old values come back,
// every sign-in session of the account ends, and every passkey of the account is removed (one
// added by whoever confirmed the change would sign its holder in and confirm for them;
// the person signs in with a code and creates a new one). It returns the person's id. ErrUndoUnknown, ErrUndoSpent (used, or past its
// window at now), ErrUndoTaken.
func (s *Store) UndoContactChanges(ctx context.Context, tokenHash string, now time.Time) (int64, error) {
	var userID int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var first struct {
			ID       int64      `db:"id"`
			UserID   int64      `db:"user_id"`
			Until    time.Time  `db:"undo_until"`
			UndoneAt *time.Time `db:"undone_at"`
		}
		err := getOne(ctx, tx, &first, ErrUndoUnknown, "undo link", `SELECT id, user_id, undo_until, undone_at
			FROM account_changes WHERE undo_token_hash = $1 FOR UPDATE`, tokenHash)
		if err != nil {
			return err
		}
		if first.UndoneAt != nil || !now.Before(first.Until) {
			return ErrUndoSpent
		}
		userID = first.UserID
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
			return fmt.Errorf("lock user %d: %w", userID, err)
		}
		var changes []struct {
			ID    int64   `db:"id"`
			Field string  `db:"field"`
			Old   *string `db:"old_value"`
		}
		if err := tx.SelectContext(ctx, &changes, `SELECT id, field, old_value FROM account_changes
			WHERE user_id = $1 AND id >= $2 AND actor = 'person' AND field IN ('email', 'phone') AND undone_at IS NULL
			ORDER BY id DESC`, userID, first.ID); err != nil {
			return fmt.Errorf("changes to undo of %d: %w", userID, err)
		}
		for _, c := range changes {
			q := `UPDATE users SET email = $2::text, is_email_verified = ($2::text IS NOT NULL), updated_at = now() WHERE id = $1`
			if c.Field == FieldPhone {
				q = `UPDATE users SET phone_number = $2::text, is_phone_verified = ($2::text IS NOT NULL), updated_at = now() WHERE id = $1`
			}
			if _, err := tx.ExecContext(ctx, q, userID, c.Old); err != nil {
				if _, dup := IsUniqueViolation(err); dup {
					return ErrUndoTaken
				}
				return fmt.Errorf("undo change %d: %w", c.ID, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE account_changes SET undone_at = $2 WHERE id = $1`, c.ID, now); err != nil {
				return fmt.Errorf("mark change %d undone: %w", c.ID, err)
			}
		}
		if _, err := s.EndOtherSessions(ctx, tx, userID, ""); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webauthn_credentials WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("remove passkeys of %d: %w", userID, err)
		}
		return nil
	})
	return userID, err
}

// UndoLinkUsable reports whether the undo link whose token hashes to tokenHash may still undo
// its change at now (false: used, or past its window). ErrUndoUnknown when there is no such link.
func (s *Store) UndoLinkUsable(ctx context.Context, tokenHash string, now time.Time) (bool, error) {
	var link struct {
		Until    time.Time  `db:"undo_until"`
		UndoneAt *time.Time `db:"undone_at"`
	}
	err := getOne(ctx, s.DB, &link, ErrUndoUnknown, "undo link",
		`SELECT undo_until, undone_at FROM account_changes WHERE undo_token_hash = $1`, tokenHash)
	if err != nil {
		return false, err
	}
	return link.UndoneAt == nil && now.Before(link.Until), nil
}
