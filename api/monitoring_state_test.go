package api_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// scrapeMetrics reads /metrics as an administrator.
func scrapeMetrics(t *testing.T, e *env, admin *http.Client) string {
	t.Helper()
	r := e.send(t, admin, "GET", "/metrics", nil)
	require.Equal(t, http.StatusOK, r.Status)
	return string(r.Body)
}

// metricValue is the value of one series (name and labels as exposed) in a scrape; the test
// fails when the series is absent.
func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err, line)
			return f
		}
	}
	require.Failf(t, "series not served", "%s", series)
	return 0
}

// testCertificatePEM is a self-signed certificate that expires at notAfter.
func testCertificatePEM(t *testing.T, notAfter time.Time) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Perfil Seguro prueba"},
		NotBefore: notAfter.Add(-365 * 24 * time.Hour), NotAfter: notAfter}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// failOneJob enqueues a task of type typ on queue and lets a worker fail it once, so that it
// waits in the retry set (for an hour) when this returns.
func failOneJob(t *testing.T, e *env, queue, typ string) {
	t.Helper()
	_, err := e.queue.Enqueue(asynq.NewTask(typ, nil), asynq.Queue(queue), asynq.MaxRetry(3))
	require.NoError(t, err)
	srv := asynq.NewServer(e.asynqOpt, asynq.Config{Concurrency: 1, Queues: map[string]int{queue: 1},
		RetryDelayFunc: func(int, error, *asynq.Task) time.Duration { return time.Hour },
		Logger:         quietAsynq{}, LogLevel: asynq.FatalLevel})
	require.NoError(t, srv.Start(asynq.HandlerFunc(func(context.Context, *asynq.Task) error {
		return errors.New("el proveedor no respondió")
	})))
	defer srv.Shutdown()
	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	require.Eventually(t, func() bool {
		tasks, err := insp.ListRetryTasks(queue)
		return err == nil && len(tasks) == 1
	}, 10*time.Second, 50*time.Millisecond)
}

// quietAsynq keeps a test worker's log out of the test output.
type quietAsynq struct{}

func (quietAsynq) Debug(...any) {}
func (quietAsynq) Info(...any)  {}
func (quietAsynq) Warn(...any)  {}
func (quietAsynq) Error(...any) {}
func (quietAsynq) Fatal(...any) {}

func TestStateMetricsMoveWhenThingsHappen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	expires := time.Now().Add(20 * 24 * time.Hour).Truncate(time.Second)
	e := setup(t, func(d *api.Deps) { d.Config.Apple.WWDRPEM = testCertificatePEM(t, expires) })
	admin := e.adminClient(t)
	exec := func(q string, args ...any) {
		t.Helper()
		_, err := e.db.ExecContext(ctx, q, args...)
		require.NoError(t, err)
	}

	body := scrapeMetrics(t, e, admin)
	require.Equal(t, 1.0, metricValue(t, body, `perfilseguro_ready{check="postgres"}`))
	require.Equal(t, 1.0, metricValue(t, body, `perfilseguro_ready{check="redis"}`))
	require.Equal(t, float64(expires.Unix()), metricValue(t, body, `perfilseguro_certificate_expiry_timestamp_seconds{certificate="apple_wwdr"}`))
	require.NotContains(t, body, `certificate="apple_pass"`, "an unset certificate (the development one) is not reported")
	signups := metricValue(t, body, "perfilseguro_signups_last_hour") // the administrator's setup may count
	require.Equal(t, 0.0, metricValue(t, body, "perfilseguro_heartbeat_last_run_timestamp_seconds"), "never")
	require.Equal(t, 0.0, metricValue(t, body, `perfilseguro_webhook_last_received_timestamp_seconds{webhook="payments"}`))
	require.Equal(t, 0.0, metricValue(t, body, `perfilseguro_arco_requests_open{due="overdue"}`))
	require.NotContains(t, body, "perfilseguro_scheduler_last_tick_timestamp_seconds{", "no scheduler has ticked")
	require.NotContains(t, body, "perfilseguro_jobs_retrying{")

	// A sign-up, a validation, a heartbeat, a payment webhook, an overdue ARCO request, a
	// scheduler tick and a job failing at a provider.
	exec(`INSERT INTO users (nombre, id_validado, fecha_validacion, verification_level, biometric_verified)
		VALUES ('Ana', 'PS-0000-0000-21', now(), 3, true)`)
	exec(`INSERT INTO job_heartbeats (tick, source) VALUES ('heartbeat:metrics', 'scheduler')`)
	exec(`INSERT INTO payment_webhooks (event_id, event_type, body) VALUES ('evt_metrics', 'checkout.session.completed', 'x')`)
	exec(`INSERT INTO arco_requests (profile_id, type, channel, due_at) VALUES ('PS-0000-0000-21', 'acceso', 'app', now() - interval '1 hour')`)
	tick := time.Now().Unix()
	require.NoError(t, e.redis.HSet(ctx, jobs.SchedulerTicksKey, "heartbeat", tick).Err())
	failOneJob(t, e, jobs.QueueCritical, jobs.TypeSendOTP)

	body = scrapeMetrics(t, e, admin)
	require.Equal(t, signups+1, metricValue(t, body, "perfilseguro_signups_last_hour"))
	require.Equal(t, 1.0, metricValue(t, body, "perfilseguro_validations_last_hour"))
	require.InDelta(t, float64(time.Now().Unix()), metricValue(t, body, "perfilseguro_heartbeat_last_run_timestamp_seconds"), 60)
	require.InDelta(t, float64(time.Now().Unix()), metricValue(t, body, `perfilseguro_webhook_last_received_timestamp_seconds{webhook="payments"}`), 60)
	require.Equal(t, 1.0, metricValue(t, body, `perfilseguro_arco_requests_open{due="overdue"}`))
	require.Equal(t, float64(tick), metricValue(t, body, `perfilseguro_scheduler_last_tick_timestamp_seconds{entry="heartbeat"}`))
	require.Equal(t, 1.0, metricValue(t, body, `perfilseguro_jobs_retrying{queue="critical",type="otp:send"}`))
	require.Equal(t, 1.0, metricValue(t, body, `asynq_tasks{queue="critical",state="retry"}`))
}

func TestMetricsSayWhichDependencyIsUnreachable(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) {
		d.Redis = redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	})
	addr := e.serveMetrics(t)
	var body string
	require.Eventually(t, func() bool {
		res, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		body = string(b)
		return err == nil && res.StatusCode == http.StatusOK
	}, 5*time.Second, 20*time.Millisecond)
	require.Equal(t, 1.0, metricValue(t, body, `perfilseguro_ready{check="postgres"}`))
	require.Equal(t, 0.0, metricValue(t, body, `perfilseguro_ready{check="redis"}`))
	require.Contains(t, body, "perfilseguro_signups_last_hour ", "what Postgres holds is still served")
	r, _ := e.do(t, "GET", "/readyz", "", "")
	require.Equal(t, http.StatusServiceUnavailable, r.StatusCode, "/readyz says the same")
}
