// Package jobs names every background task, its payload and its default options.
// Task type names are storage keys in Redis: never rename one.
package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"
)

// Queues, highest priority first.
const (
	QueueCritical = "critical" // user is waiting: OTP delivery, biometric session start
	QueueDefault  = "default"  // e-mails, webhooks, passes, invitations
	QueueLow      = "low"      // housekeeping: heartbeat, expiry, logs, reconciliation
)

// QueueWeights gives the worker's relative attention to each queue.
var QueueWeights = map[string]int{QueueCritical: 6, QueueDefault: 3, QueueLow: 1}

// Enqueuer is the part of asynq.Client the API and scheduler use (a fake can stand in for tests).
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Enqueue submits a task; a task whose TaskID is already queued counts as enqueued (dedupe).
func Enqueue(ctx context.Context, q Enqueuer, task *asynq.Task, err error) error {
	if err != nil {
		return fmt.Errorf("build task: %w", err)
	}
	if _, err := q.EnqueueContext(ctx, task); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("enqueue %s: %w", task.Type(), err)
	}
	return nil
}
