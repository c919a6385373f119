package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// env is one test's running API on real Postgres and Redis.
type env struct {
	srv   *httptest.Server
	api   *api.Server
	queue *asynq.Client
	redis *redis.Client
}

// testWeb stands in for the built app.
var testWeb = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><title>Perfil Seguro</title>")},
	"assets/index-abc1.js": {Data: []byte("console.log(1)")},
	"favicon.svg":          {Data: []byte("<svg/>")},
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
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &env{srv: srv, api: s, queue: queue, redis: rc}
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
