// Package whatsapp sends one-time codes and invitations through the Meta
// WhatsApp Cloud API (Graph API `/{phone-number-id}/messages`) using
// pre-approved message templates.
package whatsapp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// Defaults used when a Config field is empty.
const (
	DefaultBaseURL    = "https://graph.facebook.com"
	DefaultAPIVersion = "v21.0"
	DefaultLanguage   = "es_MX"
)

// Config holds the Cloud API credentials and the template names.
type Config struct {
	BaseURL            string       // Graph API root; default https://graph.facebook.com
	APIVersion         string       // Graph API version, e.g. v21.0
	PhoneNumberID      string       // the sending business phone number id
	AccessToken        string       // system-user access token (Bearer)
	OTPTemplate        string       // authentication template with a copy-code button, e.g. codigo_verificacion
	InvitationTemplate string       // utility template for invitations, e.g. invitacion_perfil_seguro
	ReminderTemplate   string       // utility template for renewal reminders, e.g. recordatorio_vigencia
	PaymentTemplate    string       // utility template: the OXXO payment arrived, e.g. pago_recibido
	VoucherTemplate    string       // utility template: the OXXO voucher expired unpaid, e.g. ficha_oxxo_vencida
	Language           string       // template language code, e.g. es_MX
	HTTPClient         *http.Client // default: 15-second timeout
}

// Client sends WhatsApp template messages; it implements perfilseguro.WhatsAppSender.
type Client struct{ cfg Config }

var _ perfilseguro.WhatsAppSender = (*Client)(nil)

// New returns a Client, filling the defaults for empty Config fields.
func New(cfg Config) *Client {
	cfg.BaseURL, cfg.HTTPClient = outbound.Endpoint("whatsapp", cfg.BaseURL, DefaultBaseURL, cfg.HTTPClient, 15*time.Second)
	if cfg.APIVersion == "" {
		cfg.APIVersion = DefaultAPIVersion
	}
	if cfg.Language == "" {
		cfg.Language = DefaultLanguage
	}
	return &Client{cfg: cfg}
}

// WhatsAppRecipient maps an E.164 phone to the `to` value WhatsApp expects:
// digits without '+', and Mexican numbers (+52 and 10 digits) in the 521 form
// that WhatsApp uses for Mexican mobiles. A number already in 521 form is kept.
func WhatsAppRecipient(e164 string) string {
	var b strings.Builder
	for _, r := range e164 {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	digits := b.String()
	if len(digits) == 12 && strings.HasPrefix(digits, "52") {
		return "521" + digits[2:]
	}
	return digits
}

// SendOTP sends the authentication template: the code goes in the body
// parameter and in the copy-code button (a URL button at index 0).
func (c *Client) SendOTP(ctx context.Context, phoneE164, code string) error {
	msg := templateMessage(phoneE164, c.cfg.OTPTemplate, c.cfg.Language,
		component{Type: "body", Parameters: []parameter{textParam(code)}},
		component{Type: "button", SubType: "url", Index: "0", Parameters: []parameter{textParam(code)}},
	)
	if err := c.send(ctx, msg, code); err != nil {
		return fmt.Errorf("whatsapp otp: %w", err)
	}
	return nil
}

// SendInvitation sends the invitation template with body parameters
// {{1}} invitee name, {{2}} inviter name, {{3}} company (may be empty), {{4}} link.
func (c *Client) SendInvitation(ctx context.Context, phoneE164 string, inv perfilseguro.InvitationMessage) error {
	return c.sendBodyTemplate(ctx, phoneE164, c.cfg.InvitationTemplate, "invitation",
		inv.InviteeName, inv.InviterName, inv.CompanyName, inv.Link)
}

// SendRenewalReminder sends the reminder template with body parameters {{1}} name, {{2}} the
// profile ID, {{3}} the end date (dd/mm/yyyy, Mexico City), {{4}} days left, {{5}} the link.
func (c *Client) SendRenewalReminder(ctx context.Context, phoneE164 string, r perfilseguro.RenewalReminder) error {
	return c.sendBodyTemplate(ctx, phoneE164, c.cfg.ReminderTemplate, "reminder",
		r.Name, r.ProfileID, perfilseguro.MexicoDate(r.ValidUntil), strconv.Itoa(r.DaysLeft), r.Link)
}

// SendPaymentNotice sends PaymentTemplate ({{1}} name, {{2}} plan, {{3}} amount, {{4}} link) when
// the payment arrived, or VoucherTemplate ({{1}} name, {{2}} plan, {{3}} link) when the voucher
// expired unpaid.
func (c *Client) SendPaymentNotice(ctx context.Context, phoneE164 string, n perfilseguro.PaymentNotice) error {
	if n.Expired {
		return c.sendBodyTemplate(ctx, phoneE164, c.cfg.VoucherTemplate, "payment notice", n.Name, n.PlanName, n.Link)
	}
	return c.sendBodyTemplate(ctx, phoneE164, c.cfg.PaymentTemplate, "payment notice", n.Name, n.PlanName, n.Amount, n.Link)
}

// sendBodyTemplate sends the template name whose body takes texts as its parameters, in order;
// what names the message in errors.
func (c *Client) sendBodyTemplate(ctx context.Context, phoneE164, name, what string, texts ...string) error {
	params := make([]parameter, len(texts))
	for i, text := range texts {
		params[i] = textParam(text)
	}
	msg := templateMessage(phoneE164, name, c.cfg.Language, component{Type: "body", Parameters: params})
	if err := c.send(ctx, msg, ""); err != nil {
		return fmt.Errorf("whatsapp %s: %w", what, err)
	}
	return nil
}

// message is the Cloud API request body for a template message.
type message struct {
	MessagingProduct string   `json:"messaging_product"`
	RecipientType    string   `json:"recipient_type"`
	To               string   `json:"to"`
	Type             string   `json:"type"`
	Template         template `json:"template"`
}

type template struct {
	Name       string      `json:"name"`
	Language   language    `json:"language"`
	Components []component `json:"components"`
}

type language struct {
	Code string `json:"code"`
}

type component struct {
	Type       string      `json:"type"`
	SubType    string      `json:"sub_type,omitempty"`
	Index      string      `json:"index,omitempty"`
	Parameters []parameter `json:"parameters"`
}

type parameter struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func textParam(s string) parameter { return parameter{Type: "text", Text: s} }

func templateMessage(phoneE164, name, lang string, comps ...component) message {
	return message{
		MessagingProduct: "whatsapp",
		RecipientType:    "individual",
		To:               WhatsAppRecipient(phoneE164),
		Type:             "template",
		Template:         template{Name: name, Language: language{Code: lang}, Components: comps},
	}
}

// send posts msg; secret (the OTP code, if any) is scrubbed from any error text.
func (c *Client) send(ctx context.Context, msg message, secret string) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	url := fmt.Sprintf("%s/%s/%s/messages", c.cfg.BaseURL, c.cfg.APIVersion, c.cfg.PhoneNumberID)
	req, err := outbound.JSONRequest(ctx, http.MethodPost, url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.cfg.AccessToken)
	// A network failure's *url.Error holds only the method and URL, never the request body, so
	// the code cannot leak through it.
	_, err = outbound.Send(c.cfg.HTTPClient, req, "post messages", 1<<20, func(status int, raw []byte) error { return classify(status, raw, secret) })
	return err
}

// APIError is a Graph API error response (`{"error": {...}}`).
type APIError struct {
	HTTPStatus int    // HTTP status of the response
	Code       int    // error.code, e.g. 131026
	Subcode    int    // error.error_subcode, when present
	Type       string // error.type, e.g. OAuthException
	Message    string // error.message, with any OTP code removed
}

// Error describes the failure without the message contents.
func (e *APIError) Error() string {
	return fmt.Sprintf("graph api status %d code %d: %s", e.HTTPStatus, e.Code, e.Message)
}

type graphErrorBody struct {
	Error struct {
		Message      string `json:"message"`
		Type         string `json:"type"`
		Code         int    `json:"code"`
		ErrorSubcode int    `json:"error_subcode"`
	} `json:"error"`
}

// Error codes that retrying the same request can never fix
// (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
var permanentCodes = map[int]bool{
	100:    true, // invalid parameter
	131008: true, // required parameter missing
	131009: true, // parameter value invalid
	131021: true, // recipient cannot be sender
	131026: true, // message undeliverable (not a WhatsApp user, old client, ...)
	131030: true, // recipient not in allowed list
	131047: true, // re-engagement window
	131051: true, // unsupported message type
	132000: true, // template parameter count mismatch
	132001: true, // template does not exist
	132005: true, // translated text too long
	132007: true, // template format policy violated
	132012: true, // template parameter format mismatch
	132015: true, // template paused
	132016: true, // template disabled
}

// Error codes that are transient or fixable by configuration, whatever the HTTP status:
// rate limits, server trouble and authorization (a new token fixes those, so retry).
var retryCodes = map[int]bool{
	1: true, 2: true, 4: true, 10: true, 190: true, 200: true,
	80007: true, 130429: true, 131000: true, 131016: true, 131048: true, 131056: true, 133004: true,
}

// classify turns a non-2xx response into an error: ErrPermanent-wrapped for
// known permanent codes and other plain 400/4xx request rejections; a plain
// (retryable) error for 401/403/404, 429, 5xx and auth/rate-limit codes.
func classify(status int, raw []byte, secret string) error {
	apiErr := &APIError{HTTPStatus: status}
	var body graphErrorBody
	if json.Unmarshal(raw, &body) == nil {
		apiErr.Code = body.Error.Code
		apiErr.Subcode = body.Error.ErrorSubcode
		apiErr.Type = body.Error.Type
		apiErr.Message = scrub(body.Error.Message, secret)
	}
	if apiErr.Message == "" {
		apiErr.Message = http.StatusText(status)
	}
	return outbound.Classify(status, apiErr.Code, permanentCodes, retryCodes, apiErr)
}

// scrub removes the secret from s so an OTP code never reaches logs.
func scrub(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}
