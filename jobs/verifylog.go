package jobs

import (
	"errors"
	"time"

	"github.com/hibiken/asynq"
)

// TypeVerifyLog records one public verification lookup in verification_logs, off the response path.
const TypeVerifyLog = "verify:log"

// Access types recorded in verification_logs.access_type.
const (
	AccessPublicPage = "public_page" // GET /api/verify/{profileId}
	AccessPartnerAPI = "partner_api" // GET /api/widget/verify (a partner's key)
)

// VerifyLogEntry is one lookup as the API saw it. RequestID is unique per lookup and becomes
// verification_logs.request_id, so a retried or duplicated task writes each row once.
type VerifyLogEntry struct {
	RequestID  string    `json:"requestId"`
	UserID     *int64    `json:"userId,omitempty"` // nil when no profile matched
	IDValidado string    `json:"idValidado"`
	ScannedAt  time.Time `json:"scannedAt"`
	IP         string    `json:"ip"`
	UserAgent  string    `json:"userAgent"`
	AccessType string    `json:"accessType"`
	Granted    bool      `json:"granted"`
	Reason     string    `json:"reason,omitempty"`
	PartnerID  *int64    `json:"partnerId,omitempty"` // the partner that looked (partner_api)
	// HTTPRequestID is the X-Request-Id of the lookup, kept to correlate with access logs.
	HTTPRequestID string `json:"httpRequestId,omitempty"`
}

// VerifyLogPayload carries the lookups the API gathered in a few milliseconds (one Redis write
// for many lookups under load; one entry when idle).
type VerifyLogPayload struct {
	Entries []VerifyLogEntry `json:"entries"`
}

// MaxVerifyLogBatch caps the lookups of one task.
const MaxVerifyLogBatch = 200

// NewVerifyLogTask builds the logging job on the low queue; its TaskID is the first lookup's id.
func NewVerifyLogTask(entries ...VerifyLogEntry) (*asynq.Task, error) {
	if len(entries) == 0 || len(entries) > MaxVerifyLogBatch {
		return nil, errors.New("verify log: 1 to MaxVerifyLogBatch entries")
	}
	for _, e := range entries {
		if e.RequestID == "" {
			return nil, errors.New("verify log: missing request id")
		}
	}
	return newTask(TypeVerifyLog, VerifyLogPayload{Entries: entries},
		asynq.Queue(QueueLow), asynq.MaxRetry(20), asynq.Timeout(30*time.Second),
		asynq.TaskID(TypeVerifyLog+":"+entries[0].RequestID))
}
