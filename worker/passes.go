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
)

// PassesDeps holds what the passes jobs need (filled in by cmd/perfilseguro); a nil builder
// disables its job.
type PassesDeps struct {
	Apple  perfilseguro.ApplePassBuilder // signs .pkpass archives
	Google perfilseguro.GooglePassSigner // signs save-to-Google-Wallet links
}

func (w *Worker) routesPasses() {
	w.mux.HandleFunc(jobs.TypeVerifyLog, w.handleVerifyLog)
	if w.deps.Passes.Apple != nil {
		w.mux.HandleFunc(jobs.TypeBuildApplePass, w.handleBuildApplePass)
	}
	if w.deps.Passes.Google != nil {
		w.mux.HandleFunc(jobs.TypeBuildGooglePass, w.handleBuildGooglePass)
	}
}

// handleVerifyLog writes public lookups to verification_logs; a replay writes nothing new.
func (w *Worker) handleVerifyLog(ctx context.Context, t *asynq.Task) error {
	var p jobs.VerifyLogPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || len(p.Entries) == 0 {
		return fmt.Errorf("verify log payload: %w", asynq.SkipRetry)
	}
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
			AccessType: accessType, Granted: e.Granted, Reason: e.Reason, AdditionalData: extra})
	}
	store := postgres.Store{DB: w.deps.DB}
	_, err := store.InsertVerificationLogs(ctx, logs)
	return err
}

func (w *Worker) handleBuildApplePass(ctx context.Context, t *asynq.Task) error {
	return w.buildPass(ctx, t, postgres.PassKindApple, func(p perfilseguro.PassData) ([]byte, string, error) {
		b, err := w.deps.Passes.Apple.BuildPass(p)
		return b, "", err
	})
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
		return nil
	}
	content, saveURL, err := build(data)
	if err != nil {
		return fmt.Errorf("build %s pass for user %d: %w", kind, p.UserID, err)
	}
	return store.SaveWalletPass(ctx, p.UserID, kind, hash, content, saveURL)
}
