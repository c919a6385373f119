package worker_test

import (
	"context"
	"encoding/json"
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
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// widgetPartner creates a partner, with a key of its own, allowed the widget (whose test people
// some tests use), and returns its id.
func widgetPartner(t *testing.T, db *sqlx.DB) int64 {
	t.Helper()
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO api_keys (key_id, partner_name, domain, permissions, is_active)
		VALUES ($1, 'CasaLista', 'https://casalista.example', '{widget_auth}', true) RETURNING id`,
		fmt.Sprintf("pk_%024x", time.Now().UnixNano())))
	return id
}

// testPersonCode makes a partner, its test person with phone, and a stored code for them; it
// returns the code's delivery task as the API builds it (TestPartner: the person's mode).
func testPersonCode(t *testing.T, db *sqlx.DB, phone, code string) (*asynq.Task, int64) {
	t.Helper()
	ctx := context.Background()
	store := postgres.Store{DB: db}
	partner := widgetPartner(t, db)
	var codeID, mode int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		uid, _, err := store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Ana Prueba", Phone: &phone, TestPartner: partner})
		if err != nil {
			return err
		}
		codeID, mode, err = store.InsertCode(ctx, tx, postgres.NewCode{UserID: uid, Channel: postgres.ChannelPhone,
			Destination: phone, Purpose: "login", Hash: secure.NewCoder(secret).Hash(phone, code), ExpiresAt: time.Now().Add(10 * time.Minute)})
		return err
	}))
	require.Equal(t, partner, mode, "InsertCode tells the person's mode")
	task, err := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: codeID, Channel: postgres.ChannelPhone, Via: jobs.ViaWhatsApp,
		Destination: phone, SealedCode: sealer.Seal(code), ExpiresAt: time.Now().Add(10 * time.Minute),
		TestPartner: mode})
	require.NoError(t, err)
	return task, partner
}

// A partner's test person's code never reaches WhatsApp or SMS: it lands in the inbox, tagged
// with the partner (whose console shows it), even with real providers configured.
func TestATestPersonsCodeGoesToTheInboxNotToWhatsApp(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	wa, sm := &recorder{}, &recorder{}
	w := newTestWorker(t, worker.Deps{DB: db, WhatsApp: wa, SMS: sm, Email: &recorder{}, Sealer: sealer,
		TestInbox: func(p int64) worker.TestInbox { return devsim.Inbox{DB: db, TestPartner: p} }})
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	task, partner := testPersonCode(t, db, phone, "731905")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Zero(t, wa.count(), "no WhatsApp message for a test person")
	require.Zero(t, sm.count())
	var got struct {
		Body    string `db:"body_text"`
		Partner *int64 `db:"test_partner_id"`
	}
	require.NoError(t, db.Get(&got, `SELECT body_text, test_partner_id FROM dev_messages WHERE recipient = $1`, phone))
	require.Contains(t, got.Body, "731905")
	require.NotNil(t, got.Partner)
	require.Equal(t, partner, *got.Partner)
}

// A worker wired without a test inbox fails a test person's message for good rather than send it
// through a real provider.
func TestWithoutATestInboxATestPersonsCodeIsNotSent(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	wa, sm := &recorder{}, &recorder{}
	w := newWorker(t, db, wa, sm)
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	task, _ := testPersonCode(t, db, phone, "220044")
	err := w.Handler().ProcessTask(context.Background(), task)
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
	require.Zero(t, wa.count())
	require.Zero(t, sm.count())
}

// An older binary's payload has no testPartner: it reads as a live person's.
func TestAnOTPPayloadWithoutTestPartnerIsLive(t *testing.T) {
	var p jobs.SendOTPPayload
	require.NoError(t, json.Unmarshal([]byte(`{"codeId":1,"channel":"phone","via":"whatsapp","destination":"+525512345678"}`), &p))
	require.Equal(t, perfilseguro.Live, p.TestPartner)
	b, err := json.Marshal(jobs.SendOTPPayload{CodeID: 1})
	require.NoError(t, err)
	require.NotContains(t, string(b), "testPartner", "a live code's payload is what older binaries read")
}
