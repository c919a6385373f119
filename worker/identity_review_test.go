package worker_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/worker"
)

// The person is told what the review of their ID decided: validated, or declined with the
// reason; a decision not committed yet is retried and sends nothing.
func TestTheReviewOfAnIDIsToldToThePerson(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	approved, declined := f.user(t, 2), f.user(t, 2)
	va, vd := f.session(t, approved, "review-a"), f.session(t, declined, "review-d")
	_, err := f.db.Exec(`UPDATE verification_sessions SET identity_verdict = 'near' WHERE id IN ($1, $2)`, va, vd)
	require.NoError(t, err)

	task, err := jobs.NewSendIdentityReviewNoticeTask(vd)
	require.NoError(t, err)
	require.Error(t, f.run(t, task), "not resolved yet: retried")
	require.Empty(t, f.mail.mails)

	_, err = f.db.Exec(`UPDATE verification_sessions SET identity_resolution = 'declined', identity_resolved_at = now(),
		identity_resolution_reason = 'La foto no corresponde a la persona.' WHERE id = $1`, vd)
	require.NoError(t, err)
	require.NoError(t, f.run(t, task))
	require.Len(t, f.mail.mails, 1)
	u, err := f.store.UserByID(ctx, declined)
	require.NoError(t, err)
	m := f.mail.mails[0]
	require.Equal(t, *u.Email, m.To)
	require.Equal(t, worker.IdentityDeclinedSubject, m.Subject)
	require.Contains(t, m.Text, "Motivo: La foto no corresponde a la persona.")
	require.Contains(t, m.HTML, "La foto no corresponde a la persona.")
	require.Contains(t, m.Text, u.IDValidado)

	_, err = f.db.Exec(`UPDATE verification_sessions SET identity_resolution = 'approved', identity_resolved_at = now() WHERE id = $1`, va)
	require.NoError(t, err)
	require.NoError(t, f.run(t, lvTask(jobs.NewSendIdentityReviewNoticeTask(va))))
	require.Len(t, f.mail.mails, 2)
	a, err := f.store.UserByID(ctx, approved)
	require.NoError(t, err)
	m = f.mail.mails[1]
	require.Equal(t, *a.Email, m.To)
	require.Equal(t, worker.IdentityApprovedSubject, m.Subject)
	require.Contains(t, m.Text, a.Nombre)
	require.NotContains(t, m.Text, "Motivo")

	// An adoption by the person is not a review: no e-mail from this job.
	_, err = f.db.Exec(`UPDATE verification_sessions SET identity_resolution = 'adopted' WHERE id = $1`, va)
	require.NoError(t, err)
	require.Error(t, f.run(t, lvTask(jobs.NewSendIdentityReviewNoticeTask(va))))
	require.Len(t, f.mail.mails, 2)
}
