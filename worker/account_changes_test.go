package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// recordedChange stores a change of a new person's account and returns its id.
func recordedChange(t *testing.T, db *sqlx.DB, c postgres.AccountChange) int64 {
	t.Helper()
	ctx := context.Background()
	store := &postgres.Store{DB: db}
	phone, email := "+525544440001", "aviso@example.com"
	var id int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		c.UserID, _, err = store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Irma Vega", Email: &email, Phone: &phone})
		if err != nil {
			return err
		}
		id, err = store.RecordAccountChange(ctx, tx, c)
		return err
	}))
	return id
}

func TestAnAdministratorsChangeIsToldByTextWithoutAnUndoLink(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail, sms := &recorder{}, &recorder{}
	w := newTestWorker(t, worker.Deps{DB: db, Email: mail, SMS: sms, WhatsApp: &recorder{}, PublicBaseURL: "https://perfilseguro.example"})
	old, nuevo := "Irma Vega", "Irma Vega Soto"
	id := recordedChange(t, db, postgres.AccountChange{Field: postgres.FieldNombre, Old: &old, New: &nuevo,
		Actor: postgres.ChangedByAdmin, NotifyVia: postgres.ChannelPhone, NotifyTo: "+525544449999"})
	task, err := jobs.NewSendAccountChangeNoticeTask(id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task), "a retry or a duplicate")
	require.Equal(t, 1, sms.count(), "told once")
	require.Zero(t, mail.count())
	require.Contains(t, sms.sent[0], "+525544449999|Perfil Seguro: un administrador cambió el nombre de tu perfil PS-")
	require.NotContains(t, sms.sent[0], "undo")
}

func TestAnUndoneChangeIsNotToldAndAPersonsChangeCarriesItsLink(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail := &recorder{}
	sealer := secure.NewSealer("0123456789abcdef0123456789abcdef")
	w := newTestWorker(t, worker.Deps{DB: db, Email: mail, SMS: &recorder{}, WhatsApp: &recorder{}, Sealer: sealer,
		PublicBaseURL: "https://perfilseguro.example"})
	old, nuevo := "antes@example.com", "despues@example.com"
	token := secure.NewToken(32)
	change := postgres.AccountChange{Field: postgres.FieldEmail, Old: &old, New: &nuevo, Actor: postgres.ChangedByPerson,
		NotifyVia: postgres.ChannelEmail, NotifyTo: old, UndoTokenHash: secure.HashToken(token), UndoTokenSealed: sealer.Seal(token),
		UndoUntil: time.Now().Add(7 * 24 * time.Hour)}
	id := recordedChange(t, db, change)
	task, err := jobs.NewSendAccountChangeNoticeTask(id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, mail.count())
	require.Contains(t, mail.sent[0], "antes@example.com|Cambió el correo electrónico de tu Perfil Seguro|")
	require.Contains(t, mail.sent[0], "https://perfilseguro.example/api/account-changes/undo?token="+token)

	// Undone before its notice went out: nothing is said.
	_, err = db.Exec(`DELETE FROM users WHERE email = 'aviso@example.com'`)
	require.NoError(t, err)
	change.UndoTokenHash, change.UndoTokenSealed = "", ""
	id = recordedChange(t, db, change)
	_, err = db.Exec(`UPDATE account_changes SET undone_at = now() WHERE id = $1`, id)
	require.NoError(t, err)
	task, err = jobs.NewSendAccountChangeNoticeTask(id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, mail.count())
}
