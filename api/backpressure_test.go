package api_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// TestCodeSendsAreRefusedWhileQueuedCodesWaitTooLong: past the bound, a sign-up answers 503 with
// Retry-After and the Spanish message, having written nothing; below it, or when the latency
// cannot be read, it goes on as usual.
func TestCodeSendsAreRefusedWhileQueuedCodesWaitTooLong(t *testing.T) {
	t.Parallel()
	var latency atomic.Int64
	var broken atomic.Bool
	e := setup(t, func(d *api.Deps) {
		d.OTPQueueLatency = func(context.Context) (time.Duration, error) {
			if broken.Load() {
				return 0, errors.New("redis unreachable")
			}
			return time.Duration(latency.Load()), nil
		}
	})
	register := func(phone string) reply {
		return e.send(t, anonymous(), "POST", "/api/register", map[string]string{"fullName": "Ana López",
			"email": "ana" + phone + "@example.com", "phoneNumber": phone})
	}
	latency.Store(int64(45 * time.Second))
	r := register("5512340001")
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.Equal(t, "30", r.Header.Get("Retry-After"))
	require.Contains(t, r.JSON(t)["message"], "tu código tardaría en llegar")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users`), "a shed sign-up writes nothing")
	r = e.send(t, anonymous(), "POST", "/api/login", map[string]string{"phoneNumber": "5512340001"})
	require.Equal(t, http.StatusServiceUnavailable, r.Status, "code sends for a sign-in too")

	time.Sleep(300 * time.Millisecond) // the reading is kept 250 ms
	latency.Store(int64(5 * time.Second))
	r = register("5512340002")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))

	time.Sleep(300 * time.Millisecond)
	broken.Store(true)
	r = register("5512340003")
	require.Equal(t, http.StatusCreated, r.Status, "an unknown latency admits")
}

// TestTheQueueLatencyIsReadFromTheCriticalQueue: with the real reading, a code job left waiting
// past a 1 s bound makes the next sign-up answer 503, and /metrics shows the bound and the wait.
func TestTheQueueLatencyIsReadFromTheCriticalQueue(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) { d.Config.OTPQueueBound = time.Second })
	_, err := e.queue.Enqueue(asynq.NewTask("otp:stuck", nil), asynq.Queue(jobs.QueueCritical))
	require.NoError(t, err)
	time.Sleep(1500 * time.Millisecond)
	r := e.send(t, anonymous(), "POST", "/api/register", map[string]string{"fullName": "Ana López",
		"email": "ana.cola@example.com", "phoneNumber": "5512340004"})
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))

	metrics := e.send(t, e.adminClient(t), "GET", "/metrics", nil)
	require.Equal(t, http.StatusOK, metrics.Status)
	require.Contains(t, string(metrics.Body), "perfilseguro_otp_queue_latency_bound_seconds 1\n")
	require.Regexp(t, `perfilseguro_otp_queue_latency_seconds [1-9]`, string(metrics.Body))
}
