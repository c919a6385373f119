package stripe

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"

	stripego "github.com/stripe/stripe-go/v84"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Checkout settings every session shares.
const (
	// Currency is the only currency we sell in.
	Currency = "mxn"
	// Locale shows the checkout page in Latin-American Spanish (Stripe has no es-MX).
	Locale = "es-419"
	// OXXOExpiresAfterDays is how many days an OXXO voucher can be paid: long enough to reach a
	// store over a weekend, short enough that an unpaid attempt does not linger.
	OXXOExpiresAfterDays = 3
)

// PaymentMethodTypes are the ways a checkout page offers to pay.
var PaymentMethodTypes = []string{"card", "oxxo"}

// CreateCheckout creates a hosted Checkout Session selling req.Plan once. The session carries our
// payment id as client_reference_id and, with the user id and plan, as metadata on the session
// and on its PaymentIntent, so both the session and the charge can be traced back. Repeating the
// call with the same req.IdempotencyKey returns the same session (an empty key lets stripe-go
// pick a random one, which gives up that guarantee).
func (c *Client) CreateCheckout(ctx context.Context, req perfilseguro.CheckoutRequest) (perfilseguro.CheckoutSession, error) {
	if req.Plan.Centavos <= 0 {
		return perfilseguro.CheckoutSession{}, fmt.Errorf("stripe create checkout: plan %q has no price: %w", req.Plan.Code, perfilseguro.ErrPermanent)
	}
	meta := map[string]string{
		"payment_id": strconv.FormatInt(req.PaymentID, 10),
		"user_id":    strconv.FormatInt(req.UserID, 10),
		"plan":       req.Plan.Code,
	}
	params := &stripego.CheckoutSessionCreateParams{
		Mode: stripego.String(stripego.CheckoutSessionModePayment),
		LineItems: []*stripego.CheckoutSessionCreateLineItemParams{{
			Quantity: stripego.Int64(1),
			PriceData: &stripego.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripego.String(Currency),
				UnitAmount:  stripego.Int64(req.Plan.Centavos),
				ProductData: &stripego.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripego.String(req.Plan.Name)},
			},
		}},
		PaymentMethodTypes: stripego.StringSlice(PaymentMethodTypes),
		PaymentMethodOptions: &stripego.CheckoutSessionCreatePaymentMethodOptionsParams{
			OXXO: &stripego.CheckoutSessionCreatePaymentMethodOptionsOXXOParams{ExpiresAfterDays: stripego.Int64(OXXOExpiresAfterDays)},
		},
		ClientReferenceID: stripego.String(meta["payment_id"]),
		Metadata:          meta,
		PaymentIntentData: &stripego.CheckoutSessionCreatePaymentIntentDataParams{Metadata: maps.Clone(meta)},
		SuccessURL:        stripego.String(req.SuccessURL),
		CancelURL:         stripego.String(req.CancelURL),
		Locale:            stripego.String(Locale),
	}
	if req.CustomerEmail != "" {
		params.CustomerEmail = stripego.String(req.CustomerEmail)
	}
	if !req.ExpiresAt.IsZero() {
		params.ExpiresAt = stripego.Int64(req.ExpiresAt.Unix())
	}
	if req.IdempotencyKey != "" {
		params.SetIdempotencyKey(req.IdempotencyKey)
	}
	s, err := c.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return perfilseguro.CheckoutSession{}, classify("create checkout", err)
	}
	if s.ID == "" || s.URL == "" {
		return perfilseguro.CheckoutSession{}, errors.New("stripe create checkout: response without id or url")
	}
	return perfilseguro.CheckoutSession{ID: s.ID, URL: s.URL, ExpiresAt: unixTime(s.ExpiresAt)}, nil
}

// ExpandPaymentMethod is the expansion GetCheckout asks for: the PaymentIntent (status, OXXO
// voucher) and its PaymentMethod (card or oxxo) come back inside the session.
const ExpandPaymentMethod = "payment_intent.payment_method"

// GetCheckout reads a session as Stripe reports it now. The raw answer goes through
// ParseCheckoutSession rather than stripe-go's struct, so Stripe and the local checkout stand-in
// are read by one parser.
func (c *Client) GetCheckout(ctx context.Context, sessionID string) (perfilseguro.CheckoutState, error) {
	if sessionID == "" {
		return perfilseguro.CheckoutState{}, fmt.Errorf("stripe get checkout: empty session id: %w", perfilseguro.ErrPermanent)
	}
	params := &stripego.CheckoutSessionRetrieveParams{}
	params.AddExpand(ExpandPaymentMethod)
	s, err := c.sc.V1CheckoutSessions.Retrieve(ctx, sessionID, params)
	if err != nil {
		return perfilseguro.CheckoutState{}, classify("get checkout "+sessionID, err)
	}
	if s.LastResponse == nil {
		return perfilseguro.CheckoutState{}, fmt.Errorf("stripe get checkout %s: no response body", sessionID)
	}
	st, err := ParseCheckoutSession(s.LastResponse.RawJSON)
	if err != nil {
		return perfilseguro.CheckoutState{}, fmt.Errorf("stripe get checkout %s: %w", sessionID, err)
	}
	return st, nil
}

// ExpireCheckout closes an open session so its page stops taking payment (a newer attempt
// replaced it). Stripe answers 400 for a session that is no longer open, which wraps
// ErrPermanent.
func (c *Client) ExpireCheckout(ctx context.Context, sessionID string) error {
	if sessionID == "" {
		return fmt.Errorf("stripe expire checkout: empty session id: %w", perfilseguro.ErrPermanent)
	}
	if _, err := c.sc.V1CheckoutSessions.Expire(ctx, sessionID, nil); err != nil {
		return classify("expire checkout "+sessionID, err)
	}
	return nil
}

// Refund refunds a PaymentIntent in full. Stripe accepts the refund now and finishes it later
// (a charge.refunded event); repeating the call with the same idempotencyKey returns the same
// refund instead of failing as already refunded.
func (c *Client) Refund(ctx context.Context, paymentIntentID, idempotencyKey string) (perfilseguro.Refund, error) {
	if paymentIntentID == "" {
		return perfilseguro.Refund{}, fmt.Errorf("stripe refund: empty payment intent id: %w", perfilseguro.ErrPermanent)
	}
	params := &stripego.RefundCreateParams{PaymentIntent: stripego.String(paymentIntentID)}
	if idempotencyKey != "" {
		params.SetIdempotencyKey(idempotencyKey)
	}
	r, err := c.sc.V1Refunds.Create(ctx, params)
	if err != nil {
		return perfilseguro.Refund{}, classify("refund "+paymentIntentID, err)
	}
	if r.ID == "" {
		return perfilseguro.Refund{}, fmt.Errorf("stripe refund %s: response without id", paymentIntentID)
	}
	return perfilseguro.Refund{ID: r.ID, Status: string(r.Status)}, nil
}
