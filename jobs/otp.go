package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendOTP delivers a one-time code: WhatsApp with SMS fallback, or e-mail.
const TypeSendOTP = "otp:send"

// Delivery routes for a code.
const (
	ViaWhatsApp = "whatsapp" // falls back to SMS on a permanent WhatsApp failure
	ViaEmail    = "email"
)

// SendOTPPayload names the stored code and where it goes. The code travels sealed
// (secure.Sealer), never in clear.
type SendOTPPayload struct {
	CodeID      int64     `json:"codeId"`
	Channel     string    `json:"channel"` // table: phone or email (postgres.Channel*)
	Via         string    `json:"via"`     // ViaWhatsApp or ViaEmail
	Destination string    `json:"destination"`
	SealedCode  string    `json:"sealedCode"`
	ExpiresAt   time.Time `json:"expiresAt"`
	// CommittedAt is set when the code was committed before the job was queued (sign-in), to
	// when; zero when the job was queued inside the code's transaction (registration).
	CommittedAt time.Time `json:"committedAt,omitzero"`
	// TestPartner: the code is a test person's of that partner; the development inbox delivers it
	// (tagged for the partner's console), even in production. Zero (or absent, from an older
	// binary): a live person.
	TestPartner int64 `json:"testPartner,omitzero"`
}

// NewSendOTPTask builds the delivery on the critical queue; the TaskID stops double sends and
// the deadline stops retries once the code has expired.
func NewSendOTPTask(p SendOTPPayload) (*asynq.Task, error) {
	return newTask(TypeSendOTP, p,
		asynq.Queue(QueueCritical), asynq.MaxRetry(25), asynq.Timeout(30*time.Second),
		asynq.Deadline(p.ExpiresAt),
		asynq.TaskID(fmt.Sprintf("%s:%s:%d:%s", TypeSendOTP, p.Channel, p.CodeID, p.Via)),
		asynq.Retention(15*time.Minute))
}
