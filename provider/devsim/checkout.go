package devsim

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
	"github.com/perfilseguro/perfilseguro/secure"
)

// CheckoutPath is where the stand-in's hosted checkout page lives: CheckoutPath + "{session}",
// and its printable OXXO voucher at CheckoutPath + "{session}/voucher".
const CheckoutPath = "/dev/checkout/"

// OXXOVoucherValidity is how long a voucher can be paid at a store (Stripe's default: 3 days).
const OXXOVoucherValidity = 3 * 24 * time.Hour

// checkoutValidity is how long a session stays open when the request sets no expiry (Stripe's
// default: 24 hours).
const checkoutValidity = 24 * time.Hour

// Checkout plays Stripe Checkout locally: sessions, their payment intents, OXXO vouchers and
// refunds live in dev_checkout_sessions; what the developer presses on the page comes back as
// correctly signed Stripe webhooks to WebhookURL, and GetCheckout answers in Stripe's session
// format so the real parser reads it.
type Checkout struct {
	DB            *sqlx.DB
	BaseURL       string       // PUBLIC_BASE_URL: the page's URL is BaseURL + CheckoutPath + session
	WebhookURL    string       // our own POST /api/webhooks/payment
	WebhookSecret string       // signs the webhooks exactly as Stripe does
	HTTP          *http.Client // default: 10-second timeout
	Now           func() time.Time
	// Redeliver is the wait before each new delivery of an event the page sent that our endpoint
	// answered 5xx or 429 or did not answer (nil: redeliverySchedule, redeliver.go), as Stripe
	// delivers again for days.
	Redeliver []time.Duration
}

var _ perfilseguro.PaymentProvider = Checkout{}

// CheckoutSession is one simulated checkout session with its payment intent.
type CheckoutSession struct {
	SessionID         string     `db:"session_id"`
	IdempotencyKey    string     `db:"idempotency_key"`
	ClientReferenceID *string    `db:"client_reference_id"`
	Metadata          string     `db:"metadata"`
	CustomerEmail     *string    `db:"customer_email"`
	ProductName       string     `db:"product_name"`
	AmountTotal       int64      `db:"amount_total"`
	Currency          string     `db:"currency"`
	SuccessURL        string     `db:"success_url"`
	CancelURL         string     `db:"cancel_url"`
	Status            string     `db:"status"`
	PaymentStatus     string     `db:"payment_status"`
	PaymentMethod     *string    `db:"payment_method"`
	PaymentIntentID   string     `db:"payment_intent_id"`
	PIStatus          string     `db:"pi_status"`
	VoucherNumber     *string    `db:"voucher_number"`
	VoucherExpiresAt  *time.Time `db:"voucher_expires_at"`
	RefundID          *string    `db:"refund_id"`
	RefundKey         *string    `db:"refund_key"`
	AmountRefunded    int64      `db:"amount_refunded"`
	ExpiresAt         time.Time  `db:"expires_at"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
}

// Payment intent statuses, as Stripe names them.
const (
	piSucceeded             = "succeeded"
	piRequiresAction        = "requires_action"
	piRequiresPaymentMethod = "requires_payment_method"
	piCanceled              = "canceled"
)

// Payment methods the page offers.
const (
	MethodCard = "card"
	MethodOXXO = "oxxo"
)

var (
	// ErrUnknownCheckout is returned for a session (or payment intent) the stand-in never created.
	ErrUnknownCheckout = fmt.Errorf("devsim checkout: unknown session: %w", perfilseguro.ErrPermanent)
	// ErrCheckoutState is returned for an action the session's current state does not allow.
	ErrCheckoutState = fmt.Errorf("devsim checkout: the session no longer allows that action: %w", perfilseguro.ErrPermanent)
	// ErrWebhookNotDelivered is returned when the state changed but the webhook was refused for
	// good (a 4xx; the change is kept: reconciliation through GetCheckout applies it), or, from
	// Refund, not taken for now (its job retries).
	ErrWebhookNotDelivered = errors.New("devsim checkout: webhook not delivered")
)

const checkoutColumns = `session_id, idempotency_key, client_reference_id, metadata, customer_email, product_name,
	amount_total, currency, success_url, cancel_url, status, payment_status, payment_method, payment_intent_id,
	pi_status, voucher_number, voucher_expires_at, refund_id, refund_key, amount_refunded, expires_at,
	created_at, updated_at`

func (c Checkout) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// URL is the hosted checkout page of session id.
func (c Checkout) URL(id string) string {
	return strings.TrimRight(c.BaseURL, "/") + CheckoutPath + id
}

// VoucherURL is the printable OXXO voucher of session id (Stripe's hosted_voucher_url).
func (c Checkout) VoucherURL(id string) string { return c.URL(id) + "/voucher" }

// CreateCheckout stores a new open session for req, or returns the one created earlier with the
// same idempotency key (as Stripe does; a key reused for another payment is refused).
func (c Checkout) CreateCheckout(ctx context.Context, req perfilseguro.CheckoutRequest) (perfilseguro.CheckoutSession, error) {
	if req.IdempotencyKey == "" {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("devsim create checkout: missing idempotency key: %w", perfilseguro.ErrPermanent)
	}
	if req.Plan.Centavos <= 0 {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("devsim create checkout: plan %q has no price: %w", req.Plan.Code, perfilseguro.ErrPermanent)
	}
	now := c.now()
	expires := req.ExpiresAt
	if expires.IsZero() {
		expires = now.Add(checkoutValidity)
	}
	id := "cs_test_" + randomToken(32)
	ref := strconv.FormatInt(req.PaymentID, 10)
	meta, err := json.Marshal(map[string]string{"payment_id": ref, "user_id": strconv.FormatInt(req.UserID, 10), "plan": req.Plan.Code})
	if err != nil {
		return perfilseguro.CheckoutSession{}, err
	}
	success := strings.ReplaceAll(req.SuccessURL, "{CHECKOUT_SESSION_ID}", id)
	cancel := strings.ReplaceAll(req.CancelURL, "{CHECKOUT_SESSION_ID}", id)
	const q = `INSERT INTO dev_checkout_sessions (session_id, idempotency_key, client_reference_id, metadata, customer_email,
			product_name, amount_total, currency, success_url, cancel_url, payment_intent_id, expires_at)
		VALUES ($1, $2, $3, $4, NULLIF($5, ''), $6, $7, 'mxn', $8, $9, $10, $11)
		ON CONFLICT (idempotency_key) DO NOTHING`
	if _, err := c.DB.ExecContext(ctx, q, id, req.IdempotencyKey, ref, string(meta), req.CustomerEmail, req.Plan.Name,
		req.Plan.Centavos, success, cancel, "pi_test_"+randomToken(24), expires); err != nil {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("devsim create checkout: %w", err)
	}
	var s CheckoutSession
	if err := c.DB.GetContext(ctx, &s, `SELECT `+checkoutColumns+` FROM dev_checkout_sessions WHERE idempotency_key = $1`,
		req.IdempotencyKey); err != nil {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("devsim create checkout: %w", err)
	}
	if s.ClientReferenceID == nil || *s.ClientReferenceID != ref || s.AmountTotal != req.Plan.Centavos {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("devsim create checkout: idempotency key %q was used for another payment: %w",
			req.IdempotencyKey, perfilseguro.ErrPermanent)
	}
	return perfilseguro.CheckoutSession{ID: s.SessionID, URL: c.URL(s.SessionID), ExpiresAt: s.ExpiresAt}, nil
}

// Session reads one simulated session. A session still open past its expiry is expired first,
// and a voucher past its deadline fails, as Stripe does on its own (without a webhook here:
// reconciliation through GetCheckout sees the change).
func (c Checkout) Session(ctx context.Context, id string) (CheckoutSession, error) {
	now := c.now()
	const expire = `UPDATE dev_checkout_sessions SET status = 'expired', pi_status = 'canceled', updated_at = now()
		WHERE session_id = $1 AND status = 'open' AND expires_at <= $2`
	if _, err := c.DB.ExecContext(ctx, expire, id, now); err != nil {
		return CheckoutSession{}, fmt.Errorf("devsim checkout session: %w", err)
	}
	const lapse = `UPDATE dev_checkout_sessions SET pi_status = 'requires_payment_method', updated_at = now()
		WHERE session_id = $1 AND status = 'complete' AND payment_status = 'unpaid' AND pi_status = 'requires_action'
			AND voucher_expires_at <= $2`
	if _, err := c.DB.ExecContext(ctx, lapse, id, now); err != nil {
		return CheckoutSession{}, fmt.Errorf("devsim checkout session: %w", err)
	}
	var s CheckoutSession
	err := c.DB.GetContext(ctx, &s, `SELECT `+checkoutColumns+` FROM dev_checkout_sessions WHERE session_id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("%w: %s", ErrUnknownCheckout, id)
	}
	if err != nil {
		return s, fmt.Errorf("devsim checkout session: %w", err)
	}
	return s, nil
}

// Open reports whether the session still accepts a payment method.
func (s CheckoutSession) Open() bool { return s.Status == perfilseguro.CheckoutOpen }

// VoucherPending reports whether an OXXO voucher awaits cash.
func (s CheckoutSession) VoucherPending() bool {
	return s.Status == perfilseguro.CheckoutComplete && s.PaymentStatus == perfilseguro.CheckoutUnpaid &&
		s.VoucherNumber != nil && s.PIStatus == piRequiresAction
}

// VoucherFailed reports whether the OXXO voucher expired unpaid.
func (s CheckoutSession) VoucherFailed() bool {
	return s.Status == perfilseguro.CheckoutComplete && s.PaymentStatus == perfilseguro.CheckoutUnpaid &&
		s.VoucherNumber != nil && s.PIStatus == piRequiresPaymentMethod
}

// Paid reports whether the payment went through (refunded or not).
func (s CheckoutSession) Paid() bool { return s.PaymentStatus == perfilseguro.CheckoutPaid }

// Refunded reports whether the payment was refunded.
func (s CheckoutSession) Refunded() bool { return s.RefundID != nil }

// Method is the chosen payment method ("card" or "oxxo"), "" before one is chosen.
func (s CheckoutSession) Method() string {
	if s.PaymentMethod == nil {
		return ""
	}
	return *s.PaymentMethod
}

// Email is the customer e-mail, "" when none was given.
func (s CheckoutSession) Email() string {
	if s.CustomerEmail == nil {
		return ""
	}
	return *s.CustomerEmail
}

// sessionJSON is the session in the shape of Stripe's checkout.session object. Expanded, its
// payment_intent is the object (with its payment method and the OXXO next action), as GET
// /v1/checkout/sessions/{id}?expand[]=payment_intent.payment_method answers; otherwise its id,
// as webhooks carry it.
func (c Checkout) sessionJSON(s CheckoutSession, expanded bool) json.RawMessage {
	var meta map[string]string
	if err := json.Unmarshal([]byte(s.Metadata), &meta); err != nil || meta == nil {
		meta = map[string]string{}
	}
	var pageURL any
	if s.Open() {
		pageURL = c.URL(s.SessionID)
	}
	var email any
	if s.CustomerEmail != nil {
		email = *s.CustomerEmail
	}
	obj := map[string]any{
		"id": s.SessionID, "object": "checkout.session", "livemode": false, "mode": "payment",
		"status": s.Status, "payment_status": s.PaymentStatus, "client_reference_id": s.ClientReferenceID,
		"metadata": meta, "amount_subtotal": s.AmountTotal, "amount_total": s.AmountTotal, "currency": s.Currency,
		"customer_email": email, "customer_details": map[string]any{"email": email},
		"payment_method_types": []string{MethodCard, MethodOXXO},
		"success_url":          s.SuccessURL, "cancel_url": s.CancelURL,
		"created": s.CreatedAt.Unix(), "expires_at": s.ExpiresAt.Unix(), "url": pageURL,
		"payment_intent": s.PaymentIntentID,
	}
	if expanded {
		obj["payment_intent"] = c.intentJSON(s)
	}
	raw, _ := json.Marshal(obj)
	return raw
}

// intentJSON is the session's payment intent in the shape of Stripe's payment_intent object.
func (c Checkout) intentJSON(s CheckoutSession) map[string]any {
	suffix := strings.TrimPrefix(s.PaymentIntentID, "pi_test_")
	var method, next, lastErr, latest any
	var received int64
	if m := s.Method(); m != "" {
		method = map[string]any{"id": "pm_test_" + suffix, "object": "payment_method", "type": m}
	}
	if s.VoucherFailed() {
		// As on Stripe, the failed attempt detaches the payment method; the error still names it.
		lastErr = map[string]any{"type": "invalid_request_error", "code": "payment_intent_payment_attempt_expired",
			"message": "The OXXO voucher expired unpaid.", "payment_method": method}
		method = nil
	}
	if s.VoucherPending() {
		next = map[string]any{"type": "oxxo_display_details", "oxxo_display_details": map[string]any{
			"number": *s.VoucherNumber, "expires_after": s.VoucherExpiresAt.Unix(),
			"hosted_voucher_url": c.VoucherURL(s.SessionID)}}
	}
	if s.Paid() {
		latest = "ch_test_" + suffix
		received = s.AmountTotal
	}
	return map[string]any{
		"id": s.PaymentIntentID, "object": "payment_intent", "livemode": false, "status": s.PIStatus,
		"amount": s.AmountTotal, "amount_received": received,
		"currency": s.Currency, "payment_method": method, "next_action": next,
		"last_payment_error": lastErr, "latest_charge": latest,
		"payment_method_types": []string{MethodCard, MethodOXXO},
	}
}

// chargeJSON is the session's charge in the shape of Stripe's charge object.
func (s CheckoutSession) chargeJSON() json.RawMessage {
	raw, _ := json.Marshal(map[string]any{
		"id": "ch_test_" + strings.TrimPrefix(s.PaymentIntentID, "pi_test_"), "object": "charge", "livemode": false,
		"payment_intent": s.PaymentIntentID, "amount": s.AmountTotal, "amount_captured": s.AmountTotal,
		"amount_refunded": s.AmountRefunded, "refunded": s.AmountRefunded >= s.AmountTotal,
		"currency": s.Currency, "paid": true, "status": "succeeded",
		"payment_method_details": map[string]any{"type": s.Method()},
	})
	return raw
}

// GetCheckout returns the session's current state through Stripe's own parser.
func (c Checkout) GetCheckout(ctx context.Context, sessionID string) (perfilseguro.CheckoutState, error) {
	s, err := c.Session(ctx, sessionID)
	if err != nil {
		return perfilseguro.CheckoutState{}, err
	}
	return stripe.ParseCheckoutSession(c.sessionJSON(s, true))
}

// Refund refunds the paid session of paymentIntentID in full and sends the charge.refunded
// webhook. It is idempotent by idempotencyKey: a repeated call returns the same refund and sends
// the webhook again (the same event), without refunding twice. An unknown or unpaid intent, or
// one already refunded under another key, is refused with an error wrapping ErrPermanent.
func (c Checkout) Refund(ctx context.Context, paymentIntentID, idempotencyKey string) (perfilseguro.Refund, error) {
	if idempotencyKey == "" {
		return perfilseguro.Refund{}, fmt.Errorf("devsim refund: missing idempotency key: %w", perfilseguro.ErrPermanent)
	}
	const q = `UPDATE dev_checkout_sessions SET refund_id = $2, refund_key = $3, amount_refunded = amount_total, updated_at = now()
		WHERE payment_intent_id = $1 AND payment_status = 'paid' AND refund_id IS NULL
		  AND payment_method IS DISTINCT FROM 'oxxo' -- as at Stripe, cash paid at OXXO cannot be refunded
		RETURNING ` + checkoutColumns
	var s CheckoutSession
	err := c.DB.GetContext(ctx, &s, q, paymentIntentID, "re_test_"+randomToken(24), idempotencyKey)
	if errors.Is(err, sql.ErrNoRows) {
		err = c.DB.GetContext(ctx, &s, `SELECT `+checkoutColumns+` FROM dev_checkout_sessions WHERE payment_intent_id = $1`, paymentIntentID)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return perfilseguro.Refund{}, fmt.Errorf("devsim refund: unknown payment intent %s: %w", paymentIntentID, perfilseguro.ErrPermanent)
		case err != nil:
			return perfilseguro.Refund{}, fmt.Errorf("devsim refund: %w", err)
		case !s.Paid():
			return perfilseguro.Refund{}, fmt.Errorf("devsim refund: payment intent %s is not paid: %w", paymentIntentID, perfilseguro.ErrPermanent)
		case s.PaymentMethod != nil && *s.PaymentMethod == "oxxo":
			return perfilseguro.Refund{}, fmt.Errorf("devsim refund: payment intent %s was paid in cash at OXXO, which cannot be refunded: %w",
				paymentIntentID, perfilseguro.ErrPermanent)
		case s.RefundKey == nil || *s.RefundKey != idempotencyKey:
			return perfilseguro.Refund{}, fmt.Errorf("devsim refund: payment intent %s is already refunded: %w", paymentIntentID, perfilseguro.ErrPermanent)
		}
	} else if err != nil {
		return perfilseguro.Refund{}, fmt.Errorf("devsim refund: %w", err)
	}
	refund := perfilseguro.Refund{ID: *s.RefundID, Status: "succeeded"}
	// One event per refund: a resend is the same event, as Stripe's own delivery retries are.
	event := "evt_test_" + strings.TrimPrefix(*s.RefundID, "re_test_")
	if err := c.send(ctx, event, perfilseguro.EventChargeRefunded, s.chargeJSON()); err != nil {
		return refund, err
	}
	return refund, nil
}

// ExpireCheckout closes an open session and sends checkout.session.expired; a session that is no
// longer open answers an error wrapping ErrPermanent.
func (c Checkout) ExpireCheckout(ctx context.Context, sessionID string) error {
	const q = `UPDATE dev_checkout_sessions SET status = 'expired', pi_status = 'canceled', updated_at = now()
		WHERE session_id = $1 AND status = 'open'`
	_, err := c.transition(ctx, sessionID, perfilseguro.EventCheckoutExpired, q)
	return err
}

// PayByCard pays the open session with a test card: complete and paid
// (checkout.session.completed).
func (c Checkout) PayByCard(ctx context.Context, id string) (CheckoutSession, error) {
	const q = `UPDATE dev_checkout_sessions SET status = 'complete', payment_status = 'paid', payment_method = 'card',
			pi_status = 'succeeded', updated_at = now()
		WHERE session_id = $1 AND status = 'open' AND expires_at > $2`
	return c.transition(ctx, id, perfilseguro.EventCheckoutCompleted, q, c.now())
}

// DeclineCard simulates a declined card: as on Stripe, the session stays open for another try
// and nothing is sent. A session that is no longer open answers ErrCheckoutState.
func (c Checkout) DeclineCard(ctx context.Context, id string) (CheckoutSession, error) {
	s, err := c.Session(ctx, id)
	if err != nil {
		return s, err
	}
	if !s.Open() {
		return s, ErrCheckoutState
	}
	return s, nil
}

// ChooseOXXO completes the open session with an OXXO voucher awaiting cash (unpaid, the intent
// requires action) valid for OXXOVoucherValidity (checkout.session.completed).
func (c Checkout) ChooseOXXO(ctx context.Context, id string) (CheckoutSession, error) {
	now := c.now()
	const q = `UPDATE dev_checkout_sessions SET status = 'complete', payment_status = 'unpaid', payment_method = 'oxxo',
			pi_status = 'requires_action', voucher_number = $3, voucher_expires_at = $4, updated_at = now()
		WHERE session_id = $1 AND status = 'open' AND expires_at > $2`
	return c.transition(ctx, id, perfilseguro.EventCheckoutCompleted, q, now, voucherNumber(), now.Add(OXXOVoucherValidity))
}

// PayOXXO pays the pending voucher in cash (checkout.session.async_payment_succeeded).
func (c Checkout) PayOXXO(ctx context.Context, id string) (CheckoutSession, error) {
	const q = `UPDATE dev_checkout_sessions SET payment_status = 'paid', pi_status = 'succeeded', updated_at = now()
		WHERE session_id = $1 AND status = 'complete' AND payment_status = 'unpaid' AND pi_status = 'requires_action'
			AND voucher_expires_at > $2`
	return c.transition(ctx, id, perfilseguro.EventAsyncPaymentSucceeded, q, c.now())
}

// ExpireOXXO lets the pending voucher expire unpaid: the voucher stays for display, the intent
// goes back to requiring a payment method (checkout.session.async_payment_failed).
func (c Checkout) ExpireOXXO(ctx context.Context, id string) (CheckoutSession, error) {
	const q = `UPDATE dev_checkout_sessions SET pi_status = 'requires_payment_method', updated_at = now()
		WHERE session_id = $1 AND status = 'complete' AND payment_status = 'unpaid' AND pi_status = 'requires_action'`
	return c.transition(ctx, id, perfilseguro.EventAsyncPaymentFailed, q)
}

// transition runs update (guarded by the state it expects; $1 is the session id), then sends
// eventType with the session as data.object. No row updated: ErrUnknownCheckout or
// ErrCheckoutState. The webhook failing after the change: the session and an error wrapping
// ErrWebhookNotDelivered.
func (c Checkout) transition(ctx context.Context, id, eventType, update string, args ...any) (CheckoutSession, error) {
	var s CheckoutSession
	err := c.DB.GetContext(ctx, &s, update+` RETURNING `+checkoutColumns, append([]any{id}, args...)...)
	if errors.Is(err, sql.ErrNoRows) {
		if s, err = c.Session(ctx, id); err != nil {
			return s, err
		}
		return s, ErrCheckoutState
	}
	if err != nil {
		return s, fmt.Errorf("devsim checkout %s: %w", eventType, err)
	}
	eventID := "evt_test_" + randomToken(24)
	body := stripe.EventJSON(eventID, eventType, c.now(), c.sessionJSON(s, false))
	send := func(ctx context.Context) error { return c.deliver(ctx, eventType, body) }
	return s, deliverOrLater(ctx, c.Redeliver, slog.Default(), send, "event", eventID)
}

// send POSTs a new event, signed as Stripe signs it, to WebhookURL; anything but a 2xx answer
// is an error wrapping ErrWebhookNotDelivered.
func (c Checkout) send(ctx context.Context, eventID, eventType string, object json.RawMessage) error {
	return c.deliver(ctx, eventType, stripe.EventJSON(eventID, eventType, c.now(), object))
}

// deliver POSTs an event's body with a fresh Stripe-Signature (a redelivery keeps the body and
// signs it again, so it stays within the 5-minute tolerance). No answer, 5xx and 429 are also
// retryable.
func (c Checkout) deliver(ctx context.Context, eventType string, body []byte) error {
	err := postWebhook(ctx, c.HTTP, c.WebhookURL, body, func(h http.Header) {
		h.Set(stripe.SignatureHeader, stripe.SignWebhook(c.WebhookSecret, body, c.now()))
	})
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrWebhookNotDelivered, eventType, err)
	}
	return nil
}

const tokenAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randomToken returns n random letters and digits, the form of Stripe's object id suffixes.
func randomToken(n int) string {
	return secure.RandomString(tokenAlphabet, n)
}

// voucherNumber returns an 18-digit OXXO reference, never starting with 0.
func voucherNumber() string {
	return secure.RandomString("123456789", 1) + secure.RandomString("0123456789", 17)
}
