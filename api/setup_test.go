package api_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
)

// env is one test's running API on real Postgres and Redis.
type env struct {
	srv      *httptest.Server
	api      *api.Server
	queue    *asynq.Client
	redis    *redis.Client
	db       *sqlx.DB
	asynqOpt asynq.RedisClientOpt
}

// testWeb stands in for the built app.
var testWeb = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><title>Perfil Seguro</title>")},
	"assets/index-abc1.js": {Data: []byte("console.log(1)")},
	"favicon.svg":          {Data: []byte("<svg/>")},
	"widget/v1.js":         {Data: []byte("window.PerfilSeguro = function () {}")},
}

// backing is one test's own database and Redis, the clients the API uses for them, and the
// API's configuration.
type backing struct {
	db    *sqlx.DB
	opt   asynq.RedisClientOpt
	redis *redis.Client
	queue *asynq.Client
	cfg   config.Config
}

// newBacking makes a test's backing, configured with APP_ENV=test and vars.
func newBacking(t *testing.T, vars map[string]string) backing {
	t.Helper()
	db, _ := pgtest.New(t)
	opt, redisOpts := redistest.New(t)
	rc := redis.NewClient(redisOpts)
	t.Cleanup(func() { rc.Close() })
	queue := asynq.NewClient(opt)
	t.Cleanup(func() { queue.Close() })
	cfg, err := config.Load(func(k string) string {
		if k == "APP_ENV" {
			return "test"
		}
		return vars[k]
	})
	require.NoError(t, err)
	return backing{db: db, opt: opt, redis: rc, queue: queue, cfg: cfg}
}

// defaultTestDocumentKey seals document data in every API test, as the running app always can
// (development derives a key; production requires DOCUMENT_DATA_KEY).
var defaultTestDocumentKey = secure.NewDocumentKey("api-default-test-document-key-0123456789")

// deps is what the API needs from b, changed by mutate.
func (b backing) deps(web fs.FS, mutate ...func(*api.Deps)) api.Deps {
	d := api.Deps{Config: b.cfg, DB: b.db, Redis: b.redis, AsynqRedis: b.opt, Queue: b.queue, Web: web,
		Documents: defaultTestDocumentKey}
	for _, m := range mutate {
		m(&d)
	}
	return d
}

// newAPI builds the API and its handler, checked against its OpenAPI document on every call.
func newAPI(t *testing.T, d api.Deps) (*api.Server, http.Handler) {
	t.Helper()
	s, err := api.New(d)
	require.NoError(t, err)
	t.Cleanup(s.Close) // runs before the backing's Redis client closes (cleanups run last first)
	return s, newContractCheck(t, s.OpenAPISpec()).wrap(s.Handler())
}

func setup(t *testing.T, mutate ...func(*api.Deps)) *env {
	t.Helper()
	b := newBacking(t, nil)
	s, h := newAPI(t, b.deps(testWeb, mutate...))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &env{srv: srv, api: s, queue: b.queue, redis: b.redis, db: b.db, asynqOpt: b.opt}
}

func (e *env) do(t *testing.T, method, path, contentType, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// cookieNamed is the (last) cookie res sets under name, or nil.
func cookieNamed(res *http.Response, name string) *http.Cookie {
	var found *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == name {
			found = c
		}
	}
	return found
}

// getter is a database or transaction that reads one row into a value.
type getter interface {
	Get(dest any, query string, args ...any) error
}

// dbGet runs a query that answers one value and returns it.
func dbGet[T any](t *testing.T, db getter, query string, args ...any) T {
	t.Helper()
	var v T
	require.NoError(t, db.Get(&v, query, args...))
	return v
}

// countOf runs a query that answers one number (SELECT count(*) ...) and returns it.
func countOf(t *testing.T, db getter, query string, args ...any) int {
	t.Helper()
	return dbGet[int](t, db, query, args...)
}

// serveMetrics runs the API's private metrics listener until the test ends and returns its address.
func (e *env) serveMetrics(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.api.ServeMetrics(ctx, addr) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return addr
}

// withLimits runs the API with the default limits as change leaves them.
func withLimits(change func(*api.Limits)) func(*api.Deps) {
	limits := api.DefaultLimits
	change(&limits)
	return func(d *api.Deps) { d.Limits = &limits }
}

// withDeadQueue points the API's job queue at a closed port (Redis down for enqueues).
func withDeadQueue(d *api.Deps) {
	d.Queue = asynq.NewClient(asynq.RedisClientOpt{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond})
}

// lastCode reads the newest code queued for userID, unsealing it from its delivery job as the worker would.
func (e *env) lastCode(t *testing.T, userID int64) string {
	t.Helper()
	code, err := secure.NewSealer(config.DevSecret).Open(e.lastDelivery(t, userID).SealedCode)
	require.NoError(t, err)
	return code
}

// lastDelivery is the newest code delivery job queued for userID.
func (e *env) lastDelivery(t *testing.T, userID int64) *jobs.SendOTPPayload {
	t.Helper()
	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueCritical, asynq.PageSize(500))
	require.NoError(t, err)
	var ids []int64
	require.NoError(t, e.db.Select(&ids, `SELECT id FROM verification_codes WHERE user_id = $1
		UNION ALL SELECT id FROM email_verification_codes WHERE user_id = $1`, userID))
	var newest *jobs.SendOTPPayload
	for _, task := range tasks {
		var p jobs.SendOTPPayload
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		if slices.Contains(ids, p.CodeID) && (newest == nil || p.CodeID > newest.CodeID || p.ExpiresAt.After(newest.ExpiresAt)) {
			newest = &p
		}
	}
	require.NotNil(t, newest, "no queued code for user %d", userID)
	return newest
}
