// Package didit talks to Didit's hosted identity verification (API v3):
// it creates sessions, reads decisions and verifies signed webhooks.
package didit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// DefaultBaseURL is Didit's verification API root.
const DefaultBaseURL = "https://verification.didit.me"

// Config holds the Didit application credentials.
type Config struct {
	BaseURL       string       // default https://verification.didit.me
	APIKey        string       // sent as x-api-key
	WorkflowID    string       // the published workflow every session runs
	WebhookSecret string       // the destination's secret_shared_key, for VerifyWebhook
	HTTPClient    *http.Client // default: 20-second timeout
}

// Client calls the Didit v3 session API; it implements perfilseguro.BiometricProvider.
type Client struct{ cfg Config }

var _ perfilseguro.BiometricProvider = (*Client)(nil)

// New returns a Client, filling the defaults for empty Config fields.
func New(cfg Config) *Client {
	cfg.BaseURL, cfg.HTTPClient = outbound.Endpoint("didit", cfg.BaseURL, DefaultBaseURL, cfg.HTTPClient, 20*time.Second)
	return &Client{cfg: cfg}
}

// VerifyWebhook checks a webhook with the configured secret; see the package function.
func (c *Client) VerifyWebhook(body []byte, signature, timestamp string, now time.Time) error {
	return VerifyWebhook(c.cfg.WebhookSecret, body, signature, timestamp, now)
}

type createSessionRequest struct {
	WorkflowID      string           `json:"workflow_id"`
	VendorData      string           `json:"vendor_data"`
	Callback        string           `json:"callback,omitempty"`
	ExpectedDetails *expectedDetails `json:"expected_details,omitempty"`
}

// expectedDetails is what the person told us, which Didit compares with the document on its
// side (a second opinion beside ours); each field is sent only when we have it.
type expectedDetails struct {
	FirstName   string `json:"first_name,omitempty"`
	LastName    string `json:"last_name,omitempty"`
	DateOfBirth string `json:"date_of_birth,omitempty"` // YYYY-MM-DD
}

// expected builds expected_details from the request; nil when it carries nothing to compare.
func expected(req perfilseguro.BiometricSessionRequest) *expectedDetails {
	e := expectedDetails{
		FirstName: strings.Join(strings.Fields(req.ExpectedGivenNames), " "),
		LastName:  strings.Join(strings.Fields(req.ExpectedSurnames), " "),
	}
	if !req.ExpectedBirthDate.IsZero() {
		e.DateOfBirth = req.ExpectedBirthDate.Format(time.DateOnly)
	}
	if e == (expectedDetails{}) {
		return nil
	}
	return &e
}

type createSessionResponse struct {
	SessionID string `json:"session_id"`
	URL       string `json:"url"`
}

// CreateSession starts a hosted session for req.UserID (sent as vendor_data)
// that returns the browser to req.CallbackURL, with the expected name and birth date as
// expected_details when the request has them.
func (c *Client) CreateSession(ctx context.Context, req perfilseguro.BiometricSessionRequest) (perfilseguro.BiometricSession, error) {
	payload, err := json.Marshal(createSessionRequest{
		WorkflowID:      c.cfg.WorkflowID,
		VendorData:      strconv.FormatInt(req.UserID, 10),
		Callback:        req.CallbackURL,
		ExpectedDetails: expected(req),
	})
	if err != nil {
		return perfilseguro.BiometricSession{}, fmt.Errorf("didit create session: encode: %w", err)
	}
	raw, err := c.do(ctx, http.MethodPost, "/v3/session/", payload)
	if err != nil {
		return perfilseguro.BiometricSession{}, fmt.Errorf("didit create session: %w", err)
	}
	var resp createSessionResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return perfilseguro.BiometricSession{}, fmt.Errorf("didit create session: decode response: %w", err)
	}
	if resp.SessionID == "" || resp.URL == "" {
		return perfilseguro.BiometricSession{}, fmt.Errorf("didit create session: response without session_id or url")
	}
	return perfilseguro.BiometricSession{SessionID: resp.SessionID, URL: resp.URL, Raw: json.RawMessage(raw)}, nil
}

// GetDecision reads the session's current decision and scores.
func (c *Client) GetDecision(ctx context.Context, sessionID string) (perfilseguro.BiometricDecision, error) {
	if sessionID == "" {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("didit decision: empty session id: %w", perfilseguro.ErrPermanent)
	}
	raw, err := c.do(ctx, http.MethodGet, "/v3/session/"+url.PathEscape(sessionID)+"/decision/", nil)
	if err != nil {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("didit decision %s: %w", sessionID, err)
	}
	d, err := ParseDecision(raw)
	if err != nil {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("didit decision %s: %w", sessionID, err)
	}
	if d.SessionID == "" {
		d.SessionID = sessionID
	}
	return d, nil
}

// do sends one API request and returns the body of a 2xx response.
func (c *Client) do(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	req, err := outbound.JSONRequest(ctx, method, c.cfg.BaseURL+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", c.cfg.APIKey)
	return outbound.Send(c.cfg.HTTPClient, req, method+" "+path, 4<<20, classify)
}

// APIError is a non-2xx answer from Didit.
type APIError struct {
	HTTPStatus int    // HTTP status of the response
	Detail     string // start of the response body
}

// Error describes the failure.
func (e *APIError) Error() string {
	return fmt.Sprintf("didit status %d: %s", e.HTTPStatus, e.Detail)
}

// classify: 400, 404 and 422 (bad workflow, unknown session, invalid input)
// fail the same way again and wrap ErrPermanent; 401/403 (key), 429 and 5xx are retryable.
func classify(status int, raw []byte) error {
	detail := strings.TrimSpace(string(raw))
	if len(detail) > 300 {
		detail = detail[:300] + "…"
	}
	if detail == "" {
		detail = http.StatusText(status)
	}
	apiErr := &APIError{HTTPStatus: status, Detail: detail}
	switch status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity:
		return fmt.Errorf("%w: %w", perfilseguro.ErrPermanent, apiErr)
	}
	return apiErr
}
