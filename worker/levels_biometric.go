package worker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

// errSessionNotYetVisible asks for a retry: the API enqueues inside its transaction.
var errSessionNotYetVisible = errors.New("verification session row not visible yet")

// errNoBiometricProvider refuses biometric jobs on a worker wired without a provider.
var errNoBiometricProvider = errors.New("no biometric provider configured")

// handleStartBiometricSession creates the provider session of a pending attempt and stores its
// id, hosted URL and raw answer. An attempt that already has a session is left alone.
func (w *Worker) handleStartBiometricSession(ctx context.Context, p jobs.StartBiometricSessionPayload) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	v, err := store.VerificationSessionByID(ctx, p.VerificationID)
	if v, err = visible(v, err, errSessionNotYetVisible); err != nil {
		return err
	}
	provider := w.biometricFor(v.Provider)
	if provider == nil {
		return errNoBiometricProvider
	}
	if v.SessionID != nil || v.Status != postgres.SessionPending {
		return nil
	}
	callback := strings.TrimRight(w.deps.PublicBaseURL, "/") + "/return?userId=" + strconv.FormatInt(v.UserID, 10)
	req := perfilseguro.BiometricSessionRequest{UserID: v.UserID, CallbackURL: callback}
	// The provider compares the document with the registered name too (a second opinion; our
	// own comparison decides: identity.Assess).
	if u, err := store.UserByID(ctx, v.UserID); err == nil {
		req.ExpectedGivenNames, req.ExpectedSurnames = identity.SplitName(u.Nombre)
	}
	sess, err := provider.CreateSession(ctx, req)
	if err != nil {
		retry, _ := asynq.GetRetryCount(ctx)
		maxRetry, _ := asynq.GetMaxRetry(ctx)
		permanent := errors.Is(err, perfilseguro.ErrPermanent)
		if serr := store.SetVerificationStartError(ctx, v.ID, err.Error(), permanent || retry >= maxRetry); serr != nil {
			return fmt.Errorf("create session: %w (and recording it: %v)", err, serr)
		}
		if permanent {
			return fmt.Errorf("create session for attempt %d: %w: %w", v.ID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("create session for attempt %d: %w", v.ID, err)
	}
	if _, err := store.SetVerificationStarted(ctx, v.ID, sess); err != nil {
		return err
	}
	return nil
}

// handleProcessBiometricWebhook applies one stored webhook: it reads the session's current
// decision from the provider (never trusting the event's order) and marks the row processed.
func (w *Worker) handleProcessBiometricWebhook(ctx context.Context, p jobs.ProcessBiometricWebhookPayload) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	wh, err := store.WebhookByID(ctx, p.WebhookID)
	if wh, err = storedWebhook(wh, err, "webhook", p.WebhookID); err != nil {
		return err
	}
	if wh.ProcessedAt != nil {
		return nil // a replay or a second enqueue: already applied
	}
	sessionID := ""
	if wh.SessionID != nil {
		sessionID = *wh.SessionID
	} else if ev, err := didit.ParseWebhook(wh.Body); err == nil {
		sessionID = ev.SessionID
	}
	if sessionID == "" {
		return store.MarkWebhookProcessed(ctx, w.deps.DB, wh.ID, "sin session_id: nada que aplicar")
	}
	if err := w.syncSession(ctx, sessionID, wh.ID); err != nil {
		if rerr := store.RecordWebhookFailure(ctx, wh.ID, err.Error()); rerr != nil {
			w.deps.Logger.Warn("record webhook failure", "webhook_id", wh.ID, "error", rerr)
		}
		return err
	}
	return nil
}

// handleSyncBiometricSession asks the provider about one session the reconciler found stuck.
func (w *Worker) handleSyncBiometricSession(ctx context.Context, p jobs.SyncBiometricSessionPayload) error {
	return w.syncSession(ctx, p.SessionID, 0)
}

// errVendorMismatch means the provider attributes the session to another user than ours.
var errVendorMismatch = errors.New("decision vendor_data does not match the session's user")

// syncSession fetches the session's decision and applies it in one transaction with what
// depends on it: the wallet pass builds on a new approval (a failed enqueue rolls the approval
// back, so a retry grants and enqueues again) and, when webhookID is set, the processed mark.
func (w *Worker) syncSession(ctx context.Context, sessionID string, webhookID int64) error {
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	made, err := store.SessionProvider(ctx, sessionID)
	if err != nil {
		return err
	}
	provider := w.biometricFor(made)
	if provider == nil {
		return errNoBiometricProvider
	}
	d, err := provider.GetDecision(ctx, sessionID)
	if err != nil {
		return unreadableSession(err, "decision of "+sessionID, webhookID, func(id int64, note string) error {
			return store.MarkWebhookProcessed(ctx, w.deps.DB, id, note)
		})
	}
	if d.SessionID == "" {
		d.SessionID = sessionID
	}
	var res postgres.DecisionResult
	err = store.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err = store.ApplyDecision(ctx, tx, d)
		if err != nil {
			return err
		}
		note := ""
		switch {
		case !res.Known:
			note = "sesión desconocida: no es de este sistema"
		case d.VendorData != "" && d.VendorData != strconv.FormatInt(res.UserID, 10):
			return errVendorMismatch
		}
		if res.ApprovedNow || res.RenewedNow {
			if err := w.enqueuePassBuilds(ctx, res.UserID); err != nil {
				return err
			}
		}
		if res.Verdict == identity.VerdictDuplicate && res.DuplicateOf != 0 {
			// The first profile's owner is told someone tried (issue 52), or nothing is recorded.
			t, err := jobs.NewSendDocumentBoundNoticeTask(res.VerificationID)
			if err := jobs.Enqueue(ctx, w.deps.Enqueuer, t, err); err != nil {
				return err
			}
		}
		if webhookID != 0 {
			return store.MarkWebhookProcessed(ctx, tx, webhookID, note)
		}
		return nil
	})
	if errors.Is(err, errVendorMismatch) {
		if webhookID != 0 {
			_ = store.MarkWebhookProcessed(ctx, w.deps.DB, webhookID, errVendorMismatch.Error())
		}
		return fmt.Errorf("session %s: %w: %w", sessionID, err, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if res.Known {
		w.deps.Logger.Info("biometric decision applied", "session", sessionID, "user_id", res.UserID,
			"status", res.Status, "verdict", res.Verdict, "approved_now", res.ApprovedNow, "renewed_now", res.RenewedNow)
	}
	return nil
}

// biometricFor is the provider that made an attempt: the simulator for the devsim ones when a
// test simulator is wired (production: a partner's test people), else the configured provider.
// A session nobody recorded ("") asks the configured provider, which answers for its own.
func (w *Worker) biometricFor(provider string) perfilseguro.BiometricProvider {
	if provider == "devsim" && w.deps.Levels.TestBiometric != nil {
		return w.deps.Levels.TestBiometric
	}
	return w.deps.Levels.Biometric
}

// enqueuePassBuilds queues the Apple and Google pass builds of a user who just reached level 3.
func (w *Worker) enqueuePassBuilds(ctx context.Context, userID int64) error {
	if w.deps.Enqueuer == nil {
		return errors.New("no enqueuer for the wallet pass builds")
	}
	apple, err := jobs.NewBuildApplePassTask(userID)
	if err := jobs.Enqueue(ctx, w.deps.Enqueuer, apple, err); err != nil {
		return err
	}
	google, err := jobs.NewBuildGooglePassTask(userID)
	return jobs.Enqueue(ctx, w.deps.Enqueuer, google, err)
}

// handleReconcileBiometric makes sure nothing is lost: it queues again the webhooks that were
// stored but never processed (e.g. Redis was down when they arrived) and asks the provider
// about sessions that have stayed open too long.
func (w *Worker) handleReconcileBiometric(ctx context.Context, _ *asynq.Task) error {
	d := w.deps.Levels
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	ids, err := store.UnprocessedWebhookIDs(ctx, d.WebhookGrace, 200)
	if err != nil {
		return err
	}
	errs := enqueueEach(ctx, w.deps.Enqueuer, ids, jobs.NewProcessBiometricWebhookTask)
	stuck := []string{}
	if d.Biometric != nil {
		if stuck, err = store.StuckSessionIDs(ctx, d.StuckAfter, d.StuckMaxAge, 100); err != nil {
			return err
		}
		errs = append(errs, enqueueEach(ctx, w.deps.Enqueuer, stuck, jobs.NewSyncBiometricSessionTask)...)
	}
	if len(ids) > 0 || len(stuck) > 0 {
		w.deps.Logger.Info("biometric reconcile", "webhooks_requeued", len(ids), "sessions_checked", len(stuck))
	}
	return errors.Join(errs...)
}
