package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// PassesDeps holds what the passes jobs need (filled in by cmd/perfilseguro); a nil builder
// disables its job.
type PassesDeps struct {
	Apple  perfilseguro.ApplePassBuilder // signs .pkpass archives
	Google perfilseguro.GooglePassSigner // signs save-to-Google-Wallet links
	Pusher perfilseguro.PassUpdatePusher // tells devices a pass changed (APNs); nil: no pushes
	// GoogleObjects changes saved Google Wallet objects (the REST API); nil: no updates.
	GoogleObjects perfilseguro.GooglePassUpdater
}

func (w *Worker) routesPasses() {
	w.mux.HandleFunc(jobs.TypeVerifyLog, decoded("verify log", func(p jobs.VerifyLogPayload) bool { return len(p.Entries) > 0 }, w.handleVerifyLog))
	if w.deps.Passes.Pusher != nil {
		w.mux.HandleFunc(jobs.TypePushPassUpdate, decoded("push",
			func(p jobs.PushPassUpdatePayload) bool { return p.UserID > 0 || p.SerialNumber != "" }, w.handlePushPassUpdate))
	}
	if w.deps.Passes.Apple != nil {
		w.mux.HandleFunc(jobs.TypeBuildApplePass, w.handleBuildApplePass)
	}
	if w.deps.Passes.Google != nil {
		w.mux.HandleFunc(jobs.TypeBuildGooglePass, w.handleBuildGooglePass)
	}
	if w.deps.Passes.GoogleObjects != nil {
		w.mux.HandleFunc(jobs.TypeUpdateGoogleObject, decoded("google object",
			func(p jobs.UpdateGoogleObjectPayload) bool { return p.UserID > 0 }, w.handleUpdateGoogleObject))
	}
	w.mux.HandleFunc(jobs.TypeVoidDeletedPasses, decoded("void",
		func(p jobs.VoidDeletedPassesPayload) bool { return p.SerialNumber != "" }, w.handleVoidDeletedPasses))
	w.mux.HandleFunc(jobs.TypeSweepWallet, w.handleSweepWallet)
}

// handleVerifyLog writes public lookups to verification_logs; a replay writes nothing new.
func (w *Worker) handleVerifyLog(ctx context.Context, p jobs.VerifyLogPayload) error {
	logs := make([]postgres.VerificationLog, 0, len(p.Entries))
	for _, e := range p.Entries {
		if e.RequestID == "" || e.ScannedAt.IsZero() {
			return fmt.Errorf("verify log entry without id or time: %w", asynq.SkipRetry)
		}
		var extra []byte
		if e.HTTPRequestID != "" {
			extra, _ = json.Marshal(map[string]string{"httpRequestId": e.HTTPRequestID})
		}
		accessType := e.AccessType
		if accessType == "" {
			accessType = jobs.AccessPublicPage
		}
		logs = append(logs, postgres.VerificationLog{RequestID: e.RequestID, UserID: e.UserID,
			IDValidado: e.IDValidado, ScannedAt: e.ScannedAt, IP: e.IP, UserAgent: e.UserAgent,
			AccessType: accessType, Granted: e.Granted, Reason: e.Reason, PartnerID: e.PartnerID, AdditionalData: extra})
	}
	store := postgres.Store{DB: w.deps.DB}
	_, err := store.InsertVerificationLogs(ctx, logs)
	return err
}

func (w *Worker) handleBuildApplePass(ctx context.Context, t *asynq.Task) error {
	return w.buildPass(ctx, t, postgres.PassKindApple, func(p perfilseguro.PassData) ([]byte, string, error) {
		token, err := w.applePassToken(ctx, p)
		if err != nil {
			return nil, "", err
		}
		p.AuthToken = token
		b, err := w.deps.Passes.Apple.BuildPass(p)
		return b, "", err
	})
}

// applePassToken returns the pass's authenticationToken: minted at random on its first build and
// kept (sealed) for every rebuild, so devices that installed the pass stay authorized.
func (w *Worker) applePassToken(ctx context.Context, p perfilseguro.PassData) (string, error) {
	if !w.deps.Sealer.Valid() {
		return "", fmt.Errorf("apple pass token: no sealer configured: %w", asynq.SkipRetry)
	}
	fresh := secure.NewToken(24)
	store := postgres.Store{DB: w.deps.DB}
	stored, err := store.EnsureApplePassToken(ctx, postgres.ApplePassToken{UserID: p.UserID, SerialNumber: p.ProfileID,
		TokenHash: secure.HashToken(fresh), TokenSealed: w.deps.Sealer.Seal(fresh)})
	if err != nil {
		return "", err
	}
	token, err := w.deps.Sealer.Open(stored.TokenSealed)
	if err != nil {
		return "", fmt.Errorf("apple pass token of user %d: %w", p.UserID, err)
	}
	return token, nil
}

func (w *Worker) handleBuildGooglePass(ctx context.Context, t *asynq.Task) error {
	return w.buildPass(ctx, t, postgres.PassKindGoogle, func(p perfilseguro.PassData) ([]byte, string, error) {
		u, err := w.deps.Passes.Google.SaveURL(p)
		return nil, u, err
	})
}

// errNotEligible means the user may not hold a pass (yet): nothing to build, never retried.
var errNotEligible = errors.New("user is not level 3 with a validation date")

// buildPass (re)builds a user's pass of one kind when its data changed since the last build.
func (w *Worker) buildPass(ctx context.Context, t *asynq.Task, kind string,
	build func(perfilseguro.PassData) ([]byte, string, error)) error {
	var p jobs.WalletPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.UserID <= 0 {
		return fmt.Errorf("wallet payload: %w", asynq.SkipRetry)
	}
	store := postgres.Store{DB: w.deps.DB}
	u, err := store.UserByID(ctx, p.UserID)
	if errors.Is(err, postgres.ErrUserNotFound) {
		return fmt.Errorf("user %d: %w", p.UserID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	data, ok := jobs.PassDataFor(u, w.deps.PublicBaseURL)
	if !ok {
		return fmt.Errorf("%s pass for user %d: %w: %w", kind, p.UserID, errNotEligible, asynq.SkipRetry)
	}
	hash := jobs.PassDataHash(data)
	stored, err := store.WalletPassHash(ctx, p.UserID, kind)
	if err != nil {
		return err
	}
	if stored == hash {
		// Built already. A retry goes on to the follow-up, whose enqueue may be what failed (its
		// TaskID makes a second one a no-op; after a first build it finds no device or object).
		if retried, _ := asynq.GetRetryCount(ctx); retried == 0 {
			return nil
		}
	} else {
		content, saveURL, err := build(data)
		if err != nil {
			return fmt.Errorf("build %s pass for user %d: %w", kind, p.UserID, err)
		}
		if err := store.SaveWalletPass(ctx, p.UserID, kind, hash, content, saveURL); err != nil {
			return err
		}
		if stored == "" {
			return nil // a first build: no device or wallet holds the pass yet
		}
	}
	if w.deps.Enqueuer == nil {
		return nil
	}
	// A pass that existed changed: the devices holding it are told, the saved Google object follows.
	var task *asynq.Task
	switch {
	case kind == postgres.PassKindApple && w.deps.Passes.Pusher != nil:
		task, err = jobs.NewPushPassUpdateTask(jobs.PushPassUpdatePayload{UserID: p.UserID, DataHash: hash})
	case kind == postgres.PassKindGoogle && w.deps.Passes.GoogleObjects != nil:
		task, err = jobs.NewUpdateGoogleObjectTask(jobs.UpdateGoogleObjectPayload{UserID: p.UserID, DataHash: hash})
	default:
		return nil
	}
	if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
		return fmt.Errorf("queue the update of user %d's %s pass: %w", p.UserID, kind, err)
	}
	return nil
}

// handlePushPassUpdate sends one push per device that installed the user's pass. A device APNs
// no longer knows (410) is forgotten; a refusal a retry cannot fix is logged; anything else is
// retried with backoff (devices already told get a second, harmless push).
func (w *Worker) handlePushPassUpdate(ctx context.Context, p jobs.PushPassUpdatePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	var tokens []string
	var err error
	if p.SerialNumber != "" {
		tokens, err = store.PushTokensOfSerial(ctx, p.SerialNumber) // a deleted account's voided pass
	} else {
		tokens, err = store.PushTokensOfPass(ctx, p.UserID)
	}
	if err != nil {
		return err
	}
	var retry []error
	for _, token := range tokens {
		err := w.deps.Passes.Pusher.PushPassUpdate(ctx, token)
		switch {
		case err == nil:
		case errors.Is(err, perfilseguro.ErrPushTokenGone):
			if err := store.UnregisterPushToken(ctx, token); err != nil {
				retry = append(retry, err)
			}
		case errors.Is(err, perfilseguro.ErrPermanent):
			w.deps.Logger.Warn("pass update push refused", "user_id", p.UserID, "error", err)
		default:
			retry = append(retry, err)
		}
	}
	return errors.Join(retry...)
}
