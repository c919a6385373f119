package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
)

// clock is a settable time source for Deps.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Now()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func withClock(c *clock) func(*api.Deps) { return func(d *api.Deps) { d.Now = c.Now } }

// reply is one answer: status, headers and raw body.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a map (objects) and fails the test otherwise.
func (r reply) JSON(t *testing.T) map[string]any {
	t.Helper()
	out := map[string]any{}
	require.NoError(t, json.Unmarshal(r.Body, &out), string(r.Body))
	return out
}

// send makes one request with client c (JSON body when body is not nil).
func (e *env) send(t *testing.T, c *http.Client, method, path string, body any, header ...string) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		rd = strings.NewReader(string(raw))
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, raw := roundTrip(t, c, req, header...)
	return reply{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// roundTrip sends req with client c and the header name/value pairs, and returns the answer
// with its body read.
func roundTrip(t *testing.T, c *http.Client, req *http.Request, header ...string) (*http.Response, []byte) {
	t.Helper()
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, raw
}

// anonymous is a cookie-keeping client with no session, which does not follow redirects.
func anonymous() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// adminClient signs in as administrator with the development password and returns the client.
func (e *env) adminClient(t *testing.T) *http.Client {
	t.Helper()
	c := anonymous()
	r := e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return c
}

// adminSetup is setup with the administrator signed in on the returned client.
func adminSetup(t *testing.T) (*env, *http.Client) {
	t.Helper()
	e := setup(t)
	return e, e.adminClient(t)
}
