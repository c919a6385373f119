package worker

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// redactBatchSize is how many rows one transaction of the redaction job seals.
const redactBatchSize = 200

func (w *Worker) routesDocuments() {
	w.mux.HandleFunc(jobs.TypeRedactStoredDecisions, decoded("redact stored decisions",
		func(p jobs.RedactStoredDecisionsPayload) bool { return p.AfterSession >= 0 && p.AfterWebhook >= 0 },
		w.handleRedactStoredDecisions))
	w.routesIdentityBackfill()
}

// handleRedactStoredDecisions seals, batch by batch in id order, the personal fields that the
// stored provider answers still hold in clear (postgres.RedactStoredSessions and
// RedactStoredWebhooks), logging each batch's cursor. Each batch commits on its own and marks
// its rows, so a retry or a second run goes over nothing twice and changes nothing.
func (w *Worker) handleRedactStoredDecisions(ctx context.Context, p jobs.RedactStoredDecisionsPayload) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	for _, t := range []struct {
		what  string
		after int64
		batch func(context.Context, int64, int) (postgres.RedactBatch, error)
	}{
		{"verification_sessions", p.AfterSession, store.RedactStoredSessions},
		{"provider_webhooks", p.AfterWebhook, store.RedactStoredWebhooks},
	} {
		seen, changed := 0, 0
		for after := t.after; ; {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := t.batch(ctx, after, redactBatchSize)
			if err != nil {
				return fmt.Errorf("redact stored decisions: %w", err)
			}
			if b.Seen == 0 {
				break
			}
			seen, changed, after = seen+b.Seen, changed+b.Changed, b.LastID
			w.deps.Logger.InfoContext(ctx, "redacting stored decisions", slog.String("table", t.what),
				slog.Int64("after_id", after), slog.Int("seen", seen), slog.Int("changed", changed))
		}
		w.deps.Logger.InfoContext(ctx, "stored decisions redacted", slog.String("table", t.what),
			slog.Int("seen", seen), slog.Int("changed", changed))
	}
	return nil
}
