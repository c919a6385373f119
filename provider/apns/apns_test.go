package apns_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/apns"
)

// stub answers each push token with a status and records the provider tokens it saw.
type stub struct {
	mu      sync.Mutex
	answers map[string]int
	bodies  map[string]string
	bearers []string
}

func (s *stub) serve(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimPrefix(r.URL.Path, "/3/device/")
	s.mu.Lock()
	s.bearers = append(s.bearers, r.Header.Get("authorization"))
	status, body := s.answers[token], s.bodies[token]
	s.mu.Unlock()
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write([]byte(body))
}

func newClient(t *testing.T, s *stub) *apns.Client {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c, err := apns.New(apns.Config{BaseURL: srv.URL, KeyID: "KEYID00001", TeamID: "TEAM000001", Topic: "pass.mx.test",
		PrivateKey: key, HTTPClient: srv.Client()})
	require.NoError(t, err)
	return c
}

func TestPushAnswersAreClassified(t *testing.T) {
	s := &stub{answers: map[string]int{"gone": 410, "bad": 400, "busy": 503, "slow": 429, "expired": 403},
		bodies: map[string]string{"bad": `{"reason":"BadDeviceToken"}`, "expired": `{"reason":"ExpiredProviderToken"}`}}
	c := newClient(t, s)
	ctx := context.Background()
	require.NoError(t, c.PushPassUpdate(ctx, "ok"))

	err := c.PushPassUpdate(ctx, "gone")
	require.ErrorIs(t, err, perfilseguro.ErrPushTokenGone, "410: forget the registration")

	err = c.PushPassUpdate(ctx, "bad")
	require.ErrorIs(t, err, perfilseguro.ErrPermanent, "a bad token is not retried")
	var perm *apns.PermanentError
	require.True(t, errors.As(err, &perm))
	require.Equal(t, 400, perm.Status)
	require.Contains(t, perm.Reason, "BadDeviceToken")

	for _, retryable := range []string{"busy", "slow", "expired"} {
		err := c.PushPassUpdate(ctx, retryable)
		require.Error(t, err, retryable)
		require.NotErrorIs(t, err, perfilseguro.ErrPermanent, "%s is retried", retryable)
		require.NotErrorIs(t, err, perfilseguro.ErrPushTokenGone)
	}
}

// One provider token serves many pushes; an ExpiredProviderToken answer makes the next one new.
func TestProviderTokenIsReusedUntilAPNsSaysItExpired(t *testing.T) {
	s := &stub{answers: map[string]int{"expired": 403}, bodies: map[string]string{"expired": `{"reason":"ExpiredProviderToken"}`}}
	c := newClient(t, s)
	ctx := context.Background()
	require.NoError(t, c.PushPassUpdate(ctx, "a"))
	require.NoError(t, c.PushPassUpdate(ctx, "b"))
	require.Error(t, c.PushPassUpdate(ctx, "expired"))
	require.NoError(t, c.PushPassUpdate(ctx, "c"))
	s.mu.Lock()
	defer s.mu.Unlock()
	require.Len(t, s.bearers, 4)
	require.Equal(t, s.bearers[0], s.bearers[1], "reused")
	require.Equal(t, s.bearers[1], s.bearers[2])
	require.NotEqual(t, s.bearers[2], s.bearers[3], "a new provider token after ExpiredProviderToken")
}

func TestParsePrivateKeyReadsAP8Key(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	got, err := apns.ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	require.NoError(t, err)
	require.True(t, got.Equal(key))
	_, err = apns.ParsePrivateKey([]byte("not a key"))
	require.Error(t, err)
	_, err = apns.New(apns.Config{BaseURL: "https://api.push.apple.com", KeyID: "K", TeamID: "T", PrivateKey: key})
	require.ErrorContains(t, err, "topic")
}
