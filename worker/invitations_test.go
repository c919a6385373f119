package worker_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// invitationWorker is a worker whose e-mail and WhatsApp go to the given fakes.
func invitationWorker(t *testing.T, db *sqlx.DB, mail perfilseguro.EmailSender, wa perfilseguro.WhatsAppSender) *worker.Worker {
	return newTestWorker(t, worker.Deps{DB: db, WhatsApp: wa, SMS: &recorder{}, Email: mail,
		Sealer: sealer, PublicBaseURL: "https://perfilseguro.test"})
}

// storedInvitation creates an inviter and a pending invitation, and returns its id.
func storedInvitation(t *testing.T, db *sqlx.DB, phone *string, expires time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	store := postgres.Store{DB: db}
	var id int64
	n := time.Now().UnixNano()
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		inviterPhone := fmt.Sprintf("+5255%08d", n%100_000_000)
		inviter, _, err := store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Ana López", Phone: &inviterPhone})
		if err != nil {
			return err
		}
		msg, company := "Te espero <b>pronto</b>", "Inmobiliaria Sol"
		id, err = store.InsertInvitation(ctx, tx, postgres.NewInvitation{InviterID: inviter, InviteeEmail: "carlos@example.com",
			InviteePhone: phone, InviteeName: "Carlos Ruiz", Type: postgres.InvitationClient, PersonalMessage: &msg,
			CompanyName: &company, ExpiresAt: expires}, func() (string, string) {
			return fmt.Sprintf("CODE%08d", n%100_000_000), secure.NewToken(32)
		})
		return err
	}))
	return id
}

func sendTask(t *testing.T, id int64, via string) *asynq.Task {
	task, err := jobs.NewSendInvitationTask(jobs.SendInvitationPayload{InvitationID: id, Via: via, ExpiresAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	return task
}

func TestInvitationGoesByEmailAndWhatsAppOnce(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail, wa := &mailbox{}, &recorder{}
	w := invitationWorker(t, db, mail, wa)
	phone := "+525512345678"
	id := storedInvitation(t, db, &phone, time.Now().Add(7*24*time.Hour))
	inv, err := (&postgres.Store{DB: db}).InvitationByID(context.Background(), id)
	require.NoError(t, err)

	for range 2 { // the second run is a duplicate: nothing more is sent
		require.NoError(t, w.Handler().ProcessTask(context.Background(), sendTask(t, id, jobs.ViaEmail)))
		require.NoError(t, w.Handler().ProcessTask(context.Background(), sendTask(t, id, jobs.ViaWhatsApp)))
	}
	require.Len(t, mail.mails, 1)
	require.Equal(t, []string{phone}, wa.sent)
	m := mail.mails[0]
	link := "https://perfilseguro.test/accept-invitation?token=" + inv.Token
	require.Equal(t, "carlos@example.com", m.To)
	require.Equal(t, "Ana López te invita a Perfil Seguro", m.Subject)
	for _, want := range []string{"Hola Carlos Ruiz", "Inmobiliaria Sol", "Te espero <b>pronto</b>", link, inv.Code} {
		require.Contains(t, m.Text, want)
	}
	require.Contains(t, m.HTML, "Te espero &lt;b&gt;pronto&lt;/b&gt;", "the personal message is escaped")
	require.Contains(t, m.HTML, `href="`+link+`"`)
	require.NotContains(t, m.HTML, "<b>pronto")
}

func TestInvitationDeliveryRetriesOnProviderFailure(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail := &mailbox{}
	mail.err = errors.New("smtp: connection refused")
	w := invitationWorker(t, db, mail, &recorder{})
	id := storedInvitation(t, db, nil, time.Now().Add(time.Hour))

	err := w.Handler().ProcessTask(context.Background(), sendTask(t, id, jobs.ViaEmail))
	require.Error(t, err)
	require.False(t, errors.Is(err, asynq.SkipRetry), "a temporary failure is retried")
	var sent *time.Time
	require.NoError(t, db.Get(&sent, `SELECT email_sent_at FROM invitations WHERE id = $1`, id))
	require.Nil(t, sent)

	mail.mu.Lock()
	mail.err = nil
	mail.mu.Unlock()
	require.NoError(t, w.Handler().ProcessTask(context.Background(), sendTask(t, id, jobs.ViaEmail)), "the retry")
	require.Len(t, mail.mails, 1)
	require.NoError(t, db.Get(&sent, `SELECT email_sent_at FROM invitations WHERE id = $1`, id))
	require.NotNil(t, sent)

	// A permanent WhatsApp failure is not retried.
	wa := &recorder{err: fmt.Errorf("not on whatsapp: %w", perfilseguro.ErrPermanent)}
	phone := "+525512345678"
	id2 := storedInvitation(t, db, &phone, time.Now().Add(time.Hour))
	err = invitationWorker(t, db, &mailbox{}, wa).Handler().ProcessTask(context.Background(), sendTask(t, id2, jobs.ViaWhatsApp))
	require.ErrorIs(t, err, asynq.SkipRetry)
}

func TestCancelledInvitationIsNotSent(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail := &mailbox{}
	w := invitationWorker(t, db, mail, &recorder{})
	id := storedInvitation(t, db, nil, time.Now().Add(time.Hour))
	_, err := db.Exec(`UPDATE invitations SET status = 'cancelled' WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), sendTask(t, id, jobs.ViaEmail)))
	require.Empty(t, mail.mails)

	// An invitation that was never committed is retried, then given up.
	err = w.Handler().ProcessTask(context.Background(), sendTask(t, 987654, jobs.ViaEmail))
	require.Error(t, err)
	require.False(t, errors.Is(err, asynq.SkipRetry))
}

func TestExpiryJobFlipsExactlyThePastDuePendingRows(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	w := invitationWorker(t, db, &mailbox{}, &recorder{})
	past, future := time.Now().Add(-time.Minute), time.Now().Add(time.Hour)
	want := map[int64]string{}
	for range 3 {
		want[storedInvitation(t, db, nil, past)] = "expired"
	}
	for range 2 {
		want[storedInvitation(t, db, nil, future)] = "pending"
	}
	for _, st := range []string{"accepted", "cancelled"} {
		id := storedInvitation(t, db, nil, past)
		_, err := db.Exec(`UPDATE invitations SET status = $2 WHERE id = $1`, id, st)
		require.NoError(t, err)
		want[id] = st
	}
	task, err := jobs.NewExpireInvitationsTask("invitation-expire:2026-01-01T00:00:00Z")
	require.NoError(t, err)
	for range 2 { // idempotent: the second run changes nothing
		require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
		var rows []struct {
			ID     int64  `db:"id"`
			Status string `db:"status"`
		}
		require.NoError(t, db.Select(&rows, `SELECT id, status FROM invitations`))
		got := map[int64]string{}
		for _, r := range rows {
			got[r.ID] = r.Status
		}
		require.Equal(t, want, got)
	}
}
