package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeUpdateGoogleObject patches a person's saved Google Wallet object after their pass changed.
const TypeUpdateGoogleObject = "googlewallet:update"

// UpdateGoogleObjectPayload names the user and the build (its data hash) to bring to Google.
type UpdateGoogleObjectPayload struct {
	UserID   int64  `json:"userId"`
	DataHash string `json:"dataHash"`
}

// NewUpdateGoogleObjectTask builds the update of one build; a second enqueue of it is a no-op.
// Retried with asynq's backoff while Google is unreachable.
func NewUpdateGoogleObjectTask(p UpdateGoogleObjectPayload) (*asynq.Task, error) {
	return newTask(TypeUpdateGoogleObject, p, asynq.Queue(QueueDefault), asynq.MaxRetry(12),
		asynq.Timeout(time.Minute), asynq.Retention(time.Hour),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypeUpdateGoogleObject, p.UserID, p.DataHash)))
}

// TypeVoidDeletedPasses voids a deleted account's wallet passes (wallet_tombstones): a signed
// voided Apple pass for its devices, pushed to them, and its Google object made inactive.
const TypeVoidDeletedPasses = "wallet:void_deleted"

// VoidDeletedPassesPayload names the deleted profile (its ID is the passes' serial number).
type VoidDeletedPassesPayload struct {
	SerialNumber string `json:"serialNumber"`
}

// NewVoidDeletedPassesTask builds the voiding of one deleted account's passes.
func NewVoidDeletedPassesTask(serial string) (*asynq.Task, error) {
	return newTask(TypeVoidDeletedPasses, VoidDeletedPassesPayload{SerialNumber: serial}, asynq.Queue(QueueDefault), asynq.MaxRetry(12),
		asynq.Timeout(time.Minute), asynq.Retention(time.Hour),
		asynq.TaskID(TypeVoidDeletedPasses+":"+serial))
}

// TypeSweepWallet re-queues wallet work a lost enqueue left undone (voiding deleted accounts'
// passes, rebuilding passes older than their profile's lifecycle) and forgets old tombstones.
const TypeSweepWallet = "wallet:sweep"

// SweepWalletPayload names the scheduler tick that caused the run.
type SweepWalletPayload struct {
	Tick string `json:"tick"`
}

// NewSweepWalletTask builds the sweep for one tick (one per tick across schedulers).
func NewSweepWalletTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeSweepWallet, tick, SweepWalletPayload{Tick: tick}, 3, 10*time.Minute)
}
