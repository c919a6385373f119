package jobs

import (
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
	return newTickTask(TypeHeartbeat, tick, HeartbeatPayload{Tick: tick, Source: source}, 3, 30*time.Second)
}
