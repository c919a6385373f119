package stripe_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	stripego "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

const webhookSecret = "whsec_test_5f8d2c1b9a7e6d4c3b2a1f0e9d8c7b6a"

// Events as Stripe delivers them. Their api_version is older than stripe-go's on purpose: the
// endpoint's version may lag the library's and must still verify.
var (
	completedEvent = []byte(`{
  "id": "evt_1CompletedXyz",
  "object": "event",
  "api_version": "2025-06-30.basil",
  "created": 1767229200,
  "data": {"object": {"id": "cs_test_card", "object": "checkout.session", "client_reference_id": "77",
    "customer_details": {"email": "ana.lopez@example.com", "name": "Ana López"},
    "payment_intent": "pi_3Card", "payment_status": "paid", "status": "complete"}},
  "livemode": false,
  "pending_webhooks": 1,
  "request": {"id": null, "idempotency_key": null},
  "type": "checkout.session.completed"
}`)

	refundedEvent = []byte(`{
  "id": "evt_3RefundedAbc",
  "object": "event",
  "api_version": "2026-02-25.clover",
  "created": 1767315600,
  "data": {"object": {"id": "ch_3Card", "object": "charge", "amount": 29900, "amount_captured": 29900,
    "amount_refunded": 29900, "currency": "mxn", "payment_intent": "pi_3Card", "refunded": true, "status": "succeeded"},
    "previous_attributes": {"amount_refunded": 0, "refunded": false}},
  "livemode": false,
  "pending_webhooks": 1,
  "request": {"id": "req_abc", "idempotency_key": "refund-77"},
  "type": "charge.refunded"
}`)
)

func signed(body []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: at}).Header
}

func TestVerifyWebhookMapsEvents(t *testing.T) {
	t.Parallel()
	now := time.Now()

	ev, err := stripe.VerifyWebhook(webhookSecret, completedEvent, signed(completedEvent, webhookSecret, now))
	require.NoError(t, err)
	require.Equal(t, perfilseguro.PaymentEvent{
		ID: "evt_1CompletedXyz", Type: perfilseguro.EventCheckoutCompleted, Created: time.Unix(1767229200, 0).UTC(),
		SessionID: "cs_test_card", Raw: completedEvent,
	}, ev)

	ev, err = stripe.VerifyWebhook(webhookSecret, refundedEvent, signed(refundedEvent, webhookSecret, now))
	require.NoError(t, err)
	require.Equal(t, perfilseguro.PaymentEvent{
		ID: "evt_3RefundedAbc", Type: perfilseguro.EventChargeRefunded, Created: time.Unix(1767315600, 0).UTC(),
		PaymentIntentID: "pi_3Card", AmountRefunded: 29900, Refunded: true, Raw: refundedEvent,
	}, ev)
}

func TestVerifyWebhookRejects(t *testing.T) {
	t.Parallel()
	now := time.Now()
	sig := signed(completedEvent, webhookSecret, now)
	tampered := bytes.Replace(completedEvent, []byte(`"cs_test_card"`), []byte(`"cs_test_evil"`), 1)
	reencoded := bytes.Replace(completedEvent, []byte("López"), []byte(`L\u00f3pez`), 1)

	cases := []struct {
		name   string
		secret string
		body   []byte
		header string
		want   error
	}{
		{"tampered body", webhookSecret, tampered, sig, stripe.ErrBadSignature},
		{"re-encoded body", webhookSecret, reencoded, sig, stripe.ErrBadSignature},
		{"wrong secret", "whsec_another", completedEvent, sig, stripe.ErrBadSignature},
		{"no secret configured", "", completedEvent, signed(completedEvent, "", now), stripe.ErrBadSignature},
		{"missing header", webhookSecret, completedEvent, "", stripe.ErrBadSignature},
		{"garbage header", webhookSecret, completedEvent, "sha256=abc", stripe.ErrBadSignature},
		{"header without v1", webhookSecret, completedEvent, "t=1767229200,v0=abcdef", stripe.ErrBadSignature},
		{"10 minutes old", webhookSecret, completedEvent, signed(completedEvent, webhookSecret, now.Add(-10*time.Minute)), stripe.ErrStaleTimestamp},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := stripe.VerifyWebhook(tc.secret, tc.body, tc.header)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestVerifyWebhookWithinTolerance(t *testing.T) {
	t.Parallel()
	_, err := stripe.VerifyWebhook(webhookSecret, completedEvent, signed(completedEvent, webhookSecret, time.Now().Add(-4*time.Minute)))
	require.NoError(t, err)
}

func TestVerifyWebhookSignedButNotAnEvent(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"cs_test_card","object":"checkout.session"}`)
	_, err := stripe.VerifyWebhook(webhookSecret, body, signed(body, webhookSecret, time.Now()))
	require.Error(t, err)
	require.NotErrorIs(t, err, stripe.ErrBadSignature)
	require.NotErrorIs(t, err, stripe.ErrStaleTimestamp)
}

func TestClientVerifyWebhookUsesConfiguredSecret(t *testing.T) {
	t.Parallel()
	c := stripe.New(stripe.Config{SecretKey: secretKey, WebhookSecret: webhookSecret})
	ev, err := c.VerifyWebhook(completedEvent, signed(completedEvent, webhookSecret, time.Now()))
	require.NoError(t, err)
	require.Equal(t, "cs_test_card", ev.SessionID)
}

func TestSignWebhookMatchesStripe(t *testing.T) {
	t.Parallel()
	at := time.Now()
	require.Equal(t, signed(completedEvent, webhookSecret, at), stripe.SignWebhook(webhookSecret, completedEvent, at))
}

func TestEventJSONRoundTrip(t *testing.T) {
	t.Parallel()
	created := time.Unix(1767229200, 0)
	body := stripe.EventJSON("evt_local_1", perfilseguro.EventAsyncPaymentSucceeded, created,
		json.RawMessage(`{"id":"cs_local_1","object":"checkout.session","success_url":"https://perfilseguro.mx/pago/listo?a=1&b=2"}`))
	require.JSONEq(t, `{
		"id": "evt_local_1",
		"object": "event",
		"api_version": "`+stripego.APIVersion+`",
		"created": 1767229200,
		"type": "checkout.session.async_payment_succeeded",
		"livemode": false,
		"pending_webhooks": 1,
		"data": {"object": {"id":"cs_local_1","object":"checkout.session","success_url":"https://perfilseguro.mx/pago/listo?a=1&b=2"}}
	}`, string(body))
	require.Contains(t, string(body), "?a=1&b=2", "URLs are not HTML-escaped")

	ev, err := stripe.VerifyWebhook(webhookSecret, body, stripe.SignWebhook(webhookSecret, body, time.Now()))
	require.NoError(t, err)
	require.Equal(t, "evt_local_1", ev.ID)
	require.Equal(t, perfilseguro.EventAsyncPaymentSucceeded, ev.Type)
	require.Equal(t, "cs_local_1", ev.SessionID)
	require.True(t, created.Equal(ev.Created))

	// stripe-go's strict reading (API version check on) accepts the stand-in's events too.
	_, err = webhook.ConstructEvent(body, stripe.SignWebhook(webhookSecret, body, time.Now()), webhookSecret)
	require.NoError(t, err)
}
