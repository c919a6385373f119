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

// TypeAMLSweep queues the screening of operations whose people were never screened (their
// recording could not queue it: Redis was down). Postgres is the truth; the sweep catches up.
const TypeAMLSweep = "aml:sweep"

// AMLSweepPayload names the scheduler tick that caused the run.
type AMLSweepPayload struct {
	Tick string `json:"tick"`
}

// NewAMLSweepTask builds the sweep for one tick (one per tick across schedulers).
func NewAMLSweepTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeAMLSweep, tick, AMLSweepPayload{Tick: tick}, 3, 5*time.Minute)
}

// TypeAMLNotifyHits tells a business, once, that it has new possible hits to review: an e-mail
// to its cumplimiento and propietario users saying how many, with a link to the console, and
// nothing about the people or the lists' entries. The hits are then marked notified.
const TypeAMLNotifyHits = "aml:notify_hits"

// AMLNotifyHitsPayload names the business and the mode (a test mode's notice goes to the test
// inbox).
type AMLNotifyHitsPayload struct {
	PartnerID int64 `json:"partnerId"`
	TestMode  bool  `json:"testMode"`
}

// NewAMLNotifyHitsTask builds the notice on the default queue; the TaskID keeps a second copy
// out while one is queued (the hits it finds are marked, so a later run tells only newer ones).
func NewAMLNotifyHitsTask(partnerID int64, testMode bool) (*asynq.Task, error) {
	return newTask(TypeAMLNotifyHits, AMLNotifyHitsPayload{PartnerID: partnerID, TestMode: testMode},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%d:%t", TypeAMLNotifyHits, partnerID, testMode)))
}

// AMLRescreenReason names the re-screen after a list's new version (screening_list_versions.id):
// the UN import and list uploads queue NewAMLRescreenTask(AMLRescreenReason(versionID)), and the
// sweep queues it again for a version whose run never started (its enqueue was lost).
func AMLRescreenReason(versionID int64) string { return fmt.Sprintf("version-%d", versionID) }
