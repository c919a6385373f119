package faults

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func countUsers(t *testing.T, db *sqlx.DB) int {
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM users`))
	return n
}

// Redis stopped during registration: 503 in Spanish and no half-made user; back up: it works
// again with no manual step.
func TestRedisDownDuringRegistrationThenBack(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	redis := startRedis(t)
	api := startAPI(t, map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url()})

	status, _ := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)
	require.Equal(t, 1, countUsers(t, db))

	redis.stop()
	status, body := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusServiceUnavailable, status, body)
	require.Contains(t, body["message"], "no está disponible")
	require.Equal(t, 1, countUsers(t, db), "no half-made user")
	require.Equal(t, http.StatusServiceUnavailable, api.get("/readyz"))

	redis.start()
	require.Eventually(t, func() bool { return api.get("/readyz") == http.StatusOK }, 20*time.Second, 200*time.Millisecond)
	require.Eventually(t, func() bool {
		status, _ := api.post("/api/register", nextRegistration())
		return status == http.StatusCreated
	}, 20*time.Second, 500*time.Millisecond)
	require.Equal(t, 2, countUsers(t, db))
}

// The WhatsApp provider down for a while: the code is delivered once it is back, within its lifetime.
func TestCodeIsDeliveredAfterTheProviderComesBack(t *testing.T) {
	t.Parallel()
	_, dsn := pgtest.New(t)
	redis := startRedis(t)
	graph := newFakeGraph(t)
	graph.setDown(true)
	env := merge(map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url()}, graph.env())
	api := startAPI(t, env)
	run(t, "worker", env)

	status, reg := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)
	code := reg["verificationCode"].(string)

	time.Sleep(6 * time.Second) // the provider answers 503 meanwhile; the job retries with backoff
	require.Empty(t, graph.deliveredCodes())
	graph.setDown(false)
	require.Eventually(t, func() bool { return slices.Contains(graph.deliveredCodes(), code) }, 60*time.Second, 250*time.Millisecond)
	time.Sleep(2 * time.Second)
	require.Equal(t, []string{code}, graph.deliveredCodes(), "delivered exactly once")
}

// A worker killed in the middle of a job: the job runs again (asynq lease recovery) and the
// message is delivered once.
func TestWorkerKilledMidJobRunsTheJobAgainOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for asynq's lease recovery (about a minute)")
	}
	t.Parallel()
	_, dsn := pgtest.New(t)
	redis := startRedis(t)
	graph := newFakeGraph(t)
	graph.hangFirst = true
	env := merge(map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url()}, graph.env())
	api := startAPI(t, env)
	first := run(t, "worker", env)

	status, reg := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)
	code := reg["verificationCode"].(string)
	select {
	case <-graph.hanging:
	case <-time.After(30 * time.Second):
		t.Fatal("the job never reached the provider")
	}
	first.kill() // SIGKILL in the middle of the provider call
	close(graph.release)

	run(t, "worker", env)
	require.Eventually(t, func() bool { return slices.Contains(graph.deliveredCodes(), code) }, 150*time.Second, 500*time.Millisecond)
	time.Sleep(3 * time.Second)
	require.Equal(t, []string{code}, graph.deliveredCodes(), "the effect happened once")
}
