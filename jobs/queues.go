// Package jobs names every background task, its payload and its default options.
// Task type names are storage keys in Redis: never rename one.
package jobs

import (
	"context"
	"encoding/json"
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

// Fence waits until the writes made so far to the primary that holds a queue are on a replica
// (redisconn.Fence); nil waits for nothing.
type Fence interface {
	Wait(ctx context.Context, queue string) error
}

// FencedEnqueuer reports a task enqueued only once a replica holds it, so that a Redis failover
// right after the answer cannot lose it (a refused fence is a failed enqueue: the caller rolls
// back or retries, and the TaskID dedupes the retry).
type FencedEnqueuer struct {
	Enqueuer
	Fence Fence
}

// EnqueueContext enqueues, then waits on the fence of the task's queue (asynq's keys carry the
// queue name as their hash tag).
func (f FencedEnqueuer) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	info, err := f.Enqueuer.EnqueueContext(ctx, task, opts...)
	if err != nil || f.Fence == nil {
		return info, err
	}
	if err := f.Fence.Wait(ctx, info.Queue); err != nil {
		return nil, fmt.Errorf("%s not confirmed by a replica: %w", task.Type(), err)
	}
	return info, nil
}

// newTask builds a task whose payload is the JSON of payload (none for nil), with an empty header
// map, which tracing.Enqueuer fills with the trace context of the code that enqueues it (asynq
// keeps headers with the task across retries).
func newTask(typename string, payload any, opts ...asynq.Option) (*asynq.Task, error) {
	var b []byte
	if payload != nil {
		var err error
		if b, err = json.Marshal(payload); err != nil {
			return nil, fmt.Errorf("%s payload: %w", typename, err)
		}
	}
	return asynq.NewTaskWithHeaders(typename, b, map[string]string{}, opts...), nil
}
