package jobs

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeImportUNList imports the UN Security Council Consolidated List as a new screening list
// version when it changed (issue 53; screening.ImportUNList). The scheduler queues it
// periodically with the configured UN_LIST_SOURCE.
const TypeImportUNList = "screening:import_un_list"

// ImportUNListPayload names where the list is read from: a file path, an http(s) URL or
// screening.FixtureSource. Public data only: nothing personal is in it.
type ImportUNListPayload struct {
	Source string `json:"source"`
}

// NewImportUNListTask builds the import on the low queue. A duplicate is harmless (an identical
// file adds no version), so the TaskID only spares a second download while one is queued.
func NewImportUNListTask(source string) (*asynq.Task, error) {
	return newTask(TypeImportUNList, ImportUNListPayload{Source: source},
		asynq.Queue(QueueLow), asynq.MaxRetry(5), asynq.Timeout(10*time.Minute),
		asynq.TaskID(TypeImportUNList), asynq.Retention(time.Hour))
}
