package worker_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// partnerWorker is a worker that queues its tasks, and counts partners' requests, on a Redis of
// its own (opt).
func partnerWorker(t *testing.T, db *sqlx.DB) (*worker.Worker, asynq.RedisClientOpt) {
	t.Helper()
	opt, ropts := redistest.New(t)
	client := asynq.NewClient(opt)
	rc := redis.NewClient(ropts)
	t.Cleanup(func() {
		client.Close()
		rc.Close()
	})
	return worker.New(opt, 1, time.Second, worker.Deps{DB: db, Enqueuer: client, Redis: rc}), opt
}

func TestPartnerIsNotifiedSignedAndRetriedOn5xx(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)

	var calls atomic.Int32
	var gotBody []byte
	var gotSig string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		gotBody, _ = io.ReadAll(r.Body)
		gotSig = r.Header.Get(perfilseguro.PartnerSignatureHeader)
		w.WriteHeader(http.StatusOK)
	}))
	defer partner.Close()

	var pid, uid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_hook', 'CasaLista', 'https://casalista.example', $1, 'whsec_test') RETURNING id`, partner.URL))
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado, partner_id) VALUES ('Ana', 'PS-1111-2222-33', $1) RETURNING id`, pid))
	// A level change writes the outbox row in the same transaction (trigger).
	_, err := db.Exec(`UPDATE users SET verification_level = 1, is_phone_verified = true WHERE id = $1`, uid)
	require.NoError(t, err)
	var pending int
	require.NoError(t, db.Get(&pending, `SELECT count(*) FROM partner_deliveries WHERE delivered_at IS NULL`))
	require.Equal(t, 1, pending)

	w, opt := partnerWorker(t, db)
	ctx := context.Background()
	dispatch, _ := jobs.NewPartnerDispatchTask("t1")
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch))
	runPending := func() {
		insp := asynq.NewInspector(opt)
		defer insp.Close()
		tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
		require.NoError(t, err)
		for _, ti := range tasks {
			require.NoError(t, w.Handler().ProcessTask(ctx, asynq.NewTask(ti.Type, ti.Payload)))
			insp.DeleteTask(jobs.QueueDefault, ti.ID)
		}
	}
	runPending()
	var attempts int
	var status *int
	require.NoError(t, db.QueryRow(`SELECT attempts, status_code FROM partner_deliveries`).Scan(&attempts, &status))
	require.Equal(t, 1, attempts)
	require.Equal(t, http.StatusBadGateway, *status, "the failed attempt is logged")

	// The retry comes due after backoff.
	_, err = db.Exec(`UPDATE partner_deliveries SET next_attempt_at = now()`)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch), "same tick name, new attempt number")
	dispatch2, _ := jobs.NewPartnerDispatchTask("t2")
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch2))
	runPending()
	require.Equal(t, int32(2), calls.Load())
	var delivered *time.Time
	require.NoError(t, db.Get(&delivered, `SELECT delivered_at FROM partner_deliveries`))
	require.NotNil(t, delivered)

	// The partner can verify what it received.
	require.NoError(t, perfilseguro.VerifyPartnerWebhook("whsec_test", gotSig, gotBody, time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("otro", gotSig, gotBody, time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_test", gotSig, append(gotBody, ' '), time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_test", gotSig, gotBody, time.Now().Add(10*time.Minute), 5*time.Minute))
	require.Contains(t, string(gotBody), `"verificationLevel": 1`)
}

func TestPartnerUsageIsFlushedOnce(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	opt, ropts := redistest.New(t)
	rc := redis.NewClient(ropts)
	defer rc.Close()
	var pid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_u', 'ValorCasa', 'https://valorcasa.example') RETURNING id`))
	ctx := context.Background()
	rc.HIncrBy(ctx, jobs.PartnerUsageKey, itoa(pid), 7)
	w := worker.New(opt, 1, time.Second, worker.Deps{DB: db, Redis: rc})
	flush, _ := jobs.NewPartnerFlushUsageTask("t")
	require.NoError(t, w.Handler().ProcessTask(ctx, flush))
	require.NoError(t, w.Handler().ProcessTask(ctx, flush), "a repeat adds nothing")
	var count int
	var last *time.Time
	require.NoError(t, db.QueryRow(`SELECT requests_count, last_used_at FROM api_keys WHERE id = $1`, pid).Scan(&count, &last))
	require.Equal(t, 7, count)
	require.NotNil(t, last)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestDispatchExpiresSessionsAndSendsTheirNotificationOnce(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var bodies []string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
	}))
	defer partner.Close()
	var pid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_live_000000000000000000000e01', 'CasaLista', 'https://casalista.example', $1, 'whsec_test') RETURNING id`, partner.URL))
	_, err := db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, expires_at)
		VALUES ('vs_000000000000000000000001', $1, true, 'caso-1', 3, '{name}', 'h1', now() - interval '1 second'),
		       ('vs_000000000000000000000002', $1, true, 'caso-2', 3, '{name}', 'h2', now() + interval '1 hour')`, pid)
	require.NoError(t, err)

	w, opt := partnerWorker(t, db)
	ctx := context.Background()
	for _, tick := range []string{"t1", "t2"} { // a second tick finds nothing new
		dispatch, _ := jobs.NewPartnerDispatchTask(tick)
		require.NoError(t, w.Handler().ProcessTask(ctx, dispatch))
		insp := asynq.NewInspector(opt)
		tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
		require.NoError(t, err)
		for _, ti := range tasks {
			require.NoError(t, w.Handler().ProcessTask(ctx, asynq.NewTask(ti.Type, ti.Payload)))
			insp.DeleteTask(jobs.QueueDefault, ti.ID)
		}
		insp.Close()
	}
	var statuses []string
	require.NoError(t, db.Select(&statuses, `SELECT status FROM partner_sessions ORDER BY id`))
	require.Equal(t, "expired", statuses[0])
	require.Equal(t, "created", statuses[1], "an unexpired session stays open")
	require.Len(t, bodies, 1)
	require.Contains(t, bodies[0], `"event": "verification_session.expired"`)
	require.Contains(t, bodies[0], `"reference": "caso-1"`)
	require.NotContains(t, bodies[0], "claims")
}
