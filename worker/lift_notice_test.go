package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/worker"
)

// liftedPerson creates a person (a partner's test person when testPartner is set, no e-mail when
// email is empty), revokes and lifts their validation, and returns the person and the lift event.
func liftedPerson(t *testing.T, db *sqlx.DB, email string, testPartner int64) (userID int64, eventID int64) {
	t.Helper()
	ctx := context.Background()
	store := &postgres.Store{DB: db}
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	var mail *string
	if email != "" {
		mail = &email
	}
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		userID, _, err = store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Rebeca Soto", Email: mail, Phone: &phone, TestPartner: testPartner})
		return err
	}))
	_, err := db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = now() WHERE id = $1`, userID)
	require.NoError(t, err)
	_, err = store.Revoke(ctx, postgres.Revocation{UserID: userID, Reason: "Documento robado"})
	require.NoError(t, err)
	_, err = store.LiftRevocation(ctx, postgres.RevocationLift{UserID: userID, Reason: "Documento aclarado.",
		Then: func(_ *sqlx.Tx, id int64) error { eventID = id; return nil }})
	require.NoError(t, err)
	return userID, eventID
}

func TestTheLiftNoticeTellsThePersonOnceByEmail(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail, sms := &recorder{}, &recorder{}
	w := newTestWorker(t, worker.Deps{DB: db, Email: mail, SMS: sms, WhatsApp: &recorder{},
		PublicBaseURL: "https://perfilseguro.example"})
	_, event := liftedPerson(t, db, "rebeca.lift@example.com", 0)
	task, err := jobs.NewSendLiftNoticeTask(event)
	require.NoError(t, err)

	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task), "a retry or a duplicate")
	require.Equal(t, 1, mail.count(), "told once")
	require.Zero(t, sms.count())
	sent := mail.sent[0]
	require.Contains(t, sent, "rebeca.lift@example.com|Levantamos la revocación de tu Perfil Seguro|")
	require.Contains(t, sent, "Motivo: Documento aclarado.\n", "one period, not two")
	require.Contains(t, sent, "https://perfilseguro.example/profile")
	require.Contains(t, sent, "Tu validación anterior no se restablece")
	var told bool
	require.NoError(t, db.Get(&told, `SELECT notified_at IS NOT NULL FROM profile_events WHERE id = $1`, event))
	require.True(t, told)
}

func TestTheLiftNoticeReachesTestPeopleInTheInboxAndOthersBySMS(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail, sms := &recorder{}, &recorder{}
	w := newTestWorker(t, worker.Deps{DB: db, Email: mail, SMS: sms, WhatsApp: &recorder{},
		TestInbox: func(p int64) worker.TestInbox { return devsim.Inbox{DB: db, TestPartner: p} }})
	partner := widgetPartner(t, db)

	// A partner's test person: the development inbox, tagged with the partner; never a provider.
	_, event := liftedPerson(t, db, "prueba.lift@example.com", partner)
	task, err := jobs.NewSendLiftNoticeTask(event)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Zero(t, mail.count())
	var tagged int64
	require.NoError(t, db.Get(&tagged, `SELECT test_partner_id FROM dev_messages WHERE recipient = 'prueba.lift@example.com'
		AND subject = 'Levantamos la revocación de tu Perfil Seguro'`))
	require.Equal(t, partner, tagged)

	// No e-mail: an SMS.
	_, event = liftedPerson(t, db, "", 0)
	task, err = jobs.NewSendLiftNoticeTask(event)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, sms.count())
	require.Contains(t, sms.sent[0], "levantamos la revocación de tu perfil PS-")

	// Revoked again before the notice went out: nothing is said, and it is not tried again.
	user, event := liftedPerson(t, db, "otra.vez@example.com", 0)
	_, err = (&postgres.Store{DB: db}).Revoke(context.Background(), postgres.Revocation{UserID: user, Reason: "Fraude"})
	require.NoError(t, err)
	task, err = jobs.NewSendLiftNoticeTask(event)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Zero(t, mail.count())
}
