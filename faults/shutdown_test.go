package faults

import (
	"net/http"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// SIGTERM lets the job in flight finish before the worker exits (graceful shutdown).
func TestWorkerFinishesTheJobInFlightOnSIGTERM(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	redis := startRedis(t)
	graph := newFakeGraph(t)
	graph.delay = 3 * time.Second
	env := merge(map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url()}, graph.env())
	api := startAPI(t, env)
	worker := run(t, "worker", merge(env, map[string]string{"SHUTDOWN_GRACE": "20s"}))

	status, reg := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)
	require.Eventually(t, func() bool {
		graph.mu.Lock()
		defer graph.mu.Unlock()
		return graph.requests > 0
	}, 20*time.Second, 20*time.Millisecond, "the job reached the provider")
	require.NoError(t, worker.cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- worker.cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "clean exit")
	case <-time.After(30 * time.Second):
		t.Fatal("worker did not stop")
	}
	require.True(t, slices.Contains(graph.deliveredCodes(), reg["verificationCode"].(string)))
	var sent int
	require.NoError(t, db.Get(&sent, `SELECT count(*) FROM verification_codes WHERE sent_at IS NOT NULL`))
	require.Equal(t, 1, sent, "the job ran to its end (delivery recorded) before the worker exited")
}
