package sms_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/sms"
)

const (
	testSID  = "AC0123456789abcdef0123456789abcdef"
	testCode = "493817"
	testBody = "Tu código de Perfil Seguro es " + testCode + ". Vence en 10 minutos."
)

// captured is one request as the fake Twilio API saw it.
type captured struct {
	Method, Path, ContentType string
	User, Pass                string
	BasicOK                   bool
	Form                      url.Values
}

// setup starts a fake Twilio API answering status/body and returns a client pointed at it.
func setup(t *testing.T, from string, status int, respBody string) (*sms.Client, *captured) {
	t.Helper()
	got := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		b, _ := io.ReadAll(r.Body)
		form, err := url.ParseQuery(string(b))
		if err != nil {
			t.Errorf("body is not form-encoded: %v", err)
		}
		*got = captured{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
			User: user, Pass: pass, BasicOK: ok, Form: form}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, respBody)
	}))
	t.Cleanup(srv.Close)
	c := sms.New(sms.Config{BaseURL: srv.URL, AccountSID: testSID, AuthToken: "secret-token", From: from})
	return c, got
}

const createdBody = `{"sid":"SM1f0e8ae6ade43cb3c0ce4525424e404f","status":"queued","to":"+525512345678","from":"+15005550006","body":"x","num_segments":"1","error_code":null,"error_message":null}`

func TestSendSMSWireFormat(t *testing.T) {
	t.Parallel()
	c, got := setup(t, "+15005550006", http.StatusCreated, createdBody)
	require.NoError(t, c.SendSMS(context.Background(), "+525512345678", testBody))

	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/2010-04-01/Accounts/"+testSID+"/Messages.json", got.Path)
	require.Equal(t, "application/x-www-form-urlencoded", got.ContentType)
	require.True(t, got.BasicOK)
	require.Equal(t, testSID, got.User)
	require.Equal(t, "secret-token", got.Pass)
	require.Equal(t, url.Values{
		"To":   {"+525512345678"},
		"From": {"+15005550006"},
		"Body": {testBody},
	}, got.Form)
}

func TestSendSMSWithMessagingService(t *testing.T) {
	t.Parallel()
	c, got := setup(t, "MG9752274e9e519418a7406176694466fa", http.StatusCreated, createdBody)
	require.NoError(t, c.SendSMS(context.Background(), "+525512345678", "hola"))
	require.Equal(t, "MG9752274e9e519418a7406176694466fa", got.Form.Get("MessagingServiceSid"))
	require.Empty(t, got.Form.Get("From"))
}

func twilioError(status, code int, msg string) string {
	return fmt.Sprintf(`{"code":%d,"message":%q,"more_info":"https://www.twilio.com/docs/errors/%d","status":%d}`, code, msg, code, status)
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
		{"invalid To", 400, twilioError(400, 21211, "The 'To' number +5255 is not a valid phone number."), true, "21211"},
		{"unsubscribed", 400, twilioError(400, 21610, "Attempt to send to unsubscribed recipient"), true, "21610"},
		{"not mobile", 400, twilioError(400, 21614, "'To' number is not a valid mobile number"), true, "21614"},
		{"echoes the body", 400, twilioError(400, 21617, "Body too long: "+testBody), true, "21617"},
		{"echoes the code", 400, twilioError(400, 21602, "Bad body near "+testCode), true, "21602"},
		{"server error", 500, twilioError(500, 20500, "Internal Server Error"), false, "20500"},
		{"bare 503", 503, "", false, "503"},
		{"rate limited", 429, twilioError(429, 20429, "Too Many Requests"), false, "20429"},
		{"bad credentials", 401, twilioError(401, 20003, "Authenticate"), false, "20003"},
		{"wrong From config", 400, twilioError(400, 21606, "The From phone number is not a valid, SMS-capable inbound phone number"), false, "21606"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := setup(t, "+15005550006", tc.status, tc.body)
			err := c.SendSMS(context.Background(), "+525512345678", testBody)
			require.Error(t, err)
			require.Equal(t, tc.permanent, errors.Is(err, perfilseguro.ErrPermanent), err.Error())
			require.Contains(t, err.Error(), tc.mentions)
			require.NotContains(t, err.Error(), testCode, "the code must never appear in errors")

			var apiErr *sms.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, tc.status, apiErr.HTTPStatus)
		})
	}
}

func TestNetworkErrorIsTransient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()

	c := sms.New(sms.Config{BaseURL: base, AccountSID: testSID, AuthToken: "t", From: "+15005550006"})
	err := c.SendSMS(context.Background(), "+525512345678", testBody)
	require.Error(t, err)
	require.False(t, errors.Is(err, perfilseguro.ErrPermanent))
	require.NotContains(t, err.Error(), testCode)
}
