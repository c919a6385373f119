package jobs

import (
	"encoding/json"
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
	b, err := json.Marshal(StartBiometricSessionPayload{VerificationID: verificationID})
	if err != nil {
		return nil, err
	}
	return newTask(TypeStartBiometricSession, b,
		asynq.Queue(QueueCritical), asynq.MaxRetry(3), asynq.Timeout(30*time.Second),
		asynq.Deadline(time.Now().Add(3*time.Minute)),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeStartBiometricSession, verificationID)),
		asynq.Retention(10*time.Minute)), nil
}

// ProcessBiometricWebhookPayload names the stored webhook to process.
type ProcessBiometricWebhookPayload struct {
	WebhookID int64 `json:"webhookId"`
}

// NewProcessBiometricWebhookTask builds the processing of one stored webhook; the TaskID
// stops the API and the reconciler from queueing it twice at once.
func NewProcessBiometricWebhookTask(webhookID int64) (*asynq.Task, error) {
	b, err := json.Marshal(ProcessBiometricWebhookPayload{WebhookID: webhookID})
	if err != nil {
		return nil, err
	}
	return newTask(TypeProcessBiometricWebhook, b,
		asynq.Queue(QueueDefault), asynq.MaxRetry(15), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeProcessBiometricWebhook, webhookID))), nil
}

// SyncBiometricSessionPayload names the provider session to ask about.
type SyncBiometricSessionPayload struct {
	SessionID string `json:"sessionId"`
}

// NewSyncBiometricSessionTask builds one provider lookup on the low queue (housekeeping).
func NewSyncBiometricSessionTask(sessionID string) (*asynq.Task, error) {
	b, err := json.Marshal(SyncBiometricSessionPayload{SessionID: sessionID})
	if err != nil {
		return nil, err
	}
	return newTask(TypeSyncBiometricSession, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%s", TypeSyncBiometricSession, sessionID))), nil
}

// ReconcileBiometricPayload names the scheduler tick that caused the run.
type ReconcileBiometricPayload struct {
	Tick string `json:"tick"`
}

// NewReconcileBiometricTask builds the periodic reconciliation; one per tick.
func NewReconcileBiometricTask(tick string) (*asynq.Task, error) {
	b, err := json.Marshal(ReconcileBiometricPayload{Tick: tick})
	if err != nil {
		return nil, err
	}
	return newTask(TypeReconcileBiometric, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(1), asynq.Timeout(2*time.Minute),
		asynq.TaskID(TypeReconcileBiometric+":"+tick), asynq.Retention(2*time.Hour)), nil
}
