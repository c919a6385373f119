// Package sms sends text messages through the Twilio Programmable Messaging
// API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`).
package sms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// DefaultBaseURL is the Twilio REST API root.
const DefaultBaseURL = "https://api.twilio.com"

// Config holds the Twilio account credentials and the sender.
type Config struct {
	BaseURL    string       // default https://api.twilio.com
	AccountSID string       // AC... account SID (also the basic-auth user)
	AuthToken  string       // auth token (basic-auth password)
	From       string       // sending number in E.164, or a Messaging Service SID (MG...)
	HTTPClient *http.Client // default: 15-second timeout
}

// Client sends SMS through Twilio; it implements perfilseguro.SMSSender.
type Client struct{ cfg Config }

var _ perfilseguro.SMSSender = (*Client)(nil)

// New returns a Client, filling the defaults for empty Config fields.
func New(cfg Config) *Client {
	cfg.BaseURL, cfg.HTTPClient = outbound.Endpoint("sms", cfg.BaseURL, DefaultBaseURL, cfg.HTTPClient, 15*time.Second)
	return &Client{cfg: cfg}
}

// SendSMS sends body to phoneE164. The body (which may hold a one-time code)
// never appears in a returned error.
func (c *Client) SendSMS(ctx context.Context, phoneE164, body string) error {
	form := url.Values{}
	form.Set("To", phoneE164)
	if strings.HasPrefix(c.cfg.From, "MG") {
		form.Set("MessagingServiceSid", c.cfg.From)
	} else {
		form.Set("From", c.cfg.From)
	}
	form.Set("Body", body)

	endpoint := fmt.Sprintf("%s/2010-04-01/Accounts/%s/Messages.json", c.cfg.BaseURL, url.PathEscape(c.cfg.AccountSID))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("sms: build request: %w", err)
	}
	req.SetBasicAuth(c.cfg.AccountSID, c.cfg.AuthToken)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	_, err = outbound.Send(c.cfg.HTTPClient, req, "post message", 1<<20, func(status int, raw []byte) error { return classify(status, raw, body) })
	if err != nil {
		return fmt.Errorf("sms: %w", err)
	}
	return nil
}

// APIError is a Twilio REST error response.
type APIError struct {
	HTTPStatus int    // HTTP status of the response
	Code       int    // Twilio error code, e.g. 21211
	Message    string // Twilio's message, with the SMS body removed
	MoreInfo   string // link to the error's documentation
}

// Error describes the failure without the message contents.
func (e *APIError) Error() string {
	return fmt.Sprintf("twilio status %d code %d: %s", e.HTTPStatus, e.Code, e.Message)
}

type twilioErrorBody struct {
	Code     int    `json:"code"`
	Message  string `json:"message"`
	MoreInfo string `json:"more_info"`
	Status   int    `json:"status"`
}

// Error codes where this recipient or this message can never be delivered
// (https://www.twilio.com/docs/api/errors).
var permanentCodes = map[int]bool{
	21211: true, // invalid 'To' phone number
	21214: true, // 'To' number cannot be reached
	21217: true, // phone number does not appear to be valid
	21408: true, // permission to send to this region not enabled
	21610: true, // recipient unsubscribed (replied STOP)
	21612: true, // cannot route to this number
	21614: true, // 'To' is not a valid mobile number
	21617: true, // body exceeds the concatenated message limit
	21635: true, // 'To' cannot be a landline
}

// Error codes fixed by configuration or time, whatever the HTTP status: retry.
var retryCodes = map[int]bool{
	20003: true, // authentication failed
	20429: true, // too many requests
	20500: true, // internal server error
	20503: true, // service unavailable
	21606: true, // 'From' is not a valid number for this account
	21659: true, // 'From' is not a Twilio phone number
}

// classify turns a non-2xx response into an error: ErrPermanent-wrapped for
// known permanent codes and other 400 request rejections; a plain (retryable)
// error for auth/config problems, 429 and 5xx.
func classify(status int, raw []byte, secret string) error {
	apiErr := &APIError{HTTPStatus: status}
	var body twilioErrorBody
	if json.Unmarshal(raw, &body) == nil {
		apiErr.Code = body.Code
		apiErr.Message = scrub(body.Message, secret)
		apiErr.MoreInfo = body.MoreInfo
	}
	if apiErr.Message == "" {
		apiErr.Message = http.StatusText(status)
	}
	return outbound.Classify(status, apiErr.Code, permanentCodes, retryCodes, apiErr)
}

// sixDigits matches a standalone 6-digit number: the shape of our one-time codes.
var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

// scrub removes the message body, and anything shaped like a one-time code,
// from s so a code never reaches logs.
func scrub(s, secret string) string {
	if secret != "" {
		s = strings.ReplaceAll(s, secret, "[redacted]")
	}
	return sixDigits.ReplaceAllString(s, "[redacted]")
}
