package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// newStoredWebhookTask builds the processing of one stored provider webhook (a row of a webhook
// inbox: biometric or payment) on the default queue, retried for a while; its TaskID stops the
// API and the reconciler from queueing the same webhook twice at once.
func newStoredWebhookTask(typename string, webhookID int64, payload any) (*asynq.Task, error) {
	return newTask(typename, payload, asynq.Queue(QueueDefault), asynq.MaxRetry(15), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%d", typename, webhookID)))
}
