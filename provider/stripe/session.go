package stripe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// expandable is a field Stripe sends as an id string, as the expanded object, or as null.
type expandable[T any] struct {
	ID     string
	Object *T // nil unless expanded
}

// UnmarshalJSON accepts the three forms; an expanded object also fills ID from its "id".
func (e *expandable[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &e.ID)
	}
	var id struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &id); err != nil {
		return err
	}
	var obj T
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	e.ID, e.Object = id.ID, &obj
	return nil
}

// sessionJSON is the part of a Checkout Session we read. Only these fields are typed, so a newer
// API version changing any other field cannot break the parse.
type sessionJSON struct {
	ID                string                        `json:"id"`
	Object            string                        `json:"object"`
	Status            string                        `json:"status"`
	PaymentStatus     string                        `json:"payment_status"`
	ClientReferenceID string                        `json:"client_reference_id"`
	Metadata          map[string]string             `json:"metadata"`
	AmountTotal       int64                         `json:"amount_total"`
	Currency          string                        `json:"currency"`
	ExpiresAt         int64                         `json:"expires_at"`
	PaymentIntent     expandable[paymentIntentJSON] `json:"payment_intent"`
}

type paymentIntentJSON struct {
	Status        string                        `json:"status"`
	PaymentMethod expandable[paymentMethodJSON] `json:"payment_method"`
	NextAction    *struct {
		Type               string `json:"type"`
		OXXODisplayDetails *struct {
			Number           string `json:"number"`
			ExpiresAfter     int64  `json:"expires_after"`
			HostedVoucherURL string `json:"hosted_voucher_url"`
		} `json:"oxxo_display_details"`
	} `json:"next_action"`
	// A failed attempt detaches its PaymentMethod from the intent; the error still names it.
	LastPaymentError *struct {
		PaymentMethod *paymentMethodJSON `json:"payment_method"`
	} `json:"last_payment_error"`
}

type paymentMethodJSON struct {
	Type string `json:"type"`
}

// PaymentIntent statuses that mean a delayed (OXXO) payment did not happen.
const (
	intentRequiresPaymentMethod = "requires_payment_method"
	intentCanceled              = "canceled"
)

// ParseCheckoutSession reads a Checkout Session as Stripe returns it from
// GET /v1/checkout/sessions/{id} with expand[]=payment_intent.payment_method. payment_intent may
// also be a bare id or null (not expanded, or no payment attempted yet); the fields that need it
// (PaymentMethod, Voucher, AsyncFailed) then stay empty. JSON that is not a checkout.session
// with an id is an error.
func ParseCheckoutSession(raw []byte) (perfilseguro.CheckoutState, error) {
	var s sessionJSON
	if err := json.Unmarshal(raw, &s); err != nil {
		return perfilseguro.CheckoutState{}, fmt.Errorf("checkout session: decode: %w", err)
	}
	if s.Object != "checkout.session" {
		return perfilseguro.CheckoutState{}, fmt.Errorf("checkout session: object is %q, not checkout.session", s.Object)
	}
	if s.ID == "" {
		return perfilseguro.CheckoutState{}, errors.New("checkout session: no id")
	}
	st := perfilseguro.CheckoutState{
		SessionID:       s.ID,
		Status:          s.Status,
		PaymentStatus:   s.PaymentStatus,
		PaymentID:       paymentID(s),
		PaymentIntentID: s.PaymentIntent.ID,
		AmountTotal:     s.AmountTotal,
		Currency:        s.Currency,
		ExpiresAt:       unixTime(s.ExpiresAt),
	}
	pi := s.PaymentIntent.Object
	if pi == nil {
		return st, nil
	}
	st.PaymentMethod = paymentMethod(pi)
	if pi.NextAction != nil && pi.NextAction.OXXODisplayDetails != nil && s.PaymentStatus == perfilseguro.CheckoutUnpaid {
		d := pi.NextAction.OXXODisplayDetails
		st.Voucher = &perfilseguro.OXXOVoucher{Number: d.Number, ExpiresAt: unixTime(d.ExpiresAfter), URL: d.HostedVoucherURL}
	}
	st.AsyncFailed = s.Status == perfilseguro.CheckoutComplete && s.PaymentStatus == perfilseguro.CheckoutUnpaid &&
		(pi.Status == intentRequiresPaymentMethod || pi.Status == intentCanceled)
	return st, nil
}

// paymentID reads our payments row from client_reference_id, or from metadata.payment_id when
// a session was created without one; 0 when neither holds a number.
func paymentID(s sessionJSON) int64 {
	for _, v := range []string{s.ClientReferenceID, s.Metadata["payment_id"]} {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil && id > 0 {
			return id
		}
	}
	return 0
}

// paymentMethod names how the person paid or is paying: the expanded PaymentMethod's type, the
// one a failed attempt left in last_payment_error, or "oxxo" while a voucher is displayed.
func paymentMethod(pi *paymentIntentJSON) string {
	if pm := pi.PaymentMethod.Object; pm != nil && pm.Type != "" {
		return pm.Type
	}
	if e := pi.LastPaymentError; e != nil && e.PaymentMethod != nil && e.PaymentMethod.Type != "" {
		return e.PaymentMethod.Type
	}
	if pi.NextAction != nil && pi.NextAction.Type == "oxxo_display_details" {
		return "oxxo"
	}
	return ""
}
