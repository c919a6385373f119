package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func freePort(t *testing.T) int { return bintest.FreePort(t) }

// redisServer is a private redis-server on its own port that a test may stop and start.
type redisServer struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
}

func startRedis(t *testing.T) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	r := &redisServer{t: t, port: freePort(t)}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *redisServer) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

func (r *redisServer) start() {
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	require.NoError(r.t, r.cmd.Start())
	waitTCP(r.t, r.port)
}

func (r *redisServer) stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
	}
}

func waitTCP(t *testing.T, port int) { bintest.WaitTCP(t, port) }

// process is one running perfilseguro subcommand.
type process struct {
	cmd *exec.Cmd
	out *bytes.Buffer
}

// run starts a perfilseguro subcommand with env; it is killed when the test ends.
func run(t *testing.T, sub string, env map[string]string) *process {
	t.Helper()
	cmd := exec.Command(bintest.Path(t), sub)
	cmd.Env = append(os.Environ(), "APP_ENV=test", "SHUTDOWN_GRACE=2s")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &process{cmd: cmd, out: &bytes.Buffer{}}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("%s output:\n%s", sub, bintest.LastLines(p.out.String(), 40))
		}
	})
	return p
}

func (p *process) kill() {
	if p.cmd.Process != nil && p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
	}
}

// apiClient talks to a running API as the browser app does.
type apiClient struct {
	t    *testing.T
	base string
	http *http.Client // nil: http.DefaultClient (no cookies)
}

// browser is a client of the same API that keeps its cookies (a signed-in person) and does not
// follow redirects, so a page's 303 can be checked.
func (c *apiClient) browser() *apiClient {
	jar, _ := cookiejar.New(nil)
	return &apiClient{t: c.t, base: c.base, http: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *apiClient) client() *http.Client {
	if c.http != nil {
		return c.http
	}
	return http.DefaultClient
}

// submitForm posts form to pageURL (a page the API serves, such as a provider's stand-in) from
// the API's origin, as the browser does, and returns the status.
func (c *apiClient) submitForm(pageURL string, form url.Values) int {
	c.t.Helper()
	req, _ := http.NewRequest("POST", pageURL, bytes.NewBufferString(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", c.base)
	res, err := c.client().Do(req)
	require.NoError(c.t, err)
	res.Body.Close()
	return res.StatusCode
}

func startAPI(t *testing.T, env map[string]string) *apiClient {
	t.Helper()
	port := freePort(t)
	env["HTTP_ADDR"] = fmt.Sprintf("127.0.0.1:%d", port)
	env["PUBLIC_BASE_URL"] = fmt.Sprintf("http://127.0.0.1:%d", port)
	run(t, "api", env)
	c := &apiClient{t: t, base: env["PUBLIC_BASE_URL"]}
	require.Eventually(t, func() bool {
		res, err := http.Get(c.base + "/healthz")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == 200
	}, 20*time.Second, 100*time.Millisecond)
	return c
}

func (c *apiClient) post(path string, body any) (int, map[string]any) {
	c.t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.base+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", c.base)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.client().Do(req.WithContext(ctx))
	require.NoError(c.t, err)
	defer res.Body.Close()
	out := map[string]any{}
	b, _ := io.ReadAll(res.Body)
	json.Unmarshal(b, &out)
	return res.StatusCode, out
}

func (c *apiClient) get(path string) int {
	c.t.Helper()
	res, err := http.Get(c.base + path)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// getJSON reads a JSON answer of the API.
func (c *apiClient) getJSON(path string) (int, map[string]any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+path, nil)
	res, err := c.client().Do(req)
	require.NoError(c.t, err)
	defer res.Body.Close()
	out := map[string]any{}
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// fakeGraph plays the WhatsApp Cloud API: it records delivered codes and can be down or hang.
type fakeGraph struct {
	mu        sync.Mutex
	down      bool
	hangFirst bool
	delay     time.Duration // every answer waits this long
	hanging   chan struct{} // closed when the first request is hanging
	release   chan struct{}
	requests  int
	delivered []string // codes of accepted messages
	srv       *http.Server
	url       string
}

func newFakeGraph(t *testing.T) *fakeGraph {
	g := &fakeGraph{hanging: make(chan struct{}), release: make(chan struct{})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g.url = "http://" + l.Addr().String()
	g.srv = &http.Server{Handler: http.HandlerFunc(g.serve)}
	go g.srv.Serve(l)
	t.Cleanup(func() {
		select {
		case <-g.release:
		default:
			close(g.release)
		}
		g.srv.Close()
	})
	return g
}

func (g *fakeGraph) serve(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Template struct {
			Components []struct {
				Parameters []struct {
					Text string `json:"text"`
				} `json:"parameters"`
			} `json:"components"`
		} `json:"template"`
	}
	json.NewDecoder(r.Body).Decode(&msg)
	g.mu.Lock()
	g.requests++
	first := g.requests == 1
	down, hang, delay := g.down, g.hangFirst && first, g.delay
	g.mu.Unlock()
	time.Sleep(delay)
	if hang {
		close(g.hanging)
		<-g.release // the caller is killed meanwhile: this answer is never read
		return
	}
	if down {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":{"message":"Service temporarily unavailable","code":2}}`)
		return
	}
	code := ""
	if len(msg.Template.Components) > 0 && len(msg.Template.Components[0].Parameters) > 0 {
		code = msg.Template.Components[0].Parameters[0].Text
	}
	g.mu.Lock()
	g.delivered = append(g.delivered, code)
	g.mu.Unlock()
	io.WriteString(w, `{"messaging_product":"whatsapp","messages":[{"id":"wamid.test"}]}`)
}

func (g *fakeGraph) setDown(d bool) { g.mu.Lock(); g.down = d; g.mu.Unlock() }

func (g *fakeGraph) deliveredCodes() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.delivered...)
}

// providerEnv points the processes at the fake WhatsApp API.
func (g *fakeGraph) env() map[string]string {
	return map[string]string{"WHATSAPP_BASE_URL": g.url, "WHATSAPP_ACCESS_TOKEN": "test-token",
		"WHATSAPP_PHONE_NUMBER_ID": "1000", "WHATSAPP_API_VERSION": "v21.0"}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

var phoneSeq atomic.Int64

func init() { phoneSeq.Store(time.Now().UnixNano() % 90_000_000) }

// nextRegistration returns a registration with a phone and e-mail no other call returns.
func nextRegistration() map[string]string {
	n := 10_000_000 + phoneSeq.Add(1)%89_999_999
	return map[string]string{"fullName": "Prueba Fallas", "email": fmt.Sprintf("fallas%d@example.com", n), "phoneNumber": fmt.Sprintf("55%d", n)}
}

func isRoot() bool {
	u, err := user.Current()
	return err == nil && u.Uid == "0"
}

// redisGapRig starts a database, a Redis the test can stop and start, the API and a worker, with
// PAYMENTS set to payments; env is ready for the scheduler the test starts once Redis is back.
func redisGapRig(t *testing.T, payments string) (*sqlx.DB, *redisServer, map[string]string, *apiClient) {
	db, dsn := pgtest.New(t)
	redis := startRedis(t)
	env := map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url(), "PAYMENTS": payments}
	api := startAPI(t, env)
	env["PUBLIC_BASE_URL"] = api.base
	run(t, "worker", env)
	return db, redis, env, api.browser()
}

// reconcileAfterRedisGap ages the events stored in table while Redis was down past the
// reconciler's one-minute grace (the grace spares events whose job may still be queued; these
// jobs were lost with Redis, so it is not waited out), brings Redis back and starts the
// scheduler, whose reconciler queues them again on its next tick.
func reconcileAfterRedisGap(t *testing.T, db *sqlx.DB, redis *redisServer, env map[string]string, table string) {
	t.Helper()
	_, err := db.Exec(`UPDATE ` + table + ` SET received_at = received_at - interval '2 minutes' WHERE processed_at IS NULL`)
	require.NoError(t, err)
	redis.start()
	run(t, "scheduler", env)
}

// consentedPerson registers a person in browser, verifies their code and records their consent
// to the biometric check; it returns their user id as the API gave it.
func consentedPerson(t *testing.T, browser *apiClient) any {
	t.Helper()
	status, reg := browser.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status, reg)
	status, me := browser.post("/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]})
	require.Equal(t, http.StatusOK, status, me)
	uid := me["userId"]
	status, out := browser.post(fmt.Sprintf("/api/users/%v/consents", uid), map[string]any{"purpose": "biometric"})
	require.Equal(t, http.StatusCreated, status, out)
	return uid
}
