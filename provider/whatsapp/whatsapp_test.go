package whatsapp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound/outboundtest"
	"github.com/perfilseguro/perfilseguro/provider/whatsapp"
)

const testCode = "493817"

// setup starts a fake Graph API answering status/body and returns a client pointed at it.
func setup(t *testing.T, status int, respBody string) (*whatsapp.Client, *outboundtest.Request) {
	t.Helper()
	url, got := outboundtest.Server(t, status, respBody)
	c := whatsapp.New(whatsapp.Config{
		BaseURL:            url,
		APIVersion:         "v21.0",
		PhoneNumberID:      "106540352242922",
		AccessToken:        "EAAtoken",
		OTPTemplate:        "codigo_verificacion",
		InvitationTemplate: "invitacion_perfil_seguro",
		ReminderTemplate:   "recordatorio_vigencia",
		PaymentTemplate:    "pago_recibido",
		VoucherTemplate:    "ficha_oxxo_vencida",
		Language:           "es_MX",
	})
	return c, got
}

// bodyTemplate is the request body that sends the template name, in es_MX, to the WhatsApp
// number to, with texts as its body's parameters in order.
func bodyTemplate(to, name string, texts ...string) string {
	params := make([]string, len(texts))
	for i, text := range texts {
		quoted, _ := json.Marshal(text)
		params[i] = `{"type": "text", "text": ` + string(quoted) + `}`
	}
	return `{"messaging_product": "whatsapp", "recipient_type": "individual", "to": "` + to + `", "type": "template",
		"template": {"name": "` + name + `", "language": {"code": "es_MX"},
			"components": [{"type": "body", "parameters": [` + strings.Join(params, ", ") + `]}]}}`
}

const okBody = `{"messaging_product":"whatsapp","contacts":[{"input":"5215512345678","wa_id":"5215512345678"}],"messages":[{"id":"wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA"}]}`

func TestWhatsAppRecipient(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"+525512345678", "5215512345678"},    // Mexican mobile: 52 + 10 digits → 521 form
		{"+5215512345678", "5215512345678"},   // already in 521 form: unchanged
		{"+52 55 1234 5678", "5215512345678"}, // formatting is ignored
		{"+14155550123", "14155550123"},       // US
		{"+34612345678", "34612345678"},       // Spain
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, whatsapp.WhatsAppRecipient(tc.in), tc.in)
	}
}

func TestSendOTPWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	require.NoError(t, c.SendOTP(context.Background(), "+525512345678", testCode))

	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/v21.0/106540352242922/messages", got.Path)
	require.Equal(t, "Bearer EAAtoken", got.Header.Get("Authorization"))
	require.Equal(t, "application/json", got.Header.Get("Content-Type"))
	require.JSONEq(t, `{
		"messaging_product": "whatsapp",
		"recipient_type": "individual",
		"to": "5215512345678",
		"type": "template",
		"template": {
			"name": "codigo_verificacion",
			"language": {"code": "es_MX"},
			"components": [
				{"type": "body", "parameters": [{"type": "text", "text": "493817"}]},
				{"type": "button", "sub_type": "url", "index": "0",
				 "parameters": [{"type": "text", "text": "493817"}]}
			]
		}
	}`, string(got.Body))
}

func TestSendInvitationWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	err := c.SendInvitation(context.Background(), "+14155550123", perfilseguro.InvitationMessage{
		InviteeName: "José Pérez",
		InviterName: "María Fernanda López",
		Link:        "https://perfilseguro.mx/invitacion/abc123",
	})
	require.NoError(t, err)
	require.Equal(t, "/v21.0/106540352242922/messages", got.Path)
	require.JSONEq(t, bodyTemplate("14155550123", "invitacion_perfil_seguro",
		"José Pérez", "María Fernanda López", "", "https://perfilseguro.mx/invitacion/abc123"), string(got.Body))
}

func TestSendRenewalReminderWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	err := c.SendRenewalReminder(context.Background(), "+525512345678", perfilseguro.RenewalReminder{
		Name: "Ana López", ProfileID: "PS-1234-5678-90", DaysLeft: 7, Link: "https://perfilseguro.mx/profile",
		ValidUntil: time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC), // still 30/11 in Mexico City
	})
	require.NoError(t, err)
	require.JSONEq(t, bodyTemplate("5215512345678", "recordatorio_vigencia",
		"Ana López", "PS-1234-5678-90", "30/11/2026", "7", "https://perfilseguro.mx/profile"), string(got.Body))
}

func TestSendPaymentNoticeWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	n := perfilseguro.PaymentNotice{Name: "Ana López", PlanName: "Validación 1 año", Amount: "$299.00 MXN",
		Link: "https://perfilseguro.mx/profile"}
	require.NoError(t, c.SendPaymentNotice(context.Background(), "+525512345678", n))
	require.JSONEq(t, bodyTemplate("5215512345678", "pago_recibido",
		"Ana López", "Validación 1 año", "$299.00 MXN", "https://perfilseguro.mx/profile"), string(got.Body))

	n.Expired = true
	require.NoError(t, c.SendPaymentNotice(context.Background(), "+525512345678", n))
	require.JSONEq(t, bodyTemplate("5215512345678", "ficha_oxxo_vencida",
		"Ana López", "Validación 1 año", "https://perfilseguro.mx/profile"), string(got.Body))
}

func graphError(code int, msg string) string {
	return fmt.Sprintf(`{"error":{"message":%q,"type":"OAuthException","code":%d,"error_data":{"messaging_product":"whatsapp","details":%q},"fbtrace_id":"AbCdEf"}}`, msg, code, msg)
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	cases := []outboundtest.Refusal{
		{Name: "not a whatsapp user", Status: 400, Body: graphError(131026, "Message undeliverable"), Permanent: true, Mentions: "131026"},
		{Name: "template missing", Status: 404, Body: graphError(132001, "Template name does not exist in the translation"), Permanent: true, Mentions: "132001"},
		{Name: "template params", Status: 400, Body: graphError(132000, "Number of parameters does not match the expected number of params"), Permanent: true, Mentions: "132000"},
		{Name: "not in allowed list", Status: 400, Body: graphError(131030, "Recipient phone number not in allowed list"), Permanent: true, Mentions: "131030"},
		{Name: "invalid parameter", Status: 400, Body: graphError(100, "Invalid parameter"), Permanent: true, Mentions: "100"},
		{Name: "param echoes the code", Status: 400, Body: graphError(131009, "Parameter value is not valid: "+testCode), Permanent: true, Mentions: "131009"},
		{Name: "server error", Status: 500, Body: graphError(131000, "Something went wrong "+testCode), Permanent: false, Mentions: "131000"},
		{Name: "bare 502", Status: 502, Body: "<html>bad gateway</html>", Permanent: false, Mentions: "502"},
		{Name: "rate limited", Status: 429, Body: graphError(130429, "Rate limit hit"), Permanent: false, Mentions: "130429"},
		{Name: "expired token", Status: 401, Body: graphError(190, "Error validating access token"), Permanent: false, Mentions: "190"},
		{Name: "token error with 400", Status: 400, Body: graphError(190, "Error validating access token"), Permanent: false, Mentions: "190"},
	}
	outboundtest.RequireRefusals(t, cases, testCode, func(t *testing.T, r outboundtest.Refusal) error {
		c, _ := setup(t, r.Status, r.Body)
		return c.SendOTP(context.Background(), "+525512345678", testCode)
	}, func(e *whatsapp.APIError) int { return e.HTTPStatus })
}

func TestNetworkErrorIsTransient(t *testing.T) {
	t.Parallel()
	c := whatsapp.New(whatsapp.Config{BaseURL: outboundtest.ClosedURL(), PhoneNumberID: "1", AccessToken: "t", OTPTemplate: "x"})
	err := c.SendOTP(context.Background(), "+525512345678", testCode)
	outboundtest.RequireRetryable(t, err, testCode)
}

func TestContextCancelled(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, http.StatusOK, okBody)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.SendOTP(ctx, "+525512345678", testCode)
	require.Error(t, err)
	require.False(t, errors.Is(err, perfilseguro.ErrPermanent))
	require.ErrorIs(t, err, context.Canceled)
}
