package worker

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hibiken/asynq"
)

// decoded adapts a handler of one payload type to the mux: a payload that does not decode, or
// that valid refuses, can never succeed, so its task is not retried ("<what> payload" names it).
func decoded[P any](what string, valid func(P) bool, handle func(context.Context, P) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		var p P
		if err := json.Unmarshal(t.Payload(), &p); err != nil || !valid(p) {
			return fmt.Errorf("%s payload: %w", what, asynq.SkipRetry)
		}
		return handle(ctx, p)
	}
}

// visible passes on the row a job names, or notYet while the row reads as nil (err, from reading
// it, comes first): the API queues the job inside its transaction, so the worker can be faster
// than the commit, and a retry sees the row.
func visible[T any](row *T, err, notYet error) (*T, error) {
	if err != nil {
		return nil, err
	}
	if row == nil {
		return nil, notYet
	}
	return row, nil
}

// storedWebhook passes on the stored webhook a job names (err, from reading it, comes first); one
// that does not exist can never be applied, so its job is not retried.
func storedWebhook[T any](wh *T, err error, what string, id int64) (*T, error) {
	if err != nil {
		return nil, err
	}
	if wh == nil {
		return nil, fmt.Errorf("%s %d does not exist: %w", what, id, asynq.SkipRetry)
	}
	return wh, nil
}
