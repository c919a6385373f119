package jobs

import (
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
	return newTickTask(TypeExpireProfiles, tick, ExpireProfilesPayload{Tick: tick}, 3, 10*time.Minute)
}
