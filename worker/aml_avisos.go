package worker

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesAMLAvisos() {
	w.mux.HandleFunc(jobs.TypeSyncAMLAvisos, decoded("sync aml avisos",
		func(p jobs.SyncAMLAvisosPayload) bool { return p.Tick != "" }, w.handleSyncAMLAvisos))
}

// handleSyncAMLAvisos syncs the avisos of every business and mode with operations; a failure is
// retried (what was synced before it stays: the sync is idempotent).
func (w *Worker) handleSyncAMLAvisos(ctx context.Context, _ jobs.SyncAMLAvisosPayload) error {
	store := &postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	tables, err := store.AMLTables(ctx)
	if err != nil {
		return fmt.Errorf("aml avisos: %w", err)
	}
	partners, err := store.AMLAvisoPartners(ctx)
	if err != nil {
		return fmt.Errorf("aml avisos: %w", err)
	}
	added := 0
	for _, p := range partners {
		n, err := store.SyncAMLAvisos(ctx, p.PartnerID, p.TestMode, tables, w.now())
		if err != nil {
			return fmt.Errorf("aml avisos of partner %d: %w", p.PartnerID, err)
		}
		added += n
	}
	w.deps.Logger.InfoContext(ctx, "aml avisos synced", slog.Int("partners", len(partners)), slog.Int("added", added))
	return nil
}
