package stripe_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	stripego "github.com/stripe/stripe-go/v84"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound/outboundtest"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

const secretKey = "sk_test_51PerfilSeguroFakeKey"

// captured is one request as the fake Stripe API saw it.
type captured struct {
	Method, Path, Auth, ContentType, IdempotencyKey string
	Query, Form                                     url.Values
}

// fakeStripe answers every request with one status and body and records what it received.
type fakeStripe struct {
	mu   sync.Mutex
	reqs []captured
}

func (f *fakeStripe) requests() []captured {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]captured(nil), f.reqs...)
}

// last returns the only request received, failing the test if there were others.
func (f *fakeStripe) last(t *testing.T) captured {
	t.Helper()
	reqs := f.requests()
	require.Len(t, reqs, 1, "stripe-go must not retry on its own")
	return reqs[0]
}

// lastCall is the one request made, checked to be method on path with the secret key.
func (f *fakeStripe) lastCall(t *testing.T, method, path string) captured {
	t.Helper()
	got := f.last(t)
	require.Equal(t, method, got.Method)
	require.Equal(t, path, got.Path)
	require.Equal(t, "Bearer "+secretKey, got.Auth)
	return got
}

// setup starts a fake Stripe API answering status/body and returns a client pointed at it.
func setup(t *testing.T, status int, respBody string) (*stripe.Client, *fakeStripe) {
	t.Helper()
	f := &fakeStripe{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		form, err := url.ParseQuery(string(b))
		if err != nil {
			t.Errorf("body is not form-encoded: %v", err)
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, captured{
			Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			ContentType: r.Header.Get("Content-Type"), IdempotencyKey: r.Header.Get("Idempotency-Key"),
			Query: r.URL.Query(), Form: form,
		})
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_test123")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, respBody)
	}))
	t.Cleanup(srv.Close)
	return stripe.New(stripe.Config{SecretKey: secretKey, WebhookSecret: webhookSecret, BaseURL: srv.URL}), f
}

var (
	checkoutExpires = time.Unix(1767312000, 0).UTC() // 2026-01-02 00:00 UTC
	oneYear, _      = perfilseguro.PlanByCode(perfilseguro.PlanOneYear)
)

func checkoutRequest() perfilseguro.CheckoutRequest {
	return perfilseguro.CheckoutRequest{
		PaymentID:      77,
		UserID:         42,
		CustomerEmail:  "ana.lopez@example.com",
		Plan:           oneYear,
		SuccessURL:     "https://perfilseguro.mx/pago/listo?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:      "https://perfilseguro.mx/pago/cancelado",
		ExpiresAt:      checkoutExpires,
		IdempotencyKey: "checkout-77-1",
	}
}

// createdSession is a newly created session as Stripe returns it (abridged).
const createdSession = `{
  "id": "cs_test_a1b2c3",
  "object": "checkout.session",
  "amount_subtotal": 29900,
  "amount_total": 29900,
  "cancel_url": "https://perfilseguro.mx/pago/cancelado",
  "client_reference_id": "77",
  "created": 1767225600,
  "currency": "mxn",
  "customer_email": "ana.lopez@example.com",
  "expires_at": 1767312000,
  "livemode": false,
  "locale": "es-419",
  "metadata": {"payment_id": "77", "plan": "one_year", "user_id": "42"},
  "mode": "payment",
  "payment_intent": null,
  "payment_method_options": {"oxxo": {"expires_after_days": 3}},
  "payment_method_types": ["card", "oxxo"],
  "payment_status": "unpaid",
  "status": "open",
  "success_url": "https://perfilseguro.mx/pago/listo?session_id={CHECKOUT_SESSION_ID}",
  "url": "https://checkout.stripe.com/c/pay/cs_test_a1b2c3#fidkdWxOYHwnPyd1blpxYHZxWjA0"
}`

func TestCreateCheckoutWireFormat(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, createdSession)
	s, err := c.CreateCheckout(context.Background(), checkoutRequest())
	require.NoError(t, err)

	got := f.lastCall(t, http.MethodPost, "/v1/checkout/sessions")
	require.Equal(t, "application/x-www-form-urlencoded", got.ContentType)
	require.Equal(t, "checkout-77-1", got.IdempotencyKey)
	require.Equal(t, url.Values{
		"mode":                                             {"payment"},
		"line_items[0][quantity]":                          {"1"},
		"line_items[0][price_data][currency]":              {"mxn"},
		"line_items[0][price_data][unit_amount]":           {"29900"},
		"line_items[0][price_data][product_data][name]":    {"Validación 1 año"},
		"payment_method_types[0]":                          {"card"},
		"payment_method_types[1]":                          {"oxxo"},
		"payment_method_options[oxxo][expires_after_days]": {"3"},
		"customer_email":                                   {"ana.lopez@example.com"},
		"client_reference_id":                              {"77"},
		"metadata[payment_id]":                             {"77"},
		"metadata[user_id]":                                {"42"},
		"metadata[plan]":                                   {"one_year"},
		"payment_intent_data[metadata][payment_id]":        {"77"},
		"payment_intent_data[metadata][user_id]":           {"42"},
		"payment_intent_data[metadata][plan]":              {"one_year"},
		"success_url":                                      {"https://perfilseguro.mx/pago/listo?session_id={CHECKOUT_SESSION_ID}"},
		"cancel_url":                                       {"https://perfilseguro.mx/pago/cancelado"},
		"expires_at":                                       {"1767312000"},
		"locale":                                           {"es-419"},
	}, got.Form)

	require.Equal(t, perfilseguro.CheckoutSession{
		ID:        "cs_test_a1b2c3",
		URL:       "https://checkout.stripe.com/c/pay/cs_test_a1b2c3#fidkdWxOYHwnPyd1blpxYHZxWjA0",
		ExpiresAt: checkoutExpires,
	}, s)
}

func TestCreateCheckoutOptionalFields(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, createdSession)
	req := checkoutRequest()
	req.CustomerEmail = ""
	req.ExpiresAt = time.Time{}
	_, err := c.CreateCheckout(context.Background(), req)
	require.NoError(t, err)
	form := f.last(t).Form
	require.NotContains(t, form, "customer_email")
	require.NotContains(t, form, "expires_at")
}

func TestCreateCheckoutSameKeyTwice(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, createdSession)
	for range 2 {
		_, err := c.CreateCheckout(context.Background(), checkoutRequest())
		require.NoError(t, err)
	}
	reqs := f.requests()
	require.Len(t, reqs, 2)
	require.Equal(t, "checkout-77-1", reqs[0].IdempotencyKey)
	require.Equal(t, reqs[0].IdempotencyKey, reqs[1].IdempotencyKey)
	require.Equal(t, reqs[0].Form, reqs[1].Form, "a retried request must carry the same parameters")
}

func TestCreateCheckoutFreePlanRefusedLocally(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, createdSession)
	req := checkoutRequest()
	req.Plan, _ = perfilseguro.PlanByCode(perfilseguro.PlanFree)
	_, err := c.CreateCheckout(context.Background(), req)
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
	require.Empty(t, f.requests())
}

func TestCreateCheckoutErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		status    int
		body      string
		permanent bool
	}{
		{"invalid request", http.StatusBadRequest, `{"error":{"code":"parameter_invalid_integer","doc_url":"https://stripe.com/docs/error-codes/parameter-invalid-integer","message":"Invalid integer: abc","param":"line_items[0][price_data][unit_amount]","request_log_url":"https://dashboard.stripe.com/test/logs/req_test123","type":"invalid_request_error"}}`, true},
		{"idempotency key reused with other parameters", http.StatusBadRequest, `{"error":{"message":"Keys for idempotent requests can only be used with the same parameters they were first used with.","type":"idempotency_error"}}`, true},
		{"bad key", http.StatusUnauthorized, `{"error":{"message":"Invalid API Key provided: sk_test_****","type":"invalid_request_error"}}`, true},
		{"request timeout", http.StatusRequestTimeout, `{"error":{"message":"Request timed out.","type":"api_error"}}`, false},
		{"idempotent request in flight", http.StatusConflict, `{"error":{"code":"idempotency_key_in_use","message":"There is currently another in-progress request using this Idempotent Key.","type":"invalid_request_error"}}`, false},
		{"rate limited", http.StatusTooManyRequests, `{"error":{"code":"rate_limit","message":"Too many requests hit the API too quickly.","type":"invalid_request_error"}}`, false},
		{"server error", http.StatusInternalServerError, `{"error":{"message":"An unknown error occurred","type":"api_error"}}`, false},
		{"bad gateway, not JSON", http.StatusBadGateway, `<html>502 Bad Gateway</html>`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, f := setup(t, tc.status, tc.body)
			_, err := c.CreateCheckout(context.Background(), checkoutRequest())
			require.Error(t, err)
			f.last(t) // exactly one request: our jobs retry, not stripe-go
			require.Equal(t, tc.permanent, errors.Is(err, perfilseguro.ErrPermanent), "%v", err)
		})
	}
}

func TestAPIErrorDetails(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusBadRequest, `{"error":{"code":"parameter_invalid_integer","message":"Invalid integer: abc","param":"line_items[0][price_data][unit_amount]","type":"invalid_request_error"}}`)
	_, err := c.CreateCheckout(context.Background(), checkoutRequest())

	var apiErr *stripe.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.HTTPStatus)
	require.Equal(t, "invalid_request_error", apiErr.Type)
	require.Equal(t, "parameter_invalid_integer", apiErr.Code)
	require.Equal(t, "req_test123", apiErr.RequestID)
	require.EqualError(t, err, "stripe create checkout: permanent provider failure: stripe status 400 "+
		"invalid_request_error/parameter_invalid_integer (param line_items[0][price_data][unit_amount]): Invalid integer: abc [req_test123]")

	var se *stripego.Error
	require.ErrorAs(t, err, &se, "stripe-go's error stays reachable")
	require.Equal(t, stripego.ErrorCodeParameterInvalidInteger, se.Code)
}

func TestNetworkErrorIsRetryable(t *testing.T) {
	t.Parallel()
	c := stripe.New(stripe.Config{SecretKey: secretKey, BaseURL: outboundtest.ClosedURL()})
	_, err := c.CreateCheckout(context.Background(), checkoutRequest())
	require.Error(t, err)
	require.NotErrorIs(t, err, perfilseguro.ErrPermanent)
}

func TestRefundWireFormat(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, `{
  "id": "re_3PqRsT2eZvKYlo2C1a2b3c4d",
  "object": "refund",
  "amount": 29900,
  "charge": "ch_3PqRsT2eZvKYlo2C1xYz9876",
  "created": 1767229200,
  "currency": "mxn",
  "metadata": {},
  "payment_intent": "pi_3PqRsT2eZvKYlo2C1abcdefg",
  "reason": null,
  "status": "pending"
}`)
	r, err := c.Refund(context.Background(), "pi_3PqRsT2eZvKYlo2C1abcdefg", "refund-77")
	require.NoError(t, err)

	got := f.lastCall(t, http.MethodPost, "/v1/refunds")
	require.Equal(t, "refund-77", got.IdempotencyKey)
	require.Equal(t, url.Values{"payment_intent": {"pi_3PqRsT2eZvKYlo2C1abcdefg"}}, got.Form)
	require.Equal(t, perfilseguro.Refund{ID: "re_3PqRsT2eZvKYlo2C1a2b3c4d", Status: "pending"}, r)
}

func TestRefundErrors(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusBadRequest, `{"error":{"code":"charge_already_refunded","message":"Charge ch_3PqRsT2eZvKYlo2C1xYz9876 has already been refunded.","type":"invalid_request_error"}}`)
	_, err := c.Refund(context.Background(), "pi_3PqRsT2eZvKYlo2C1abcdefg", "refund-77")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)

	_, err = c.Refund(context.Background(), "", "refund-77")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)
}

func TestExpireCheckoutWireFormat(t *testing.T) {
	t.Parallel()
	c, f := setup(t, http.StatusOK, `{"id":"cs_test_a1b2c3","object":"checkout.session","status":"expired","payment_status":"unpaid","payment_intent":null,"url":null}`)
	require.NoError(t, c.ExpireCheckout(context.Background(), "cs_test_a1b2c3"))

	got := f.lastCall(t, http.MethodPost, "/v1/checkout/sessions/cs_test_a1b2c3/expire")
	require.Empty(t, got.Form)
}

func TestExpireCheckoutNotOpen(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusBadRequest, `{"error":{"message":"Only Checkout Sessions with a status in [\"open\"] can be expired. This Checkout Session has a status of \"complete\".","type":"invalid_request_error"}}`)
	err := c.ExpireCheckout(context.Background(), "cs_test_a1b2c3")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent)

	require.ErrorIs(t, c.ExpireCheckout(context.Background(), ""), perfilseguro.ErrPermanent)
}
