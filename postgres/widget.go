package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// ActivePartnerByOrigin finds the active partner whose domain is exactly this origin (nil when none).
func (s *Store) ActivePartnerByOrigin(ctx context.Context, origin string) (*Partner, error) {
	var r partnerRow
	if err := s.q(ctx).GetContext(ctx, &r, selectPartner+`WHERE domain = $1 AND is_active ORDER BY id LIMIT 1`, origin); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("partner by origin: %w", err)
	}
	p := r.partner()
	return &p, nil
}

// SharedUserByEmail is the person of the mode with this e-mail who holds a live grant to the
// partner in the key's mode, with the claims granted (0 and nil when none). It is the one
// statement of a partner's status lookup, the same whether the e-mail has no account or an
// account that never shared: the answer must not tell them apart, not even by its time.
func (s *Store) SharedUserByEmail(ctx context.Context, partnerID int64, live bool, email string, mode int64) (int64, []string, error) {
	const q = `SELECT u.id, g.claims FROM users u
		JOIN partner_grants g ON g.user_id = u.id AND g.partner_id = $1 AND g.livemode = $2 AND g.revoked_at IS NULL
		WHERE u.email = $3 AND ` + modeIs + `$4 ORDER BY g.granted_at DESC, g.id DESC LIMIT 1`
	var row struct {
		ID     int64          `db:"id"`
		Claims pq.StringArray `db:"claims"`
	}
	if err := s.q(ctx).GetContext(ctx, &row, q, partnerID, live, email, mode); err != nil {
		if isNoRows(err) {
			return 0, nil, nil
		}
		return 0, nil, fmt.Errorf("shared user by e-mail: %w", err)
	}
	return row.ID, row.Claims, nil
}

// AddPartnerUsage adds counted requests to a partner in one write (usage is batched in Redis).
func (s *Store) AddPartnerUsage(ctx context.Context, partnerID, requests int64, lastUsed time.Time) error {
	const q = `UPDATE api_keys SET requests_count = requests_count + $2,
		last_used_at = GREATEST(COALESCE(last_used_at, $3), $3) WHERE id = $1`
	_, err := s.q(ctx).ExecContext(ctx, q, partnerID, requests, lastUsed)
	return err
}

// SetUserPartner records the partner a new user came through.
func (s *Store) SetUserPartner(ctx context.Context, userID, partnerID int64) error {
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE users SET partner_id = $2 WHERE id = $1 AND partner_id IS NULL`, userID, partnerID)
	return err
}

// Delivery is one outbound partner notification.
type Delivery struct {
	ID         int64           `db:"id"`
	PartnerID  int64           `db:"partner_id"`
	Event      string          `db:"event"`
	Payload    json.RawMessage `db:"payload"`
	Attempts   int             `db:"attempts"`
	URL        *string         `db:"webhook_url"`
	Secret     *string         `db:"webhook_secret"`
	Delivered  *time.Time      `db:"delivered_at"`
	PartnerAct bool            `db:"is_active"`
	// Objected: the person switched partner notifications off (a secondary purpose), or withdrew
	// this partner's access (Mi Perfil › Plataformas con acceso) and has not shared with it since:
	// nothing more about them is sent but the withdrawal's own notice and their sessions' status.
	Objected bool `db:"objected"`
}

// DueDeliveries lists undelivered notifications whose next attempt is due, of active partners
// only: a deactivated partner's wait, unsent, until it is reactivated.
func (s *Store) DueDeliveries(ctx context.Context, limit int) ([]int64, error) {
	var ids []int64
	const q = `SELECT d.id FROM partner_deliveries d JOIN api_keys k ON k.id = d.partner_id AND k.is_active
		WHERE d.delivered_at IS NULL AND d.attempts < $2 AND d.next_attempt_at <= now()
		ORDER BY d.id LIMIT $1`
	err := s.q(ctx).SelectContext(ctx, &ids, q, limit, MaxDeliveryAttempts)
	return ids, err
}

// MaxDeliveryAttempts stops retrying a notification.
const MaxDeliveryAttempts = 12

// DeliveryByID reads a notification with its partner's endpoint.
func (s *Store) DeliveryByID(ctx context.Context, id int64) (*Delivery, error) {
	var d Delivery
	const q = `SELECT d.id, d.partner_id, d.event, d.payload, d.attempts, d.delivered_at, k.webhook_url, k.webhook_secret, k.is_active,
		COALESCE((SELECT NOT c.granted FROM consents c WHERE c.user_id = d.user_id AND c.purpose = 'partner_notifications'
			ORDER BY c.accepted_at DESC, c.id DESC LIMIT 1), false)
		OR (d.event <> 'profile.access_revoked' AND d.event NOT LIKE 'verification_session.%'
			AND EXISTS (SELECT 1 FROM partner_grants g WHERE g.partner_id = d.partner_id AND g.user_id = d.user_id AND g.revoked_at IS NOT NULL)
			AND NOT EXISTS (SELECT 1 FROM partner_grants g WHERE g.partner_id = d.partner_id AND g.user_id = d.user_id AND g.revoked_at IS NULL)) AS objected
		FROM partner_deliveries d JOIN api_keys k ON k.id = d.partner_id WHERE d.id = $1`
	if err := s.q(ctx).GetContext(ctx, &d, q, id); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("delivery: %w", err)
	}
	return &d, nil
}

// DropDelivery deletes a notification that must not be sent (the person objected to it, or
// withdrew the partner's access).
func (s *Store) DropDelivery(ctx context.Context, id int64) error {
	_, err := s.q(ctx).ExecContext(ctx, `DELETE FROM partner_deliveries WHERE id = $1 AND delivered_at IS NULL`, id)
	return err
}

// RecordDelivery logs one attempt; a failed one is scheduled again after backoff.
func (s *Store) RecordDelivery(ctx context.Context, id int64, status int, errText string, delivered bool, backoff time.Duration) error {
	const q = `UPDATE partner_deliveries SET attempts = attempts + 1, status_code = NULLIF($2, 0), last_error = NULLIF($3, ''),
		delivered_at = CASE WHEN $4 THEN now() ELSE NULL END,
		next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1 AND delivered_at IS NULL`
	_, err := s.q(ctx).ExecContext(ctx, q, id, status, errText, delivered, backoff.Seconds())
	return err
}

// SetPartnerWebhook stores (or clears) a partner's notification URL and signing secret. A new
// secret that replaces one keeps the old one signing beside it for perfilseguro.WebhookSecretOverlap, so
// the partner can switch without losing a notification (clearing the webhook ends both).
func (s *Store) SetPartnerWebhook(ctx context.Context, partnerID int64, hookURL, secret string) (bool, error) {
	res, err := s.q(ctx).ExecContext(ctx, `UPDATE api_keys SET
			webhook_secret_previous = CASE WHEN NULLIF($3, '') IS NOT NULL THEN webhook_secret END,
			webhook_secret_previous_until = CASE WHEN NULLIF($3, '') IS NOT NULL AND webhook_secret IS NOT NULL
				THEN now() + make_interval(secs => $4) END,
			webhook_url = NULLIF($2, ''), webhook_secret = NULLIF($3, '') WHERE id = $1`,
		partnerID, hookURL, secret, perfilseguro.WebhookSecretOverlap.Seconds())
	if err != nil {
		return false, fmt.Errorf("set partner webhook: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
