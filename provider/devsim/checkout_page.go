package devsim

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// CheckoutPage serves the stand-in's hosted checkout page (GET and POST CheckoutPath +
// "{session}") and its printable OXXO voucher (CheckoutPath + "{session}/voucher"): the developer
// pays with a test card, simulates a declined card, or takes an OXXO voucher and then simulates
// paying it at the store or letting it expire. Each change is recorded, a correctly signed Stripe
// webhook goes to Checkout.WebhookURL, and the card and OXXO choices return to the success URL.
type CheckoutPage struct {
	Checkout Checkout
	Logger   *slog.Logger
}

// The page's buttons (form field "action").
const (
	ActionCard       = "card"
	ActionDecline    = "decline"
	ActionOXXO       = "oxxo"
	ActionOXXOPaid   = "oxxo_paid"
	ActionOXXOExpire = "oxxo_expire"
)

// Messages the page shows.
const (
	msgCheckoutUnknown  = "Esta sesión de pago no existe o ya no está disponible."
	msgNoVoucher        = "Esta sesión de pago no tiene una ficha OXXO."
	msgCardDeclined     = "Tu tarjeta fue rechazada. Intenta con otra tarjeta o paga en OXXO."
	msgWrongState       = "Esta sesión de pago ya no admite esa acción."
	msgWebhookFailed    = "El pago se registró, pero no se pudo avisar a Perfil Seguro. La conciliación periódica lo aplicará más tarde."
	msgUnknownAction    = "Elige una de las opciones de pago."
	msgCheckoutInternal = "No se pudo registrar la operación. Intenta nuevamente."
)

type checkoutPageData struct {
	Session    *CheckoutSession
	Voucher    bool // the printable voucher view
	Amount     string
	Deadline   string
	Status     string
	VoucherURL string
	Error      string
}

// ServeHTTP shows the checkout page (GET) or applies the button pressed (POST). A path ending in
// /voucher is the voucher view, as Voucher serves it.
func (p CheckoutPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.serve(w, r, strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/voucher"))
}

// Voucher shows the printable OXXO voucher of the session (GET), Stripe's hosted_voucher_url; it
// also takes the simulated store outcome (POST action=oxxo_paid or oxxo_expire).
func (p CheckoutPage) Voucher(w http.ResponseWriter, r *http.Request) {
	p.serve(w, r, true)
}

func (p CheckoutPage) serve(w http.ResponseWriter, r *http.Request, voucher bool) {
	id := checkoutSessionID(r)
	s, err := p.Checkout.Session(r.Context(), id)
	if errors.Is(err, ErrUnknownCheckout) {
		p.render(w, http.StatusNotFound, checkoutPageData{Error: msgCheckoutUnknown})
		return
	}
	if err != nil {
		p.logger().Error("devsim checkout page", "session", id, "error", err)
		p.render(w, http.StatusInternalServerError, checkoutPageData{Error: msgCheckoutInternal})
		return
	}
	if voucher && s.VoucherNumber == nil {
		p.render(w, http.StatusNotFound, checkoutPageData{Error: msgNoVoucher})
		return
	}
	if r.Method != http.MethodPost {
		p.render(w, http.StatusOK, p.data(s, voucher, ""))
		return
	}
	var next CheckoutSession
	back := s.SuccessURL // card and OXXO return to the app, as Stripe Checkout does
	ctx := r.Context()
	switch r.PostFormValue("action") {
	case ActionCard:
		next, err = p.Checkout.PayByCard(ctx, id)
	case ActionDecline:
		if next, err = p.Checkout.DeclineCard(ctx, id); err == nil {
			p.render(w, http.StatusPaymentRequired, p.data(next, voucher, msgCardDeclined))
			return
		}
	case ActionOXXO:
		next, err = p.Checkout.ChooseOXXO(ctx, id)
	case ActionOXXOPaid:
		next, err = p.Checkout.PayOXXO(ctx, id)
		back = r.URL.Path // the store outcome stays on the voucher, which now says so
	case ActionOXXOExpire:
		next, err = p.Checkout.ExpireOXXO(ctx, id)
		back = r.URL.Path
	default:
		p.render(w, http.StatusBadRequest, p.data(s, voucher, msgUnknownAction))
		return
	}
	switch {
	case err == nil:
		http.Redirect(w, r, back, http.StatusSeeOther)
	case errors.Is(err, ErrUnknownCheckout):
		p.render(w, http.StatusNotFound, checkoutPageData{Error: msgCheckoutUnknown})
	case errors.Is(err, ErrCheckoutState):
		p.render(w, http.StatusConflict, p.data(next, voucher, msgWrongState))
	case errors.Is(err, ErrWebhookNotDelivered):
		p.logger().Error("devsim checkout webhook failed", "session", id, "error", err)
		p.render(w, http.StatusBadGateway, p.data(next, voucher, msgWebhookFailed))
	default:
		p.logger().Error("devsim checkout action", "session", id, "error", err)
		p.render(w, http.StatusInternalServerError, p.data(s, voucher, msgCheckoutInternal))
	}
}

// checkoutSessionID is the {session} path value, or the segment after CheckoutPath when the
// handler is mounted without a pattern.
func checkoutSessionID(r *http.Request) string {
	if id := r.PathValue("session"); id != "" {
		return id
	}
	rest := strings.TrimPrefix(r.URL.Path, CheckoutPath)
	id, _, _ := strings.Cut(rest, "/")
	return id
}

func (p CheckoutPage) data(s CheckoutSession, voucher bool, msg string) checkoutPageData {
	d := checkoutPageData{Session: &s, Voucher: voucher, Amount: perfilseguro.FormatPesos(s.AmountTotal),
		Status: checkoutStatusText(s), Error: msg, VoucherURL: CheckoutPath + s.SessionID + "/voucher"}
	if s.VoucherExpiresAt != nil {
		d.Deadline = perfilseguro.MexicoDateTime(*s.VoucherExpiresAt)
	}
	return d
}

// checkoutStatusText says the session's state in Spanish.
func checkoutStatusText(s CheckoutSession) string {
	switch {
	case s.Refunded():
		return "Pago reembolsado"
	case s.Paid():
		return "Pago completado"
	case s.VoucherFailed():
		return "Ficha vencida sin pago"
	case s.VoucherPending():
		return "Ficha OXXO pendiente de pago"
	case s.Status == perfilseguro.CheckoutExpired:
		return "Sesión vencida"
	default:
		return "Pendiente de pago"
	}
}

func (p CheckoutPage) logger() *slog.Logger { return loggerOr(p.Logger) }

func (p CheckoutPage) render(w http.ResponseWriter, status int, d checkoutPageData) {
	renderPage(w, status, checkoutPage, d, p.logger(), "devsim checkout page")
}

var checkoutPage = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pago de prueba (entorno de desarrollo)</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f1f5f9;color:#0f172a}
header{background:#0f172a;color:#fff;padding:1rem 1.5rem}
header small{display:inline-block;background:#f59e0b;color:#0f172a;font-weight:700;border-radius:999px;padding:.1rem .6rem;margin-left:.5rem;font-size:.75rem;vertical-align:middle}
main{max-width:34rem;margin:2rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 3px rgba(15,23,42,.08)}
h1{font-size:1.25rem;margin:0}
h2{font-size:1.15rem;margin:0 0 .5rem}
p{line-height:1.5;color:#334155}
.notice{background:#fffbeb;border:1px solid #fde68a;color:#78350f;border-radius:.6rem;padding:.75rem 1rem;font-size:.9rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;font-size:.95rem;margin:1rem 0}
dt{color:#64748b}
dd{margin:0;word-break:break-all}
.mono{font-family:ui-monospace,monospace}
.reference{font-family:ui-monospace,monospace;font-size:1.4rem;letter-spacing:.08em;font-weight:700}
.voucher{border:2px dashed #94a3b8;border-radius:.8rem;padding:1rem;margin:1rem 0}
.actions{display:grid;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border:0;border-radius:.6rem;padding:.8rem 1rem;cursor:pointer;color:#fff}
.pay{background:#4f46e5}.decline{background:#dc2626}.oxxo{background:#d97706}.paid{background:#16a34a}.expire{background:#64748b}
button:hover{filter:brightness(1.08)}
.status{font-weight:700;font-size:1.1rem}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:.6rem;padding:.75rem 1rem;margin-bottom:1rem}
a{color:#1d4ed8}
@media print{.actions,.links{display:none}body{background:#fff}.card{border:0;box-shadow:none}}
</style></head><body>
<header><h1>Pago de prueba (entorno de desarrollo) <small>Simulador de Stripe</small></h1></header>
<main><div class="card">
{{with .Error}}<div class="error" role="alert">{{.}}</div>{{end}}
{{with .Session}}
<p class="notice">Esta página sustituye a Stripe Checkout en el entorno de desarrollo. No se mueve dinero real: ningún botón cobra una tarjeta ni genera una ficha que se pueda pagar en una tienda.</p>
<h2>{{.ProductName}}</h2>
<p class="amount" data-testid="amount">{{$.Amount}}</p>
<dl>
{{with .Email}}<dt>Correo</dt><dd data-testid="email">{{.}}</dd>{{end}}
<dt>Sesión</dt><dd class="mono" data-testid="session-id">{{.SessionID}}</dd>
<dt>Estado</dt><dd data-testid="session-status">{{$.Status}}</dd>
</dl>
{{if .Open}}
<form method="post" class="actions">
<button class="pay" name="action" value="card" type="submit">Pagar con tarjeta</button>
<button class="decline" name="action" value="decline" type="submit">Simular tarjeta rechazada</button>
<button class="oxxo" name="action" value="oxxo" type="submit">Pagar en efectivo en OXXO</button>
</form>
<p class="links"><a href="{{.CancelURL}}">Cancelar y volver</a></p>
{{else if .VoucherNumber}}
<section class="voucher" aria-labelledby="voucher-title">
<h2 id="voucher-title">Ficha de pago OXXO</h2>
{{if .VoucherPending}}<p>Presenta esta referencia en cualquier tienda OXXO y paga en efectivo antes de la fecha límite.</p>{{end}}
<dl>
<dt>Referencia</dt><dd class="reference" data-testid="voucher-number">{{.VoucherNumber}}</dd>
<dt>Monto</dt><dd>{{$.Amount}}</dd>
<dt>Fecha límite</dt><dd data-testid="voucher-deadline">{{$.Deadline}}</dd>
</dl>
</section>
{{if .VoucherPending}}
<form method="post" class="actions">
<button class="paid" name="action" value="oxxo_paid" type="submit">Simular pago en tienda</button>
<button class="expire" name="action" value="oxxo_expire" type="submit">Simular ficha vencida</button>
</form>
{{else}}<p class="status" role="status">{{$.Status}}</p>{{end}}
<p class="links">{{if not $.Voucher}}<a href="{{$.VoucherURL}}">Ver ficha para imprimir</a> · {{end}}<a href="{{.SuccessURL}}">Volver a Perfil Seguro</a></p>
{{else}}
<p class="status" role="status">{{$.Status}}</p>
<p class="links"><a href="{{if .Paid}}{{.SuccessURL}}{{else}}{{.CancelURL}}{{end}}">Volver a Perfil Seguro</a></p>
{{end}}
{{end}}
</div></main></body></html>`))
