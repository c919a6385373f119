package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendIdentityReviewNotice tells a person by e-mail (or SMS, without one) what an
// administrator decided on the review of their identity document (issue 52): validated under
// the document's name, or declined with the reason.
const TypeSendIdentityReviewNotice = "identity:review_notice"

// SendIdentityReviewNoticePayload names the reviewed check; the worker reads the decision, the
// reason and where to write from Postgres, so nothing personal sits in Redis.
type SendIdentityReviewNoticePayload struct {
	VerificationID int64 `json:"verificationId"`
}

// NewSendIdentityReviewNoticeTask builds the notice on the default queue. It is queued inside the
// decision's transaction, so the handler retries while the decision is not visible yet; the
// TaskID makes a second enqueue for one check a no-op.
func NewSendIdentityReviewNoticeTask(verificationID int64) (*asynq.Task, error) {
	return newTask(TypeSendIdentityReviewNotice, SendIdentityReviewNoticePayload{VerificationID: verificationID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendIdentityReviewNotice, verificationID)), asynq.Retention(time.Hour))
}
