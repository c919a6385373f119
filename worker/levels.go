package worker

import (
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// LevelsDeps holds what the levels jobs need (filled in by cmd/perfilseguro).
type LevelsDeps struct {
	// Biometric creates provider sessions and reports decisions (Didit, or the simulator).
	Biometric perfilseguro.BiometricProvider
	// TestBiometric is the simulator, for the attempts recorded as devsim: a partner's test
	// people, even in production (nil: those go to Biometric, as in development).
	TestBiometric perfilseguro.BiometricProvider
	// WebhookGrace is how old an unprocessed webhook must be before the reconciler queues it
	// again (its own job normally gets there first). Default 1 minute.
	WebhookGrace time.Duration
	// StuckAfter is how long an open session may go unchanged before the reconciler asks the
	// provider about it. Default 15 minutes.
	StuckAfter time.Duration
	// StuckMaxAge stops asking about sessions older than this. Default 7 days.
	StuckMaxAge time.Duration
}

func (w *Worker) routesLevels() {
	d := &w.deps.Levels
	if d.WebhookGrace == 0 {
		d.WebhookGrace = time.Minute
	}
	if d.StuckAfter == 0 {
		d.StuckAfter = 15 * time.Minute
	}
	if d.StuckMaxAge == 0 {
		d.StuckMaxAge = 7 * 24 * time.Hour
	}
	w.mux.HandleFunc(jobs.TypeSendEmailVerification, decoded("email verification",
		func(p jobs.SendEmailVerificationPayload) bool { return p.TokenID != 0 && p.SealedToken != "" }, w.handleSendEmailVerification))
	w.mux.HandleFunc(jobs.TypeStartBiometricSession, decoded("start session",
		func(p jobs.StartBiometricSessionPayload) bool { return p.VerificationID != 0 }, w.handleStartBiometricSession))
	w.mux.HandleFunc(jobs.TypeProcessBiometricWebhook, decoded("webhook",
		func(p jobs.ProcessBiometricWebhookPayload) bool { return p.WebhookID != 0 }, w.handleProcessBiometricWebhook))
	w.mux.HandleFunc(jobs.TypeSyncBiometricSession, decoded("sync session",
		func(p jobs.SyncBiometricSessionPayload) bool { return p.SessionID != "" }, w.handleSyncBiometricSession))
	w.mux.HandleFunc(jobs.TypeReconcileBiometric, w.handleReconcileBiometric)
}
