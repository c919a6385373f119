package worker_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/applewallet"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// countingPasses records what the jobs asked to build.
type countingPasses struct {
	apple, google atomic.Int32
	mu            sync.Mutex
	last          perfilseguro.PassData
}

func (c *countingPasses) BuildPass(p perfilseguro.PassData) ([]byte, error) {
	c.apple.Add(1)
	c.mu.Lock()
	c.last = p
	c.mu.Unlock()
	return []byte("pkpass:" + p.Name), nil
}

func (c *countingPasses) SaveURL(p perfilseguro.PassData) (string, error) {
	c.google.Add(1)
	return "https://pay.google.com/gp/v/save/" + p.ProfileID, nil
}

func insertUser(t testing.TB, db *sqlx.DB, level int, validated *time.Time, vigencia int) int64 {
	t.Helper()
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO users (nombre, vigencia, fecha_validacion, id_validado, verification_level, biometric_verified)
		VALUES ('Ana López', $1, $2, $3, $4, $5) RETURNING id`, vigencia, validated, perfilseguro.NewProfileID(), level, level >= 3))
	return id
}

func newPassWorker(t *testing.T) (*worker.Worker, *countingPasses, *sqlx.DB) {
	t.Helper()
	db, _ := pgtest.New(t)
	fake := &countingPasses{}
	w := newTestWorker(t, worker.Deps{DB: db, PublicBaseURL: "https://perfilseguro.mx",
		Sealer: sealer, Passes: worker.PassesDeps{Apple: fake, Google: fake}})
	return w, fake, db
}

func TestPassBuildsOnlyWhenThePassDataChanges(t *testing.T) {
	t.Parallel()
	w, fake, db := newPassWorker(t)
	validated := time.Date(2025, 3, 7, 10, 0, 0, 0, time.UTC)
	id := insertUser(t, db, 3, &validated, 5)
	apple, _ := jobs.NewBuildApplePassTask(id)
	google, _ := jobs.NewBuildGooglePassTask(id)
	ctx := context.Background()
	for range 3 {
		require.NoError(t, w.Handler().ProcessTask(ctx, apple))
		require.NoError(t, w.Handler().ProcessTask(ctx, google))
	}
	require.EqualValues(t, 1, fake.apple.Load(), "unchanged data is not rebuilt")
	require.EqualValues(t, 1, fake.google.Load())
	require.Equal(t, time.Date(2030, 3, 7, 10, 0, 0, 0, time.UTC), fake.last.ValidUntil)
	require.Equal(t, validated, fake.last.ValidFrom)
	require.Equal(t, 3, fake.last.Level)
	require.Equal(t, "https://perfilseguro.mx/verify/"+fake.last.ProfileID, fake.last.VerifyURL)

	var content []byte
	var saveURL string
	require.NoError(t, db.Get(&content, `SELECT content FROM wallet_passes WHERE user_id = $1 AND kind = 'apple'`, id))
	require.NoError(t, db.Get(&saveURL, `SELECT save_url FROM wallet_passes WHERE user_id = $1 AND kind = 'google'`, id))
	require.Equal(t, "pkpass:Ana López", string(content))
	require.Contains(t, saveURL, fake.last.ProfileID)

	_, err := db.Exec(`UPDATE users SET vigencia = 10 WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(ctx, apple))
	require.EqualValues(t, 2, fake.apple.Load(), "a new expiry rebuilds")
	require.Equal(t, time.Date(2035, 3, 7, 10, 0, 0, 0, time.UTC), fake.last.ValidUntil)
}

func TestPassBuildSkipsUsersThatCannotHoldAPass(t *testing.T) {
	t.Parallel()
	w, fake, db := newPassWorker(t)
	ctx := context.Background()
	now := time.Now()
	for _, id := range []int64{insertUser(t, db, 2, &now, 1), insertUser(t, db, 3, nil, 1), 999999} {
		task, _ := jobs.NewBuildApplePassTask(id)
		err := w.Handler().ProcessTask(ctx, task)
		require.ErrorIs(t, err, asynq.SkipRetry, "user %d", id)
	}
	bad := asynq.NewTask(jobs.TypeBuildGooglePass, []byte(`{"userId":"x"}`))
	require.ErrorIs(t, w.Handler().ProcessTask(ctx, bad), asynq.SkipRetry)
	require.Zero(t, fake.apple.Load())
	require.Zero(t, fake.google.Load())
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM wallet_passes`))
	require.Zero(t, n)
}

func TestVerifyLogRejectsBadPayloads(t *testing.T) {
	t.Parallel()
	w, _, db := newPassWorker(t)
	for _, body := range []string{`{}`, `{"entries":[]}`, `{"entries":[{"requestId":"a"}]}`, `not json`} {
		err := w.Handler().ProcessTask(context.Background(), asynq.NewTask(jobs.TypeVerifyLog, []byte(body)))
		require.ErrorIs(t, err, asynq.SkipRetry, body)
	}
	// A lookup of a user deleted since is still recorded, without the user.
	id := insertUser(t, db, 3, nil, 1)
	_, err := db.Exec(`DELETE FROM users WHERE id = $1`, id)
	require.NoError(t, err)
	live := insertUser(t, db, 1, nil, 1)
	task, err := jobs.NewVerifyLogTask(
		jobs.VerifyLogEntry{RequestID: "r1", UserID: &id, IDValidado: "PS-1234-5678-90", ScannedAt: time.Now(), Granted: true},
		jobs.VerifyLogEntry{RequestID: "r2", UserID: &live, IDValidado: "PS-1234-5678-91", ScannedAt: time.Now(), Granted: true,
			Reason: "not_verified", IP: "10.0.0.1", UserAgent: "curl/8"})
	require.NoError(t, err)
	for range 2 { // a replay writes nothing new
		require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	}
	type row struct {
		RequestID string  `db:"request_id"`
		UserID    *int64  `db:"user_id"`
		Reason    *string `db:"reason"`
		IP        *string `db:"ip_address"`
		Access    string  `db:"access_type"`
	}
	var rows []row
	require.NoError(t, db.Select(&rows, `SELECT request_id, user_id, reason, ip_address, access_type FROM verification_logs ORDER BY request_id`))
	require.Len(t, rows, 2)
	require.Nil(t, rows[0].UserID)
	require.Nil(t, rows[0].Reason)
	require.Equal(t, live, *rows[1].UserID)
	require.Equal(t, "not_verified", *rows[1].Reason)
	require.Equal(t, "10.0.0.1", *rows[1].IP)
	require.Equal(t, "public_page", rows[1].Access)
	_, err = jobs.NewVerifyLogTask()
	require.Error(t, err)
	_, err = jobs.NewVerifyLogTask(jobs.VerifyLogEntry{})
	require.Error(t, err)
}

func TestBuildErrorsAreRetried(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	w := newTestWorker(t, worker.Deps{DB: db, Sealer: sealer, Passes: worker.PassesDeps{Apple: failingBuilder{}}})
	now := time.Now()
	task, _ := jobs.NewBuildApplePassTask(insertUser(t, db, 3, &now, 1))
	err := w.Handler().ProcessTask(context.Background(), task)
	require.Error(t, err)
	require.NotErrorIs(t, err, asynq.SkipRetry)
}

type failingBuilder struct{}

func (failingBuilder) BuildPass(perfilseguro.PassData) ([]byte, error) {
	return nil, errors.New("signing device busy")
}

// BenchmarkBuildApplePass measures one worker goroutine building and storing signed passes
// (the development ECDSA chain); each iteration changes the data so the pass is really rebuilt.
func BenchmarkBuildApplePass(b *testing.B) {
	db, _ := pgtest.New(b)
	cfg, err := applewallet.DevConfig(b.TempDir())
	require.NoError(b, err)
	builder, err := applewallet.New(cfg)
	require.NoError(b, err)
	w := newTestWorker(b, worker.Deps{DB: db, PublicBaseURL: "https://perfilseguro.mx",
		Sealer: secure.NewSealer("bench-secret"), Passes: worker.PassesDeps{Apple: builder}})
	now := time.Now()
	id := insertUser(b, db, 3, &now, 1)
	task, _ := jobs.NewBuildApplePassTask(id)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		_, err := db.Exec(`UPDATE users SET nombre = $1 WHERE id = $2`, fmt.Sprintf("Ana López %d", i), id)
		require.NoError(b, err)
		b.StartTimer()
		require.NoError(b, w.Handler().ProcessTask(context.Background(), task))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "passes/s")
}
