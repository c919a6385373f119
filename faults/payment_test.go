package faults

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A card payment whose Stripe event arrives while Redis is down is not lost: the API stores the
// signed event and answers 200, and once Redis is back the scheduler's reconciler queues it
// again; the worker applies it once (paid, one receipt) and the biometric check opens. The
// processes are the real binary (api, worker, scheduler) with the local checkout stand-in
// playing Stripe.
func TestAPaymentEventArrivingWhileRedisIsDownIsAppliedAfterwards(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the reconciler's one-minute cycle")
	}
	t.Parallel()
	db, redis, env, browser := redisGapRig(t, "on")
	uid := consentedPerson(t, browser)
	status, out := browser.post("/api/start-verification", map[string]any{"userId": uid})
	require.Equal(t, http.StatusPaymentRequired, status, out)
	status, out = browser.post("/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusOK, status, out)
	pageURL, _ := out["checkoutUrl"].(string)
	require.NotEmpty(t, pageURL, out)

	// Redis goes down; the person pays on the checkout page, whose signed event reaches the API.
	redis.stop()
	require.Equal(t, http.StatusSeeOther, browser.submitForm(pageURL, url.Values{"action": {"card"}}),
		"the payment page went back to Mi Perfil")

	var unprocessed int
	var paymentStatus string
	require.NoError(t, db.Get(&unprocessed, `SELECT count(*) FROM payment_webhooks WHERE processed_at IS NULL`))
	require.Equal(t, 1, unprocessed, "the event was stored although Redis is down")
	require.NoError(t, db.Get(&paymentStatus, `SELECT status FROM payments WHERE user_id = $1`, uid))
	require.Equal(t, "open", paymentStatus)
	reconcileAfterRedisGap(t, db, redis, env, "payment_webhooks")
	require.Eventually(t, func() bool {
		db.Get(&paymentStatus, `SELECT status FROM payments WHERE user_id = $1`, uid)
		return paymentStatus == "paid"
	}, 200*time.Second, time.Second, "the stored event was applied after Redis came back")
	require.NoError(t, db.Get(&unprocessed, `SELECT count(*) FROM payment_webhooks WHERE processed_at IS NULL`))
	require.Zero(t, unprocessed)
	var receipts int
	require.Eventually(t, func() bool {
		db.Get(&receipts, `SELECT count(*) FROM dev_messages WHERE channel = 'email' AND subject = 'Recibo de pago de Perfil Seguro'`)
		return receipts >= 1
	}, 30*time.Second, 200*time.Millisecond, "the receipt was e-mailed")
	time.Sleep(2 * time.Second) // a second receipt would have come by now
	require.NoError(t, db.Get(&receipts, `SELECT count(*) FROM dev_messages WHERE channel = 'email' AND subject = 'Recibo de pago de Perfil Seguro'`))
	require.Equal(t, 1, receipts, "exactly one receipt")

	status, out = browser.post("/api/start-verification", map[string]any{"userId": uid})
	require.Equal(t, http.StatusOK, status, out)
}
