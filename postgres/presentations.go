package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// OpenID4VP presentation requests (sql/migrations/0019_oid4vp.sql). A request is answered once:
// every change below applies only to a pending, unexpired request, in one statement, so two
// answers racing each other cannot both count. Times come from the API's clock.

// Statuses of a presentation request.
const (
	PresentationPending   = "pending"
	PresentationCompleted = "completed"
	PresentationFailed    = "failed"
	PresentationExpired   = "expired"
)

// EventPresentationCompleted is the partner notification of a completed presentation.
const EventPresentationCompleted = "presentation.completed"

var (
	// ErrPresentationNotFound is a presentation request that does not exist.
	ErrPresentationNotFound = errors.New("presentation request not found")
	// ErrPresentationClosed is a request already answered or expired.
	ErrPresentationClosed = errors.New("presentation request closed")
)

// PresentationRequest is one request of a partner for claims of a person's credential.
type PresentationRequest struct {
	ID          string          `db:"id"`
	PartnerID   int64           `db:"partner_id"`
	DCQLQuery   json.RawMessage `db:"dcql_query"`
	Nonce       string          `db:"nonce"`
	State       string          `db:"state"`
	ResponseKey string          `db:"response_key"` // the sealed private JWK; "" once the request is closed
	Status      string          `db:"status"`
	Claims      []byte          `db:"claims"` // JSON object, completed requests only
	Error       *string         `db:"error"`
	CreatedAt   time.Time       `db:"created_at"`
	ExpiresAt   time.Time       `db:"expires_at"`
	CompletedAt *time.Time      `db:"completed_at"`
}

// StatusAt is the request's status as seen at now: a pending request past its expiry is expired
// even before anything marked it.
func (p PresentationRequest) StatusAt(now time.Time) string {
	if p.Status == PresentationPending && !now.Before(p.ExpiresAt) {
		return PresentationExpired
	}
	return p.Status
}

const presentationColumns = `id, partner_id, dcql_query, nonce, state, response_key, status, claims, error,
	created_at, expires_at, completed_at`

// NewPresentationRequest is a request to store.
type NewPresentationRequest struct {
	PartnerID   int64
	DCQLQuery   json.RawMessage
	Nonce       string
	State       string
	ResponseKey string // sealed
	ExpiresAt   time.Time
	Now         time.Time
}

// InsertPresentationRequest stores a new pending request.
func (s *Store) InsertPresentationRequest(ctx context.Context, n NewPresentationRequest) (PresentationRequest, error) {
	const q = `INSERT INTO presentation_requests (partner_id, dcql_query, nonce, state, response_key, expires_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ` + presentationColumns
	var p PresentationRequest
	if err := s.DB.GetContext(ctx, &p, q, n.PartnerID, []byte(n.DCQLQuery), n.Nonce, n.State, n.ResponseKey, n.ExpiresAt, n.Now); err != nil {
		return p, fmt.Errorf("insert presentation request for partner %d: %w", n.PartnerID, err)
	}
	return p, nil
}

// PresentationRequestByID finds a request; id must be a UUID (the caller checks its syntax).
func (s *Store) PresentationRequestByID(ctx context.Context, id string) (PresentationRequest, error) {
	var p PresentationRequest
	err := getOne(ctx, s.DB, &p, ErrPresentationNotFound, fmt.Sprintf("presentation request %s", id),
		`SELECT `+presentationColumns+` FROM presentation_requests WHERE id = $1`, id)
	return p, err
}

// CompletePresentation stores the disclosed claims of a pending request and, in the same
// transaction, the partner's notification (an outbox row, as the other partner events are)
// when the partner has a webhook. It returns the delivery's id (0: no webhook), or
// ErrPresentationClosed when the request was answered or expired meanwhile.
func (s *Store) CompletePresentation(ctx context.Context, id string, claims json.RawMessage, now time.Time) (int64, error) {
	var deliveryID int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var partnerID int64
		err := getOne(ctx, tx, &partnerID, ErrPresentationClosed, fmt.Sprintf("complete presentation %s", id),
			`UPDATE presentation_requests
			SET status = 'completed', claims = $2, completed_at = $3, response_key = ''
			WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING partner_id`, id, []byte(claims), now)
		if err != nil {
			return err
		}
		// No user_id: the notification is about a presentation, and nothing links it to an account.
		err = tx.GetContext(ctx, &deliveryID, `INSERT INTO partner_deliveries (partner_id, event, payload)
			SELECT k.id, $2, jsonb_build_object('event', $2::text, 'id', r.id, 'claims', r.claims, 'completedAt', r.completed_at)
			FROM api_keys k JOIN presentation_requests r ON r.id = $3
			WHERE k.id = $1 AND k.is_active AND k.webhook_url IS NOT NULL RETURNING id`,
			partnerID, EventPresentationCompleted, id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("notify presentation %s: %w", id, err)
		}
		return nil
	})
	return deliveryID, err
}

// FailPresentation closes a pending request with a short reason (never personal data); a
// request closed meanwhile is left as it is (ErrPresentationClosed).
func (s *Store) FailPresentation(ctx context.Context, id, reason string, now time.Time) error {
	return s.closePresentation(ctx, `UPDATE presentation_requests
		SET status = 'failed', error = $2, completed_at = $3, response_key = ''
		WHERE id = $1 AND status = 'pending' AND expires_at > $3`, id, reason, now)
}

// NotePresentationRefusal keeps why a presentation was refused on a request that stays pending
// (the wallet may try again): the partner sees it if the request expires unanswered.
func (s *Store) NotePresentationRefusal(ctx context.Context, id, reason string, now time.Time) error {
	return s.closePresentation(ctx, `UPDATE presentation_requests SET error = $2
		WHERE id = $1 AND status = 'pending' AND expires_at > $3`, id, reason, now)
}

// ExpirePresentation marks a pending request past its expiry as expired.
func (s *Store) ExpirePresentation(ctx context.Context, id string, now time.Time) error {
	return s.closePresentation(ctx, `UPDATE presentation_requests SET status = 'expired', response_key = ''
		WHERE id = $1 AND status = 'pending' AND expires_at <= $2`, id, now)
}

func (s *Store) closePresentation(ctx context.Context, q, id string, args ...any) error {
	res, err := s.DB.ExecContext(ctx, q, append([]any{id}, args...)...)
	if err != nil {
		return fmt.Errorf("close presentation %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrPresentationClosed
	}
	return nil
}

// CredentialRevoked reports whether the credential at a status list entry is revoked, from the
// table the published list is built from: a verifier that is also the issuer sees a revocation
// at once, not after the list is signed again and caches expire. ErrCredentialNotFound: no
// credential holds that entry.
func (s *Store) CredentialRevoked(ctx context.Context, listID, idx int) (bool, error) {
	var revoked bool
	err := getOne(ctx, s.DB, &revoked, ErrCredentialNotFound, fmt.Sprintf("credential status %d/%d", listID, idx),
		`SELECT revoked_at IS NOT NULL FROM credentials WHERE list_id = $1 AND status_idx = $2`, listID, idx)
	if err != nil {
		return false, err
	}
	return revoked, nil
}
