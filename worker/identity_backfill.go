package worker

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// identityBackfillBatchSize is how many approved checks one transaction of the backfill reads.
const identityBackfillBatchSize = 100

func (w *Worker) routesIdentityBackfill() {
	w.mux.HandleFunc(jobs.TypeBackfillIdentity, decoded("backfill identity",
		func(p jobs.BackfillIdentityPayload) bool { return p.AfterSession >= 0 }, w.handleBackfillIdentity))
}

// handleBackfillIdentity reads, batch by batch in id order, the document of each approved check
// assessed before issue 52 (postgres.Store.BackfillIdentity), logging each batch's cursor and
// counts (seen, changed, missing, bound, verdicts), then the administrators' list size
// ("sin datos del documento" and duplicates: `perfilseguro documents backfill -list`). Each
// batch commits on its own; a check given a verdict is never read again, so a retry or a second
// run changes nothing. Profiles that now carry their document's name get their passes rebuilt.
func (w *Worker) handleBackfillIdentity(ctx context.Context, p jobs.BackfillIdentityPayload) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	seen, changed, missing, bound := 0, 0, 0, 0
	for after := p.AfterSession; ; {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := store.BackfillIdentity(ctx, after, identityBackfillBatchSize)
		if err != nil {
			return fmt.Errorf("backfill identity: %w", err)
		}
		if b.Seen == 0 {
			break
		}
		for _, uid := range b.Bound {
			if err := w.enqueuePassBuilds(ctx, uid); err != nil {
				// The binding is committed: the next change of the profile rebuilds the pass.
				w.deps.Logger.WarnContext(ctx, "backfill identity: pass rebuild not queued", slog.Int64("user_id", uid), slog.Any("error", err))
			}
		}
		seen, changed, missing, bound, after = seen+b.Seen, changed+b.Changed, missing+b.Missing, bound+len(b.Bound), b.LastID
		w.deps.Logger.InfoContext(ctx, "backfilling identity from stored decisions", slog.Int64("after_id", after),
			slog.Int("batch_seen", b.Seen), slog.Int("batch_changed", b.Changed), slog.Int("batch_missing", b.Missing),
			slog.String("batch_verdicts", verdictCounts(b)),
			slog.Int("seen", seen), slog.Int("changed", changed), slog.Int("missing", missing), slog.Int("bound", bound))
	}
	listed, err := store.IdentityBackfillListed(ctx)
	if err != nil {
		return fmt.Errorf("backfill identity: %w", err)
	}
	byReason := map[string]int{}
	for _, l := range listed {
		byReason[l.Reason]++
	}
	w.deps.Logger.InfoContext(ctx, "identity backfilled", slog.Int("seen", seen), slog.Int("changed", changed),
		slog.Int("missing", missing), slog.Int("bound", bound),
		slog.Int("listed_missing_document", byReason[postgres.BackfillMissingDocument]),
		slog.Int("listed_duplicate", byReason[postgres.BackfillDuplicate]))
	return nil
}

// verdictCounts writes a batch's verdicts as "match=3 mismatch=1", in name order.
func verdictCounts(b postgres.IdentityBackfillBatch) string {
	parts := make([]string, 0, len(b.Verdicts))
	for v, n := range b.Verdicts {
		parts = append(parts, fmt.Sprintf("%s=%d", v, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
