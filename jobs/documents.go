package jobs

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeRedactStoredDecisions seals the personal fields still in clear in the provider answers
// stored before issue 52 (verification_sessions.raw_response and webhook_data,
// provider_webhooks.body). One-off, queued by `perfilseguro documents redact-stored`.
const TypeRedactStoredDecisions = "biometric:redact_stored"

// RedactStoredDecisionsPayload is where to start: after these ids (0: from the first row). A run
// logs its progress as these cursors, so an operator may start a new run where one stopped; a
// run from 0 is also right, only slower, since rows already done are marked and skipped.
type RedactStoredDecisionsPayload struct {
	AfterSession int64 `json:"afterSession,omitempty"`
	AfterWebhook int64 `json:"afterWebhook,omitempty"`
}

// NewRedactStoredDecisionsTask builds the redaction run; its TaskID keeps a second copy out while
// one is queued, running or just done.
func NewRedactStoredDecisionsTask(p RedactStoredDecisionsPayload) (*asynq.Task, error) {
	return newTask(TypeRedactStoredDecisions, p, asynq.Queue(QueueLow), asynq.MaxRetry(5),
		asynq.Timeout(2*time.Hour), asynq.TaskID(TypeRedactStoredDecisions), asynq.Retention(time.Hour))
}

// TypeBackfillIdentity reads the identity document from the decisions stored for approved checks
// assessed before issue 52 and assesses it (postgres.Store.BackfillIdentity): a match binds the
// document to the profile, other verdicts are recorded, nobody is revoked. One-off, queued by
// `perfilseguro documents backfill`.
const TypeBackfillIdentity = "biometric:backfill_identity"

// BackfillIdentityPayload is where to start: after this verification_sessions id (0: from the
// first). A run logs its cursor after each batch; a run from 0 is also right, since checks
// already given a verdict are never picked again.
type BackfillIdentityPayload struct {
	AfterSession int64 `json:"afterSession,omitempty"`
}

// NewBackfillIdentityTask builds the backfill run; its TaskID keeps a second copy out while one
// is queued, running or just done.
func NewBackfillIdentityTask(p BackfillIdentityPayload) (*asynq.Task, error) {
	return newTask(TypeBackfillIdentity, p, asynq.Queue(QueueLow), asynq.MaxRetry(5),
		asynq.Timeout(2*time.Hour), asynq.TaskID(TypeBackfillIdentity), asynq.Retention(time.Hour))
}
