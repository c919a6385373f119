package jobs

import (
	"encoding/json"
	"time"

	"github.com/hibiken/asynq"
)

// TypeHeartbeat records that the pipeline (enqueuer → Redis → worker → Postgres) works.
const TypeHeartbeat = "system:heartbeat"

// HeartbeatPayload names the tick (scheduler minute or request id) that caused the run.
type HeartbeatPayload struct {
	Tick   string `json:"tick"`
	Source string `json:"source"` // "scheduler" or "api"
}

// NewHeartbeatTask builds a heartbeat for one tick; its TaskID makes a second enqueue of the same tick a no-op.
func NewHeartbeatTask(tick, source string) (*asynq.Task, error) {
	b, err := json.Marshal(HeartbeatPayload{Tick: tick, Source: source})
	if err != nil {
		return nil, err
	}
	return newTask(TypeHeartbeat, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(30*time.Second),
		asynq.TaskID(TypeHeartbeat+":"+tick),
		// Kept after completion so the TaskID stays taken for a late second scheduler.
		asynq.Retention(2*time.Hour)), nil
}
