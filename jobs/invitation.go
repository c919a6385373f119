package jobs

import (
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
	return newTask(TypeSendInvitation, p,
		asynq.Queue(QueueDefault), asynq.MaxRetry(20), asynq.Timeout(30*time.Second),
		asynq.Deadline(p.ExpiresAt),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypeSendInvitation, p.InvitationID, p.Via)),
		asynq.Retention(time.Hour))
}

// ExpireInvitationsPayload names the scheduler tick that caused the run.
type ExpireInvitationsPayload struct {
	Tick string `json:"tick"`
}

// NewExpireInvitationsTask builds the expiry run for one tick; its TaskID makes a second
// enqueue of the same tick a no-op.
func NewExpireInvitationsTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeExpireInvitations, tick, ExpireInvitationsPayload{Tick: tick}, 3, 10*time.Minute)
}
