package worker

import (
	"context"
	"time"

	"github.com/hibiken/asynq"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// expireBatch is how many expiries one statement records (each batch is its own transaction).
const expireBatch = 1000

func (w *Worker) routesLifecycle() {
	w.mux.HandleFunc(jobs.TypeExpireProfiles, w.handleExpireProfiles)
}

// handleExpireProfiles records, once each, the expiry of the profiles whose validity ended, in
// batches, and asks for their wallet passes to be rebuilt (they now read Expirado). Partners are
// told through the outbox in the same transaction (migration 0008).
func (w *Worker) handleExpireProfiles(ctx context.Context, _ *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	now := w.now()
	total := 0
	for {
		ids, err := store.ExpireProfiles(ctx, now, expireBatch)
		if err != nil {
			return err
		}
		total += len(ids)
		for _, id := range ids {
			// The expiry is recorded either way; a pass not rebuilt now is rebuilt when next asked
			// for (its data hash changed).
			if err := w.enqueuePassBuilds(ctx, id); err != nil {
				w.deps.Logger.Warn("expired profile's passes not queued for rebuild", "user_id", id, "error", err)
			}
		}
		if len(ids) < expireBatch {
			break
		}
	}
	if total > 0 {
		w.deps.Logger.Info("profiles expired", "count", total)
		// Their credentials were revoked by trigger: the status list says so once re-signed.
		if w.deps.Credentials.Issuer != nil {
			task, err := jobs.NewBuildStatusListTask(1, "expired:"+now.Format(time.RFC3339Nano))
			if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
				w.deps.Logger.Warn("status list rebuild not queued after expiries", "error", err)
			}
		}
	}
	return nil
}

// now is the worker's clock (Deps.Now in tests).
func (w *Worker) now() time.Time {
	if w.deps.Now != nil {
		return w.deps.Now()
	}
	return time.Now()
}
