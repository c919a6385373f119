package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Invitation statuses (SPEC §4): pending -> accepted, expired or cancelled.
const (
	InvitationPending   = "pending"
	InvitationAccepted  = "accepted"
	InvitationExpired   = "expired"
	InvitationCancelled = "cancelled"
)

// Invitation types (SPEC §6 'Invitation roles').
const (
	InvitationClient = "client"
	InvitationBroker = "broker"
)

// Invitation is one invitation as read by the product. Status is the effective status: a
// pending invitation past ExpiresAt reads as expired even before the expiry job flips it.
type Invitation struct {
	ID              int64
	InviterID       int64
	InviterName     string
	InviteeEmail    string
	InviteePhone    *string // E.164
	InviteeName     string
	Code            string // invitation_code, at most 32 characters
	Token           string // unique_token of the single-use link
	Type            string // InvitationClient or InvitationBroker
	Status          string
	PersonalMessage *string
	CompanyName     *string
	ExpiresAt       time.Time
	AcceptedAt      *time.Time
	AcceptedUserID  *int64
	TokenUsedAt     *time.Time
	EmailSentAt     *time.Time
	WhatsAppSentAt  *time.Time
	CreatedAt       time.Time
}

// Link is the invitation's unique link under the public base URL.
func (i Invitation) Link(publicBaseURL string) string {
	return publicBaseURL + "/accept-invitation?token=" + url.QueryEscape(i.Token)
}

// invitationRow is the storage shape of an invitation read with its inviter's name.
type invitationRow struct {
	ID              int64      `db:"id"`
	InviterID       int64      `db:"inviter_id"`
	InviterName     string     `db:"inviter_name"`
	InviteeEmail    string     `db:"invitee_email"`
	InviteePhone    *string    `db:"invitee_phone"`
	InviteeName     string     `db:"invitee_name"`
	Code            string     `db:"invitation_code"`
	Token           string     `db:"unique_token"`
	Type            string     `db:"type"`
	Status          string     `db:"status"`
	PersonalMessage *string    `db:"personal_message"`
	CompanyName     *string    `db:"company_name"`
	ExpiresAt       time.Time  `db:"expires_at"`
	AcceptedAt      *time.Time `db:"accepted_at"`
	AcceptedUserID  *int64     `db:"accepted_user_id"`
	TokenUsedAt     *time.Time `db:"token_used_at"`
	EmailSentAt     *time.Time `db:"email_sent_at"`
	WhatsAppSentAt  *time.Time `db:"whatsapp_sent_at"`
	CreatedAt       time.Time  `db:"created_at"`
}

func (r invitationRow) invitation() Invitation {
	return Invitation(r)
}

// selectInvitation reads invitations with the inviter's name and the effective status.
const selectInvitation = `SELECT i.id, i.inviter_id, u.nombre AS inviter_name, i.invitee_email, i.invitee_phone,
	i.invitee_name, i.invitation_code, i.unique_token, i.type,
	CASE WHEN i.status = 'pending' AND i.expires_at <= now() THEN 'expired' ELSE i.status END AS status,
	i.personal_message, i.company_name, i.expires_at, i.accepted_at, i.accepted_user_id, i.token_used_at,
	i.email_sent_at, i.whatsapp_sent_at, i.created_at
	FROM invitations i JOIN users u ON u.id = i.inviter_id `

// ErrInvitationNotFound is returned when no invitation matches.
var ErrInvitationNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "Invitación no encontrada.")

func (s *Store) getInvitation(ctx context.Context, q sqlx.QueryerContext, where string, arg any) (Invitation, error) {
	var r invitationRow
	if err := sqlx.GetContext(ctx, q, &r, selectInvitation+where, arg); err != nil {
		if isNoRows(err) {
			return Invitation{}, ErrInvitationNotFound
		}
		return Invitation{}, fmt.Errorf("find invitation: %w", err)
	}
	return r.invitation(), nil
}

// InvitationByID finds an invitation by internal id.
func (s *Store) InvitationByID(ctx context.Context, id int64) (Invitation, error) {
	return s.getInvitation(ctx, s.DB, "WHERE i.id = $1", id)
}

// InvitationByCode finds an invitation by its code (ErrInvitationNotFound when none).
func (s *Store) InvitationByCode(ctx context.Context, code string) (Invitation, error) {
	return s.getInvitation(ctx, s.DB, "WHERE i.invitation_code = $1", code)
}

// InvitationByToken finds an invitation by the token of its unique link (ErrInvitationNotFound when none).
func (s *Store) InvitationByToken(ctx context.Context, token string) (Invitation, error) {
	return s.getInvitation(ctx, s.DB, "WHERE i.unique_token = $1", token)
}

// LockInvitationByCode reads an invitation by code inside tx and locks its row until the
// transaction ends, so two acceptances of one invitation run one after the other.
func (s *Store) LockInvitationByCode(ctx context.Context, tx *sqlx.Tx, code string) (Invitation, error) {
	return s.getInvitation(ctx, tx, "WHERE i.invitation_code = $1 FOR UPDATE OF i", code)
}

// InvitationsByInviter lists an inviter's invitations, newest first.
func (s *Store) InvitationsByInviter(ctx context.Context, inviterID int64) ([]Invitation, error) {
	var rows []invitationRow
	if err := s.DB.SelectContext(ctx, &rows, selectInvitation+"WHERE i.inviter_id = $1 ORDER BY i.created_at DESC, i.id DESC", inviterID); err != nil {
		return nil, fmt.Errorf("list invitations: %w", err)
	}
	out := make([]Invitation, len(rows))
	for i, r := range rows {
		out[i] = r.invitation()
	}
	return out, nil
}

// NewInvitation is what an inviter submits, already validated and normalized.
type NewInvitation struct {
	InviterID       int64
	InviteeEmail    string
	InviteePhone    *string
	InviteeName     string
	Type            string
	PersonalMessage *string
	CompanyName     *string
	ExpiresAt       time.Time
}

// InsertInvitation stores a pending invitation with a code and token drawn by draw, drawing
// again on the rare collision with an existing code or token.
func (s *Store) InsertInvitation(ctx context.Context, tx *sqlx.Tx, n NewInvitation, draw func() (code, token string)) (int64, error) {
	const q = `INSERT INTO invitations (inviter_id, invitee_email, invitee_phone, invitee_name, invitation_code,
		unique_token, type, personal_message, company_name, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`
	for range 5 {
		code, token := draw()
		if _, err := tx.ExecContext(ctx, "SAVEPOINT insert_invitation"); err != nil {
			return 0, err
		}
		var id int64
		err := tx.GetContext(ctx, &id, q, n.InviterID, n.InviteeEmail, n.InviteePhone, n.InviteeName, code, token,
			n.Type, n.PersonalMessage, n.CompanyName, n.ExpiresAt)
		if err == nil {
			_, err = tx.ExecContext(ctx, "RELEASE SAVEPOINT insert_invitation")
			return id, err
		}
		if _, rbErr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT insert_invitation"); rbErr != nil {
			return 0, rbErr
		}
		if _, dup := IsUniqueViolation(err); dup {
			continue // a random code or token collided: draw again
		}
		return 0, fmt.Errorf("insert invitation: %w", err)
	}
	return 0, errors.New("insert invitation: could not draw a unique code")
}

// CancelInvitation cancels the inviter's invitation if it is still pending and unexpired;
// it reports whether a row changed.
func (s *Store) CancelInvitation(ctx context.Context, id, inviterID int64) (bool, error) {
	const q = `UPDATE invitations SET status = 'cancelled'
		WHERE id = $1 AND inviter_id = $2 AND status = 'pending' AND expires_at > now()`
	res, err := s.DB.ExecContext(ctx, q, id, inviterID)
	if err != nil {
		return false, fmt.Errorf("cancel invitation %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// MarkInvitationAccepted records the acceptance and uses up the link, only while the invitation
// is pending and unexpired; it reports whether a row changed.
func (s *Store) MarkInvitationAccepted(ctx context.Context, tx *sqlx.Tx, id, userID int64) (bool, error) {
	const q = `UPDATE invitations SET status = 'accepted', accepted_at = now(), accepted_user_id = $2, token_used_at = now()
		WHERE id = $1 AND status = 'pending' AND expires_at > now()`
	res, err := tx.ExecContext(ctx, q, id, userID)
	if err != nil {
		return false, fmt.Errorf("accept invitation %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Invitation delivery channels, as recorded by MarkInvitationSent.
const (
	InvitationViaEmail    = "email"
	InvitationViaWhatsApp = "whatsapp"
)

// MarkInvitationSent records that the invitation went out on one channel (email or whatsapp).
func (s *Store) MarkInvitationSent(ctx context.Context, id int64, via string) error {
	q := `UPDATE invitations SET email_sent_at = now() WHERE id = $1 AND email_sent_at IS NULL`
	if via == InvitationViaWhatsApp {
		q = `UPDATE invitations SET whatsapp_sent_at = now() WHERE id = $1 AND whatsapp_sent_at IS NULL`
	}
	if _, err := s.DB.ExecContext(ctx, q, id); err != nil {
		return fmt.Errorf("mark invitation %d sent: %w", id, err)
	}
	return nil
}

// DefaultExpireBatch is how many invitations one expiry statement flips; small enough that
// each statement holds its row locks for a moment only.
const DefaultExpireBatch = 5000

// ExpireInvitations marks every pending invitation past its expiry as expired, batch rows per
// statement, each in its own short transaction, oldest first. Rows locked by someone else (an
// acceptance or cancellation in flight) are skipped and caught by the next run. Running it again
// changes nothing. It returns how many rows it flipped.
//
// The inner query walks the partial pending-expiry index; the outer update finds the locked rows
// by ctid (a TID scan), because "id IN (subquery)" is planned as a hash join over a sequential
// scan of the whole table. Commits skip the WAL flush wait: a batch lost in a crash is simply
// redone by the next run.
func (s *Store) ExpireInvitations(ctx context.Context, batch int) (int64, error) {
	const q = `UPDATE invitations SET status = 'expired'
		WHERE ctid = ANY(ARRAY(SELECT ctid FROM invitations WHERE status = 'pending' AND expires_at <= now()
			ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED))
		AND status = 'pending'`
	if batch <= 0 {
		batch = DefaultExpireBatch
	}
	var total int64
	for {
		var n int64
		err := s.InTx(ctx, func(tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, q, batch)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil {
			return total, fmt.Errorf("expire invitations: %w", err)
		}
		total += n
		if n < int64(batch) {
			return total, nil
		}
	}
}
