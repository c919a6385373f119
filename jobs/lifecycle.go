package jobs

import (
	"encoding/json"
	"time"

	"github.com/hibiken/asynq"
)

// TypeExpireProfiles records the expiry of every profile whose validity ended.
const TypeExpireProfiles = "profile:expire"

// ExpireProfilesPayload names the scheduler tick that caused the run.
type ExpireProfilesPayload struct {
	Tick string `json:"tick"`
}

// NewExpireProfilesTask builds the expiry run for one tick; its TaskID makes a second enqueue of
// the same tick (another scheduler) a no-op.
func NewExpireProfilesTask(tick string) (*asynq.Task, error) {
	b, err := json.Marshal(ExpireProfilesPayload{Tick: tick})
	if err != nil {
		return nil, err
	}
	return newTask(TypeExpireProfiles, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(10*time.Minute),
		asynq.TaskID(TypeExpireProfiles+":"+tick), asynq.Retention(2*time.Hour)), nil
}
