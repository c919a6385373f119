package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Plans and payment (DECISIONS.md): a person who is not eligible for the free plan pays before
// the biometric check. The checkout page is created by a job; the provider's signed events are
// stored first and applied by a job; the biometric start answers 402 until the plan is free or paid.

// PaymentsDeps holds what the payment area needs (filled in by cmd/perfilseguro).
type PaymentsDeps struct {
	// Enabled is PAYMENTS=on; off makes every validation free and answers no price.
	Enabled bool
	// Provider names the payment provider on payments rows ("stripe" or "devsim").
	Provider string
	// WebhookSecret verifies POST /api/webhooks/payments (STRIPE_WEBHOOK_SECRET).
	WebhookSecret string
	// Checkout is the local checkout stand-in whose page /dev/checkout/{session} serves the
	// sessions it made: everyone's in development, partners' test people's with Stripe.
	Checkout *devsim.Checkout
	// CreateWait bounds how long POST /api/payments/checkout waits for the page (default 8 s).
	CreateWait time.Duration
}

type payments struct {
	s *Server
	d PaymentsDeps
}

// checkoutsPerUser limits checkout attempts per person and hour.
const checkoutsPerUser = 20

// maxWebhookBody bounds a provider event (Stripe's are a few kilobytes).
const maxWebhookBody = 256 << 10

const msgUnknownPlan = "Elige un plan válido: 1 año o 5 años."

var (
	errPaymentsOff = httpError(http.StatusConflict, "Los pagos no están habilitados: tu validación no tiene costo.")
	errPlanIsFree  = httpError(http.StatusConflict,
		"Tu validación es gratuita porque llegaste por CasaLista o por invitación: no necesitas pagar.")
	errAlreadyPaid   = httpError(http.StatusConflict, "Ya pagaste tu plan. Completa tu verificación biométrica en Mi Perfil.")
	errPaymentFailed = httpError(http.StatusBadGateway, "No se pudo iniciar el pago. Intenta nuevamente.")
	errNoPayment     = httpError(http.StatusNotFound, "No encontramos ese pago.")
	// Stripe cannot refund OXXO payments (docs.stripe.com/payments/oxxo#refunds).
	errCashNotRefundable = httpError(http.StatusConflict,
		"Los pagos en efectivo en OXXO no se pueden reembolsar por medio de Stripe: acuerda la devolución directamente con la persona.")
)

func (s *Server) mountPayments(d PaymentsDeps) {
	if d.CreateWait == 0 {
		d.CreateWait = 8 * time.Second
	}
	p := &payments{s: s, d: d}
	s.pay = p
	tag := option.Tags("Pagos")
	fuego.Get(s.f, "/api/plans", p.plans, tag,
		option.Summary("Planes a la venta y si los pagos están habilitados (sin precios cuando no lo están)"))
	fuego.Get(s.f, "/api/payments/status", p.status, tag,
		option.Summary("Plan y estado de pago propios: qué falta para iniciar la verificación biométrica"))
	fuego.Post(s.f, "/api/payments/checkout", p.checkout, tag,
		option.Summary("Iniciar el pago de un plan: devuelve la página de pago (tarjeta u OXXO)"),
		option.AddResponse(http.StatusAccepted, "La página de pago aún se está creando: consultar GET /api/payments/status",
			fuego.Response{Type: CheckoutResponse{}}))
	fuego.Get(s.f, "/api/admin/users/{id}/payments", p.adminPayments, option.Tags("Administración"),
		option.Summary("Pagos de un usuario (administrador)"))
	fuego.Post(s.f, "/api/admin/payments/{id}/refund", p.adminRefund, option.Tags("Administración"),
		option.Summary("Reembolsar un pago por medio del proveedor; el reembolso se registra cuando llega su evento (administrador)"))
	webhook := op("Pagos", "Webhook firmado de Stripe (checkout.session.*, charge.refunded): se guarda por id de evento y un trabajo lo procesa",
		params(headerParam(stripe.SignatureHeader, "Firma de Stripe: t=…,v1=… (HMAC-SHA256 de «t.cuerpo»)", true)),
		jsonOf("200", "Recibido (también una repetición)", map[string]any{"received": true}),
		errorAnswer("400", "Firma no válida o vencida, o evento ilegible"), errorAnswer("404", "Pagos deshabilitados"),
		errorAnswer("413", "Cuerpo demasiado grande"), errorAnswer("500", "No se pudo guardar: Stripe reintentará"),
		errorAnswer("503", "Servicio no disponible: Stripe reintentará"))
	webhook.RequestBody = paymentWebhookBody()
	s.handle("POST /api/webhooks/payments", http.HandlerFunc(p.webhook), webhook)
	s.handle("GET "+devsim.CheckoutPath+"{session}", http.HandlerFunc(p.standInPage), nil)
	s.handle("POST "+devsim.CheckoutPath+"{session}", http.HandlerFunc(p.standInPage), nil)
	s.handle("GET "+devsim.CheckoutPath+"{session}/voucher", http.HandlerFunc(p.standInVoucher), nil)
	s.handle("POST "+devsim.CheckoutPath+"{session}/voucher", http.HandlerFunc(p.standInVoucher), nil)
}

// PlanJSON is one plan as the landing page and Mi Perfil show it.
type PlanJSON struct {
	Code        string  `json:"code" enum:"free,one_year,five_years"`
	Name        string  `json:"name"`
	Years       int     `json:"years"`
	Price       float64 `json:"price"` // pesos
	Currency    string  `json:"currency" enum:"MXN"`
	Recommended bool    `json:"recommended"`
}

// PlansResponse lists the plans for sale; none when payments are off.
type PlansResponse struct {
	PaymentsEnabled bool       `json:"paymentsEnabled"`
	Plans           []PlanJSON `json:"plans"`
}

func (p *payments) plans(c fuego.ContextNoBody) (PlansResponse, error) {
	res := PlansResponse{PaymentsEnabled: p.d.Enabled, Plans: []PlanJSON{}}
	if !p.d.Enabled {
		return res, nil
	}
	for _, pl := range perfilseguro.Plans {
		res.Plans = append(res.Plans, planJSON(pl))
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return res, nil
}

func planJSON(pl perfilseguro.Plan) PlanJSON {
	return PlanJSON{Code: pl.Code, Name: pl.Name, Years: pl.Years, Price: float64(pl.Centavos) / 100,
		Currency: "MXN", Recommended: pl.Recommend}
}

// VoucherJSON is an OXXO voucher awaiting cash.
type VoucherJSON struct {
	Number    string    `json:"number"`
	ExpiresAt time.Time `json:"expiresAt"`
	URL       string    `json:"url"`
}

// PaymentJSON is one payment as its owner sees it.
type PaymentJSON struct {
	ID          int64        `json:"id"`
	Plan        string       `json:"plan" enum:"one_year,five_years"`
	PlanName    string       `json:"planName"`
	Years       int          `json:"years"`
	Amount      float64      `json:"amount"` // pesos
	Currency    string       `json:"currency" enum:"MXN"`
	Status      string       `json:"status" enum:"creating,open,pending,paid,failed,expired,cancelled,start_failed,refunded"`
	Method      string       `json:"method,omitempty" enum:"card,oxxo"`
	CheckoutURL string       `json:"checkoutUrl,omitempty"`
	Voucher     *VoucherJSON `json:"voucher,omitempty"`
	PaidAt      *time.Time   `json:"paidAt,omitempty"`
	Used        bool         `json:"used"` // the validation it bought was granted
	CreatedAt   time.Time    `json:"createdAt"`
}

func paymentJSON(pm postgres.Payment) PaymentJSON {
	pl, _ := perfilseguro.PlanByCode(pm.Plan)
	j := PaymentJSON{ID: pm.ID, Plan: pm.Plan, PlanName: pl.Name, Years: pm.Years, Amount: float64(pm.AmountCentavos) / 100,
		Currency: "MXN", Status: pm.Status, PaidAt: pm.PaidAt, Used: pm.ConsumedAt != nil, CreatedAt: pm.CreatedAt}
	if pm.PaymentMethod != nil && (*pm.PaymentMethod == "card" || *pm.PaymentMethod == "oxxo") {
		j.Method = *pm.PaymentMethod
	}
	if pm.Status == postgres.PaymentOpen && pm.CheckoutURL != nil {
		j.CheckoutURL = *pm.CheckoutURL
	}
	if pm.Status == postgres.PaymentPending && pm.VoucherNumber != nil && pm.VoucherExpiresAt != nil {
		j.Voucher = &VoucherJSON{Number: *pm.VoucherNumber, ExpiresAt: *pm.VoucherExpiresAt}
		if pm.VoucherURL != nil {
			j.Voucher.URL = *pm.VoucherURL
		}
	}
	return j
}

// Payment states of a person (PaymentStatusResponse.State).
const (
	payNotRequired = "not_required" // payments are off
	payFree        = "free"         // the first validation is free (CasaLista, invitation)
	payChoose      = "choose"       // choose a plan and pay
	payOpen        = "open"         // a checkout page is open
	payPending     = "pending"      // an OXXO voucher awaits cash
	payFailed      = "failed"       // the voucher expired unpaid: start again
	payPaid        = "paid"         // paid; the biometric check may start
	payActive      = "active"       // validated with this plan
	payRevoked     = "revoked"      // an administrator revoked the validation: nothing to pay or start until lifted
)

// PaymentStatusResponse is the person's plan, its payment state and what remains to do.
type PaymentStatusResponse struct {
	PaymentsEnabled   bool         `json:"paymentsEnabled"`
	State             string       `json:"state" enum:"not_required,free,choose,open,pending,failed,paid,active,revoked"`
	Plan              string       `json:"plan,omitempty" enum:"free,one_year,five_years"`
	FreeEligible      bool         `json:"freeEligible"`
	MayStartBiometric bool         `json:"mayStartBiometric"`
	Message           string       `json:"message"`
	Payment           *PaymentJSON `json:"payment,omitempty"`
	Plans             []PlanJSON   `json:"plans"`
}

// paymentState works out where a person stands: the one rule behind Mi Perfil and the 402.
func (p *payments) paymentState(ctx context.Context, u perfilseguro.User) (PaymentStatusResponse, error) {
	res := PaymentStatusResponse{PaymentsEnabled: p.d.Enabled, FreeEligible: perfilseguro.FreeEligible(u), Plans: []PlanJSON{}}
	if u.RevokedAt != nil {
		// Whatever was paid or annulled since (a change of name), nothing may start until an
		// administrador lifts the revocation (DECISIONS.md, Revocation).
		res.State = payRevoked
		res.Message = "Tu validación fue revocada: no puedes pagar ni iniciar una nueva verificación hasta que soporte revise tu caso."
		return res, nil
	}
	if !p.d.Enabled {
		res.State, res.MayStartBiometric = payNotRequired, true
		return res, nil
	}
	for _, pl := range perfilseguro.Plans[1:] {
		res.Plans = append(res.Plans, planJSON(pl))
	}
	plan, err := p.s.store.UserPlan(ctx, u.ID)
	if err != nil {
		return res, err
	}
	res.Plan = plan
	list, err := p.s.store.PaymentsOfUser(ctx, u.ID)
	if err != nil {
		return res, err
	}
	validated := u.BiometricVerified && u.VerificationLevel >= perfilseguro.LevelBiometric
	renewing := validated && u.Renewable(p.s.now())
	for _, pm := range list {
		if pm.Status == postgres.PaymentPaid && pm.ConsumedAt == nil {
			j := paymentJSON(pm)
			res.State, res.MayStartBiometric, res.Payment, res.Plan = payPaid, true, &j, pm.Plan
			res.Message = fmt.Sprintf("Pago recibido. Completa tu verificación biométrica para activar tu vigencia de %s.", perfilseguro.YearsText(pm.Years))
			return res, nil
		}
	}
	if u.RevalidationRequiredAt != nil && !validated {
		// A change of name or a lifted revocation annulled a validation already paid for (or free).
		res.State, res.MayStartBiometric = payActive, true
		res.Message = "Tu plan sigue activo. Valida tu identidad de nuevo para recuperar tu pase."
		return res, nil
	}
	if validated && !renewing {
		res.State, res.Message = payActive, "Tu plan está activo."
		for _, pm := range list {
			if pm.ConsumedAt != nil {
				j := paymentJSON(pm)
				res.Payment, res.Plan = &j, pm.Plan
				break
			}
		}
		if res.Payment == nil && res.FreeEligible {
			res.Plan = perfilseguro.PlanFree
		}
		return res, nil
	}
	if !validated && res.FreeEligible {
		res.State, res.MayStartBiometric, res.Plan = payFree, true, perfilseguro.PlanFree
		res.Message = "Tu validación es gratuita por llegar a través de CasaLista o por invitación. Completa tu verificación biométrica."
		return res, nil
	}
	res.State, res.Message = payChoose, "Elige tu plan y págalo para iniciar tu verificación biométrica."
	if renewing {
		res.Message = "Para renovar tu validación elige y paga un plan."
	}
	// The newest attempt since the current validation (a renewal starts from scratch) says more.
	for _, pm := range list {
		if pm.ConsumedAt != nil || (u.FechaValidacion != nil && pm.CreatedAt.Before(*u.FechaValidacion)) {
			break
		}
		j := paymentJSON(pm)
		switch pm.Status {
		case postgres.PaymentCreating, postgres.PaymentOpen:
			res.State, res.Payment = payOpen, &j
			res.Message = "Tienes un pago en curso. Continúa en la página de pago."
		case postgres.PaymentPending:
			res.State, res.Payment = payPending, &j
			res.Message = "Paga tu ficha en cualquier tienda OXXO antes de la fecha límite. " +
				"Te avisaremos por correo y WhatsApp cuando se acredite."
		case postgres.PaymentFailed:
			res.State, res.Payment = payFailed, &j
			res.Message = "Tu ficha de pago en OXXO venció sin pago. Genera una nueva o paga con tarjeta."
		default:
			continue // expired, cancelled, refunded, start_failed: choose again
		}
		break
	}
	return res, nil
}

func (p *payments) status(c fuego.ContextNoBody) (PaymentStatusResponse, error) {
	r := c.Request()
	me, err := p.s.requireUser(r)
	if err != nil {
		return PaymentStatusResponse{}, err
	}
	u, err := p.s.store.UserByID(r.Context(), me)
	if err != nil {
		return PaymentStatusResponse{}, err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return p.paymentState(r.Context(), u)
}

// requirePaidPlan is the server's gate before a biometric check: 402 until the plan is free or paid.
func (p *payments) requirePaidPlan(ctx context.Context, u perfilseguro.User) error {
	st, err := p.paymentState(ctx, u)
	if err != nil {
		return err
	}
	if st.MayStartBiometric {
		return nil
	}
	msg := "Para iniciar tu verificación biométrica primero elige y paga tu plan en Mi Perfil."
	switch st.State {
	case payPending:
		msg = "Tu pago en OXXO está pendiente. Podrás iniciar tu verificación biométrica cuando se acredite."
	case payOpen:
		msg = "Tu pago aún no se completa. Termínalo en la página de pago para iniciar tu verificación biométrica."
	}
	return httpError(http.StatusPaymentRequired, msg)
}

// CheckoutRequest names the plan to pay.
type CheckoutRequest struct {
	Plan string `json:"plan" enum:"one_year,five_years"`
}

// CheckoutResponse gives the browser the checkout page; while it is still being created
// (status 202) it says pending.
type CheckoutResponse struct {
	PaymentID   int64  `json:"paymentId"`
	CheckoutURL string `json:"checkoutUrl,omitempty"`
	Pending     bool   `json:"pending,omitempty"`
}

// checkout records an attempt and queues its checkout page in one transaction (Redis down:
// nothing is left behind, 503), then waits briefly for the job's URL. A double click finds the
// attempt in progress and answers the same page.
func (p *payments) checkout(c fuego.ContextWithBody[CheckoutRequest]) (CheckoutResponse, error) {
	r := c.Request()
	ctx := r.Context()
	me, err := p.s.requireUser(r)
	if err != nil {
		return CheckoutResponse{}, err
	}
	req, err := decodeJSON[CheckoutRequest](r)
	if err != nil {
		return CheckoutResponse{}, err
	}
	plan, ok := perfilseguro.PlanByCode(req.Plan)
	if !ok || plan.Centavos == 0 {
		return CheckoutResponse{}, perfilseguro.FieldError("plan", msgUnknownPlan)
	}
	if !p.d.Enabled {
		return CheckoutResponse{}, errPaymentsOff
	}
	u, err := p.s.store.UserByID(ctx, me)
	if err != nil {
		return CheckoutResponse{}, err
	}
	st, err := p.paymentState(ctx, u)
	if err != nil {
		return CheckoutResponse{}, err
	}
	switch {
	case u.RevokedAt != nil:
		return CheckoutResponse{}, p.s.errRevoked()
	case st.State == payFree:
		return CheckoutResponse{}, errPlanIsFree
	case st.State == payPaid:
		return CheckoutResponse{}, errAlreadyPaid
	case st.State == payActive:
		return CheckoutResponse{}, errAlreadyBiometric
	}
	if err := p.s.allow(ctx, limit{"checkout:user:" + strconv.FormatInt(me, 10), checkoutsPerUser}); err != nil {
		return CheckoutResponse{}, err
	}
	var att postgres.AttemptResult
	err = p.s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		att, err = p.s.store.StartPaymentAttempt(ctx, tx, me, plan, p.providerFor(u), "ps-pay-"+secure.NewToken(16))
		if err != nil || !att.Created {
			return err
		}
		task, err := jobs.NewCreateCheckoutTask(att.Payment.ID)
		if err := p.s.enqueue(ctx, task, err); err != nil {
			return err
		}
		if att.Replaced != nil {
			task, err := jobs.NewExpireCheckoutTask(*att.Replaced)
			return p.s.enqueue(ctx, task, err)
		}
		return nil
	})
	if err != nil {
		return CheckoutResponse{}, err
	}
	return p.awaitCheckout(c, att.Payment.ID)
}

// awaitCheckout waits for the job to store the checkout page (200), to fail for good (502), or
// for the wait to pass (202: the browser keeps polling GET /api/payments/status).
func (p *payments) awaitCheckout(c fuego.ContextWithBody[CheckoutRequest], id int64) (CheckoutResponse, error) {
	url, pending, err := awaitPage(c, p.d.CreateWait, 100*time.Millisecond, errPaymentFailed, func(ctx context.Context) (*string, bool, error) {
		pm, err := p.s.store.PaymentByID(ctx, id)
		if err != nil || pm == nil {
			return nil, false, err
		}
		if pm.Status != postgres.PaymentOpen {
			return nil, pm.Status == postgres.PaymentStartFailed, nil
		}
		return pm.CheckoutURL, false, nil
	})
	if err != nil {
		return CheckoutResponse{}, err
	}
	return CheckoutResponse{PaymentID: id, CheckoutURL: url, Pending: pending}, nil
}

// webhook verifies Stripe's signature and timestamp before anything else, stores the raw body
// by event id (a replay is stored once and applied once), answers 200, then queues its
// processing. If the queue is unreachable the stored row waits for the periodic reconciler.
func (p *payments) webhook(w http.ResponseWriter, r *http.Request) {
	if !p.d.Enabled {
		writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err != nil {
		writeError(w, r, httpError(http.StatusRequestEntityTooLarge, "La solicitud es demasiado grande."))
		return
	}
	ev, err := stripe.VerifyWebhook(p.d.WebhookSecret, body, r.Header.Get(stripe.SignatureHeader))
	if err != nil {
		p.s.logger.WarnContext(r.Context(), "payment webhook refused", "error", err, "request_id", requestID(r.Context()))
		msg := "Firma del webhook inválida."
		if errors.Is(err, stripe.ErrStaleTimestamp) {
			msg = "Firma del webhook vencida."
		}
		writeError(w, r, httpError(http.StatusBadRequest, msg))
		return
	}
	id, processed, err := p.s.store.InsertPaymentWebhook(r.Context(), ev, body)
	p.s.acknowledgeWebhook(w, r, "payment", id, processed, err, jobs.NewProcessPaymentWebhookTask)
}

// AdminPaymentJSON is a payment as an administrator sees it.
type AdminPaymentJSON struct {
	PaymentJSON
	Provider          string     `json:"provider"`
	CheckoutSessionID *string    `json:"checkoutSessionId"`
	PaymentIntentID   *string    `json:"paymentIntentId"`
	RefundRequestedAt *time.Time `json:"refundRequestedAt"`
	RefundedAt        *time.Time `json:"refundedAt"`
	ConsumedAt        *time.Time `json:"consumedAt"`
	Refundable        bool       `json:"refundable"`
}

// AdminPaymentsResponse lists a person's payments, the newest first.
type AdminPaymentsResponse struct {
	Payments []AdminPaymentJSON `json:"payments"`
}

func (p *payments) adminPayments(c fuego.ContextNoBody) (AdminPaymentsResponse, error) {
	r := c.Request()
	if _, err := p.s.requireRole(r, rolesAny...); err != nil { // every role reads payments
		return AdminPaymentsResponse{}, err
	}
	id, err := pathUserID(c)
	if err != nil {
		return AdminPaymentsResponse{}, err
	}
	if _, err := p.s.store.UserByID(r.Context(), id); err != nil {
		return AdminPaymentsResponse{}, err
	}
	list, err := p.s.store.PaymentsOfUser(r.Context(), id)
	if err != nil {
		return AdminPaymentsResponse{}, err
	}
	res := AdminPaymentsResponse{Payments: make([]AdminPaymentJSON, 0, len(list))}
	for _, pm := range list {
		j := AdminPaymentJSON{PaymentJSON: paymentJSON(pm), Provider: pm.Provider, CheckoutSessionID: pm.CheckoutSessionID,
			PaymentIntentID: pm.PaymentIntentID, RefundRequestedAt: pm.RefundRequestedAt, RefundedAt: pm.RefundedAt,
			ConsumedAt: pm.ConsumedAt}
		j.Refundable = pm.Status == postgres.PaymentPaid && pm.RefundRequestedAt == nil && pm.PaymentIntentID != nil && !paidInCash(pm)
		res.Payments = append(res.Payments, j)
	}
	return res, nil
}

// paidInCash reports an OXXO payment: Stripe cannot refund cash, so the panel offers no refund
// and the person is credited outside Stripe.
func paidInCash(pm postgres.Payment) bool {
	return pm.PaymentMethod != nil && *pm.PaymentMethod == "oxxo"
}

// RefundResponse acknowledges a refund request.
type RefundResponse struct {
	Message string `json:"message"`
}

// adminRefund asks the provider (through a job) to refund a paid payment. The refund is
// recorded when its charge.refunded event comes back.
func (p *payments) adminRefund(c fuego.ContextNoBody) (RefundResponse, error) {
	r := c.Request()
	ctx := r.Context()
	id, err := pathID(c, errNoPayment)
	if err != nil {
		return RefundResponse{}, err
	}
	sess, err := p.s.authorize(r, guard{action: "payment.refund", targetKind: "payment", targetID: strconv.FormatInt(id, 10),
		roles: rolesRefund, fresh: true})
	if err != nil {
		return RefundResponse{}, err
	}
	pm, err := p.s.store.PaymentByID(ctx, id)
	if err != nil {
		return RefundResponse{}, err
	}
	if pm == nil {
		return RefundResponse{}, errNoPayment
	}
	if pm.Status != postgres.PaymentPaid || pm.PaymentIntentID == nil {
		return RefundResponse{}, httpError(http.StatusConflict, "Solo se puede reembolsar un pago pagado.")
	}
	if paidInCash(*pm) {
		return RefundResponse{}, errCashNotRefundable
	}
	target := strconv.FormatInt(id, 10)
	err = p.s.adminAction(r, sess, "payment.refund", "payment", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		asked, err := p.s.store.MarkRefundRequested(ctx, id)
		if err == nil && !asked {
			err = httpError(http.StatusConflict, "El reembolso de este pago ya fue solicitado.")
		}
		return target, nil, err
	})
	if err != nil {
		return RefundResponse{}, err
	}
	task, err := jobs.NewRefundPaymentTask(id)
	if err := jobs.Enqueue(ctx, p.s.queue, task, err); err != nil {
		// Undo the mark so the administrator can ask again once the queue is back; the trail
		// shows the request, then that it failed.
		_ = p.s.store.WithdrawRefundRequest(context.WithoutCancel(ctx), id)
		p.s.audit(r, adminEvent(sess.Admin, "payment.refund", "payment", target, postgres.OutcomeFailed))
		return RefundResponse{}, fmt.Errorf("%v: %w", err, errUnavailable)
	}
	p.s.logger.InfoContext(ctx, "admin requested refund", "payment_id", id, "request_id", requestID(ctx))
	setStatus(c, http.StatusAccepted)
	return RefundResponse{Message: "Reembolso solicitado. Se reflejará en el pago cuando el proveedor lo confirme."}, nil
}

// providerFor names who takes a person's payment: the stand-in for a partner's test person, even
// in production (never billed); the configured provider for everyone else.
func (p *payments) providerFor(u perfilseguro.User) string {
	if u.Mode() != perfilseguro.Live && p.d.Checkout != nil {
		return "devsim"
	}
	return p.d.Provider
}

// standInPage serves the stand-in's checkout page for the sessions it made (no other session is
// its to settle); 404 without a stand-in or with payments off.
func (p *payments) standInPage(w http.ResponseWriter, r *http.Request) {
	if p.d.Checkout == nil || !p.d.Enabled {
		writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
		return
	}
	devsim.CheckoutPage{Checkout: *p.d.Checkout, Logger: p.s.logger}.ServeHTTP(w, r)
}

// standInVoucher serves the stand-in's OXXO voucher, as standInPage.
func (p *payments) standInVoucher(w http.ResponseWriter, r *http.Request) {
	if p.d.Checkout == nil || !p.d.Enabled {
		writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
		return
	}
	devsim.CheckoutPage{Checkout: *p.d.Checkout, Logger: p.s.logger}.Voucher(w, r)
}
