package worker

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// handleHeartbeat records each tick once and counts its runs (more than one: it was enqueued twice).
func (w *Worker) handleHeartbeat(ctx context.Context, t *asynq.Task) error {
	var p jobs.HeartbeatPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.Tick == "" {
		return fmt.Errorf("heartbeat payload %q: %w", t.Payload(), asynq.SkipRetry)
	}
	const q = `INSERT INTO job_heartbeats (tick, source) VALUES ($1, $2) ON CONFLICT (tick) DO UPDATE SET runs = job_heartbeats.runs + 1`
	if _, err := w.deps.DB.ExecContext(ctx, q, p.Tick, p.Source); err != nil {
		return fmt.Errorf("record heartbeat %s: %w", p.Tick, err)
	}
	return nil
}
