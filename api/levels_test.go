package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// lvQueue lets a test cut the API off Redis (a closed port) and reconnect it.
type lvQueue struct {
	mu   sync.Mutex
	live jobs.Enqueuer
	dead bool
}

func (q *lvQueue) EnqueueContext(ctx context.Context, t *asynq.Task, o ...asynq.Option) (*asynq.TaskInfo, error) {
	q.mu.Lock()
	target := q.live
	if q.dead {
		target = asynq.NewClient(asynq.RedisClientOpt{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond})
		defer target.(*asynq.Client).Close()
	}
	q.mu.Unlock()
	return target.EnqueueContext(ctx, t, o...)
}

func (q *lvQueue) setDead(dead bool) { q.mu.Lock(); q.dead = dead; q.mu.Unlock() }

// lvEnv is the API served at its own PUBLIC_BASE_URL, so the development provider's page can
// post its signed webhook back to it exactly as in development.
type lvEnv struct {
	base   string
	db     *sqlx.DB
	opt    asynq.RedisClientOpt
	cfg    config.Config
	sim    *devsim.Biometric
	pay    *devsim.Checkout // the checkout stand-in when payments are on (payments_test.go)
	queue  *lvQueue
	client *asynq.Client
	docs   secure.DocumentKey // the API's document key; the worker seals with the same one
}

func lvSetup(t *testing.T, mutate ...func(*api.Deps)) *lvEnv {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + ln.Addr().String()
	b := newBacking(t, map[string]string{"PUBLIC_BASE_URL": base})
	e := &lvEnv{base: base, db: b.db, opt: b.opt, cfg: b.cfg, sim: &devsim.Biometric{DB: b.db, BaseURL: base},
		queue: &lvQueue{live: b.queue}, client: b.queue}
	levels := func(d *api.Deps) {
		d.Queue = e.queue
		d.Levels = api.LevelsDeps{WebhookSecret: b.cfg.Didit.WebhookSecret, Provider: "devsim", Simulator: e.sim, StartWait: 30 * time.Second}
	}
	deps := b.deps(fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Perfil Seguro</title>")}},
		append([]func(*api.Deps){levels}, mutate...)...)
	_, h := newAPI(t, deps)
	e.pay, e.docs = deps.Payments.Checkout, deps.Documents
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return e
}

// worker builds the worker as cmd/perfilseguro wires it in development.
func (e *lvEnv) worker() *worker.Worker {
	d := worker.Deps{DB: e.db, Enqueuer: e.client, Email: devsim.Inbox{DB: e.db}, WhatsApp: devsim.Inbox{DB: e.db},
		Sealer: secure.NewSealer(e.cfg.SecretKey), PublicBaseURL: e.base, Documents: e.docs,
		Levels: worker.LevelsDeps{Biometric: *e.sim, WebhookGrace: time.Nanosecond}}
	if e.pay != nil {
		d.Payments = worker.PaymentDeps{Provider: *e.pay, WebhookGrace: time.Nanosecond, SettleGrace: time.Nanosecond}
	}
	return worker.New(e.opt, 4, time.Second, d)
}

// runWorker processes jobs in the background until the test ends.
func (e *lvEnv) runWorker(t *testing.T) *worker.Worker {
	w := e.worker()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return w
}

// withWorkerAndPerson runs the worker and signs one person up: how most levels and payments tests begin.
func (e *lvEnv) withWorkerAndPerson(t *testing.T) (*lvEnv, *lvClient) {
	t.Helper()
	e.runWorker(t)
	return e, e.signedUp(t)
}

// lvClient is a cookie-keeping browser that does not follow redirects.
type lvClient struct {
	t    *testing.T
	e    *lvEnv
	http *http.Client
	id   int64
}

func (e *lvEnv) anonymous(t *testing.T) *lvClient {
	jar, _ := cookiejar.New(nil)
	return &lvClient{t: t, e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// call sends JSON (when body is not nil) and returns the status, the JSON answer and the response.
func (c *lvClient) call(method, path string, body any) (int, map[string]any, *http.Response) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, err := http.NewRequest(method, c.e.base+path, rd)
	require.NoError(c.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	require.NoError(c.t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := map[string]any{"_raw": string(raw)}
	if len(raw) > 0 && raw[0] == '{' && !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		require.NoError(c.t, json.Unmarshal(raw, &out), string(raw))
		out["_raw"] = string(raw)
	}
	return res.StatusCode, out, res
}

// signedUp registers a new person and verifies the code: level 1, signed in.
func (e *lvEnv) signedUp(t *testing.T) *lvClient {
	t.Helper()
	c := e.anonymous(t)
	n := rand.IntN(90_000_000) + 10_000_000
	status, reg, _ := c.call("POST", "/api/register", map[string]string{"fullName": "Elena Márquez",
		"email": fmt.Sprintf("elena%d@example.com", n), "phoneNumber": fmt.Sprintf("55%d", n)})
	require.Equal(t, http.StatusCreated, status, reg)
	status, out, _ := c.call("POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]})
	require.Equal(t, http.StatusOK, status, out)
	c.id = int64(out["userId"].(float64))
	// The express consent the biometric check needs (its absence is tested in privacy_test.go).
	status, out, _ = c.call("POST", fmt.Sprintf("/api/users/%d/consents", c.id), map[string]string{"purpose": "biometric"})
	require.Equal(t, http.StatusCreated, status, out)
	return c
}

func (c *lvClient) status() map[string]any {
	c.t.Helper()
	code, out, _ := c.call("GET", fmt.Sprintf("/api/users/%d/verification-status", c.id), nil)
	require.Equal(c.t, http.StatusOK, code, out)
	return out
}

// queuedToken unseals the link token of the newest queued e-mail job for a token of userID.
func (e *lvEnv) queuedToken(t *testing.T, userID int64) string {
	t.Helper()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault, asynq.PageSize(200))
	require.NoError(t, err)
	var newest int64
	token := ""
	for _, task := range tasks {
		if task.Type != jobs.TypeSendEmailVerification {
			continue
		}
		var p jobs.SendEmailVerificationPayload
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		owner := dbGet[int64](t, e.db, `SELECT user_id FROM email_verification_tokens WHERE id = $1`, p.TokenID)
		if owner == userID && p.TokenID > newest {
			newest = p.TokenID
			token, err = secure.NewSealer(e.cfg.SecretKey).Open(p.SealedToken)
			require.NoError(t, err)
		}
	}
	require.NotEmpty(t, token, "no queued link for user %d", userID)
	return token
}

var inboxLink = regexp.MustCompile(`/api/verify-email\?token=([0-9a-f]{64})`)

func TestEmailLinkRequiresTheOwnerAtLevel1(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a, b := e.signedUp(t), e.signedUp(t)

	status, _, _ := e.anonymous(t).call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusUnauthorized, status)
	status, _, _ = b.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusForbidden, status)

	_, err := e.db.Exec(`UPDATE users SET verification_level = 0 WHERE id = $1`, a.id)
	require.NoError(t, err)
	status, out, _ := a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusForbidden, status)
	require.Contains(t, out["message"], "Requiere Nivel 1")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM email_verification_tokens`))
}

func TestEmailLinkGrantsLevel2OnceAndContinuesToBiometric(t *testing.T) {
	t.Parallel()
	e, a := lvSetup(t).withWorkerAndPerson(t)
	status, out, _ := a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": strconv.FormatInt(a.id, 10)})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["success"])
	email := out["email"].(string)
	require.Contains(t, out["message"], email)

	// The worker e-mails the link (development inbox); the token is only in the e-mail.
	var token string
	require.Eventually(t, func() bool {
		var text string
		err := e.db.Get(&text, `SELECT body_text FROM dev_messages WHERE recipient = $1 AND channel = 'email'
			AND body_text LIKE '%verify-email%' ORDER BY id DESC LIMIT 1`, email)
		if m := inboxLink.FindStringSubmatch(text); err == nil && m != nil {
			token = m[1]
			return true
		}
		return false
	}, 10*time.Second, 50*time.Millisecond)
	stored := dbGet[string](t, e.db, `SELECT token_hash FROM email_verification_tokens WHERE user_id = $1`, a.id)
	require.Equal(t, secure.HashToken(token), stored, "only the hash is stored")

	// Following the link needs no session: the token is the proof.
	visitor := e.anonymous(t)
	status, _, res := visitor.call("GET", "/api/verify-email?token="+token, nil)
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, "/profile?emailVerified=1&startBiometric=1", res.Header.Get("Location"))
	st := a.status()
	require.Equal(t, 2.0, st["verificationLevel"])
	require.Equal(t, true, st["isEmailVerified"])

	status, out, res = visitor.call("GET", "/api/verify-email?token="+token, nil)
	require.Equal(t, http.StatusGone, status)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, out["_raw"], "Enlace ya utilizado")
	require.Contains(t, out["_raw"], `href="/profile"`)

	status, out, res = visitor.call("GET", "/api/verify-email?token="+strings.Repeat("ab", 32), nil)
	require.Equal(t, http.StatusNotFound, status)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, out["_raw"], "Enlace no válido")
	status, _, _ = visitor.call("GET", "/api/verify-email", nil)
	require.Equal(t, http.StatusNotFound, status)

	status, out, _ = a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status, "already verified")
	require.Equal(t, "Tu correo electrónico ya está verificado.", out["message"])
}

func TestEmailLinkExpiresAndIsRateLimited(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	status, out, _ := a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	token := e.queuedToken(t, a.id)
	expires := dbGet[time.Time](t, e.db, `SELECT expires_at FROM email_verification_tokens WHERE user_id = $1`, a.id)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), expires, time.Minute)
	_, err := e.db.Exec(`UPDATE email_verification_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, a.id)
	require.NoError(t, err)

	status, out, _ = e.anonymous(t).call("GET", "/api/verify-email?token="+token, nil)
	require.Equal(t, http.StatusGone, status)
	require.Contains(t, out["_raw"], "Enlace vencido")
	require.Equal(t, 1.0, a.status()["verificationLevel"])

	for range 4 {
		status, _, _ = a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
		require.Equal(t, http.StatusOK, status)
	}
	status, out, _ = a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Contains(t, out["message"], "Demasiadas solicitudes")
}

func TestEmailLinkWithRedisDownLeavesNoToken(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	e.queue.setDead(true)
	status, out, _ := a.call("POST", "/api/send-email-verification-link", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM email_verification_tokens`))
}

// postWebhook sends body signed with secret at ts.
func (e *lvEnv) postWebhook(t *testing.T, body []byte, secret string, ts time.Time) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", e.base+"/api/webhooks/biometric", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(didit.SignatureHeader, didit.SignWebhook(secret, body))
	req.Header.Set(didit.TimestampHeader, strconv.FormatInt(ts.Unix(), 10))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

func (e *lvEnv) webhookCount(t *testing.T) int {
	return countOf(t, e.db, `SELECT count(*) FROM provider_webhooks`)
}

func TestWebhookSignatureIsCheckedBeforeAnything(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	secret := e.cfg.Didit.WebhookSecret
	body := []byte(`{"session_id":"abc","status":"Approved","webhook_type":"status.updated"}`)

	status, raw := e.postWebhook(t, body, "wrong-secret", time.Now())
	require.Equal(t, http.StatusUnauthorized, status, raw)
	var refusal map[string]string
	require.NoError(t, json.Unmarshal([]byte(raw), &refusal))
	require.Equal(t, "Firma del webhook inválida.", refusal["message"])
	require.Regexp(t, `^[0-9a-f]{16}$`, refusal["requestId"])
	require.Len(t, refusal, 2, "nothing but the message and the request's id")

	// Signed correctly, then changed in transit.
	req, _ := http.NewRequest("POST", e.base+"/api/webhooks/biometric",
		strings.NewReader(`{"session_id":"abc","status":"Declined","webhook_type":"status.updated"}`))
	req.Header.Set(didit.SignatureHeader, didit.SignWebhook(secret, body))
	req.Header.Set(didit.TimestampHeader, strconv.FormatInt(time.Now().Unix(), 10))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)

	status, _ = e.postWebhook(t, body, secret, time.Now().Add(-6*time.Minute))
	require.Equal(t, http.StatusUnauthorized, status, "older than 5 minutes")
	status, _ = e.postWebhook(t, body, secret, time.Now().Add(6*time.Minute))
	require.Equal(t, http.StatusUnauthorized, status, "from the future")

	res, err = http.Post(e.base+"/api/webhooks/biometric", "application/json", strings.NewReader(string(body)))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, "unsigned")
	require.Zero(t, e.webhookCount(t), "nothing refused is stored")
}

func TestWebhookIsStoredRawThenQueuedAndReplaysAreDeduplicated(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	body := []byte(`{"session_id":"sess-1","status":"Approved","webhook_type":"status.updated","created_at":1700000000}`)
	status, raw := e.postWebhook(t, body, e.cfg.Didit.WebhookSecret, time.Now())
	require.Equal(t, http.StatusOK, status, raw)

	var row struct {
		SessionID string `db:"session_id"`
		Body      []byte `db:"body"`
		Processed bool   `db:"processed"`
	}
	require.NoError(t, e.db.Get(&row, `SELECT session_id, body, processed_at IS NOT NULL AS processed FROM provider_webhooks`))
	require.Equal(t, "sess-1", row.SessionID)
	require.Equal(t, body, row.Body, "the raw body, byte for byte")
	require.False(t, row.Processed, "processing is the job's")

	status, _ = e.postWebhook(t, body, e.cfg.Didit.WebhookSecret, time.Now().Add(time.Second))
	require.Equal(t, http.StatusOK, status, "a replay is acknowledged")
	require.Equal(t, 1, e.webhookCount(t))

	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	require.Len(t, tasks, 1, "one processing job for one event")
	require.Equal(t, jobs.TypeProcessBiometricWebhook, tasks[0].Type)
}

// A session the provider refused to create (the job gave up) answers the poll with 502 and a
// Spanish message, not with another 202.
func TestAPollOnASessionThatFailedToStartAnswers502(t *testing.T) {
	t.Parallel()
	e := lvSetup(t, func(d *api.Deps) { d.Levels.StartWait = 100 * time.Millisecond })
	a := e.signedUp(t)
	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusAccepted, status, out)
	id := int64(out["sessionId"].(float64))
	_, err := e.db.Exec(`UPDATE verification_sessions SET verification_status = 'start_failed' WHERE id = $1`, id)
	require.NoError(t, err)
	status, out, _ = a.call("GET", fmt.Sprintf("/api/start-verification/%d", id), nil)
	require.Equal(t, http.StatusBadGateway, status, out)
	require.NotEmpty(t, out["message"])
	require.Equal(t, out["message"], out["error"])
}

func TestStartVerificationAnswers202ThenThePollGivesTheURL(t *testing.T) {
	t.Parallel()
	e := lvSetup(t, func(d *api.Deps) { d.Levels.StartWait = 300 * time.Millisecond })
	a, b := e.signedUp(t), e.signedUp(t)
	status, _, _ := b.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusForbidden, status)

	status, out, res := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusAccepted, status, out)
	require.Contains(t, res.Header.Get("Content-Type"), "application/json")
	require.Equal(t, true, out["pending"])
	id := int64(out["sessionId"].(float64))
	path := fmt.Sprintf("/api/start-verification/%d", id)

	status, _, _ = a.call("GET", path, nil)
	require.Equal(t, http.StatusAccepted, status)
	status, _, _ = b.call("GET", path, nil)
	require.Equal(t, http.StatusNotFound, status, "someone else's attempt")
	status, _, _ = e.anonymous(t).call("GET", path, nil)
	require.Equal(t, http.StatusUnauthorized, status)

	// The worker creates the provider session; the next poll has the URL.
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	task, err := insp.GetTaskInfo(jobs.QueueCritical, fmt.Sprintf("%s:%d", jobs.TypeStartBiometricSession, id))
	require.NoError(t, err)
	require.NoError(t, e.worker().Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)))
	status, out, _ = a.call("GET", path, nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Regexp(t, `^`+regexp.QuoteMeta(e.base)+`/dev/biometric/[0-9a-f-]{36}$`, out["verificationUrl"])
}

// page reads a stand-in's page, which must answer 200.
func (c *lvClient) page(pageURL string) string {
	c.t.Helper()
	res, err := c.http.Get(pageURL)
	require.NoError(c.t, err)
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(c.t, http.StatusOK, res.StatusCode)
	return string(page)
}

// postForm posts values to a stand-in's page as its form would, and returns the (closed) answer.
func (c *lvClient) postForm(pageURL string, values url.Values) *http.Response {
	c.t.Helper()
	res, err := c.http.PostForm(pageURL, values)
	require.NoError(c.t, err)
	res.Body.Close()
	return res
}

// decideOnSimulator plays the user on the development provider's page.
func (c *lvClient) decideOnSimulator(pageURL, decision string) *http.Response {
	c.t.Helper()
	page := c.page(pageURL)
	for _, button := range []string{"Aprobar", "Rechazar", "Enviar a revisión"} {
		require.Contains(c.t, page, button)
	}
	return c.postForm(pageURL, url.Values{"decision": {decision}})
}

func TestSimulatorApprovalReachesLevel3ThroughTheSignedWebhook(t *testing.T) {
	t.Parallel()
	e, a := lvSetup(t).withWorkerAndPerson(t)
	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	pageURL := out["verificationUrl"].(string)

	res := a.decideOnSimulator(pageURL, "approve")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/return", loc.Path)
	require.Equal(t, strconv.FormatInt(a.id, 10), loc.Query().Get("userId"))
	require.Equal(t, "Approved", loc.Query().Get("status"))

	require.Eventually(t, func() bool {
		st := a.status()
		return st["verificationLevel"] == 3.0 && st["biometricVerified"] == true && st["lastBiometricStatus"] == "Approved"
	}, 10*time.Second, 100*time.Millisecond)
	var scores struct {
		Overall, Face, Liveness, Document float64
	}
	require.NoError(t, e.db.QueryRow(`SELECT overall_score, face_match_score, liveness_score, document_score
		FROM verification_sessions WHERE user_id = $1`, a.id).Scan(&scores.Overall, &scores.Face, &scores.Liveness, &scores.Document))
	require.Equal(t, 92.5, scores.Face)
	require.Equal(t, 100.0, scores.Document)

	status, _, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status, "already verified")
	res = a.postForm(pageURL, url.Values{"decision": {"decline"}}) // without reading the page first
	require.Equal(t, http.StatusConflict, res.StatusCode, "a decided session takes no other decision")
}

func TestSimulatorDeclineKeepsTheLevelAndReportsTheStatus(t *testing.T) {
	t.Parallel()
	_, a := lvSetup(t).withWorkerAndPerson(t)
	_, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	res := a.decideOnSimulator(out["verificationUrl"].(string), "decline")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Contains(t, res.Header.Get("Location"), "status=Declined")
	require.Eventually(t, func() bool { return a.status()["lastBiometricStatus"] == "Declined" }, 10*time.Second, 100*time.Millisecond)
	st := a.status()
	require.Equal(t, 1.0, st["verificationLevel"])
	require.Equal(t, false, st["biometricVerified"])
}

// realProvider stands for Didit in production: it records the sessions asked of it.
type realProvider struct{ asked atomic.Int32 }

func (p *realProvider) CreateSession(context.Context, perfilseguro.BiometricSessionRequest) (perfilseguro.BiometricSession, error) {
	p.asked.Add(1)
	return perfilseguro.BiometricSession{}, fmt.Errorf("didit stand-in: %w", perfilseguro.ErrPermanent)
}
func (p *realProvider) GetDecision(context.Context, string) (perfilseguro.BiometricDecision, error) {
	return perfilseguro.BiometricDecision{}, perfilseguro.ErrPermanent
}

// With the real provider configured (production), a partner's test person is checked by the
// simulator (its page served for their session only) and a live person by the real provider; the
// simulator's page knows no other session. (The page does not look at APP_ENV: what it may serve
// is decided by the sessions it made.)
func TestWithTheRealProviderTheSimulatorServesOnlyTestPeople(t *testing.T) {
	t.Parallel()
	e := lvSetup(t, func(d *api.Deps) { d.Levels.Provider, d.Levels.StartWait = "didit", 100*time.Millisecond })
	res, err := http.Get(e.base + "/dev/biometric/00000000-0000-4000-8000-000000000000")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode, "no session of the simulator's")

	partner := dbGet[int64](t, e.db, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_dddddddddddddddddddddddd', 'CasaLista', 'https://casalista.example') RETURNING id`)
	tester, live := e.signedUp(t), e.signedUp(t)
	_, err = e.db.Exec(`UPDATE users SET test_partner_id = $2 WHERE id = $1`, tester.id, partner)
	require.NoError(t, err)
	didit := &realProvider{}
	w := worker.New(e.opt, 1, time.Second, worker.Deps{DB: e.db, Enqueuer: e.client, Sealer: secure.NewSealer(e.cfg.SecretKey),
		PublicBaseURL: e.base, Levels: worker.LevelsDeps{Biometric: didit, TestBiometric: *e.sim}})
	start := func(a *lvClient) (int64, string) {
		_, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
		id := int64(out["sessionId"].(float64))
		task, _ := jobs.NewStartBiometricSessionTask(id)
		_ = w.Handler().ProcessTask(context.Background(), task)
		provider := dbGet[string](t, e.db, `SELECT provider FROM verification_sessions WHERE id = $1`, id)
		return id, provider
	}
	id, provider := start(tester)
	require.Equal(t, "devsim", provider)
	require.Zero(t, didit.asked.Load(), "a test person never reaches the real provider")
	session := dbGet[string](t, e.db, `SELECT session_id FROM verification_sessions WHERE id = $1`, id)
	res, err = http.Get(e.base + "/dev/biometric/" + session)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the test person's simulator page")

	_, provider = start(live)
	require.Equal(t, "didit", provider)
	require.Equal(t, int32(1), didit.asked.Load(), "a live person goes to the real provider")
}

// A webhook that arrives while Redis is unreachable is stored; the periodic reconciler queues
// it later and the worker applies it.
func TestReconcilerProcessesAWebhookStoredWhileRedisWasDown(t *testing.T) {
	t.Parallel()
	e := lvSetup(t, func(d *api.Deps) { d.Levels.StartWait = 100 * time.Millisecond })
	a := e.signedUp(t)
	_, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	id := int64(out["sessionId"].(float64))
	w := e.worker()
	start, _ := jobs.NewStartBiometricSessionTask(id)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), start))
	sessionID := dbGet[string](t, e.db, `SELECT session_id FROM verification_sessions WHERE id = $1`, id)
	s, err := e.sim.Decide(context.Background(), sessionID, "Approved")
	require.NoError(t, err)

	e.queue.setDead(true)
	status, raw := e.postWebhook(t, s.WebhookBody(time.Now()), e.cfg.Didit.WebhookSecret, time.Now())
	require.Equal(t, http.StatusOK, status, raw)
	processed := dbGet[bool](t, e.db, `SELECT processed_at IS NOT NULL FROM provider_webhooks`)
	require.False(t, processed)
	require.Equal(t, 1.0, a.status()["verificationLevel"])

	e.queue.setDead(false)
	e.runWorker(t)
	reconcile, _ := jobs.NewReconcileBiometricTask("test")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), reconcile))
	require.Eventually(t, func() bool {
		return e.db.Get(&processed, `SELECT processed_at IS NOT NULL FROM provider_webhooks`) == nil && processed
	}, 10*time.Second, 100*time.Millisecond)
	st := a.status()
	require.Equal(t, 3.0, st["verificationLevel"])
	require.Equal(t, true, st["biometricVerified"])
}

// Renewal is a new biometric check: refused while the validity has more than 30 days left,
// allowed once it ended (or is about to), and its approval starts a new validity. A revoked
// validation cannot be renewed by a check.
func TestAnExpiredValidationIsRenewedByANewCheck(t *testing.T) {
	t.Parallel()
	e, a := lvSetup(t).withWorkerAndPerson(t)
	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	a.decideOnSimulator(out["verificationUrl"].(string), "approve")
	require.Eventually(t, func() bool { return a.status()["verificationLevel"] == 3.0 }, 10*time.Second, 100*time.Millisecond)

	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status, "a fresh validation is not renewed")
	require.Equal(t, "Tu identidad ya está verificada.", out["message"])

	// A year and a week later the validity has ended.
	_, err := e.db.Exec(`UPDATE users SET fecha_validacion = now() - interval '1 year 7 days', vigencia = 1,
		expired_at = now() - interval '7 days' WHERE id = $1`, a.id)
	require.NoError(t, err)
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, "an expired validation may be renewed: %v", out)
	a.decideOnSimulator(out["verificationUrl"].(string), "approve")
	require.Eventually(t, func() bool {
		var expired *time.Time
		var validated time.Time
		require.NoError(t, e.db.QueryRow(`SELECT expired_at, fecha_validacion FROM users WHERE id = $1`, a.id).Scan(&expired, &validated))
		return expired == nil && time.Since(validated) < time.Minute
	}, 10*time.Second, 100*time.Millisecond, "the approval renewed the validity from today")

	_, err = e.db.Exec(`UPDATE users SET fecha_validacion = now() - interval '1 year 7 days', revoked_at = now(),
		revoked_reason = 'Fraude' WHERE id = $1`, a.id)
	require.NoError(t, err)
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "Tu validación fue revocada: no puedes iniciar una nueva verificación hasta que soporte revise tu caso. "+
		"Escríbenos a soporte@perfilseguro.mx.", out["message"])
}
