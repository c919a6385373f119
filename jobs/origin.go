package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeOriginProof checks that a partner controls its origin (a DNS TXT record or the
// /.well-known file with its token) and records the result for its console.
const TypeOriginProof = "partner:origin_proof"

// OriginProofPayload names the partner and the origin to prove (a check of an origin the partner
// has since changed records nothing).
type OriginProofPayload struct {
	PartnerID int64  `json:"partnerId"`
	Origin    string `json:"origin"`
}

// NewOriginProofTask checks one partner's origin once; a second request within a minute is the
// same task (its TaskID), so a console cannot make the worker fetch in a loop.
func NewOriginProofTask(partnerID int64, origin string, now time.Time) (*asynq.Task, error) {
	return newTask(TypeOriginProof, OriginProofPayload{PartnerID: partnerID, Origin: origin}, asynq.Queue(QueueLow),
		asynq.MaxRetry(0), asynq.Timeout(30*time.Second), asynq.Retention(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%d:%d", TypeOriginProof, partnerID, now.Unix()/60)))
}
