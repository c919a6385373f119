package perfilseguro

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Plans a person validates under (DECISIONS.md "Plans and payment"). The free plan is for people
// who came through CasaLista or accepted an invitation; the others are bought before the
// biometric check.
const (
	PlanFree      = "free"
	PlanOneYear   = "one_year"
	PlanFiveYears = "five_years"
)

// Plan is one plan the landing page sells.
type Plan struct {
	Code      string
	Name      string // as the landing page and the receipt say it
	Years     int    // the validity it buys
	Centavos  int64  // price in MXN centavos (0 for free)
	Recommend bool
}

// Plans lists the plans in the landing page's order.
var Plans = []Plan{
	{Code: PlanFree, Name: "Validación gratuita", Years: 1},
	{Code: PlanOneYear, Name: "Validación 1 año", Years: 1, Centavos: 299_00, Recommend: true},
	{Code: PlanFiveYears, Name: "Validación 5 años", Years: 5, Centavos: 399_00},
}

// PlanByCode finds a plan; ok is false for an unknown code.
func PlanByCode(code string) (Plan, bool) {
	for _, p := range Plans {
		if p.Code == code {
			return p, true
		}
	}
	return Plan{}, false
}

// FreeEligible reports whether u's first validation is free: they came through CasaLista or
// accepted an invitation.
func FreeEligible(u User) bool {
	return u.Origen == OriginCasaLista || u.Origen == OriginInvitation
}

// YearsText writes a validity as Mexicans read it: "1 año", "5 años".
func YearsText(n int) string {
	if n == 1 {
		return "1 año"
	}
	return strconv.Itoa(n) + " años"
}

// PaymentNotice is what a person reads about a payment made away from the screen (OXXO).
type PaymentNotice struct {
	Expired  bool   // false: the payment arrived; true: the voucher expired unpaid
	Name     string // the person
	PlanName string // e.g. "Validación 1 año"
	Amount   string // e.g. "$299.00 MXN"
	Link     string // where to go on (Mi Perfil)
}

// FormatPesos writes centavos as Mexicans read a price: 29900 → "$299.00 MXN", 129900 → "$1,299.00 MXN".
func FormatPesos(centavos int64) string {
	sign := ""
	if centavos < 0 {
		sign, centavos = "-", -centavos
	}
	pesos := strconv.FormatInt(centavos/100, 10)
	var b strings.Builder
	for i, d := range pesos {
		if i > 0 && (len(pesos)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	c := strconv.FormatInt(centavos%100, 10)
	if len(c) < 2 {
		c = "0" + c
	}
	return sign + "$" + b.String() + "." + c + " MXN"
}

// CheckoutRequest asks the payment provider for a hosted checkout page.
type CheckoutRequest struct {
	PaymentID      int64  // our payments row: client_reference_id and metadata
	UserID         int64  // metadata
	CustomerEmail  string // the person's e-mail, prefilled on the checkout page (OXXO needs one)
	Plan           Plan
	SuccessURL     string
	CancelURL      string
	ExpiresAt      time.Time // when the checkout page stops accepting payment
	IdempotencyKey string    // one per attempt: a repeated request returns the same session
}

// CheckoutSession is a created hosted checkout page.
type CheckoutSession struct {
	ID        string
	URL       string
	ExpiresAt time.Time
}

// Checkout session statuses and payment statuses, as Stripe names them.
const (
	CheckoutOpen     = "open"
	CheckoutComplete = "complete"
	CheckoutExpired  = "expired"

	CheckoutPaid   = "paid"
	CheckoutUnpaid = "unpaid"
)

// OXXOVoucher is what a person takes to an OXXO store to pay in cash.
type OXXOVoucher struct {
	Number    string    // the reference the cashier types
	ExpiresAt time.Time // after this the voucher can no longer be paid
	URL       string    // the hosted voucher page (printable)
}

// CheckoutState is a checkout session as the provider reports it now.
type CheckoutState struct {
	SessionID       string
	Status          string // CheckoutOpen, CheckoutComplete or CheckoutExpired
	PaymentStatus   string // CheckoutPaid or CheckoutUnpaid
	PaymentID       int64  // our payments row (client_reference_id); 0 when absent
	PaymentIntentID string
	PaymentMethod   string // "card" or "oxxo" once known
	AmountTotal     int64  // centavos
	Currency        string
	Voucher         *OXXOVoucher // set while an OXXO voucher awaits payment
	// AsyncFailed is true when a delayed payment (OXXO) failed: the voucher expired unpaid.
	AsyncFailed bool
	ExpiresAt   time.Time
}

// PaymentEvent is a verified provider webhook event, reduced to what processing needs.
type PaymentEvent struct {
	ID              string // evt_…: processing is idempotent by it
	Type            string
	Created         time.Time
	SessionID       string // checkout.session.* events
	PaymentIntentID string // charge.refunded
	AmountRefunded  int64  // charge.refunded, centavos
	Refunded        bool   // charge.refunded: the charge is refunded in full
	Raw             json.RawMessage
}

// Payment webhook event types we act on.
const (
	EventCheckoutCompleted     = "checkout.session.completed"
	EventAsyncPaymentSucceeded = "checkout.session.async_payment_succeeded"
	EventAsyncPaymentFailed    = "checkout.session.async_payment_failed"
	EventCheckoutExpired       = "checkout.session.expired"
	EventChargeRefunded        = "charge.refunded"
)

// Refund is a refund the provider accepted (it completes through a charge.refunded event).
type Refund struct {
	ID     string
	Status string
}

// PaymentProvider creates checkout pages, reports their state and refunds payments (Stripe, or
// the local checkout stand-in). A refusal that retrying cannot fix wraps ErrPermanent.
type PaymentProvider interface {
	CreateCheckout(ctx context.Context, req CheckoutRequest) (CheckoutSession, error)
	GetCheckout(ctx context.Context, sessionID string) (CheckoutState, error)
	Refund(ctx context.Context, paymentIntentID, idempotencyKey string) (Refund, error)
	// ExpireCheckout closes an open checkout page (a newer attempt replaced it); a session that
	// is no longer open answers an error wrapping ErrPermanent.
	ExpireCheckout(ctx context.Context, sessionID string) error
}
