package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// PaymentDeps holds the payment provider (Stripe or the local checkout stand-in); nil
// Provider disables the payment jobs (PAYMENTS=off).
type PaymentDeps struct {
	Provider perfilseguro.PaymentProvider
	// TestProvider is the checkout stand-in, for the payments recorded as devsim: a partner's
	// test people, even in production (nil: those go to Provider, as in development).
	TestProvider perfilseguro.PaymentProvider
	// CheckoutLifetime is how long a checkout page accepts payment (Stripe: 30 min to 24 h).
	CheckoutLifetime time.Duration
	// WebhookGrace is how long a stored event may wait for its job before the reconciler
	// queues it again; SettleGrace how long an unsettled payment waits between two lookups.
	WebhookGrace, SettleGrace time.Duration
}

// errPaymentNotYetVisible asks for a retry: the API enqueues inside its transaction.
var errPaymentNotYetVisible = errors.New("payment row not visible yet")

func (w *Worker) routesPayments() {
	d := &w.deps.Payments
	if d.CheckoutLifetime == 0 {
		d.CheckoutLifetime = 2 * time.Hour
	}
	if d.WebhookGrace == 0 {
		d.WebhookGrace = time.Minute
	}
	if d.SettleGrace == 0 {
		d.SettleGrace = 5 * time.Minute
	}
	// The scheduler ticks whether payments are on or not: with them off there is nothing to do.
	w.mux.HandleFunc(jobs.TypeReconcilePayments, w.handleReconcilePayments)
	if w.deps.Payments.Provider == nil {
		return
	}
	w.mux.HandleFunc(jobs.TypeCreateCheckout, w.handleCreateCheckout)
	w.mux.HandleFunc(jobs.TypeProcessPaymentWebhook, decoded("payment webhook",
		func(p jobs.ProcessPaymentWebhookPayload) bool { return p.WebhookID > 0 }, w.handleProcessPaymentWebhook))
	w.mux.HandleFunc(jobs.TypeSyncPayment, w.handleSyncPayment)
	w.mux.HandleFunc(jobs.TypeRefundPayment, w.handleRefundPayment)
	w.mux.HandleFunc(jobs.TypeExpireCheckout, decoded("expire checkout",
		func(p jobs.ExpireCheckoutPayload) bool { return p.SessionID != "" }, w.handleExpireCheckout))
	w.mux.HandleFunc(jobs.TypePaymentNotice, decoded("payment notice",
		func(np jobs.PaymentNoticePayload) bool { return np.PaymentID > 0 }, w.handlePaymentNotice))
}

// paymentsFor is the provider that takes a payment recorded under this name: the stand-in for
// the devsim ones when a test stand-in is wired (production: a partner's test people), else the
// configured provider.
func (w *Worker) paymentsFor(provider string) perfilseguro.PaymentProvider {
	if provider == "devsim" && w.deps.Payments.TestProvider != nil {
		return w.deps.Payments.TestProvider
	}
	return w.deps.Payments.Provider
}

// paymentsOfSession is the provider of the payment with this checkout session (the configured
// one when no payment of ours has it: it answers for its own).
func (w *Worker) paymentsOfSession(ctx context.Context, store postgres.Store, sessionID string) (perfilseguro.PaymentProvider, error) {
	p, err := store.PaymentBySession(ctx, sessionID)
	if err != nil || p == nil {
		return w.deps.Payments.Provider, err
	}
	return w.paymentsFor(p.Provider), nil
}

// taskPayment reads the payment a task names, nil while it is not there (yet).
func (w *Worker) taskPayment(ctx context.Context, t *asynq.Task) (postgres.Store, *postgres.Payment, error) {
	var tp jobs.PaymentPayload
	if err := json.Unmarshal(t.Payload(), &tp); err != nil || tp.PaymentID <= 0 {
		return postgres.Store{}, nil, fmt.Errorf("payment payload: %w", asynq.SkipRetry)
	}
	store := postgres.Store{DB: w.deps.DB}
	p, err := store.PaymentByID(ctx, tp.PaymentID)
	return store, p, err
}

// handleCreateCheckout creates the hosted checkout page of a 'creating' attempt. The attempt's
// idempotency key goes to the provider, so a retry after a lost answer gets the same session.
func (w *Worker) handleCreateCheckout(ctx context.Context, t *asynq.Task) error {
	store, p, err := w.taskPayment(ctx, t)
	if p, err = visible(p, err, errPaymentNotYetVisible); err != nil {
		return err
	}
	if p.Status != postgres.PaymentCreating || p.UserID == nil {
		return nil
	}
	u, ok, err := userOrGone(ctx, store, *p.UserID)
	if !ok {
		return err
	}
	plan, ok := perfilseguro.PlanByCode(p.Plan)
	if !ok {
		return fmt.Errorf("payment %d: unknown plan %q: %w", p.ID, p.Plan, asynq.SkipRetry)
	}
	plan.Years, plan.Centavos = p.Years, p.AmountCentavos // what the person was shown when they chose
	req := perfilseguro.CheckoutRequest{PaymentID: p.ID, UserID: u.ID, Plan: plan,
		SuccessURL:     w.deps.PublicBaseURL + "/profile?pago=exito&session_id={CHECKOUT_SESSION_ID}",
		CancelURL:      w.deps.PublicBaseURL + "/profile?pago=cancelado",
		ExpiresAt:      p.CreatedAt.Add(w.deps.Payments.CheckoutLifetime),
		IdempotencyKey: p.IdempotencyKey}
	if u.Email != nil {
		req.CustomerEmail = *u.Email
	}
	cs, err := w.paymentsFor(p.Provider).CreateCheckout(ctx, req)
	if err != nil {
		permanent := errors.Is(err, perfilseguro.ErrPermanent)
		if serr := store.SetCheckoutStartError(ctx, p.ID, err.Error(), permanent || lastAttempt(ctx)); serr != nil {
			return fmt.Errorf("create checkout: %w (and recording it: %v)", err, serr)
		}
		if permanent {
			return fmt.Errorf("create checkout for payment %d: %w: %w", p.ID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("create checkout for payment %d: %w", p.ID, err)
	}
	stored, err := store.SetCheckoutCreated(ctx, p.ID, cs)
	if err != nil {
		return err
	}
	if !stored { // replaced by a newer attempt while this one was being created: close its page
		task, err := jobs.NewExpireCheckoutTask(cs.ID)
		return jobs.Enqueue(ctx, w.deps.Enqueuer, task, err)
	}
	return nil
}

// handleProcessPaymentWebhook applies one stored event. Checkout events are applied by reading
// the session's current state from the provider (never trusting the events' order); a full
// refund is applied from the verified event itself.
func (w *Worker) handleProcessPaymentWebhook(ctx context.Context, p jobs.ProcessPaymentWebhookPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	wh, err := store.PaymentWebhookByID(ctx, p.WebhookID)
	if wh, err = storedWebhook(wh, err, "payment webhook", p.WebhookID); err != nil {
		return err
	}
	if wh.ProcessedAt != nil {
		return nil // a replay or a second enqueue: already applied
	}
	switch {
	case wh.EventType == perfilseguro.EventChargeRefunded && wh.IntentID != nil:
		err = w.applyRefund(ctx, wh)
	case wh.SessionID != nil:
		err = w.syncCheckout(ctx, *wh.SessionID, wh.ID)
	default:
		return store.MarkPaymentWebhookProcessed(ctx, w.deps.DB, wh.ID, "evento sin efecto: "+wh.EventType)
	}
	if err != nil && !errors.Is(err, asynq.SkipRetry) {
		if rerr := store.RecordPaymentWebhookFailure(ctx, wh.ID, err.Error()); rerr != nil {
			w.deps.Logger.Warn("record payment webhook failure", "webhook_id", wh.ID, "error", rerr)
		}
	}
	return err
}

// applyRefund records a full refund and marks the event processed in one transaction.
func (w *Worker) applyRefund(ctx context.Context, wh *postgres.PaymentWebhook) error {
	store := postgres.Store{DB: w.deps.DB}
	if !wh.FullRefund {
		return store.MarkPaymentWebhookProcessed(ctx, w.deps.DB, wh.ID, "reembolso parcial: el pago sigue pagado")
	}
	return store.InTx(ctx, func(tx *sqlx.Tx) error {
		ch, err := store.ApplyRefund(ctx, tx, *wh.IntentID)
		if err != nil {
			return err
		}
		note := ""
		if !ch.Known {
			note = "pago desconocido: no es de este sistema"
		} else if ch.After != ch.Before {
			w.deps.Logger.Info("payment refunded", "payment_id", ch.PaymentID, "user_id", ch.UserID)
		}
		return store.MarkPaymentWebhookProcessed(ctx, tx, wh.ID, note)
	})
}

// syncCheckout reads the session's state from the provider and applies it, in one transaction
// with the notices it triggers (a failed enqueue rolls the change back, so a retry applies and
// enqueues again) and, when webhookID is set, the event's processed mark.
func (w *Worker) syncCheckout(ctx context.Context, sessionID string, webhookID int64) error {
	store := postgres.Store{DB: w.deps.DB}
	provider, err := w.paymentsOfSession(ctx, store, sessionID)
	if err != nil {
		return err
	}
	st, err := provider.GetCheckout(ctx, sessionID)
	if err != nil {
		return unreadableSession(err, "checkout "+sessionID, webhookID, func(id int64, note string) error {
			return store.MarkPaymentWebhookProcessed(ctx, w.deps.DB, id, note)
		})
	}
	if st.SessionID == "" {
		st.SessionID = sessionID
	}
	var ch postgres.PaymentChange
	err = store.InTx(ctx, func(tx *sqlx.Tx) error {
		if ch, err = store.ApplyCheckoutState(ctx, tx, st); err != nil {
			return err
		}
		if err := w.enqueuePaymentNotices(ctx, ch, st); err != nil {
			return err
		}
		if webhookID == 0 {
			return nil
		}
		note := ""
		if !ch.Known {
			note = "sesión desconocida: no es de este sistema"
		}
		return store.MarkPaymentWebhookProcessed(ctx, tx, webhookID, note)
	})
	if err != nil {
		return err
	}
	if ch.Known && ch.After != ch.Before {
		w.deps.Logger.Info("payment updated", "payment_id", ch.PaymentID, "user_id", ch.UserID, "from", ch.Before, "to", ch.After)
	}
	return nil
}

// enqueuePaymentNotices queues what a change tells the person: the receipt of a payment (and,
// for cash at OXXO, a WhatsApp notice: they are not in front of the screen), or that a voucher
// expired unpaid.
func (w *Worker) enqueuePaymentNotices(ctx context.Context, ch postgres.PaymentChange, st perfilseguro.CheckoutState) error {
	var kinds []string
	switch {
	case ch.PaidNow():
		kinds = append(kinds, jobs.NoticeReceipt)
		if st.PaymentMethod == "oxxo" || ch.Before == postgres.PaymentPending {
			kinds = append(kinds, jobs.NoticeVoucherPaid)
		}
	case ch.FailedNow():
		kinds = append(kinds, jobs.NoticeVoucherExpired)
	}
	for _, k := range kinds {
		task, err := jobs.NewPaymentNoticeTask(ch.PaymentID, k)
		if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
			return err
		}
	}
	return nil
}

// handleSyncPayment settles one payment the reconciler found unsettled: a checkout whose
// creation job was lost is queued again (same idempotency key: no second session), any other
// is read from the provider.
func (w *Worker) handleSyncPayment(ctx context.Context, t *asynq.Task) error {
	store, p, err := w.taskPayment(ctx, t)
	if err != nil || p == nil {
		return err
	}
	switch {
	case p.Status == postgres.PaymentCreating && time.Since(p.CreatedAt) > 15*time.Minute:
		return store.SetCheckoutStartError(ctx, p.ID, "la creación del pago no terminó a tiempo", true)
	case p.Status == postgres.PaymentCreating:
		task, err := jobs.NewCreateCheckoutTask(p.ID)
		return jobs.Enqueue(ctx, w.deps.Enqueuer, task, err)
	case p.CheckoutSessionID != nil:
		return w.syncCheckout(ctx, *p.CheckoutSessionID, 0)
	}
	return nil
}

// handleRefundPayment asks the provider to refund a paid payment; the refund is recorded when
// its charge.refunded event comes back. The key makes a retried request one refund.
func (w *Worker) handleRefundPayment(ctx context.Context, t *asynq.Task) error {
	store, p, err := w.taskPayment(ctx, t)
	if err != nil || p == nil {
		return err
	}
	if p.Status != postgres.PaymentPaid || p.PaymentIntentID == nil {
		return nil // refunded already, or nothing to refund
	}
	r, err := w.paymentsFor(p.Provider).Refund(ctx, *p.PaymentIntentID, "refund-"+p.IdempotencyKey)
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) || lastAttempt(ctx) {
			// Let an administrator ask again.
			_ = store.WithdrawRefundRequest(ctx, p.ID)
			return fmt.Errorf("refund payment %d: %w: %w", p.ID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("refund payment %d: %w", p.ID, err)
	}
	return store.SetRefundID(ctx, p.ID, r.ID)
}

// handleExpireCheckout closes the page of a replaced attempt; one already closed is fine.
func (w *Worker) handleExpireCheckout(ctx context.Context, p jobs.ExpireCheckoutPayload) error {
	provider, err := w.paymentsOfSession(ctx, postgres.Store{DB: w.deps.DB}, p.SessionID)
	if err != nil {
		return err
	}
	err = provider.ExpireCheckout(ctx, p.SessionID)
	if errors.Is(err, perfilseguro.ErrPermanent) {
		return nil
	}
	return err
}

// handlePaymentNotice sends one notice about a payment, once (the receipt and the paid notice
// are claimed in Postgres; a failed send releases the claim for the retry).
func (w *Worker) handlePaymentNotice(ctx context.Context, np jobs.PaymentNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	p, err := store.PaymentByID(ctx, np.PaymentID)
	if err != nil || p == nil || p.UserID == nil {
		return err // gone with its account: nobody to tell
	}
	if !slices.Contains(noticeStatuses[np.Kind], p.Status) {
		// The change that queued this notice is queued inside its transaction: until it commits,
		// the payment still reads as before. A retry sees it (or, if it rolled back, never sends).
		return fmt.Errorf("payment %d is %s, not yet as the %s notice expects: %w", p.ID, p.Status, np.Kind, errPaymentNotYetVisible)
	}
	u, ok, err := userOrGone(ctx, store, *p.UserID)
	if !ok {
		return err
	}
	plan, _ := perfilseguro.PlanByCode(p.Plan)
	link := w.deps.PublicBaseURL + "/profile"
	notice := perfilseguro.PaymentNotice{Name: u.Nombre, PlanName: plan.Name, Amount: perfilseguro.FormatPesos(p.AmountCentavos), Link: link}
	to := w.sendersFor(u.Mode())
	switch np.Kind {
	case jobs.NoticeReceipt:
		if u.Email == nil {
			return nil
		}
		return w.sendClaimed(ctx, p.ID, "receipt", func() error {
			return to.email.SendEmail(ctx, receiptEmail(*u.Email, u, *p, plan, link))
		})
	case jobs.NoticeVoucherPaid:
		if u.PhoneNumber == nil {
			return nil
		}
		return w.sendClaimed(ctx, p.ID, "paid_notice", func() error {
			return to.whatsapp.SendPaymentNotice(ctx, *u.PhoneNumber, notice)
		})
	case jobs.NoticeVoucherExpired:
		notice.Expired = true
		var errs []error
		if u.Email != nil {
			errs = append(errs, to.email.SendEmail(ctx, voucherExpiredEmail(*u.Email, notice)))
		}
		if u.PhoneNumber != nil {
			errs = append(errs, to.whatsapp.SendPaymentNotice(ctx, *u.PhoneNumber, notice))
		}
		return errors.Join(errs...)
	}
	return fmt.Errorf("unknown payment notice %q: %w", np.Kind, asynq.SkipRetry)
}

// noticeStatuses are the payment statuses each notice speaks of.
var noticeStatuses = map[string][]string{
	jobs.NoticeReceipt:        {postgres.PaymentPaid, postgres.PaymentRefunded},
	jobs.NoticeVoucherPaid:    {postgres.PaymentPaid, postgres.PaymentRefunded},
	jobs.NoticeVoucherExpired: {postgres.PaymentFailed},
}

// sendClaimed sends a notice under its claim.
func (w *Worker) sendClaimed(ctx context.Context, paymentID int64, kind string, send func() error) error {
	store := postgres.Store{DB: w.deps.DB}
	claimed, err := store.ClaimPaymentNotice(ctx, paymentID, kind)
	if err != nil || !claimed {
		return err
	}
	if err := send(); err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("payment %d %s: %w: %w", paymentID, kind, err, asynq.SkipRetry)
		}
		if uerr := store.UnclaimPaymentNotice(ctx, paymentID, kind); uerr != nil {
			return fmt.Errorf("payment %d %s: %w (and releasing the claim: %v)", paymentID, kind, err, uerr)
		}
		return fmt.Errorf("payment %d %s: %w", paymentID, kind, err)
	}
	return nil
}

// handleReconcilePayments makes sure nothing is lost: it queues again the events stored but
// never processed (Redis was down when they arrived), and asks the provider about attempts left
// unsettled past their expiry (an event that never came).
func (w *Worker) handleReconcilePayments(ctx context.Context, t *asynq.Task) error {
	var rp jobs.ReconcilePaymentsPayload
	_ = json.Unmarshal(t.Payload(), &rp)
	d := w.deps.Payments
	if d.Provider == nil {
		return nil
	}
	store := postgres.Store{DB: w.deps.DB}
	ids, err := store.UnprocessedPaymentWebhookIDs(ctx, d.WebhookGrace, 200)
	if err != nil {
		return err
	}
	errs := enqueueEach(ctx, w.deps.Enqueuer, ids, jobs.NewProcessPaymentWebhookTask)
	unsettled, err := store.UnsettledPayments(ctx, d.SettleGrace, 100)
	if err != nil {
		return err
	}
	for _, p := range unsettled {
		if err := store.TouchPayment(ctx, p.ID); err != nil {
			return err
		}
		task, err := jobs.NewSyncPaymentTask(p.ID, rp.Tick)
		errs = append(errs, jobs.Enqueue(ctx, w.deps.Enqueuer, task, err))
	}
	if len(ids) > 0 || len(unsettled) > 0 {
		w.deps.Logger.Info("payment reconcile", "webhooks_requeued", len(ids), "payments_checked", len(unsettled))
	}
	return errors.Join(errs...)
}

// paymentMethodText names a payment method in Spanish.
func paymentMethodText(m *string) string {
	if m != nil && *m == "oxxo" {
		return "Efectivo en OXXO"
	}
	return "Tarjeta"
}

// receiptEmail is the receipt of a paid plan, in plain text and HTML (escaped).
func receiptEmail(to string, u perfilseguro.User, p postgres.Payment, plan perfilseguro.Plan, link string) perfilseguro.Email {
	paid := time.Now()
	if p.PaidAt != nil {
		paid = *p.PaidAt
	}
	years := perfilseguro.YearsText(p.Years)
	ref := ""
	if p.PaymentIntentID != nil {
		ref = *p.PaymentIntentID
	}
	rows := [][2]string{
		{"Folio", fmt.Sprintf("%d", p.ID)},
		{"Plan", plan.Name},
		{"Vigencia", years},
		{"Importe", perfilseguro.FormatPesos(p.AmountCentavos)},
		{"Método de pago", paymentMethodText(p.PaymentMethod)},
		{"Fecha de pago", perfilseguro.MexicoDate(paid)},
		{"Referencia", ref},
	}
	text := fmt.Sprintf("Hola %s:\n\nRecibimos tu pago. Este es tu recibo:\n\n", u.Nombre)
	table := ""
	for _, r := range rows {
		text += fmt.Sprintf("%s: %s\n", r[0], r[1])
		table += fmt.Sprintf("<tr><td style=\"padding:4px 12px 4px 0;color:#555\">%s</td><td><strong>%s</strong></td></tr>",
			html.EscapeString(r[0]), html.EscapeString(r[1]))
	}
	text += fmt.Sprintf("\nSiguiente paso: completa tu verificación biométrica en Mi Perfil:\n%s\n\n"+
		"Tu vigencia de %s empieza el día en que se valide tu identidad.", link, years)
	l := html.EscapeString(link)
	page := fmt.Sprintf(`<p>Hola %s:</p>
<p>Recibimos tu pago. Este es tu recibo:</p>
<table>%s</table>
<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Completar mi verificación</a></p>
<p>Tu vigencia de %s empieza el día en que se valide tu identidad.</p>`, html.EscapeString(u.Nombre), table, l, years)
	return perfilseguro.Email{To: to, Subject: "Recibo de pago de Perfil Seguro", Text: text, HTML: page}
}

// voucherExpiredEmail tells the person their OXXO voucher expired unpaid and how to start again.
func voucherExpiredEmail(to string, n perfilseguro.PaymentNotice) perfilseguro.Email {
	text := fmt.Sprintf("Hola %s:\n\nTu ficha de pago en OXXO para %s (%s) venció sin pago. No se hizo ningún cargo.\n\n"+
		"Puedes generar una nueva ficha o pagar con tarjeta en Mi Perfil:\n%s", n.Name, n.PlanName, n.Amount, n.Link)
	l := html.EscapeString(n.Link)
	page := fmt.Sprintf(`<p>Hola %s:</p>
<p>Tu ficha de pago en OXXO para <strong>%s</strong> (%s) venció sin pago. No se hizo ningún cargo.</p>
<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Pagar de nuevo</a></p>`,
		html.EscapeString(n.Name), html.EscapeString(n.PlanName), html.EscapeString(n.Amount), l)
	return perfilseguro.Email{To: to, Subject: "Tu ficha de pago en OXXO venció", Text: text, HTML: page}
}
