package jobs

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeSyncAMLAvisos writes, once a day, the LFPIORPI avisos every business owes in each mode
// (postgres.SyncAMLAvisos: umbral per aviso-required operation, sin_operaciones per complete
// month without one), so the deadlines stand even when nobody opens the list. Idempotent.
const TypeSyncAMLAvisos = "aml:sync_avisos"

// SyncAMLAvisosPayload names the scheduler's tick.
type SyncAMLAvisosPayload struct {
	Tick string `json:"tick"`
}

// NewSyncAMLAvisosTask builds the daily sync for one scheduler tick, on the low queue.
func NewSyncAMLAvisosTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeSyncAMLAvisos, tick, SyncAMLAvisosPayload{Tick: tick}, 3, 10*time.Minute)
}
