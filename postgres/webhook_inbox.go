package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// webhookInbox is a table of provider webhooks stored raw before a job applies them:
// provider_webhooks (the biometric provider) and payment_webhooks (Stripe). Both keep
// processed_at, attempts and last_error, so their bookkeeping is one piece of code.
type webhookInbox string

const (
	biometricInbox webhookInbox = "provider_webhooks"
	paymentInbox   webhookInbox = "payment_webhooks"
)

// markProcessed records that a webhook was applied (note explains a skipped one), once.
func (t webhookInbox) markProcessed(ctx context.Context, q sqlx.ExecerContext, id int64, note string) error {
	_, err := q.ExecContext(ctx, `UPDATE `+string(t)+` SET processed_at = now(), attempts = attempts + 1,
		last_error = NULLIF($2, '') WHERE id = $1 AND processed_at IS NULL`, id, note)
	return err
}

// recordFailure counts a failed processing attempt.
func (t webhookInbox) recordFailure(ctx context.Context, q sqlx.ExecerContext, id int64, message string) error {
	_, err := q.ExecContext(ctx, `UPDATE `+string(t)+` SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, id, message)
	return err
}

// unprocessedIDs lists webhooks received more than olderThan ago and never processed, the
// oldest first; one that failed 50 times is left to an operator.
func (t webhookInbox) unprocessedIDs(ctx context.Context, db *sqlx.DB, olderThan time.Duration, limit int) ([]int64, error) {
	q := `SELECT id FROM ` + string(t) + `
		WHERE processed_at IS NULL AND received_at <= now() - make_interval(secs => $1) AND attempts < 50
		ORDER BY received_at LIMIT $2`
	var ids []int64
	if err := db.SelectContext(ctx, &ids, q, olderThan.Seconds(), limit); err != nil {
		return nil, fmt.Errorf("unprocessed %s: %w", t, err)
	}
	return ids, nil
}

// insertOnce stores a webhook in its inbox once (a provider's retry finds the row it left): it
// runs q, an INSERT … ON CONFLICT DO NOTHING that returns (id, processed) of the new row or,
// failing that, of the existing one.
func (s *Store) insertOnce(ctx context.Context, q string, args ...any) (id int64, processed bool, err error) {
	var row struct {
		ID        int64 `db:"id"`
		Processed bool  `db:"processed"`
	}
	// A concurrent identical insert can commit after this statement's snapshot: then neither
	// branch sees a row, and a second try does.
	for range 2 {
		err = s.DB.GetContext(ctx, &row, q, args...)
		if !isNoRows(err) {
			break
		}
	}
	return row.ID, row.Processed, err
}
