package stripe_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

// Sessions as GET /v1/checkout/sessions/{id}?expand[]=payment_intent.payment_method returns them
// (abridged to the fields around the ones we read).
const (
	cardPaidSession = `{
  "id": "cs_test_card",
  "object": "checkout.session",
  "amount_total": 29900,
  "client_reference_id": "77",
  "currency": "mxn",
  "expires_at": 1767312000,
  "metadata": {"payment_id": "77", "plan": "one_year", "user_id": "42"},
  "mode": "payment",
  "payment_intent": {
    "id": "pi_3Card",
    "object": "payment_intent",
    "amount": 29900,
    "currency": "mxn",
    "last_payment_error": null,
    "metadata": {"payment_id": "77", "plan": "one_year", "user_id": "42"},
    "next_action": null,
    "payment_method": {
      "id": "pm_1Card",
      "object": "payment_method",
      "card": {"brand": "visa", "exp_month": 12, "exp_year": 2030, "last4": "4242"},
      "type": "card"
    },
    "payment_method_types": ["card", "oxxo"],
    "status": "succeeded"
  },
  "payment_status": "paid",
  "status": "complete",
  "url": null
}`

	oxxoPendingSession = `{
  "id": "cs_test_oxxo",
  "object": "checkout.session",
  "amount_total": 39900,
  "client_reference_id": "78",
  "currency": "mxn",
  "expires_at": 1767312000,
  "metadata": {"payment_id": "78", "plan": "five_years", "user_id": "43"},
  "payment_intent": {
    "id": "pi_3Oxxo",
    "object": "payment_intent",
    "amount": 39900,
    "currency": "mxn",
    "last_payment_error": null,
    "next_action": {
      "oxxo_display_details": {
        "expires_after": 1767585599,
        "hosted_voucher_url": "https://payments.stripe.com/oxxo/voucher/test_YWNjdF8x",
        "number": "12345678901234657890123456789012"
      },
      "type": "oxxo_display_details"
    },
    "payment_method": {"id": "pm_1Oxxo", "object": "payment_method", "oxxo": {}, "type": "oxxo"},
    "status": "requires_action"
  },
  "payment_status": "unpaid",
  "status": "complete",
  "url": null
}`

	oxxoFailedSession = `{
  "id": "cs_test_oxxo_failed",
  "object": "checkout.session",
  "amount_total": 39900,
  "client_reference_id": "79",
  "currency": "mxn",
  "expires_at": 1767312000,
  "metadata": {},
  "payment_intent": {
    "id": "pi_3OxxoFailed",
    "object": "payment_intent",
    "last_payment_error": {
      "code": "payment_intent_payment_attempt_expired",
      "message": "The voucher expired before it was paid.",
      "payment_method": {"id": "pm_1OxxoFailed", "object": "payment_method", "oxxo": {}, "type": "oxxo"},
      "type": "invalid_request_error"
    },
    "next_action": null,
    "payment_method": null,
    "status": "requires_payment_method"
  },
  "payment_status": "unpaid",
  "status": "complete",
  "url": null
}`

	openSession = `{
  "id": "cs_test_open",
  "object": "checkout.session",
  "amount_total": 29900,
  "client_reference_id": null,
  "currency": "mxn",
  "expires_at": 1767312000,
  "metadata": {"payment_id": "80", "plan": "one_year", "user_id": "44"},
  "payment_intent": null,
  "payment_status": "unpaid",
  "status": "open",
  "url": "https://checkout.stripe.com/c/pay/cs_test_open"
}`
)

func TestGetCheckout(t *testing.T) {
	t.Parallel()
	expires := time.Unix(1767312000, 0).UTC()
	cases := []struct {
		name string
		body string
		want perfilseguro.CheckoutState
	}{
		{"card paid", cardPaidSession, perfilseguro.CheckoutState{
			SessionID: "cs_test_card", Status: "complete", PaymentStatus: "paid", PaymentID: 77,
			PaymentIntentID: "pi_3Card", PaymentMethod: "card", AmountTotal: 29900, Currency: "mxn", ExpiresAt: expires,
		}},
		{"OXXO voucher awaiting payment", oxxoPendingSession, perfilseguro.CheckoutState{
			SessionID: "cs_test_oxxo", Status: "complete", PaymentStatus: "unpaid", PaymentID: 78,
			PaymentIntentID: "pi_3Oxxo", PaymentMethod: "oxxo", AmountTotal: 39900, Currency: "mxn", ExpiresAt: expires,
			Voucher: &perfilseguro.OXXOVoucher{
				Number:    "12345678901234657890123456789012",
				ExpiresAt: time.Unix(1767585599, 0).UTC(),
				URL:       "https://payments.stripe.com/oxxo/voucher/test_YWNjdF8x",
			},
		}},
		{"OXXO voucher expired unpaid", oxxoFailedSession, perfilseguro.CheckoutState{
			SessionID: "cs_test_oxxo_failed", Status: "complete", PaymentStatus: "unpaid", PaymentID: 79,
			PaymentIntentID: "pi_3OxxoFailed", PaymentMethod: "oxxo", AmountTotal: 39900, Currency: "mxn", ExpiresAt: expires,
			AsyncFailed: true,
		}},
		{"open, no payment intent yet", openSession, perfilseguro.CheckoutState{
			SessionID: "cs_test_open", Status: "open", PaymentStatus: "unpaid", PaymentID: 80,
			AmountTotal: 29900, Currency: "mxn", ExpiresAt: expires,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, f := setup(t, http.StatusOK, tc.body)
			st, err := c.GetCheckout(context.Background(), tc.want.SessionID)
			require.NoError(t, err)

			got := f.lastCall(t, http.MethodGet, "/v1/checkout/sessions/"+tc.want.SessionID)
			// stripe-go numbers array parameters: expand[0] is Stripe's expand[].
			require.Equal(t, []string{"payment_intent.payment_method"}, got.Query["expand[0]"])
			require.Len(t, got.Query, 1)

			require.Equal(t, tc.want, st)
		})
	}
}

func TestGetCheckoutErrors(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusNotFound, `{"error":{"code":"resource_missing","message":"No such checkout.session: 'cs_test_nope'","param":"session","type":"invalid_request_error"}}`)
	_, err := c.GetCheckout(context.Background(), "cs_test_nope")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
	require.ErrorContains(t, err, "resource_missing")

	c, _ = setup(t, http.StatusServiceUnavailable, `{"error":{"message":"The server is temporarily unavailable.","type":"api_error"}}`)
	_, err = c.GetCheckout(context.Background(), "cs_test_card")
	require.Error(t, err)
	require.NotErrorIs(t, err, perfilseguro.ErrPermanent)

	_, err = c.GetCheckout(context.Background(), "")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
}

func TestParseCheckoutSessionUnexpandedIntent(t *testing.T) {
	t.Parallel()
	st, err := stripe.ParseCheckoutSession([]byte(`{"id":"cs_1","object":"checkout.session","status":"complete",
		"payment_status":"paid","client_reference_id":"12","payment_intent":"pi_1","amount_total":29900,"currency":"mxn"}`))
	require.NoError(t, err)
	require.Equal(t, "pi_1", st.PaymentIntentID)
	require.Equal(t, int64(12), st.PaymentID)
	require.Empty(t, st.PaymentMethod)
	require.False(t, st.AsyncFailed)
	require.True(t, st.ExpiresAt.IsZero())
}

func TestParseCheckoutSessionPaymentID(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, fields string
		want         int64
	}{
		{"client_reference_id", `"client_reference_id":"15","metadata":{"payment_id":"16"}`, 15},
		{"metadata fallback", `"client_reference_id":null,"metadata":{"payment_id":"16"}`, 16},
		{"unparsable", `"client_reference_id":"abc","metadata":{"payment_id":"x"}`, 0},
		{"absent", `"metadata":{}`, 0},
	}
	for _, tc := range cases {
		st, err := stripe.ParseCheckoutSession([]byte(`{"id":"cs_1","object":"checkout.session",` + tc.fields + `}`))
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, st.PaymentID, tc.name)
	}
}

func TestParseCheckoutSessionRejects(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string]string{
		"not JSON":       `<html>`,
		"no id":          `{"object":"checkout.session","status":"open"}`,
		"another object": `{"id":"pi_1","object":"payment_intent","status":"succeeded"}`,
		"no object":      `{"id":"cs_1","status":"open"}`,
		"bad intent":     `{"id":"cs_1","object":"checkout.session","payment_intent":42}`,
	} {
		_, err := stripe.ParseCheckoutSession([]byte(raw))
		require.Error(t, err, name)
	}
}
