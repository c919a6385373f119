package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeAMLScreenOperation screens the people of one recorded operation (and the beneficiaries
// they declared) against the lists the business may see in the operation's mode, and records
// the screenings and possible hits (issue 53, amlscreen). Queued when the operation is recorded
// and by the scheduler's sweep for people never screened; running it twice adds nothing.
const TypeAMLScreenOperation = "aml:screen_operation"

// AMLScreenOperationPayload names the operation; the worker reads its people from Postgres, so
// nothing personal sits in Redis.
type AMLScreenOperationPayload struct {
	OperationID string `json:"operationId"`
}

// NewAMLScreenOperationTask builds the screening on the default queue. The TaskID keeps a second
// copy out while one is queued (the sweep and the recording may both queue it).
func NewAMLScreenOperationTask(operationID string) (*asynq.Task, error) {
	return newTask(TypeAMLScreenOperation, AMLScreenOperationPayload{OperationID: operationID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(2*time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%s", TypeAMLScreenOperation, operationID)), asynq.Retention(10*time.Minute))
}

// TypeAMLRescreen re-screens every operation person (and declared beneficiary) whose file is
// still within its retention, after a list got a new version; only new hits are added and the
// businesses with new candidates are told once. It runs in batches and resumes where it stopped.
const TypeAMLRescreen = "aml:rescreen"

// AMLRescreenPayload says why the re-screen runs (e.g. "lista 12 versión 3"); it names the run,
// so two imports queue two runs and a retry of one run resumes it.
type AMLRescreenPayload struct {
	Reason string `json:"reason"`
}

// NewAMLRescreenTask builds the re-screen on the low queue: it is background work that must not
// delay what users wait for. The TaskID (per reason) makes a second enqueue of one run a no-op.
func NewAMLRescreenTask(reason string) (*asynq.Task, error) {
	return newTask(TypeAMLRescreen, AMLRescreenPayload{Reason: reason},
		asynq.Queue(QueueLow), asynq.MaxRetry(10), asynq.Timeout(time.Hour),
		asynq.TaskID(fmt.Sprintf("%s:%s", TypeAMLRescreen, reason)), asynq.Retention(time.Hour))
}
