package stripe_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

// FuzzVerifyWebhook: arbitrary bodies and headers never panic, and the signature of one body
// never verifies another.
func FuzzVerifyWebhook(f *testing.F) {
	signed := stripe.EventJSON("evt_1", "checkout.session.completed", time.Unix(1_700_000_000, 0),
		[]byte(`{"id":"cs_test_1","object":"checkout.session"}`))
	good := stripe.SignWebhook(webhookSecret, signed, time.Now())
	f.Add(signed, good)
	f.Add(signed[:len(signed)-1], good)
	f.Add([]byte(""), "")
	f.Add([]byte(`{"object":"event"}`), "t=1,v1=00")
	f.Add(signed, "t=99999999999999999999,v1="+good)
	f.Fuzz(func(t *testing.T, body []byte, header string) {
		ev, err := stripe.VerifyWebhook(webhookSecret, body, header)
		if err == nil && ev.ID == "" {
			t.Fatalf("accepted an event without an id: %q", body)
		}
		fresh := stripe.SignWebhook(webhookSecret, signed, time.Now())
		if _, err := stripe.VerifyWebhook(webhookSecret, body, fresh); err == nil && !bytes.Equal(body, signed) {
			t.Fatalf("the signature of one body verified another: %q", body)
		}
	})
}

// FuzzParseCheckoutSession: any answer from the API reads as a session or an error, never a panic.
func FuzzParseCheckoutSession(f *testing.F) {
	f.Add([]byte(`{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"unpaid",
		"payment_intent":{"id":"pi_1","status":"requires_action","next_action":{"type":"oxxo_display_details",
		"oxxo_display_details":{"number":"123","expires_after":1700000000,"hosted_voucher_url":"https://v"}}}}`))
	f.Add([]byte(`{"id":"cs_1","object":"checkout.session","payment_intent":"pi_1","client_reference_id":"7"}`))
	f.Add([]byte(`{"id":"cs_1","object":"checkout.session","payment_intent":null,"metadata":{"payment_id":"-1"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		st, err := stripe.ParseCheckoutSession(raw)
		if err == nil && st.SessionID == "" {
			t.Fatalf("a session without an id: %q", raw)
		}
		if err == nil && st.PaymentID < 0 {
			t.Fatalf("a negative payment id: %q", raw)
		}
	})
}
