package faults

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// refusedFast is how long a request may take to be refused once the API knows Redis is gone: a
// Spanish 503 from a loaded two-core machine, not go-redis's retries (1.7 s a command, 3.4 s a
// sign-up, before the breaker).
const refusedFast = 250 * time.Millisecond

// Redis stopped (issue 54 item 20): the first sign-up that needs it spends go-redis's retries and
// opens the breaker; every sign-up after it is refused with the Spanish 503 in milliseconds, and
// /readyz and perfilseguro_ready say Redis is unreachable as fast. Nothing is half-made. Once
// Redis is back the probe finds it within a second, with no request of ours needed, and sign-ups
// go through again.
func TestRedisOutageRefusesFastUntilTheProbeSeesItBack(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	redis := startRedis(t)
	metrics := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	api := startAPI(t, map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url(), "METRICS_ADDR": metrics})
	ready := func() float64 { return readyMetric(t, metrics) }

	status, _ := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)
	require.Equal(t, 1.0, ready())

	redis.stop()
	start := time.Now()
	status, body := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusServiceUnavailable, status, body)
	t.Logf("first sign-up after Redis stopped: 503 in %v", time.Since(start).Round(time.Millisecond))

	for i := 0; i < 5; i++ {
		start := time.Now()
		status, body := api.post("/api/register", nextRegistration())
		took := time.Since(start)
		require.Equal(t, http.StatusServiceUnavailable, status, body)
		require.Contains(t, body["message"], "no está disponible")
		require.Less(t, took, refusedFast, "sign-up %d refused at once", i+2)
		t.Logf("sign-up %d: 503 in %v", i+2, took.Round(time.Microsecond))

		start = time.Now()
		status, out := api.getJSON("/readyz")
		require.Equal(t, http.StatusServiceUnavailable, status)
		require.Equal(t, "unreachable", out["checks"].(map[string]any)["redis"])
		require.Equal(t, "ok", out["checks"].(map[string]any)["postgres"])
		require.Equal(t, 0.0, ready())
		require.Less(t, time.Since(start), 2*refusedFast, "/readyz and /metrics answer at once")
	}
	require.Equal(t, 1, countUsers(t, db), "no half-made user")

	redis.start()
	back := time.Now()
	require.Eventually(t, func() bool { return api.get("/readyz") == http.StatusOK }, 5*time.Second, 20*time.Millisecond)
	t.Logf("ready %v after Redis was back", time.Since(back).Round(time.Millisecond))
	require.Equal(t, 1.0, ready())
	status, body = api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status, body)
	require.Equal(t, 2, countUsers(t, db))
}

var readyRedis = regexp.MustCompile(`(?m)^perfilseguro_ready\{check="redis"\} (\S+)$`)

// readyMetric reads perfilseguro_ready{check="redis"} from the API's metrics listener.
func readyMetric(t *testing.T, addr string) float64 {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	m := readyRedis.FindStringSubmatch(string(b))
	require.NotNil(t, m, "perfilseguro_ready{check=\"redis\"} is exported")
	var v float64
	_, err = fmt.Sscan(m[1], &v)
	require.NoError(t, err)
	return v
}
