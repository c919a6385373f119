package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendLiftNotice tells a person by e-mail (or SMS, without one) that an administrador lifted
// the revocation of their validation (DECISIONS.md, Revocation).
const TypeSendLiftNotice = "profile:lift_notice"

// SendLiftNoticePayload names the 'lifted' lifecycle event; the worker reads who, where and why
// from Postgres, so no contact or reason sits in Redis.
type SendLiftNoticePayload struct {
	EventID int64 `json:"eventId"`
}

// NewSendLiftNoticeTask builds the notice on the default queue; it is queued inside the lift's
// transaction, so the handler retries while the event is not visible yet, and the TaskID makes a
// second enqueue of one lift a no-op.
func NewSendLiftNoticeTask(eventID int64) (*asynq.Task, error) {
	return newTask(TypeSendLiftNotice, SendLiftNoticePayload{EventID: eventID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendLiftNotice, eventID)), asynq.Retention(6*time.Hour))
}
