package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendEmailVerification delivers the level-2 e-mail verification link.
const TypeSendEmailVerification = "email:send_verification"

// SendEmailVerificationPayload names the stored token; the token itself travels sealed
// (secure.Sealer) because only its hash is in Postgres and the link needs it in clear.
type SendEmailVerificationPayload struct {
	TokenID     int64     `json:"tokenId"`
	SealedToken string    `json:"sealedToken"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// NewSendEmailVerificationTask builds the delivery on the default queue; the TaskID stops
// double sends of one token and the deadline stops retries once the link has expired.
func NewSendEmailVerificationTask(p SendEmailVerificationPayload) (*asynq.Task, error) {
	return newTask(TypeSendEmailVerification, p,
		asynq.Queue(QueueDefault), asynq.MaxRetry(20), asynq.Timeout(30*time.Second),
		asynq.Deadline(p.ExpiresAt),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendEmailVerification, p.TokenID)),
		asynq.Retention(time.Hour))
}
