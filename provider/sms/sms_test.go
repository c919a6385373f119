package sms_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/outbound/outboundtest"
	"github.com/perfilseguro/perfilseguro/provider/sms"
)

const (
	testSID  = "AC0123456789abcdef0123456789abcdef"
	testCode = "493817"
	testBody = "Tu código de Perfil Seguro es " + testCode + ". Vence en 10 minutos."
)

// setup starts a fake Twilio API answering status/body and returns a client pointed at it. Every
// request it receives must have a form-encoded body.
func setup(t *testing.T, from string, status int, respBody string) (*sms.Client, *outboundtest.Request) {
	t.Helper()
	base, got := outboundtest.Server(t, status, respBody)
	t.Cleanup(func() {
		if got.Method != "" {
			_, err := url.ParseQuery(string(got.Body))
			require.NoError(t, err, "body is not form-encoded")
		}
	})
	return sms.New(sms.Config{BaseURL: base, AccountSID: testSID, AuthToken: "secret-token", From: from}), got
}

// form is the form a request sent.
func form(r *outboundtest.Request) url.Values {
	f, _ := url.ParseQuery(string(r.Body))
	return f
}

const createdBody = `{"sid":"SM1f0e8ae6ade43cb3c0ce4525424e404f","status":"queued","to":"+525512345678","from":"+15005550006","body":"x","num_segments":"1","error_code":null,"error_message":null}`

func TestSendSMSWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, "+15005550006", http.StatusCreated, createdBody)
	require.NoError(t, c.SendSMS(context.Background(), "+525512345678", testBody))

	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/2010-04-01/Accounts/"+testSID+"/Messages.json", got.Path)
	require.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
	user, pass, ok := (&http.Request{Header: got.Header}).BasicAuth()
	require.True(t, ok)
	require.Equal(t, testSID, user)
	require.Equal(t, "secret-token", pass)
	require.Equal(t, url.Values{
		"To":   {"+525512345678"},
		"From": {"+15005550006"},
		"Body": {testBody},
	}, form(got))
}

func TestSendSMSWithMessagingService(t *testing.T) {
	t.Parallel()
	c, got := setup(t, "MG9752274e9e519418a7406176694466fa", http.StatusCreated, createdBody)
	require.NoError(t, c.SendSMS(context.Background(), "+525512345678", "hola"))
	require.Equal(t, "MG9752274e9e519418a7406176694466fa", form(got).Get("MessagingServiceSid"))
	require.Empty(t, form(got).Get("From"))
}

func twilioError(status, code int, msg string) string {
	return fmt.Sprintf(`{"code":%d,"message":%q,"more_info":"https://www.twilio.com/docs/errors/%d","status":%d}`, code, msg, code, status)
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	cases := []outboundtest.Refusal{
		{Name: "invalid To", Status: 400, Body: twilioError(400, 21211, "The 'To' number +5255 is not a valid phone number."), Permanent: true, Mentions: "21211"},
		{Name: "unsubscribed", Status: 400, Body: twilioError(400, 21610, "Attempt to send to unsubscribed recipient"), Permanent: true, Mentions: "21610"},
		{Name: "not mobile", Status: 400, Body: twilioError(400, 21614, "'To' number is not a valid mobile number"), Permanent: true, Mentions: "21614"},
		{Name: "echoes the body", Status: 400, Body: twilioError(400, 21617, "Body too long: "+testBody), Permanent: true, Mentions: "21617"},
		{Name: "echoes the code", Status: 400, Body: twilioError(400, 21602, "Bad body near "+testCode), Permanent: true, Mentions: "21602"},
		{Name: "server error", Status: 500, Body: twilioError(500, 20500, "Internal Server Error"), Permanent: false, Mentions: "20500"},
		{Name: "bare 503", Status: 503, Body: "", Permanent: false, Mentions: "503"},
		{Name: "rate limited", Status: 429, Body: twilioError(429, 20429, "Too Many Requests"), Permanent: false, Mentions: "20429"},
		{Name: "bad credentials", Status: 401, Body: twilioError(401, 20003, "Authenticate"), Permanent: false, Mentions: "20003"},
		{Name: "wrong From config", Status: 400, Body: twilioError(400, 21606, "The From phone number is not a valid, SMS-capable inbound phone number"), Permanent: false, Mentions: "21606"},
	}
	outboundtest.RequireRefusals(t, cases, testCode, func(t *testing.T, r outboundtest.Refusal) error {
		c, _ := setup(t, "+15005550006", r.Status, r.Body)
		return c.SendSMS(context.Background(), "+525512345678", testBody)
	}, func(e *sms.APIError) int { return e.HTTPStatus })
}

func TestNetworkErrorIsTransient(t *testing.T) {
	t.Parallel()
	c := sms.New(sms.Config{BaseURL: outboundtest.ClosedURL(), AccountSID: testSID, AuthToken: "t", From: "+15005550006"})
	err := c.SendSMS(context.Background(), "+525512345678", testBody)
	outboundtest.RequireRetryable(t, err, testCode)
}
