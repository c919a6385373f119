package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeRecordReminders records the renewal reminders that are due and queues their deliveries.
const TypeRecordReminders = "profile:remind"

// RecordRemindersPayload names the scheduler tick that caused the run.
type RecordRemindersPayload struct {
	Tick string `json:"tick"`
}

// NewRecordRemindersTask builds the reminder run for one tick (one per tick across schedulers).
func NewRecordRemindersTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeRecordReminders, tick, RecordRemindersPayload{Tick: tick}, 3, 10*time.Minute)
}

// TypeSendReminder delivers one recorded reminder (expiry_reminders row) on its channel.
const TypeSendReminder = "reminder:send"

// SendReminderPayload names the reminder; the worker reads who and where from Postgres, so no
// contact or name sits in Redis.
type SendReminderPayload struct {
	ReminderID int64 `json:"reminderId"`
}

// NewSendReminderTask builds a delivery; its TaskID makes the re-queue of a reminder that is
// still waiting or retrying (the next run of profile:remind) a no-op.
func NewSendReminderTask(reminderID int64) (*asynq.Task, error) {
	return newTask(TypeSendReminder, SendReminderPayload{ReminderID: reminderID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendReminder, reminderID)), asynq.Retention(6*time.Hour))
}
