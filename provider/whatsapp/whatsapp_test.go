package whatsapp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/whatsapp"
)

const testCode = "493817"

// captured is one request as the fake Graph API saw it.
type captured struct {
	Method, Path, Auth, ContentType string
	Body                            string
}

// setup starts a fake Graph API answering status/body and returns a client pointed at it.
func setup(t *testing.T, status int, respBody string) (*whatsapp.Client, *captured) {
	t.Helper()
	got := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = captured{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"),
			ContentType: r.Header.Get("Content-Type"), Body: string(b)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, respBody)
	}))
	t.Cleanup(srv.Close)
	c := whatsapp.New(whatsapp.Config{
		BaseURL:            srv.URL,
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
	require.Equal(t, "Bearer EAAtoken", got.Auth)
	require.Equal(t, "application/json", got.ContentType)
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
	}`, got.Body)
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
	require.JSONEq(t, `{
		"messaging_product": "whatsapp",
		"recipient_type": "individual",
		"to": "14155550123",
		"type": "template",
		"template": {
			"name": "invitacion_perfil_seguro",
			"language": {"code": "es_MX"},
			"components": [
				{"type": "body", "parameters": [
					{"type": "text", "text": "José Pérez"},
					{"type": "text", "text": "María Fernanda López"},
					{"type": "text", "text": ""},
					{"type": "text", "text": "https://perfilseguro.mx/invitacion/abc123"}
				]}
			]
		}
	}`, got.Body)
}

func TestSendRenewalReminderWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	err := c.SendRenewalReminder(context.Background(), "+525512345678", perfilseguro.RenewalReminder{
		Name: "Ana López", ProfileID: "PS-1234-5678-90", DaysLeft: 7, Link: "https://perfilseguro.mx/profile",
		ValidUntil: time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC), // still 30/11 in Mexico City
	})
	require.NoError(t, err)
	require.JSONEq(t, `{
		"messaging_product": "whatsapp",
		"recipient_type": "individual",
		"to": "5215512345678",
		"type": "template",
		"template": {
			"name": "recordatorio_vigencia",
			"language": {"code": "es_MX"},
			"components": [
				{"type": "body", "parameters": [
					{"type": "text", "text": "Ana López"},
					{"type": "text", "text": "PS-1234-5678-90"},
					{"type": "text", "text": "30/11/2026"},
					{"type": "text", "text": "7"},
					{"type": "text", "text": "https://perfilseguro.mx/profile"}
				]}
			]
		}
	}`, got.Body)
}

func TestSendPaymentNoticeWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, http.StatusOK, okBody)
	n := perfilseguro.PaymentNotice{Name: "Ana López", PlanName: "Validación 1 año", Amount: "$299.00 MXN",
		Link: "https://perfilseguro.mx/profile"}
	require.NoError(t, c.SendPaymentNotice(context.Background(), "+525512345678", n))
	require.JSONEq(t, `{"messaging_product": "whatsapp", "recipient_type": "individual", "to": "5215512345678",
		"type": "template", "template": {"name": "pago_recibido", "language": {"code": "es_MX"},
			"components": [{"type": "body", "parameters": [
				{"type": "text", "text": "Ana López"}, {"type": "text", "text": "Validación 1 año"},
				{"type": "text", "text": "$299.00 MXN"}, {"type": "text", "text": "https://perfilseguro.mx/profile"}]}]}}`, got.Body)

	n.Expired = true
	require.NoError(t, c.SendPaymentNotice(context.Background(), "+525512345678", n))
	require.JSONEq(t, `{"messaging_product": "whatsapp", "recipient_type": "individual", "to": "5215512345678",
		"type": "template", "template": {"name": "ficha_oxxo_vencida", "language": {"code": "es_MX"},
			"components": [{"type": "body", "parameters": [
				{"type": "text", "text": "Ana López"}, {"type": "text", "text": "Validación 1 año"},
				{"type": "text", "text": "https://perfilseguro.mx/profile"}]}]}}`, got.Body)
}

func graphError(code int, msg string) string {
	return fmt.Sprintf(`{"error":{"message":%q,"type":"OAuthException","code":%d,"error_data":{"messaging_product":"whatsapp","details":%q},"fbtrace_id":"AbCdEf"}}`, msg, code, msg)
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		status    int
		body      string
		permanent bool
		mentions  string
	}{
		{"not a whatsapp user", 400, graphError(131026, "Message undeliverable"), true, "131026"},
		{"template missing", 404, graphError(132001, "Template name does not exist in the translation"), true, "132001"},
		{"template params", 400, graphError(132000, "Number of parameters does not match the expected number of params"), true, "132000"},
		{"not in allowed list", 400, graphError(131030, "Recipient phone number not in allowed list"), true, "131030"},
		{"invalid parameter", 400, graphError(100, "Invalid parameter"), true, "100"},
		{"param echoes the code", 400, graphError(131009, "Parameter value is not valid: "+testCode), true, "131009"},
		{"server error", 500, graphError(131000, "Something went wrong "+testCode), false, "131000"},
		{"bare 502", 502, "<html>bad gateway</html>", false, "502"},
		{"rate limited", 429, graphError(130429, "Rate limit hit"), false, "130429"},
		{"expired token", 401, graphError(190, "Error validating access token"), false, "190"},
		{"token error with 400", 400, graphError(190, "Error validating access token"), false, "190"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := setup(t, tc.status, tc.body)
			err := c.SendOTP(context.Background(), "+525512345678", testCode)
			require.Error(t, err)
			require.Equal(t, tc.permanent, errors.Is(err, perfilseguro.ErrPermanent), err.Error())
			require.Contains(t, err.Error(), tc.mentions)
			require.NotContains(t, err.Error(), testCode, "the OTP code must never appear in errors")

			var apiErr *whatsapp.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, tc.status, apiErr.HTTPStatus)
		})
	}
}

func TestNetworkErrorIsTransient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens any more

	c := whatsapp.New(whatsapp.Config{BaseURL: url, PhoneNumberID: "1", AccessToken: "t", OTPTemplate: "x"})
	err := c.SendOTP(context.Background(), "+525512345678", testCode)
	require.Error(t, err)
	require.False(t, errors.Is(err, perfilseguro.ErrPermanent))
	require.NotContains(t, err.Error(), testCode)
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
