package load

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/whatsapp"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// rig is an API + worker on real Postgres/Redis with a fake WhatsApp Cloud API that records
// when each phone received its message.
type rig struct {
	db       *sqlx.DB
	dsn      string   // the database, for a baseline server beside the API (processes rig)
	url      string   // the API's base URL
	metrics  string   // the API's /metrics, without a session
	received sync.Map // phone (WhatsApp form) → time.Time
	messages sync.Map // phone's last 10 digits → *atomic.Int32: messages received
	stop     func()
}

func newRig(b *testing.B) *rig {
	b.Helper()
	db, dsn := pgtest.New(b)
	// The worker has its own pool, as its own process does in production.
	workerDB, err := postgres.Open(context.Background(), dsn)
	require.NoError(b, err)
	b.Cleanup(func() { workerDB.Close() })
	opt, ropts := redistest.New(b)
	r := &rig{db: db}
	graph := r.fakeWhatsApp()
	cfg, err := config.Load(func(k string) string {
		if k == "APP_ENV" {
			return "test"
		}
		return ""
	})
	require.NoError(b, err)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rc := redis.NewClient(ropts)
	queue := asynq.NewClient(opt)
	unlimited := api.Limits{SendPerIP: 1 << 30, SendPerPhone: 1 << 30, SendPerEmail: 1 << 30, VerifyPerIP: 1 << 30, VerifyPerUser: 1 << 30, AdminLoginPerIP: 1 << 30, PrivacyReadsPerUser: 1 << 30}
	srv, err := api.New(api.Deps{Config: cfg, DB: db, Redis: rc, AsynqRedis: opt, Queue: queue, Logger: quiet, Limits: &unlimited,
		Web: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}})
	require.NoError(b, err)
	apiSrv := httptest.NewServer(srv.Handler())
	r.url = apiSrv.URL
	metricsAddr := bintest.FreeAddr(b)
	r.metrics = "http://" + metricsAddr + "/metrics"
	wa := whatsapp.New(whatsapp.Config{BaseURL: graph.URL, APIVersion: "v21.0", PhoneNumberID: "1", AccessToken: "t", OTPTemplate: "codigo"})
	w := worker.New(opt, 20, 5*time.Second, worker.Deps{DB: workerDB, Enqueuer: queue, Logger: quiet, WhatsApp: wa,
		Sealer: secure.NewSealer(cfg.SecretKey), Redis: rc})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	go srv.ServeMetrics(ctx, metricsAddr)
	r.stop = func() {
		cancel()
		<-done
		apiSrv.Close()
		graph.Close()
		queue.Close()
		rc.Close()
	}
	b.Cleanup(r.stop)
	return r
}

// fakeWhatsApp is a WhatsApp Cloud API that notes when each recipient's first message arrived,
// and how many messages each received.
func (r *rig) fakeWhatsApp() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if i := strings.Index(string(body), `"to":"`); i >= 0 {
			to := string(body[i+6:])
			to = to[:strings.IndexByte(to, '"')]
			r.received.LoadOrStore(to, time.Now())
			n, _ := r.messages.LoadOrStore(to[max(0, len(to)-10):], new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
		}
		io.WriteString(w, `{"messages":[{"id":"wamid.bench"}]}`)
	}))
}

// seedUsers bulk-inserts n level-3 users with phones +5230xxxxxxxx and a live session each; it
// returns their ids, profile IDs and session tokens (token i is "bench" + i, zero-padded to 64).
func (r *rig) seedUsers(b *testing.B, n int) (ids []int64, profileIDs, sessions []string) {
	b.Helper()
	const q = `INSERT INTO users (nombre, email, phone_number, id_validado, verification_level, is_phone_verified,
		biometric_verified, fecha_validacion)
		SELECT 'Usuario ' || i, 'u' || i || '@example.com', '+5230' || lpad(i::text, 8, '0'),
		       'PS-9' || lpad((i / 1000000)::text, 3, '0') || '-' || lpad((i / 100 % 10000)::text, 4, '0') || '-' || lpad((i % 100)::text, 2, '0'),
		       3, true, true, now()
		FROM generate_series(0, $1 - 1) AS i ORDER BY i RETURNING id, id_validado`
	rows, err := r.db.Queryx(q, n)
	require.NoError(b, err)
	for rows.Next() {
		var id int64
		var pid string
		require.NoError(b, rows.Scan(&id, &pid))
		ids, profileIDs = append(ids, id), append(profileIDs, pid)
	}
	require.NoError(b, rows.Err())
	for i := range ids {
		sessions = append(sessions, fmt.Sprintf("bench%059d", i))
	}
	_, err = r.db.Exec(`INSERT INTO user_sessions (token_hash, user_id, expires_at)
		SELECT encode(sha256(convert_to(t.token, 'UTF8')), 'hex'), t.id, now() + interval '1 day'
		FROM unnest($1::bigint[], $2::text[]) AS t(id, token)`, pq.Array(ids), pq.Array(sessions))
	require.NoError(b, err)
	return
}

// percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

func sortDurations(d []time.Duration) []time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// fanOut calls do with each of indexes, concurrency calls at a time, and returns how long they
// all took.
func fanOut(indexes []int, concurrency int, do func(i int)) time.Duration {
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				do(i)
			}
		}()
	}
	for _, i := range indexes {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return time.Since(start)
}
