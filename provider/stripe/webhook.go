package stripe

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// SignatureHeader carries Stripe's webhook signature: "t=<unix>,v1=<hex HMAC-SHA256 of
// "<unix>.<body>">" (two v1 entries while a secret is being rolled).
const SignatureHeader = "Stripe-Signature"

// WebhookTolerance is how old a signature's timestamp may be (stripe-go's default). It bounds
// replays; processing is idempotent by event id anyway.
const WebhookTolerance = webhook.DefaultTolerance

// Webhook verification failures; the api package maps them to its responses.
var (
	ErrBadSignature   = errors.New("stripe webhook: signature missing or does not match the body")
	ErrStaleTimestamp = errors.New("stripe webhook: signature timestamp outside the tolerance")
)

// VerifyWebhook accepts a webhook only if header is a valid Stripe-Signature of the exact raw
// body under secret, made within WebhookTolerance, and reduces the event to what processing
// needs. It returns ErrBadSignature (wrapped) for a missing, malformed or wrong signature or an
// empty secret, and ErrStaleTimestamp (wrapped) for an old one. A signed body that is not a
// Stripe event fails with an error wrapping neither.
func VerifyWebhook(secret string, body []byte, header string) (perfilseguro.PaymentEvent, error) {
	if secret == "" {
		return perfilseguro.PaymentEvent{}, fmt.Errorf("%w: no webhook secret configured", ErrBadSignature)
	}
	ev, err := webhook.ConstructEventWithOptions(body, header, secret, webhook.ConstructEventOptions{
		Tolerance: WebhookTolerance,
		// The endpoint's API version may lag stripe-go's. That is safe here: we read only a few
		// long-stable fields of the event, and re-read the session from the API (in stripe-go's
		// version) before acting on it.
		IgnoreAPIVersionMismatch: true,
	})
	switch {
	case errors.Is(err, webhook.ErrTooOld):
		return perfilseguro.PaymentEvent{}, fmt.Errorf("%w: %w", ErrStaleTimestamp, err)
	case errors.Is(err, webhook.ErrNotSigned), errors.Is(err, webhook.ErrInvalidHeader), errors.Is(err, webhook.ErrNoValidSignature):
		return perfilseguro.PaymentEvent{}, fmt.Errorf("%w: %w", ErrBadSignature, err)
	case err != nil:
		return perfilseguro.PaymentEvent{}, fmt.Errorf("stripe webhook: %w", err)
	}
	return reduceEvent(ev, body)
}

// eventObject is the part of an event's data.object we read: a checkout.session or a charge.
type eventObject struct {
	ID             string               `json:"id"`
	PaymentIntent  expandable[struct{}] `json:"payment_intent"`
	AmountRefunded int64                `json:"amount_refunded"`
	Refunded       bool                 `json:"refunded"`
}

// reduceEvent keeps the event's identity and the object fields its type needs.
func reduceEvent(ev stripego.Event, body []byte) (perfilseguro.PaymentEvent, error) {
	out := perfilseguro.PaymentEvent{
		ID:      ev.ID,
		Type:    string(ev.Type),
		Created: unixTime(ev.Created),
		Raw:     json.RawMessage(body),
	}
	if ev.Data == nil || len(ev.Data.Raw) == 0 {
		return out, nil
	}
	var obj eventObject
	if err := json.Unmarshal(ev.Data.Raw, &obj); err != nil {
		return perfilseguro.PaymentEvent{}, fmt.Errorf("stripe webhook %s: decode data.object: %w", ev.ID, err)
	}
	switch {
	case strings.HasPrefix(out.Type, "checkout.session."):
		out.SessionID = obj.ID
	case out.Type == perfilseguro.EventChargeRefunded:
		out.PaymentIntentID = obj.PaymentIntent.ID
		out.AmountRefunded = obj.AmountRefunded
		out.Refunded = obj.Refunded
	}
	return out, nil
}

// SignWebhook returns a Stripe-Signature value ("t=…,v1=…") for body signed with secret at t, as
// Stripe computes it. The local checkout stand-in signs its webhooks with it.
func SignWebhook(secret string, body []byte, t time.Time) string {
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(webhook.ComputeSignature(t, body, secret)))
}

// eventEnvelope is a Stripe event as webhooks deliver it.
type eventEnvelope struct {
	ID              string    `json:"id"`
	Object          string    `json:"object"`
	APIVersion      string    `json:"api_version"`
	Created         int64     `json:"created"`
	Type            string    `json:"type"`
	Livemode        bool      `json:"livemode"`
	PendingWebhooks int       `json:"pending_webhooks"`
	Data            eventData `json:"data"`
}

type eventData struct {
	Object json.RawMessage `json:"object"`
}

// EventJSON builds a Stripe event envelope of type typ around object (a JSON object such as a
// checkout.session), in stripe-go's API version, so the local checkout stand-in sends webhooks
// VerifyWebhook reads like Stripe's. object must be valid JSON; EventJSON panics otherwise, as
// that is a bug in the caller.
func EventJSON(id, typ string, created time.Time, object json.RawMessage) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep URLs in the object byte-for-byte readable
	err := enc.Encode(eventEnvelope{
		ID:              id,
		Object:          "event",
		APIVersion:      stripego.APIVersion,
		Created:         created.Unix(),
		Type:            typ,
		PendingWebhooks: 1,
		Data:            eventData{Object: object},
	})
	if err != nil {
		panic(fmt.Sprintf("stripe.EventJSON: %v", err))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
