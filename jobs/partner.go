package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Partner task types.
const (
	TypePartnerNotify     = "partner:notify"      // POST one stored notification to a partner
	TypePartnerDispatch   = "partner:dispatch"    // periodic: enqueue due notifications
	TypePartnerFlushUsage = "partner:flush_usage" // periodic: move request counts from Redis to Postgres
)

// PartnerNotifyPayload names the stored delivery (partner_deliveries) and which attempt this is.
type PartnerNotifyPayload struct {
	DeliveryID int64 `json:"deliveryId"`
	Attempt    int   `json:"attempt"`
}

// NewPartnerNotifyTask builds one delivery attempt; the TaskID makes a second dispatch of the same attempt a no-op.
func NewPartnerNotifyTask(deliveryID int64, attempt int) (*asynq.Task, error) {
	// Retries are scheduled by the outbox (next_attempt_at), not by asynq.
	return newTask(TypePartnerNotify, PartnerNotifyPayload{DeliveryID: deliveryID, Attempt: attempt}, asynq.Queue(QueueDefault), asynq.MaxRetry(0),
		asynq.Timeout(20*time.Second), asynq.TaskID(fmt.Sprintf("%s:%d:%d", TypePartnerNotify, deliveryID, attempt)),
		asynq.Retention(time.Hour))
}

// NewPartnerDispatchTask is the periodic sweep of due notifications for one tick.
func NewPartnerDispatchTask(tick string) (*asynq.Task, error) {
	return newTask(TypePartnerDispatch, nil, asynq.Queue(QueueLow), asynq.MaxRetry(1),
		asynq.TaskID(TypePartnerDispatch+":"+tick), asynq.Retention(10*time.Minute))
}

// NewPartnerFlushUsageTask moves batched partner request counts into Postgres for one tick.
func NewPartnerFlushUsageTask(tick string) (*asynq.Task, error) {
	return newTask(TypePartnerFlushUsage, nil, asynq.Queue(QueueLow), asynq.MaxRetry(3),
		asynq.TaskID(TypePartnerFlushUsage+":"+tick), asynq.Retention(10*time.Minute))
}

// PartnerUsageKey is the Redis hash of partner id → requests not yet flushed to Postgres.
// The hash tag {usage} keeps it and its ":flushing" copy in one Redis Cluster slot (RENAME).
const PartnerUsageKey = "partner:{usage}"
