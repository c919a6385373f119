package postgres

import (
	"bytes"
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/perfilseguro/perfilseguro/docdata"
)

// RedactBatch is what one batch of the stored-decision redaction did.
type RedactBatch struct {
	LastID  int64 // the highest id looked at: the next batch starts after it (0: none left)
	Seen    int   // rows looked at
	Changed int   // rows whose raw copies held personal fields in clear, now sealed
}

// RedactStoredSessions seals the personal fields still in clear in the raw copies
// (raw_response, webhook_data) of up to limit verification sessions with id > afterID not yet
// marked raw_redacted_at, and marks them, in one transaction. A row already clean is only
// marked, so a second pass changes nothing. It refuses without the document-data key, which
// would lose the fields it removes.
func (s *Store) RedactStoredSessions(ctx context.Context, afterID int64, limit int) (RedactBatch, error) {
	const pick = `SELECT id, raw_response, raw_response_sealed, webhook_data, webhook_data_sealed
		FROM verification_sessions WHERE id > $1 AND raw_redacted_at IS NULL ORDER BY id LIMIT $2 FOR UPDATE`
	const update = `UPDATE verification_sessions SET raw_response = $2, raw_response_sealed = $3,
		webhook_data = $4, webhook_data_sealed = $5, raw_redacted_at = now() WHERE id = $1`
	const mark = `UPDATE verification_sessions SET raw_redacted_at = now() WHERE id = $1`
	type row struct {
		ID            int64   `db:"id"`
		Raw           []byte  `db:"raw_response"`
		RawSealed     *string `db:"raw_response_sealed"`
		Webhook       []byte  `db:"webhook_data"`
		WebhookSealed *string `db:"webhook_data_sealed"`
	}
	return s.redactBatch(ctx, "verification sessions", afterID, func(tx *sqlx.Tx) ([]int64, int, error) {
		var rows []row
		if err := tx.SelectContext(ctx, &rows, pick, afterID, limit); err != nil {
			return nil, 0, err
		}
		changed := 0
		for _, r := range rows {
			raw, rawSealed, c1, err := s.redactStored(r.Raw, r.RawSealed)
			if err != nil {
				return nil, 0, fmt.Errorf("verification %d raw_response: %w", r.ID, err)
			}
			wh, whSealed, c2, err := s.redactStored(r.Webhook, r.WebhookSealed)
			if err != nil {
				return nil, 0, fmt.Errorf("verification %d webhook_data: %w", r.ID, err)
			}
			q, args := mark, []any{r.ID}
			if c1 || c2 {
				q, args = update, []any{r.ID, raw, rawSealed, wh, whSealed}
				changed++
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return nil, 0, fmt.Errorf("verification %d: %w", r.ID, err)
			}
		}
		return idsOf(rows, func(r row) int64 { return r.ID }), changed, nil
	})
}

// RedactStoredWebhooks does the same to stored provider webhook bodies (provider_webhooks).
func (s *Store) RedactStoredWebhooks(ctx context.Context, afterID int64, limit int) (RedactBatch, error) {
	const pick = `SELECT id, body, body_sealed FROM provider_webhooks
		WHERE id > $1 AND raw_redacted_at IS NULL ORDER BY id LIMIT $2 FOR UPDATE`
	type row struct {
		ID     int64   `db:"id"`
		Body   []byte  `db:"body"`
		Sealed *string `db:"body_sealed"`
	}
	return s.redactBatch(ctx, "provider webhooks", afterID, func(tx *sqlx.Tx) ([]int64, int, error) {
		var rows []row
		if err := tx.SelectContext(ctx, &rows, pick, afterID, limit); err != nil {
			return nil, 0, err
		}
		changed := 0
		for _, r := range rows {
			body, sealed, c, err := s.redactStored(r.Body, r.Sealed)
			if err != nil {
				return nil, 0, fmt.Errorf("webhook %d: %w", r.ID, err)
			}
			if c {
				changed++
				_, err = tx.ExecContext(ctx, `UPDATE provider_webhooks SET body = $2, body_sealed = $3, raw_redacted_at = now() WHERE id = $1`, r.ID, body, sealed)
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE provider_webhooks SET raw_redacted_at = now() WHERE id = $1`, r.ID)
			}
			if err != nil {
				return nil, 0, fmt.Errorf("webhook %d: %w", r.ID, err)
			}
		}
		return idsOf(rows, func(r row) int64 { return r.ID }), changed, nil
	})
}

// redactBatch runs one batch of work in a transaction: work returns the ids it looked at and
// how many of those rows it changed.
func (s *Store) redactBatch(ctx context.Context, what string, afterID int64, work func(*sqlx.Tx) ([]int64, int, error)) (RedactBatch, error) {
	if !s.Documents.Valid() {
		return RedactBatch{}, fmt.Errorf("redact stored %s: %w", what, ErrNoDocumentKey)
	}
	fail := func(err error) (RedactBatch, error) {
		return RedactBatch{}, fmt.Errorf("redact stored %s after %d: %w", what, afterID, err)
	}
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	ids, changed, err := work(tx)
	if err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	b := RedactBatch{Seen: len(ids), Changed: changed}
	if len(ids) > 0 {
		b.LastID = ids[len(ids)-1]
	}
	return b, nil
}

// redactStored is one stored raw copy (kept, sealed) with any personal field still in clear
// moved into the sealed part; changed is false when kept held none.
func (s *Store) redactStored(kept []byte, sealed *string) ([]byte, *string, bool, error) {
	if len(bytes.TrimSpace(kept)) == 0 {
		return kept, sealed, false, nil
	}
	_, personal, err := docdata.RedactDecision(kept)
	if err == nil && personal == nil {
		return kept, sealed, false, nil
	}
	whole, err := s.openRaw(kept, sealed)
	if err != nil {
		return nil, nil, false, err
	}
	k, sl, err := docdata.Seal(s.Documents, whole)
	return k, sl, err == nil, err
}

func idsOf[T any](rows []T, id func(T) int64) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = id(r)
	}
	return out
}
