package jobs

import (
	"encoding/json"
	"time"

	"github.com/hibiken/asynq"
)

// Wallet pass builds. Building is idempotent (the stored data_hash decides whether anything
// changed), so the tasks carry no TaskID and may run any number of times.
const (
	TypeBuildApplePass  = "wallet:build_apple"  // (re)build the user's signed .pkpass
	TypeBuildGooglePass = "wallet:build_google" // (re)build the user's Google Wallet save link
)

// WalletPayload names the user whose pass is (re)built.
type WalletPayload struct {
	UserID int64 `json:"userId"`
}

// NewBuildApplePassTask builds the Apple Wallet pass job for a user on the default queue.
func NewBuildApplePassTask(userID int64) (*asynq.Task, error) {
	return newWalletTask(TypeBuildApplePass, userID)
}

// NewBuildGooglePassTask builds the Google Wallet pass job for a user on the default queue.
func NewBuildGooglePassTask(userID int64) (*asynq.Task, error) {
	return newWalletTask(TypeBuildGooglePass, userID)
}

func newWalletTask(typ string, userID int64) (*asynq.Task, error) {
	b, err := json.Marshal(WalletPayload{UserID: userID})
	if err != nil {
		return nil, err
	}
	return asynq.NewTask(typ, b,
		asynq.Queue(QueueDefault), asynq.MaxRetry(10), asynq.Timeout(time.Minute)), nil
}
