// Package stripe is the real payment provider: Stripe Checkout selling plans in MXN, paid by card
// or in cash at OXXO. It creates, reads and expires checkout sessions, refunds payments and
// verifies signed webhooks, all through stripe-go.
package stripe

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v84"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// DefaultBaseURL is Stripe's API root.
const DefaultBaseURL = "https://api.stripe.com"

// Config holds the Stripe account credentials.
type Config struct {
	SecretKey     string       // sk_live_… / sk_test_…
	WebhookSecret string       // whsec_… of the webhook endpoint, for VerifyWebhook
	BaseURL       string       // default https://api.stripe.com; tests point it at httptest
	HTTP          *http.Client // default outbound.Client(20*time.Second)
}

// Client calls the Stripe API; it implements perfilseguro.PaymentProvider.
type Client struct {
	cfg Config
	sc  *stripego.Client
}

var _ perfilseguro.PaymentProvider = (*Client)(nil)

// New returns a Client, filling the defaults for empty Config fields.
func New(cfg Config) *Client {
	cfg.BaseURL, cfg.HTTP = outbound.Endpoint("stripe", cfg.BaseURL, DefaultBaseURL, cfg.HTTP, 20*time.Second)
	api := stripego.GetBackendWithConfig(stripego.APIBackend, &stripego.BackendConfig{
		URL:        stripego.String(cfg.BaseURL),
		HTTPClient: cfg.HTTP,
		// No retries inside stripe-go: our jobs retry with the same idempotency key and their
		// own backoff, and a hidden retry would only stretch a call past the job's deadline.
		MaxNetworkRetries: stripego.Int64(0),
		// Callers log the errors we return; stripe-go's logger would print each one again.
		LeveledLogger: &stripego.LeveledLogger{Level: stripego.LevelNull},
	})
	// Only the API backend is used: no Connect OAuth, file uploads or meter events.
	sc := stripego.NewClient(cfg.SecretKey, stripego.WithBackends(&stripego.Backends{API: api}))
	return &Client{cfg: cfg, sc: sc}
}

// VerifyWebhook checks a webhook with the configured secret; see the package function.
func (c *Client) VerifyWebhook(body []byte, header string) (perfilseguro.PaymentEvent, error) {
	return VerifyWebhook(c.cfg.WebhookSecret, body, header)
}

// APIError is a refusal from the Stripe API, reduced to what a log line needs. It unwraps to
// stripe-go's *stripego.Error for callers that want the rest.
type APIError struct {
	HTTPStatus int
	Type       string // invalid_request_error, card_error, idempotency_error, api_error
	Code       string // e.g. resource_missing, parameter_missing; often empty
	Param      string // the offending parameter, when Stripe names one
	Message    string
	RequestID  string // req_…, to look the call up in the dashboard
	err        *stripego.Error
}

// Error describes the refusal in one line.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stripe status %d", e.HTTPStatus)
	if e.Type != "" {
		b.WriteString(" " + e.Type)
	}
	if e.Code != "" {
		b.WriteString("/" + e.Code)
	}
	if e.Param != "" {
		b.WriteString(" (param " + e.Param + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" [" + e.RequestID + "]")
	}
	return b.String()
}

// Unwrap returns stripe-go's error.
func (e *APIError) Unwrap() error { return e.err }

// classify wraps a stripe-go failure for op. A 4xx answer comes back the same for the same
// request — bad parameters (400), a bad key (401), a declined card (402), missing permissions
// (403), an unknown object (404) — so it wraps ErrPermanent; a timeout (408), an idempotent
// request still in flight (409), rate limiting (429), 5xx and network errors stay retryable.
func classify(op string, err error) error {
	var se *stripego.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("stripe %s: %w", op, err)
	}
	apiErr := &APIError{
		HTTPStatus: se.HTTPStatusCode,
		Type:       string(se.Type),
		Code:       string(se.Code),
		Param:      se.Param,
		Message:    se.Msg,
		RequestID:  se.RequestID,
		err:        se,
	}
	if permanent(se.HTTPStatusCode) {
		return fmt.Errorf("stripe %s: %w: %w", op, perfilseguro.ErrPermanent, apiErr)
	}
	return fmt.Errorf("stripe %s: %w", op, apiErr)
}

// permanent reports whether an HTTP status from Stripe will repeat for the same request.
func permanent(status int) bool {
	return status >= 400 && status < 500 && status != http.StatusConflict && !outbound.Transient(status)
}

// unixTime converts a Stripe timestamp; 0 (absent) stays the zero time.
func unixTime(sec int64) time.Time {
	if sec <= 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}
