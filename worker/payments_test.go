package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/worker"
)

// fakePayments is a payment provider whose answers the test sets.
type fakePayments struct {
	mu        sync.Mutex
	createErr []error // returned by the next CreateCheckout calls, in order
	keys      []string
	state     perfilseguro.CheckoutState
	refundErr error
	refunds   []string
}

func (f *fakePayments) CreateCheckout(_ context.Context, req perfilseguro.CheckoutRequest) (perfilseguro.CheckoutSession, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = append(f.keys, req.IdempotencyKey)
	if len(f.createErr) > 0 {
		err := f.createErr[0]
		f.createErr = f.createErr[1:]
		if err != nil {
			return perfilseguro.CheckoutSession{}, err
		}
	}
	return perfilseguro.CheckoutSession{ID: "cs_" + req.IdempotencyKey, URL: "https://checkout.example/" + req.IdempotencyKey,
		ExpiresAt: req.ExpiresAt}, nil
}

func (f *fakePayments) GetCheckout(_ context.Context, id string) (perfilseguro.CheckoutState, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.state
	st.SessionID = id
	return st, nil
}

func (f *fakePayments) Refund(_ context.Context, _, key string) (perfilseguro.Refund, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refunds = append(f.refunds, key)
	if f.refundErr != nil {
		return perfilseguro.Refund{}, f.refundErr
	}
	return perfilseguro.Refund{ID: "re_1", Status: "pending"}, nil
}

func (f *fakePayments) ExpireCheckout(context.Context, string) error { return nil }

// payFixture is a fixture with a payment provider whose answers the test sets, and a person.
type payFixture struct {
	*fixture
	pay  *fakePayments
	user int64
}

func paySetup(t *testing.T) *payFixture {
	t.Helper()
	f := &payFixture{pay: &fakePayments{}}
	f.fixture = newFixture(t, worker.Deps{Payments: worker.PaymentDeps{Provider: f.pay}})
	require.NoError(t, f.db.Get(&f.user, `INSERT INTO users (nombre, email, phone_number, id_validado)
		VALUES ('Ana López', 'ana.pago@ejemplo.mx', '+525512340000', $1) RETURNING id`, perfilseguro.NewProfileID()))
	return f
}

// attempt records a 'creating' attempt for plan, as the API does.
func (f *payFixture) attempt(t *testing.T, plan string) int64 {
	t.Helper()
	s := postgres.Store{DB: f.db}
	pl, _ := perfilseguro.PlanByCode(plan)
	var id int64
	require.NoError(t, s.InTx(context.Background(), func(tx *sqlx.Tx) error {
		res, err := s.StartPaymentAttempt(context.Background(), tx, f.user, pl, "fake", "key-1")
		id = res.Payment.ID
		return err
	}))
	return id
}

func (f *payFixture) run(typ string, payload any) error {
	b, _ := json.Marshal(payload)
	return f.w.Handler().ProcessTask(context.Background(), asynq.NewTask(typ, b))
}

func (f *payFixture) status(t *testing.T, id int64) string {
	t.Helper()
	var s string
	require.NoError(t, f.db.Get(&s, `SELECT status FROM payments WHERE id = $1`, id))
	return s
}

func TestTheCheckoutIsCreatedWithTheAttemptsKeyOnEveryTry(t *testing.T) {
	t.Parallel()
	f := paySetup(t)
	id := f.attempt(t, perfilseguro.PlanOneYear)
	f.pay.createErr = []error{errors.New("stripe: 503")}
	require.Error(t, f.run(jobs.TypeCreateCheckout, jobs.PaymentPayload{PaymentID: id}))
	require.Equal(t, "creating", f.status(t, id), "a transient failure waits for the retry")
	require.NoError(t, f.run(jobs.TypeCreateCheckout, jobs.PaymentPayload{PaymentID: id}))
	require.Equal(t, "open", f.status(t, id))
	require.Equal(t, []string{"key-1", "key-1"}, f.pay.keys, "the retry cannot create a second session")
	require.NoError(t, f.run(jobs.TypeCreateCheckout, jobs.PaymentPayload{PaymentID: id}))
	require.Len(t, f.pay.keys, 2, "an open attempt is left alone")

	other := postgres.Store{DB: f.db}
	_, err := f.db.Exec(`UPDATE payments SET status = 'cancelled' WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, other.InTx(context.Background(), func(tx *sqlx.Tx) error {
		pl, _ := perfilseguro.PlanByCode(perfilseguro.PlanFiveYears)
		res, err := other.StartPaymentAttempt(context.Background(), tx, f.user, pl, "fake", "key-2")
		id = res.Payment.ID
		return err
	}))
	f.pay.createErr = []error{fmt.Errorf("stripe: bad request: %w", perfilseguro.ErrPermanent)}
	err = f.run(jobs.TypeCreateCheckout, jobs.PaymentPayload{PaymentID: id})
	require.ErrorIs(t, err, asynq.SkipRetry)
	require.Equal(t, "start_failed", f.status(t, id), "the browser stops waiting")
}

func TestAPaymentChangeIsRolledBackWhenItsNoticeCannotBeQueued(t *testing.T) {
	t.Parallel()
	f := paySetup(t)
	id := f.attempt(t, perfilseguro.PlanOneYear)
	require.NoError(t, f.run(jobs.TypeCreateCheckout, jobs.PaymentPayload{PaymentID: id}))
	f.pay.state = perfilseguro.CheckoutState{Status: perfilseguro.CheckoutComplete, PaymentStatus: perfilseguro.CheckoutPaid,
		PaymentMethod: "card", PaymentIntentID: "pi_1"}
	var webhookID int64
	require.NoError(t, f.db.Get(&webhookID, `INSERT INTO payment_webhooks (event_id, event_type, session_id, body)
		VALUES ('evt_1', 'checkout.session.completed', 'cs_key-1', '{}') RETURNING id`))

	f.queue.err = errors.New("redis down")
	require.Error(t, f.run(jobs.TypeProcessPaymentWebhook, jobs.ProcessPaymentWebhookPayload{WebhookID: webhookID}))
	require.Equal(t, "open", f.status(t, id), "nothing half-written: the payment waits for the retry")
	var processed bool
	require.NoError(t, f.db.Get(&processed, `SELECT processed_at IS NOT NULL FROM payment_webhooks WHERE id = $1`, webhookID))
	require.False(t, processed)

	f.queue.err = nil
	require.NoError(t, f.run(jobs.TypeProcessPaymentWebhook, jobs.ProcessPaymentWebhookPayload{WebhookID: webhookID}))
	require.Equal(t, "paid", f.status(t, id))
	require.Equal(t, []string{jobs.TypePaymentNotice}, f.queue.types(), "the receipt only (a card needs no WhatsApp notice)")
}

func TestTheReceiptIsSentOnceAndAFailedSendIsRetried(t *testing.T) {
	t.Parallel()
	f := paySetup(t)
	id := f.attempt(t, perfilseguro.PlanOneYear)
	_, err := f.db.Exec(`UPDATE payments SET status = 'paid', paid_at = now(), payment_method = 'oxxo', payment_intent_id = 'pi_9' WHERE id = $1`, id)
	require.NoError(t, err)
	receipt := jobs.PaymentNoticePayload{PaymentID: id, Kind: jobs.NoticeReceipt}
	_, err = f.db.Exec(`UPDATE payments SET status = 'open' WHERE id = $1`, id)
	require.NoError(t, err)
	require.Error(t, f.run(jobs.TypePaymentNotice, receipt), "the notice runs before the payment's change committed: retried")
	require.Empty(t, f.mail.sent)
	_, err = f.db.Exec(`UPDATE payments SET status = 'paid' WHERE id = $1`, id)
	require.NoError(t, err)

	f.mail.err = errors.New("smtp: connection refused")
	require.Error(t, f.run(jobs.TypePaymentNotice, receipt))
	f.mail.err = nil
	require.NoError(t, f.run(jobs.TypePaymentNotice, receipt))
	require.NoError(t, f.run(jobs.TypePaymentNotice, receipt))
	require.Len(t, f.mail.sent, 1, "sent once, after the failed try released its claim")
	require.Contains(t, f.mail.sent[0], "ana.pago@ejemplo.mx|Recibo de pago de Perfil Seguro|")
	require.Contains(t, f.mail.sent[0], "Importe: $299.00 MXN")
	require.Contains(t, f.mail.sent[0], "Método de pago: Efectivo en OXXO")

	paid := jobs.PaymentNoticePayload{PaymentID: id, Kind: jobs.NoticeVoucherPaid}
	require.NoError(t, f.run(jobs.TypePaymentNotice, paid))
	require.NoError(t, f.run(jobs.TypePaymentNotice, paid))
	require.Equal(t, []string{"+525512340000|$299.00 MXN|false|https://perfilseguro.mx/profile"}, f.wa.sent)
}

func TestARefundIsAskedOnceAndARefusalLetsTheAdministratorAskAgain(t *testing.T) {
	t.Parallel()
	f := paySetup(t)
	id := f.attempt(t, perfilseguro.PlanOneYear)
	_, err := f.db.Exec(`UPDATE payments SET status = 'paid', paid_at = now(), payment_intent_id = 'pi_r', refund_requested_at = now() WHERE id = $1`, id)
	require.NoError(t, err)

	f.pay.refundErr = fmt.Errorf("charge_already_refunded: %w", perfilseguro.ErrPermanent)
	require.ErrorIs(t, f.run(jobs.TypeRefundPayment, jobs.PaymentPayload{PaymentID: id}), asynq.SkipRetry)
	var asked bool
	require.NoError(t, f.db.Get(&asked, `SELECT refund_requested_at IS NOT NULL FROM payments WHERE id = $1`, id))
	require.False(t, asked, "the administrator may ask again")

	f.pay.refundErr = nil
	require.NoError(t, f.run(jobs.TypeRefundPayment, jobs.PaymentPayload{PaymentID: id}))
	require.Equal(t, []string{"refund-key-1", "refund-key-1"}, f.pay.refunds, "one idempotency key per payment")
	var refundID string
	require.NoError(t, f.db.Get(&refundID, `SELECT refund_id FROM payments WHERE id = $1`, id))
	require.Equal(t, "re_1", refundID)
	require.Equal(t, "paid", f.status(t, id), "recorded as refunded only when charge.refunded comes back")
}
