package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypeSendAccountChangeNotice tells a person, at the contact they had before, that their e-mail,
// phone or name changed, with the undo link when the change can be undone (issue 54).
const TypeSendAccountChangeNotice = "account:change_notice"

// SendAccountChangeNoticePayload names the stored change; the worker reads where to write and
// the sealed undo token from Postgres, so no contact sits in Redis.
type SendAccountChangeNoticePayload struct {
	ChangeID int64 `json:"changeId"`
}

// NewSendAccountChangeNoticeTask builds the notice on the default queue. It is queued inside the
// change's transaction, so the handler retries while the change is not visible yet; the TaskID
// makes a second enqueue of one change a no-op.
func NewSendAccountChangeNoticeTask(changeID int64) (*asynq.Task, error) {
	return newTask(TypeSendAccountChangeNotice, SendAccountChangeNoticePayload{ChangeID: changeID},
		asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendAccountChangeNotice, changeID)), asynq.Retention(time.Hour))
}

// TypeSendPasskeyAddedNotice tells a person, at their current contact, that a passkey was added
// to their account (issue 54, item 21): a passkey signs in and confirms contact changes.
const TypeSendPasskeyAddedNotice = "account:passkey_notice"

// SendPasskeyAddedNoticePayload names the person and the passkey; the worker reads where to write
// from Postgres, so no contact sits in Redis.
type SendPasskeyAddedNoticePayload struct {
	UserID       int64     `json:"userId"`
	CredentialID int64     `json:"credentialId"`
	Name         string    `json:"name"` // the passkey's name as Mi Perfil lists it
	AddedAt      time.Time `json:"addedAt"`
}

// NewSendPasskeyAddedNoticeTask builds the notice on the default queue; the TaskID makes a second
// enqueue for one passkey a no-op.
func NewSendPasskeyAddedNoticeTask(p SendPasskeyAddedNoticePayload) (*asynq.Task, error) {
	return newTask(TypeSendPasskeyAddedNotice, p, asynq.Queue(QueueDefault), asynq.MaxRetry(12), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d", TypeSendPasskeyAddedNotice, p.CredentialID)), asynq.Retention(time.Hour))
}
