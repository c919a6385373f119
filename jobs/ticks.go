package jobs

import (
	"time"

	"github.com/hibiken/asynq"
)

// SchedulerTicksKey is the Redis hash in which the scheduler records, per entry of its table, the
// Unix time of the last tick it enqueued. The API reads it on every scrape of /metrics
// (perfilseguro_scheduler_last_tick_timestamp_seconds), so stopped ticks are seen without the
// scheduler serving metrics of its own.
const SchedulerTicksKey = "scheduler:last-tick"

// newTickTask builds the run of a periodic task for one scheduler tick, on the low queue. Its
// TaskID (type:tick) makes a second scheduler's enqueue of the same tick a no-op, and the task is
// kept two hours after it ends so that the TaskID stays taken for a late scheduler.
func newTickTask(typename, tick string, payload any, maxRetry int, timeout time.Duration) (*asynq.Task, error) {
	return newTask(typename, payload, asynq.Queue(QueueLow), asynq.MaxRetry(maxRetry), asynq.Timeout(timeout),
		asynq.TaskID(typename+":"+tick), asynq.Retention(2*time.Hour))
}
