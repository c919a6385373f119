package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Wallet sweep bounds: work younger than sweepGrace is still in the hands of the job queued for
// it; a deleted account's voided pass is served for tombstoneKept, then forgotten.
const (
	sweepGrace    = 2 * time.Minute
	sweepBatch    = 500
	tombstoneKept = 30 * 24 * time.Hour
)

// handleUpdateGoogleObject brings a person's saved Google Wallet object to one build of their
// pass. An object nobody saved is nothing to do; a newer build has its own job.
func (w *Worker) handleUpdateGoogleObject(ctx context.Context, p jobs.UpdateGoogleObjectPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	u, ok, err := userOrGone(ctx, store, p.UserID)
	if !ok {
		return err // nil when deleted: wallet:void_deleted voids the object
	}
	data, ok := jobs.PassDataFor(u, w.deps.PublicBaseURL)
	if !ok || jobs.PassDataHash(data) != p.DataHash {
		return nil
	}
	return w.updateGoogleObject(ctx, data)
}

// updateGoogleObject patches one object: not saved is fine, a permanent refusal is logged and
// not retried, anything else is retried with backoff.
func (w *Worker) updateGoogleObject(ctx context.Context, data perfilseguro.PassData) error {
	err := w.deps.Passes.GoogleObjects.UpdatePass(ctx, data)
	switch {
	case err == nil, errors.Is(err, perfilseguro.ErrPassNotSaved):
		return nil
	case errors.Is(err, perfilseguro.ErrPermanent):
		w.deps.Logger.Warn("google wallet object update refused", "profile_id", data.ProfileID, "error", err)
		return fmt.Errorf("google object %s: %w: %w", data.ProfileID, err, asynq.SkipRetry)
	}
	return fmt.Errorf("google object %s: %w", data.ProfileID, err)
}

// handleVoidDeletedPasses voids a deleted account's passes: a voided Apple pass that shows no one
// (signed with the pass's own token, so its devices may fetch it) is stored and pushed, and the
// saved Google object is made inactive. Each part is skipped when done, so a retry repeats none.
func (w *Worker) handleVoidDeletedPasses(ctx context.Context, p jobs.VoidDeletedPassesPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	ts, err := store.WalletTombstone(ctx, p.SerialNumber)
	if stop, err := gone(err, postgres.ErrTombstoneNotFound); stop {
		return err
	}
	if ts.VoidedAt != nil {
		return nil
	}
	data := perfilseguro.PassData{ProfileID: ts.SerialNumber, Status: perfilseguro.PassDeleted,
		ValidUntil: ts.DeletedAt.UTC(), VerifyURL: jobs.VerifyURL(w.deps.PublicBaseURL, ts.SerialNumber),
		WebServiceURL: jobs.PassKitURL(w.deps.PublicBaseURL)}
	if ts.Apple && ts.TokenSealed != nil && ts.AppleVoidedAt == nil && w.deps.Passes.Apple != nil {
		if err := w.voidApplePass(ctx, store, data, *ts.TokenSealed); err != nil {
			return err
		}
	}
	if ts.Google && w.deps.Passes.GoogleObjects != nil {
		if err := w.updateGoogleObject(ctx, data); err != nil && !errors.Is(err, asynq.SkipRetry) {
			return err
		}
	}
	return store.MarkTombstoneVoided(ctx, ts.SerialNumber)
}

func (w *Worker) voidApplePass(ctx context.Context, store postgres.Store, data perfilseguro.PassData, sealed string) error {
	token, err := w.deps.Sealer.Open(sealed)
	if err != nil {
		return fmt.Errorf("voided pass %s: token: %w: %w", data.ProfileID, err, asynq.SkipRetry)
	}
	data.AuthToken = token
	content, err := w.deps.Passes.Apple.BuildPass(data)
	if err != nil {
		return fmt.Errorf("voided pass %s: %w", data.ProfileID, err)
	}
	if err := store.SaveVoidedApplePass(ctx, data.ProfileID, content); err != nil {
		return err
	}
	if w.deps.Passes.Pusher == nil || w.deps.Enqueuer == nil {
		return nil
	}
	task, err := jobs.NewPushPassUpdateTask(jobs.PushPassUpdatePayload{SerialNumber: data.ProfileID})
	return jobs.Enqueue(ctx, w.deps.Enqueuer, task, err)
}

// handleSweepWallet finds the wallet work whose enqueue was lost (Redis down at the moment):
// deleted accounts' passes not voided, passes built before their profile's last lifecycle step;
// and forgets deleted accounts' passes after tombstoneKept.
func (w *Worker) handleSweepWallet(ctx context.Context, _ *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	now := w.now()
	serials, err := store.PendingTombstones(ctx, now.Add(-sweepGrace), sweepBatch)
	if err != nil {
		return err
	}
	errs := enqueueEach(ctx, w.deps.Enqueuer, serials, jobs.NewVoidDeletedPassesTask)
	stale, err := store.StaleWalletPasses(ctx, now.Add(-sweepGrace), sweepBatch)
	if err != nil {
		return err
	}
	for _, s := range stale {
		build := jobs.NewBuildApplePassTask
		if s.Kind == postgres.PassKindGoogle {
			build = jobs.NewBuildGooglePassTask
		}
		task, err := build(s.UserID)
		errs = append(errs, jobs.Enqueue(ctx, w.deps.Enqueuer, task, err))
	}
	purged, err := store.PurgeTombstones(ctx, now.Add(-tombstoneKept))
	if err != nil {
		return err
	}
	if len(serials)+len(stale) > 0 || purged > 0 {
		w.deps.Logger.Info("wallet sweep", "voids_queued", len(serials), "rebuilds_queued", len(stale), "tombstones_purged", purged)
	}
	return errors.Join(errs...)
}
