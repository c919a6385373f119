package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendAccountChangeNotice tells a person, at the contact they had before, that their e-mail,
// phone or name changed, with the undo link when the change can be undone (issue 54).
const TypeSendAccountChangeNotice = "account:change_notice"

// SendAccountChangeNoticePayload names the stored change; the worker reads where to write and
// the sealed undo token from Postgres, so no contact sits in Redis.
type SendAccountChangeNoticePayload struct {
	ChangeID int64 `json:"changeId"`
}

// NewSendAccountChangeNoticeTask builds the notice on the default queue. It is queued inside the
// change's transaction, so the handler retries while the change is not visible yet; the TaskID
// makes a second enqueue of one change a no-op.
func NewSendAccountChangeNoticeTask(changeID int64) (*asynq.Task, error) {
	return newTask(TypeSendAccountChangeNotice, SendAccountChangeNoticePayload{ChangeID: changeID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendAccountChangeNotice, changeID)), asynq.Retention(time.Hour))
}
