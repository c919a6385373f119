package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendDocumentBoundNotice tells the owner of a validated profile that someone presented
// their identity document to validate another profile (issue 52, "one ID, one profile").
const TypeSendDocumentBoundNotice = "identity:document_bound_notice"

// SendDocumentBoundNoticePayload names the refused check; the worker reads whose document it
// was from Postgres (verification_sessions.duplicate_of), so nothing personal sits in Redis.
type SendDocumentBoundNoticePayload struct {
	VerificationID int64 `json:"verificationId"`
}

// NewSendDocumentBoundNoticeTask builds the notice on the default queue. It is queued inside
// the transaction that refused the check; the TaskID makes a second enqueue a no-op.
func NewSendDocumentBoundNoticeTask(verificationID int64) (*asynq.Task, error) {
	return newTask(TypeSendDocumentBoundNotice, SendDocumentBoundNoticePayload{VerificationID: verificationID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendDocumentBoundNotice, verificationID)), asynq.Retention(time.Hour))
}
