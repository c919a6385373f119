package api_test

import (
	"encoding/json"
	"io"
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

func setup(t *testing.T, mutate ...func(*api.Deps)) *env {
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
		return ""
	})
	require.NoError(t, err)
	deps := api.Deps{Config: cfg, DB: db, Redis: rc, AsynqRedis: opt, Queue: queue, Web: testWeb}
	for _, m := range mutate {
		m(&deps)
	}
	s, err := api.New(deps)
	require.NoError(t, err)
	srv := httptest.NewServer(newContractCheck(t, s.OpenAPISpec()).wrap(s.Handler()))
	t.Cleanup(srv.Close)
	return &env{srv: srv, api: s, queue: queue, redis: rc, db: db, asynqOpt: opt}
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
