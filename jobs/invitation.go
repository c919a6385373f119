package jobs

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendInvitation delivers one invitation on one channel (e-mail, or WhatsApp when the
// invitee's phone is known).
const TypeSendInvitation = "invitation:send"

// TypeExpireInvitations marks every pending invitation past its expiry as expired.
const TypeExpireInvitations = "invitation:expire"

// SendInvitationPayload names the stored invitation and the channel; the worker reads the rest
// from Postgres, so a cancelled invitation is never sent.
type SendInvitationPayload struct {
	InvitationID int64     `json:"invitationId"`
	Via          string    `json:"via"` // ViaEmail or ViaWhatsApp
	ExpiresAt    time.Time `json:"expiresAt"`
}

// NewSendInvitationTask builds the delivery on the default queue; the TaskID stops double
// sends per channel and the deadline stops retries once the invitation has expired.
func NewSendInvitationTask(p SendInvitationPayload) (*asynq.Task, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return newTask(TypeSendInvitation, b,
		asynq.Queue(QueueDefault), asynq.MaxRetry(20), asynq.Timeout(30*time.Second),
		asynq.Deadline(p.ExpiresAt),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypeSendInvitation, p.InvitationID, p.Via)),
		asynq.Retention(time.Hour)), nil
}

// ExpireInvitationsPayload names the scheduler tick that caused the run.
type ExpireInvitationsPayload struct {
	Tick string `json:"tick"`
}

// NewExpireInvitationsTask builds the expiry run for one tick; its TaskID makes a second
// enqueue of the same tick a no-op.
func NewExpireInvitationsTask(tick string) (*asynq.Task, error) {
	b, err := json.Marshal(ExpireInvitationsPayload{Tick: tick})
	if err != nil {
		return nil, err
	}
	return newTask(TypeExpireInvitations, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(10*time.Minute),
		asynq.TaskID(TypeExpireInvitations+":"+tick),
		asynq.Retention(2*time.Hour)), nil
}
