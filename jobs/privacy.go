package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeBuildDataExport builds a person's data export (ZIP) and e-mails them its link.
const TypeBuildDataExport = "privacy:build_export"

// BuildDataExportPayload names the data_exports row (which holds the link's token, sealed,
// until it is e-mailed): nothing personal sits in Redis.
type BuildDataExportPayload struct {
	ExportID  int64     `json:"exportId"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// NewBuildDataExportTask builds the export job; the TaskID makes a duplicate a no-op and the
// deadline stops retries once the link would have expired.
func NewBuildDataExportTask(p BuildDataExportPayload) (*asynq.Task, error) {
	return newTask(TypeBuildDataExport, p,
		asynq.Queue(QueueDefault), asynq.MaxRetry(10), asynq.Timeout(2*time.Minute), asynq.Deadline(p.ExpiresAt),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeBuildDataExport, p.ExportID)), asynq.Retention(time.Hour))
}

// TypeApplyRetention deletes what the privacy notice keeps for a limited time.
const TypeApplyRetention = "privacy:retention"

// ApplyRetentionPayload names the scheduler tick that caused the run.
type ApplyRetentionPayload struct {
	Tick string `json:"tick"`
}

// NewApplyRetentionTask builds the retention run for one tick (one per tick across schedulers).
func NewApplyRetentionTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeApplyRetention, tick, ApplyRetentionPayload{Tick: tick}, 3, 10*time.Minute)
}
