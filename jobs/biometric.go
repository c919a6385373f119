package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Biometric verification tasks (level 3).
const (
	// TypeStartBiometricSession creates the provider session of a verification_sessions row.
	TypeStartBiometricSession = "biometric:start_session"
	// TypeProcessBiometricWebhook applies one stored provider webhook (provider_webhooks row).
	TypeProcessBiometricWebhook = "biometric:process_webhook"
	// TypeSyncBiometricSession asks the provider for the decision of one session.
	TypeSyncBiometricSession = "biometric:sync_session"
	// TypeReconcileBiometric re-enqueues unprocessed webhooks and syncs stuck sessions.
	TypeReconcileBiometric = "biometric:reconcile"
)

// StartBiometricSessionPayload names the verification_sessions row to start.
type StartBiometricSessionPayload struct {
	VerificationID int64 `json:"verificationId"`
}

// NewStartBiometricSessionTask builds the session start on the critical queue (the user waits
// for the URL); a short deadline, because a URL that arrives minutes late is of no use.
func NewStartBiometricSessionTask(verificationID int64) (*asynq.Task, error) {
	return newTask(TypeStartBiometricSession, StartBiometricSessionPayload{VerificationID: verificationID},
		asynq.Queue(QueueCritical), asynq.MaxRetry(3), asynq.Timeout(30*time.Second),
		asynq.Deadline(time.Now().Add(3*time.Minute)),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeStartBiometricSession, verificationID)),
		asynq.Retention(10*time.Minute))
}

// ProcessBiometricWebhookPayload names the stored webhook to process.
type ProcessBiometricWebhookPayload struct {
	WebhookID int64 `json:"webhookId"`
}

// NewProcessBiometricWebhookTask builds the processing of one stored webhook, once at a time.
func NewProcessBiometricWebhookTask(webhookID int64) (*asynq.Task, error) {
	return newStoredWebhookTask(TypeProcessBiometricWebhook, webhookID, ProcessBiometricWebhookPayload{WebhookID: webhookID})
}

// SyncBiometricSessionPayload names the provider session to ask about.
type SyncBiometricSessionPayload struct {
	SessionID string `json:"sessionId"`
}

// NewSyncBiometricSessionTask builds one provider lookup on the low queue (housekeeping).
func NewSyncBiometricSessionTask(sessionID string) (*asynq.Task, error) {
	return newTask(TypeSyncBiometricSession, SyncBiometricSessionPayload{SessionID: sessionID},
		asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%s", TypeSyncBiometricSession, sessionID)))
}

// ReconcileBiometricPayload names the scheduler tick that caused the run.
type ReconcileBiometricPayload struct {
	Tick string `json:"tick"`
}

// NewReconcileBiometricTask builds the periodic reconciliation; one per tick.
func NewReconcileBiometricTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeReconcileBiometric, tick, ReconcileBiometricPayload{Tick: tick}, 1, 2*time.Minute)
}
