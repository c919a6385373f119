package jobs

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/hibiken/asynq"
)

// TypeVerifyLog records one public verification lookup in verification_logs, off the response path.
const TypeVerifyLog = "verify:log"

// Access types recorded in verification_logs.access_type.
const (
	AccessPublicPage = "public_page" // GET /api/verify/{profileId}
)

// VerifyLogPayload is one lookup as the API saw it. RequestID is unique per lookup: it is the
// TaskID and verification_logs.request_id, so a retried or duplicated task writes one row.
type VerifyLogPayload struct {
	RequestID  string    `json:"requestId"`
	UserID     *int64    `json:"userId,omitempty"` // nil when no profile matched
	IDValidado string    `json:"idValidado"`
	ScannedAt  time.Time `json:"scannedAt"`
	IP         string    `json:"ip"`
	UserAgent  string    `json:"userAgent"`
	AccessType string    `json:"accessType"`
	Granted    bool      `json:"granted"`
	Reason     string    `json:"reason,omitempty"`
	// HTTPRequestID is the X-Request-Id of the lookup, kept to correlate with access logs.
	HTTPRequestID string `json:"httpRequestId,omitempty"`
}

// NewVerifyLogTask builds the logging job on the low queue, deduplicated by RequestID.
func NewVerifyLogTask(p VerifyLogPayload) (*asynq.Task, error) {
	if p.RequestID == "" {
		return nil, errors.New("verify log: missing request id")
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return asynq.NewTask(TypeVerifyLog, b,
		asynq.Queue(QueueLow), asynq.MaxRetry(20), asynq.Timeout(30*time.Second),
		asynq.TaskID(TypeVerifyLog+":"+p.RequestID)), nil
}
