package worker_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/worker"
)

// One ID, one profile (issue 52): a second account presenting the INE that certifies a first
// profile gets no level 3, the check records whose document it is, and the first profile's owner
// is told by e-mail, without naming the other account.
func TestASecondAccountWithTheSameIDIsRefusedAndTheOwnerTold(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	owner, other := f.user(t, 2), f.user(t, 2)
	f.session(t, owner, "first")
	f.provider.decide("first", "Approved", fmt.Sprint(owner))
	require.NoError(t, f.run(t, lvTask(jobs.NewSyncBiometricSessionTask("first"))))
	level, _ := f.level(t, owner)
	require.Equal(t, 3, level)

	// The other account shows the owner's INE (same CURP), with its own vendor data.
	vid := f.session(t, other, "second")
	f.provider.mu.Lock()
	f.provider.bodies["second"] = `{"session_id":"second","status":"Approved","vendor_data":"` + fmt.Sprint(other) + `",
		"face_matches":[{"status":"Approved","score":91.5}],"id_verifications":[` + lvDocumentReport(fmt.Sprint(owner)) + `]}`
	f.provider.mu.Unlock()
	before := len(f.queue.types())
	require.NoError(t, f.run(t, lvTask(jobs.NewSyncBiometricSessionTask("second"))))
	level, bio := f.level(t, other)
	require.Equal(t, 2, level, "no level 3 for a document that certifies another profile")
	require.False(t, bio)
	var verdict string
	var dup int64
	require.NoError(t, f.db.QueryRow(`SELECT identity_verdict, duplicate_of FROM verification_sessions WHERE id = $1`, vid).Scan(&verdict, &dup))
	require.Equal(t, "duplicate", verdict)
	require.Equal(t, owner, dup)
	queued := f.queue.types()[before:]
	require.Equal(t, []string{jobs.TypeSendDocumentBoundNotice}, queued, "no pass builds, one notice")

	// The notice goes to the owner's e-mail and says what happened, not who.
	require.NoError(t, f.run(t, f.queue.tasks[len(f.queue.tasks)-1]))
	require.Len(t, f.mail.mails, 1)
	u, err := f.store.UserByID(ctx, owner)
	require.NoError(t, err)
	m := f.mail.mails[0]
	require.Equal(t, *u.Email, m.To)
	require.Equal(t, worker.DocumentBoundSubject, m.Subject)
	require.Contains(t, m.Text, u.IDValidado)
	require.Contains(t, m.Text, "una identificación valida un solo perfil")
	o, err := f.store.UserByID(ctx, other)
	require.NoError(t, err)
	require.NotContains(t, m.Text, o.IDValidado, "the other account is not named")
	require.NotContains(t, m.Text, *o.Email)
}

// A refused check whose owner deleted their account sends nothing (and does not retry forever).
func TestNoDocumentBoundNoticeForAnOwnerWhoLeft(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	owner, other := f.user(t, 2), f.user(t, 2)
	vid := f.session(t, other, "x")
	_, err := f.db.Exec(`UPDATE verification_sessions SET identity_verdict = 'duplicate', duplicate_of = $2 WHERE id = $1`, vid, owner)
	require.NoError(t, err)
	_, err = f.db.Exec(`DELETE FROM users WHERE id = $1`, owner)
	require.NoError(t, err)
	task, err := jobs.NewSendDocumentBoundNoticeTask(vid)
	require.NoError(t, err)
	require.Error(t, f.run(t, task), "not visible: retried while attempts remain")
	require.Empty(t, f.mail.mails)
}

// The provider is told the registered name, split as Mexicans write it, to compare on its side.
func TestTheProviderIsToldTheRegisteredName(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	uid := f.user(t, 2)
	_, err := f.db.Exec(`UPDATE users SET nombre = 'Jorge de la Garza Treviño' WHERE id = $1`, uid)
	require.NoError(t, err)
	var vid int64
	require.NoError(t, f.store.InTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		vid, err = f.store.InsertVerificationSession(context.Background(), tx, uid, "didit", "test")
		return err
	}))
	require.NoError(t, f.run(t, lvTask(jobs.NewStartBiometricSessionTask(vid))))
	f.provider.mu.Lock()
	defer f.provider.mu.Unlock()
	require.Len(t, f.provider.created, 1)
	require.Equal(t, "Jorge", f.provider.created[0].ExpectedGivenNames)
	require.Equal(t, "de la Garza Treviño", f.provider.created[0].ExpectedSurnames)
}
