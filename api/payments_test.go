package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v84/webhook"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// paySetup is lvSetup with payments on and the local checkout stand-in playing Stripe: its
// page posts correctly signed Stripe webhooks back to the API, as in development.
func paySetup(t *testing.T, mutate ...func(*api.Deps)) *lvEnv {
	t.Helper()
	withPayments := func(d *api.Deps) {
		base, secret := d.Config.PublicBaseURL, d.Config.Payments.StripeWebhookSecret
		d.Payments = api.PaymentsDeps{Enabled: true, Provider: "devsim", WebhookSecret: secret, CreateWait: 15 * time.Second,
			Checkout: &devsim.Checkout{DB: d.DB, BaseURL: base, WebhookURL: base + "/api/webhooks/payments", WebhookSecret: secret}}
	}
	return lvSetup(t, append([]func(*api.Deps){withPayments}, mutate...)...)
}

func (c *lvClient) payStatus() map[string]any {
	c.t.Helper()
	code, out, _ := c.call("GET", "/api/payments/status", nil)
	require.Equal(c.t, http.StatusOK, code, out)
	return out
}

// checkout starts paying plan and returns the checkout page's URL.
func (c *lvClient) checkout(plan string) string {
	c.t.Helper()
	code, out, _ := c.call("POST", "/api/payments/checkout", map[string]any{"plan": plan})
	require.Equal(c.t, http.StatusOK, code, out)
	u, _ := out["checkoutUrl"].(string)
	require.True(c.t, strings.HasPrefix(u, c.e.base+devsim.CheckoutPath), u)
	return u
}

// onCheckoutPage plays the person on the stand-in's page: reads it, then presses action.
func (c *lvClient) onCheckoutPage(pageURL, action string) *http.Response {
	c.t.Helper()
	require.Contains(c.t, c.page(pageURL), "$299.00 MXN")
	return c.postForm(pageURL, url.Values{"action": {action}})
}

// waitPayState waits until Mi Perfil's payment state is want.
func (c *lvClient) waitPayState(want string) map[string]any {
	c.t.Helper()
	var st map[string]any
	require.Eventually(c.t, func() bool { st = c.payStatus(); return st["state"] == want }, 15*time.Second, 100*time.Millisecond,
		"payment state never became %s", want)
	return st
}

// approveBiometric starts the check and approves it on the simulator: level 3.
func (c *lvClient) approveBiometric() {
	c.t.Helper()
	status, out, _ := c.call("POST", "/api/start-verification", map[string]any{"userId": c.id})
	require.Equal(c.t, http.StatusOK, status, out)
	res := c.decideOnSimulator(out["verificationUrl"].(string), "approve")
	require.Equal(c.t, http.StatusSeeOther, res.StatusCode)
	require.Eventually(c.t, func() bool { return c.status()["verificationLevel"] == 3.0 }, 15*time.Second, 100*time.Millisecond)
}

func (e *lvEnv) inboxCount(t *testing.T, channel, recipientLike, textLike string) int {
	t.Helper()
	var n int
	require.NoError(t, e.db.Get(&n, `SELECT count(*) FROM dev_messages WHERE channel = $1 AND recipient LIKE $2 AND body_text LIKE $3`,
		channel, recipientLike, textLike))
	return n
}

func TestABiometricCheckIsRefusedWith402UntilThePlanIsPaid(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)

	st := a.payStatus()
	require.Equal(t, "choose", st["state"])
	require.Equal(t, false, st["mayStartBiometric"])
	require.Len(t, st["plans"], 2, "the two paid plans are offered")

	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusPaymentRequired, status, out)
	require.Equal(t, "Para iniciar tu verificación biométrica primero elige y paga tu plan en Mi Perfil.", out["message"])
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_sessions WHERE user_id = $1`, a.id), "nothing is asked of the biometric provider before payment")

	page := a.checkout("one_year")
	require.Equal(t, "open", a.payStatus()["state"])
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusPaymentRequired, status, out)

	res := a.onCheckoutPage(page, "decline")
	require.Equal(t, http.StatusPaymentRequired, res.StatusCode, "a declined card leaves the page open")
	require.Equal(t, "open", a.payStatus()["state"])

	res = a.onCheckoutPage(page, "card")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/profile", loc.Path)
	require.Equal(t, "exito", loc.Query().Get("pago"))
	require.True(t, strings.HasPrefix(loc.Query().Get("session_id"), "cs_test_"), "Stripe's {CHECKOUT_SESSION_ID} is filled in")

	st = a.waitPayState("paid")
	require.Equal(t, true, st["mayStartBiometric"])
	pay := st["payment"].(map[string]any)
	require.Equal(t, 299.0, pay["amount"])
	require.Equal(t, "card", pay["method"])
	require.Eventually(t, func() bool {
		return e.inboxCount(t, "email", "%", "%Recibimos tu pago%$299.00 MXN%") == 1
	}, 10*time.Second, 100*time.Millisecond, "the receipt is e-mailed")

	a.approveBiometric()
	var vigencia int
	var consumed bool
	require.NoError(t, e.db.Get(&vigencia, `SELECT vigencia FROM users WHERE id = $1`, a.id))
	require.Equal(t, 1, vigencia)
	require.NoError(t, e.db.Get(&consumed, `SELECT consumed_at IS NOT NULL FROM payments WHERE user_id = $1`, a.id))
	require.True(t, consumed, "the payment bought this validation")
	st = a.payStatus()
	require.Equal(t, "active", st["state"])
	require.Equal(t, "one_year", st["plan"])
	status, _, _ = a.call("POST", "/api/payments/checkout", map[string]any{"plan": "five_years"})
	require.Equal(t, http.StatusConflict, status, "a validated person has nothing to buy until renewal")
}

func TestTheFiveYearPlanSetsAFiveYearValidity(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	page := a.checkout("five_years")
	res := a.postForm(page, url.Values{"action": {"card"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	a.waitPayState("paid")
	a.approveBiometric()
	var vigencia int
	var plan string
	require.NoError(t, e.db.QueryRow(`SELECT vigencia, plan FROM users WHERE id = $1`, a.id).Scan(&vigencia, &plan))
	require.Equal(t, 5, vigencia)
	require.Equal(t, "five_years", plan)
}

func TestOXXOVoucherIsPendingUntilTheCashArrives(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	page := a.checkout("one_year")
	res := a.onCheckoutPage(page, "oxxo")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)

	st := a.waitPayState("pending")
	v := st["payment"].(map[string]any)["voucher"].(map[string]any)
	require.Regexp(t, `^[0-9]{14,}$`, v["number"])
	require.Equal(t, page+"/voucher", v["url"])
	deadline, err := time.Parse(time.RFC3339, v["expiresAt"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(3*24*time.Hour), deadline, time.Hour)
	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusPaymentRequired, status)
	require.Equal(t, "Tu pago en OXXO está pendiente. Podrás iniciar tu verificación biométrica cuando se acredite.", out["message"])

	res = a.postForm(page+"/voucher", url.Values{"action": {"oxxo_paid"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	a.waitPayState("paid")
	require.Eventually(t, func() bool {
		return e.inboxCount(t, "whatsapp", "%", "%recibimos tu pago de $299.00 MXN%") == 1 &&
			e.inboxCount(t, "email", "%", "%Efectivo en OXXO%") == 1
	}, 10*time.Second, 100*time.Millisecond, "WhatsApp notice and e-mailed receipt when the cash arrives")

	// Stripe cannot refund cash: the panel offers no refund and the API refuses one.
	admin := e.anonymous(t)
	status, out, _ = admin.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = admin.call("GET", fmt.Sprintf("/api/admin/users/%d/payments", a.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	pm := out["payments"].([]any)[0].(map[string]any)
	require.Equal(t, "oxxo", pm["method"])
	require.Equal(t, false, pm["refundable"])
	status, out, _ = admin.call("POST", fmt.Sprintf("/api/admin/payments/%d/refund", int64(pm["id"].(float64))), nil)
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "OXXO no se pueden reembolsar")
	a.approveBiometric()
}

func TestAnExpiredOXXOVoucherLetsThePersonStartAgain(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	page := a.checkout("one_year")
	require.Equal(t, http.StatusSeeOther, a.onCheckoutPage(page, "oxxo").StatusCode)
	a.waitPayState("pending")
	a.postForm(page+"/voucher", url.Values{"action": {"oxxo_expire"}})
	st := a.waitPayState("failed")
	require.Contains(t, st["message"], "venció sin pago")
	require.Eventually(t, func() bool {
		return e.inboxCount(t, "whatsapp", "%", "%venció sin pago%") == 1 && e.inboxCount(t, "email", "%", "%venció sin pago%") == 1
	}, 10*time.Second, 100*time.Millisecond)

	second := a.checkout("one_year")
	require.NotEqual(t, page, second, "a new attempt, a new checkout page")
	require.Equal(t, http.StatusSeeOther, a.onCheckoutPage(second, "card").StatusCode)
	a.waitPayState("paid")
}

func TestACasaListaPersonIsNeverAskedToPay(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	_, err := e.db.Exec(`UPDATE users SET origen = 'CasaLista' WHERE id = $1`, a.id)
	require.NoError(t, err)
	st := a.payStatus()
	require.Equal(t, "free", st["state"])
	require.Equal(t, true, st["freeEligible"])
	require.Equal(t, "free", st["plan"])
	status, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusConflict, status, out)
	a.approveBiometric()
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM payments WHERE user_id = $1`, a.id))
	require.Equal(t, "active", a.payStatus()["state"])
}

// The other way to the free plan: accepting a broker's invitation (origin "invitación", set by
// the acceptance itself, not by anyone's edit).
func TestAnInvitedPersonIsNeverAskedToPay(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) {
		d.Payments = api.PaymentsDeps{Enabled: true, Provider: "devsim", WebhookSecret: d.Config.Payments.StripeWebhookSecret}
	})
	inviter, _ := e.signedInAt(t, 3)
	inv := inviter.invite(map[string]any{"inviteeEmail": "ines.invitada@example.com"})
	invitee := e.browser(t)
	status, out := invitee.call("POST", "/api/invitations/accept", map[string]any{"invitationCode": inv["invitationCode"],
		"accepterData": map[string]any{"nombre": "Inés Invitada", "phone_number": "55 2345 6789"}})
	require.Equal(t, http.StatusOK, status, out)

	status, st := invitee.call("GET", "/api/payments/status", nil)
	require.Equal(t, http.StatusOK, status, st)
	require.Equal(t, "free", st["state"])
	require.Equal(t, "free", st["plan"])
	require.Equal(t, true, st["freeEligible"])
	require.Equal(t, true, st["mayStartBiometric"])
	status, out = invitee.call("POST", "/api/payments/checkout", map[string]any{"plan": "five_years"})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "gratuita")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM payments`))
}

func TestARenewalIsANewPurchase(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	_, err := e.db.Exec(`UPDATE users SET origen = 'CasaLista' WHERE id = $1`, a.id)
	require.NoError(t, err)
	a.approveBiometric()
	// The free year is over: the validation began more than a year ago and has expired.
	_, err = e.db.Exec(`UPDATE users SET fecha_validacion = now() - interval '366 days', expired_at = now() WHERE id = $1`, a.id)
	require.NoError(t, err)
	st := a.payStatus()
	require.Equal(t, "choose", st["state"])
	require.Equal(t, "Para renovar tu validación elige y paga un plan.", st["message"])
	status, _, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusPaymentRequired, status)

	require.Equal(t, http.StatusSeeOther, a.onCheckoutPage(a.checkout("one_year"), "card").StatusCode)
	a.waitPayState("paid")
	a.approveBiometric() // level stays 3: wait for the renewal itself
	require.Eventually(t, func() bool {
		renewed := dbGet[bool](t, e.db, `SELECT fecha_validacion > now() - interval '1 hour' AND expired_at IS NULL FROM users WHERE id = $1`, a.id)
		return renewed
	}, 15*time.Second, 100*time.Millisecond)
	require.Equal(t, "active", a.payStatus()["state"])
}

func TestADoubleClickCreatesOneCheckoutAndAnotherPlanReplacesIt(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	var wg sync.WaitGroup
	urls := make([]string, 4)
	for i := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
			if code == http.StatusOK {
				urls[i], _ = out["checkoutUrl"].(string)
			}
		}()
	}
	wg.Wait()
	for _, u := range urls {
		require.Equal(t, urls[0], u, "every click answers the same checkout page")
	}
	attempts := countOf(t, e.db, `SELECT count(*) FROM payments WHERE user_id = $1`, a.id)
	sessions := countOf(t, e.db, `SELECT count(*) FROM dev_checkout_sessions WHERE metadata->>'user_id' = $1`, fmt.Sprint(a.id))
	require.Equal(t, 1, attempts)
	require.Equal(t, 1, sessions)

	other := a.checkout("five_years")
	require.NotEqual(t, urls[0], other)
	old := dbGet[string](t, e.db, `SELECT status FROM payments WHERE user_id = $1 AND plan = 'one_year'`, a.id)
	require.Equal(t, "cancelled", old)
	require.Eventually(t, func() bool {
		s := dbGet[string](t, e.db, `SELECT status FROM dev_checkout_sessions WHERE metadata->>'user_id' = $1 AND metadata->>'plan' = 'one_year'`, fmt.Sprint(a.id))
		return s == "expired"
	}, 10*time.Second, 100*time.Millisecond, "the replaced checkout page is closed at the provider")
}

// The checkout job gave up (the provider refused to create the page) while the request waited:
// the answer is 502 with a Spanish message, not a 202 to poll forever.
func TestACheckoutThatFailedToStartAnswers502(t *testing.T) {
	t.Parallel()
	e := paySetup(t) // no worker: the attempt stays 'creating' until marked below
	a := e.signedUp(t)
	go func() {
		require.Eventually(t, func() bool {
			res, err := e.db.Exec(`UPDATE payments SET status = 'start_failed' WHERE user_id = $1 AND status = 'creating'`, a.id)
			if err != nil {
				return false
			}
			n, _ := res.RowsAffected()
			return n == 1
		}, 10*time.Second, 50*time.Millisecond)
	}()
	status, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusBadGateway, status, out)
	require.Equal(t, "No se pudo iniciar el pago. Intenta nuevamente.", out["message"])
}

func TestCheckoutRefusesBadPlansAndLeavesNothingWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	e := paySetup(t)
	a := e.signedUp(t)
	for _, plan := range []string{"", "free", "ten_years"} {
		status, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": plan})
		require.Equal(t, http.StatusBadRequest, status, plan)
		require.Equal(t, "Elige un plan válido: 1 año o 5 años.", out["message"])
	}
	status, _, _ := e.anonymous(t).call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusUnauthorized, status)

	e.queue.setDead(true)
	status, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM payments WHERE user_id = $1`, a.id), "no attempt is left behind without its job")
}

// postPaymentEvent posts a Stripe event, signed by stripe-go's own test helper at ts.
func (e *lvEnv) postPaymentEvent(t *testing.T, body []byte, secret string, ts time.Time) (int, string) {
	t.Helper()
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: ts})
	req, err := http.NewRequest("POST", e.base+"/api/webhooks/payments", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(stripe.SignatureHeader, signed.Header)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func sessionEvent(id, typ, sessionID string) []byte {
	return stripe.EventJSON(id, typ, time.Now(), []byte(fmt.Sprintf(`{"id":%q,"object":"checkout.session"}`, sessionID)))
}

func TestPaymentWebhooksAreVerifiedStoredOnceAndReplaysIgnored(t *testing.T) {
	t.Parallel()
	e := paySetup(t)
	secret := e.cfg.Payments.StripeWebhookSecret
	body := sessionEvent("evt_test_1", "checkout.session.completed", "cs_test_unknown")
	count := func() int {
		return countOf(t, e.db, `SELECT count(*) FROM payment_webhooks`)
	}

	status, out := e.postPaymentEvent(t, body, "whsec_wrong", time.Now())
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out, "Firma del webhook inválida.")
	tampered := []byte(strings.Replace(string(body), "cs_test_unknown", "cs_test_other", 1))
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret})
	req, _ := http.NewRequest("POST", e.base+"/api/webhooks/payments", strings.NewReader(string(tampered)))
	req.Header.Set(stripe.SignatureHeader, signed.Header)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "a body changed after signing")
	status, out = e.postPaymentEvent(t, body, secret, time.Now().Add(-10*time.Minute))
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out, "Firma del webhook vencida.")
	require.Zero(t, count(), "nothing refused is stored")

	status, out = e.postPaymentEvent(t, body, secret, time.Now())
	require.Equal(t, http.StatusOK, status, out)
	status, _ = e.postPaymentEvent(t, body, secret, time.Now().Add(-time.Minute)) // Stripe's retry: new signature, same event
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, 1, count(), "one row per event id")
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	n := 0
	for _, task := range tasks {
		if task.Type == jobs.TypeProcessPaymentWebhook {
			n++
		}
	}
	require.Equal(t, 1, n, "queued once")

	// Processed (the session is not ours): a later replay is acknowledged and left alone.
	err = e.worker().Handler().ProcessTask(context.Background(), asynq.NewTask(tasks[0].Type, tasks[0].Payload))
	require.ErrorIs(t, err, asynq.SkipRetry, "a session the provider does not know is not retried")
	note := dbGet[string](t, e.db, `SELECT last_error FROM payment_webhooks WHERE event_id = 'evt_test_1' AND processed_at IS NOT NULL`)
	require.Contains(t, note, "no reconoce la sesión")
	status, _ = e.postPaymentEvent(t, body, secret, time.Now())
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, 1, count())
}

func TestConcurrentDuplicateEventsApplyAPaymentOnce(t *testing.T) {
	t.Parallel()
	e := paySetup(t)
	a := e.signedUp(t)
	// A partner brought this person: it hears of the payment once.
	var partner int64
	require.NoError(t, e.db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_pay', 'CasaLista', 'casalista.mx', 'https://casalista.mx/hooks', 'whsec_partner') RETURNING id`))
	_, err := e.db.Exec(`UPDATE users SET partner_id = $1 WHERE id = $2`, partner, a.id)
	require.NoError(t, err)

	// The checkout page is created by hand (no worker yet), then paid: its event is lost.
	code, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusAccepted, code, out)
	w := e.worker()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	run := func(typ, queue string) {
		tasks, err := insp.ListPendingTasks(queue)
		require.NoError(t, err)
		for _, task := range tasks {
			if task.Type == typ {
				require.NoError(t, w.Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)))
				_ = insp.DeleteTask(queue, task.ID)
			}
		}
	}
	run(jobs.TypeCreateCheckout, jobs.QueueCritical)
	sessionID := dbGet[string](t, e.db, `SELECT checkout_session_id FROM payments WHERE user_id = $1`, a.id)
	stand := *e.pay
	stand.WebhookURL = "http://127.0.0.1:1/unreachable"
	stand.Redeliver = []time.Duration{} // it gives up at once: the event is lost
	_, err = stand.PayByCard(context.Background(), sessionID)
	require.NoError(t, err, "the page goes on; the event is left to redelivery, here none")
	before := dbGet[string](t, e.db, `SELECT status FROM payments WHERE user_id = $1`, a.id)
	require.NotEqual(t, "paid", before, "the lost event applied nothing")

	// Stripe delivers the same events many times at once: completed twice over, and a late duplicate.
	secret := e.cfg.Payments.StripeWebhookSecret
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := sessionEvent(fmt.Sprintf("evt_test_dup_%d", i%3), "checkout.session.completed", sessionID)
			status, out := e.postPaymentEvent(t, body, secret, time.Now())
			require.Equal(t, http.StatusOK, status, out)
		}()
	}
	wg.Wait()
	require.Equal(t, 3, countOf(t, e.db, `SELECT count(*) FROM payment_webhooks`))

	// Three workers process all of them at the same time.
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	for _, task := range tasks {
		if task.Type != jobs.TypeProcessPaymentWebhook {
			continue
		}
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = e.worker().Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload))
			}()
		}
	}
	wg.Wait()
	var paid, receipts, partnerEvents int
	require.NoError(t, e.db.Get(&paid, `SELECT count(*) FROM payments WHERE user_id = $1 AND status = 'paid'`, a.id))
	require.Equal(t, 1, paid)
	require.NoError(t, e.db.Get(&partnerEvents, `SELECT count(*) FROM partner_deliveries WHERE user_id = $1 AND event = 'payment.completed'`, a.id))
	require.Equal(t, 1, partnerEvents, "partners hear of the payment once")
	payload := dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE user_id = $1 AND event = 'payment.completed'`, a.id)
	require.Contains(t, payload, `"amount": 299.00`)
	require.Contains(t, payload, `"plan": "one_year"`)
	notices, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	for _, task := range notices {
		if task.Type == jobs.TypePaymentNotice {
			receipts++
		}
	}
	require.Equal(t, 1, receipts, "one receipt queued")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM payment_webhooks WHERE processed_at IS NULL`))
}

func TestTheReconcilerRecoversEventsAndPaymentsLostOnTheWay(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	page := a.checkout("one_year")
	dbGet[string](t, e.db, `SELECT checkout_session_id FROM payments WHERE user_id = $1`, a.id) // the checkout session is stored

	// Redis is down when the event arrives: it is stored and answered, its job is not queued.
	e.queue.setDead(true)
	require.Equal(t, http.StatusSeeOther, a.onCheckoutPage(page, "card").StatusCode)
	e.queue.setDead(false)
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM payment_webhooks WHERE processed_at IS NULL`))
	require.Equal(t, "open", a.payStatus()["state"])
	task, err := jobs.NewReconcilePaymentsTask("t1")
	require.NoError(t, err)
	_, err = e.client.Enqueue(task)
	require.NoError(t, err)
	a.waitPayState("paid")

	// A second person's event never arrives at all; their checkout expires unused at the provider.
	b := e.signedUp(t)
	b.checkout("five_years")
	_, err = e.db.Exec(`UPDATE payments SET checkout_expires_at = now() - interval '1 minute', updated_at = now() - interval '1 hour' WHERE user_id = $1`, b.id)
	require.NoError(t, err)
	_, err = e.db.Exec(`UPDATE dev_checkout_sessions SET expires_at = now() - interval '1 minute' WHERE metadata->>'user_id' = $1`, fmt.Sprint(b.id))
	require.NoError(t, err)
	task, err = jobs.NewReconcilePaymentsTask("t2")
	require.NoError(t, err)
	_, err = e.client.Enqueue(task)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s := dbGet[string](t, e.db, `SELECT status FROM payments WHERE user_id = $1`, b.id)
		return s == "expired"
	}, 15*time.Second, 100*time.Millisecond)
	require.Equal(t, "choose", b.payStatus()["state"], "an expired checkout lets the person choose again")
}

func TestAnAdministratorRefundsThroughTheProviderAndTheEventRecordsIt(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	require.Equal(t, http.StatusSeeOther, a.onCheckoutPage(a.checkout("one_year"), "card").StatusCode)
	st := a.waitPayState("paid")
	paymentID := int64(st["payment"].(map[string]any)["id"].(float64))

	status, _, _ := a.call("POST", fmt.Sprintf("/api/admin/payments/%d/refund", paymentID), nil)
	require.Equal(t, http.StatusForbidden, status, "a person cannot refund themselves")
	admin := e.anonymous(t)
	status, out, _ := admin.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)

	status, out, _ = admin.call("GET", fmt.Sprintf("/api/admin/users/%d/payments", a.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	list := out["payments"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, true, list[0].(map[string]any)["refundable"])

	status, out, _ = admin.call("POST", fmt.Sprintf("/api/admin/payments/%d/refund", paymentID), nil)
	require.Equal(t, http.StatusAccepted, status, out)
	status, out, _ = admin.call("POST", fmt.Sprintf("/api/admin/payments/%d/refund", paymentID), nil)
	require.Equal(t, http.StatusConflict, status, out)
	require.Equal(t, "El reembolso de este pago ya fue solicitado.", out["message"])
	status, _, _ = admin.call("POST", "/api/admin/payments/999999/refund", nil)
	require.Equal(t, http.StatusNotFound, status)

	require.Eventually(t, func() bool {
		s := dbGet[string](t, e.db, `SELECT status FROM payments WHERE id = $1`, paymentID)
		return s == "refunded"
	}, 15*time.Second, 100*time.Millisecond, "the refund comes back as charge.refunded")
	require.Equal(t, "choose", a.payStatus()["state"], "a refunded plan no longer opens the biometric check")
	status, _, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusPaymentRequired, status)
}

func TestWithPaymentsOffEveryValidationIsFreeAndNoPriceIsShown(t *testing.T) {
	t.Parallel()
	e := lvSetup(t) // api.Deps.Payments zero: PAYMENTS=off
	e.runWorker(t)
	a := e.signedUp(t)
	status, out, _ := a.call("GET", "/api/plans", nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, false, out["paymentsEnabled"])
	require.Empty(t, out["plans"])
	st := a.payStatus()
	require.Equal(t, "not_required", st["state"])
	require.Empty(t, st["plans"])
	status, _, _ = a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
	require.Equal(t, http.StatusConflict, status)
	status, _ = e.postPaymentEvent(t, sessionEvent("evt_off", "checkout.session.completed", "cs_x"), e.cfg.Payments.StripeWebhookSecret, time.Now())
	require.Equal(t, http.StatusNotFound, status)
	a.approveBiometric()
}

func TestTheLandingPlanIsCarriedThroughRegistration(t *testing.T) {
	t.Parallel()
	e := paySetup(t)
	c := e.anonymous(t)
	status, out, _ := c.call("POST", "/api/register", map[string]string{"fullName": "Rosa Ibarra",
		"email": "rosa.plan@example.com", "phoneNumber": "5523456789", "plan": "ten_years"})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "Elige un plan válido: 1 año o 5 años.", out["errors"].(map[string]any)["plan"])
	status, reg, _ := c.call("POST", "/api/register", map[string]string{"fullName": "Rosa Ibarra",
		"email": "rosa.plan@example.com", "phoneNumber": "5523456789", "plan": "five_years"})
	require.Equal(t, http.StatusCreated, status, reg)
	status, out, _ = c.call("POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]})
	require.Equal(t, http.StatusOK, status, out)
	st := c.payStatus()
	require.Equal(t, "choose", st["state"])
	require.Equal(t, "five_years", st["plan"], "Mi Perfil preselects the plan chosen on the landing page")
}

// realCheckout stands for Stripe in production: it records the checkouts asked of it.
type realCheckout struct{ asked atomic.Int32 }

func (p *realCheckout) CreateCheckout(context.Context, perfilseguro.CheckoutRequest) (perfilseguro.CheckoutSession, error) {
	p.asked.Add(1)
	return perfilseguro.CheckoutSession{}, fmt.Errorf("stripe stand-in: %w", perfilseguro.ErrPermanent)
}
func (p *realCheckout) GetCheckout(context.Context, string) (perfilseguro.CheckoutState, error) {
	return perfilseguro.CheckoutState{}, perfilseguro.ErrPermanent
}
func (p *realCheckout) Refund(context.Context, string, string) (perfilseguro.Refund, error) {
	return perfilseguro.Refund{}, perfilseguro.ErrPermanent
}
func (p *realCheckout) ExpireCheckout(context.Context, string) error {
	return perfilseguro.ErrPermanent
}

// With Stripe configured (production), a partner's test person pays on the checkout stand-in
// (recorded devsim, never billed: livemode false) and its page is served; a live person's payment
// goes to Stripe.
func TestWithStripeATestPersonPaysOnTheStandInNeverBilled(t *testing.T) {
	t.Parallel()
	e := paySetup(t, func(d *api.Deps) { d.Payments.Provider, d.Payments.CreateWait = "stripe", 100*time.Millisecond })
	partner := dbGet[int64](t, e.db, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_eeeeeeeeeeeeeeeeeeeeeeee', 'CasaLista', 'https://casalista.example') RETURNING id`)
	tester, live := e.signedUp(t), e.signedUp(t)
	_, err := e.db.Exec(`UPDATE users SET test_partner_id = $2 WHERE id = $1`, tester.id, partner)
	require.NoError(t, err)
	realStripe := &realCheckout{}
	w := worker.New(e.opt, 1, time.Second, worker.Deps{DB: e.db, Enqueuer: e.client, Sealer: secure.NewSealer(e.cfg.SecretKey),
		PublicBaseURL: e.base, Payments: worker.PaymentDeps{Provider: realStripe, TestProvider: *e.pay}})
	pay := func(a *lvClient) (string, bool, *string) {
		_, out, _ := a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
		id := int64(out["paymentId"].(float64))
		task, _ := jobs.NewCreateCheckoutTask(id)
		_ = w.Handler().ProcessTask(context.Background(), task)
		var row struct {
			Provider string  `db:"provider"`
			Livemode bool    `db:"livemode"`
			URL      *string `db:"checkout_url"`
		}
		require.NoError(t, e.db.Get(&row, `SELECT provider, livemode, checkout_url FROM payments WHERE id = $1`, id))
		return row.Provider, row.Livemode, row.URL
	}
	provider, livemode, page := pay(tester)
	require.Equal(t, "devsim", provider)
	require.False(t, livemode, "never billed")
	require.Zero(t, realStripe.asked.Load(), "a test person never reaches Stripe")
	require.NotNil(t, page)
	res, err := http.Get(*page)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the test person's stand-in page")

	provider, livemode, _ = pay(live)
	require.Equal(t, "stripe", provider)
	require.True(t, livemode)
	require.Equal(t, int32(1), realStripe.asked.Load(), "a live person pays on Stripe")
}

func TestTheCheckoutStandInIsNotServedInProduction(t *testing.T) {
	t.Parallel()
	dev := paySetup(t)
	dev.runWorker(t)
	a := dev.signedUp(t)
	page := a.checkout("one_year")
	res, err := http.Get(page)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "served in development")

	prod := paySetup(t, func(d *api.Deps) { d.Config.Env = config.EnvProduction })
	for _, path := range []string{"/dev/checkout/cs_test_x", "/dev/checkout/cs_test_x/voucher"} {
		res, err := http.Get(prod.base + path)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusNotFound, res.StatusCode, path)
	}
}
