package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// Issue 54, item 21: a new passkey is told at the account's current e-mail (else its phone), with
// what to do if it was not the person; a deleted account hears nothing.
func TestANewPasskeyIsToldAtTheCurrentContact(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	mail, sms := &recorder{}, &recorder{}
	w := newTestWorker(t, worker.Deps{DB: db, Email: mail, SMS: sms, WhatsApp: &recorder{}, PublicBaseURL: "https://perfilseguro.example"})
	ctx := context.Background()
	store := &postgres.Store{DB: db}
	newUser := func(email, phone *string) int64 {
		tx, err := db.Beginx()
		require.NoError(t, err)
		id, _, err := store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Irma Vega", Email: email, Phone: phone})
		require.NoError(t, err)
		require.NoError(t, tx.Commit())
		return id
	}
	notify := func(userID, credID int64) {
		task, err := jobs.NewSendPasskeyAddedNoticeTask(jobs.SendPasskeyAddedNoticePayload{UserID: userID, CredentialID: credID,
			Name: "Llave de acceso 1", AddedAt: time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)})
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(ctx, task))
	}
	email, phone := "irma@example.com", "+525544440001"

	notify(newUser(&email, &phone), 1)
	require.Equal(t, 1, mail.count())
	require.Zero(t, sms.count())
	require.Contains(t, mail.sent[0], "irma@example.com|Se agregó una llave de acceso a tu Perfil Seguro|")
	require.Contains(t, mail.sent[0], "«Llave de acceso 1»")
	require.Contains(t, mail.sent[0], "28/11/2026")
	require.Contains(t, mail.sent[0], "Si no fuiste tú")

	phoneOnly := "+525544440002"
	notify(newUser(nil, &phoneOnly), 2)
	require.Equal(t, 1, sms.count())
	require.Contains(t, sms.sent[0], "+525544440002|Perfil Seguro: se agregó una llave de acceso a tu perfil PS-")

	notify(999999, 3) // a deleted account
	require.Equal(t, 1, mail.count())
	require.Equal(t, 1, sms.count())
}
