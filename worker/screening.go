package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/screening"
)

func (w *Worker) routesScreening() {
	w.mux.HandleFunc(jobs.TypeImportUNList, decoded("import UN list",
		func(p jobs.ImportUNListPayload) bool { return p.Source != "" }, w.handleImportUNList))
}

// handleImportUNList imports the UN list from the payload's source as the live list's new
// version, and keeps the embedded fixture as test mode's UN list; an unchanged file adds nothing,
// so a retry or a second run changes nothing. A download or database failure is retried.
func (w *Worker) handleImportUNList(ctx context.Context, p jobs.ImportUNListPayload) error {
	store := &postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	live, err := screening.ImportUNList(ctx, store, p.Source)
	if err != nil {
		return fmt.Errorf("screening: %w", err)
	}
	test, err := screening.ImportTestModeUNList(ctx, store)
	if err != nil {
		return fmt.Errorf("screening: %w", err)
	}
	w.deps.Logger.InfoContext(ctx, "UN list imported", slog.String("source", p.Source),
		slog.Int("version", live.Version), slog.Bool("new_version", live.Created), slog.Int("entries", live.Entries),
		slog.String("sha256", live.SHA256), slog.Int("test_mode_version", test.Version))
	// A new version: every file still kept is screened against it (in the background).
	var errs []error
	for _, res := range []screening.ImportResult{live, test} {
		if res.Created {
			task, err := jobs.NewAMLRescreenTask(jobs.AMLRescreenReason(res.VersionID))
			errs = append(errs, jobs.Enqueue(ctx, w.deps.Enqueuer, task, err))
		}
	}
	return errors.Join(errs...)
}
