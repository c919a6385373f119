package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeIssueCredential signs one reserved verifiable credential (SD-JWT VC).
const TypeIssueCredential = "credential:issue"

// IssueCredentialPayload names the reserved credential (credentials row).
type IssueCredentialPayload struct {
	CredentialID int64 `json:"credentialId"`
}

// NewIssueCredentialTask builds the signing on the critical queue (a person is waiting); its
// TaskID makes a second enqueue of the same credential a no-op.
func NewIssueCredentialTask(id int64) (*asynq.Task, error) {
	return newTask(TypeIssueCredential, IssueCredentialPayload{CredentialID: id}, asynq.Queue(QueueCritical), asynq.MaxRetry(10),
		asynq.Timeout(30*time.Second), asynq.TaskID(fmt.Sprintf("%s:%d", TypeIssueCredential, id)),
		asynq.Retention(time.Hour))
}

// TypeBuildStatusList signs the status list again from the credentials' revocations.
const TypeBuildStatusList = "credential:status_list"

// BuildStatusListPayload names the list and what asked for the build (a tick or an event).
type BuildStatusListPayload struct {
	ListID int    `json:"listId"`
	Reason string `json:"reason"`
}

// NewBuildStatusListTask builds one rebuild; a repeated reason (a scheduler tick) is a no-op.
// Rebuilding is idempotent: the list always comes from Postgres.
func NewBuildStatusListTask(listID int, reason string) (*asynq.Task, error) {
	return newTask(TypeBuildStatusList, BuildStatusListPayload{ListID: listID, Reason: reason}, asynq.Queue(QueueDefault), asynq.MaxRetry(10),
		asynq.Timeout(time.Minute), asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypeBuildStatusList, listID, reason)),
		asynq.Retention(10*time.Minute))
}

// StatusListURL is where a status list is served: the "uri" of every credential's status claim.
func StatusListURL(publicBaseURL string, listID int) string {
	return fmt.Sprintf("%s/api/credentials/status/%d", publicBaseURL, listID)
}
