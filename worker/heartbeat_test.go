package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/scheduler"
	"github.com/perfilseguro/perfilseguro/worker"
)

// The whole pipeline: scheduler → Redis → worker process → Postgres row.
func TestHeartbeatFromSchedulerReachesPostgres(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	opt, client := newQueue(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := worker.New(opt, 2, 5*time.Second, worker.Deps{DB: db})
	go w.Run(ctx)
	s, err := scheduler.New(client, []scheduler.Entry{{Name: "heartbeat", Interval: time.Second,
		Build: func(tick string) (*asynq.Task, error) { return jobs.NewHeartbeatTask(tick, "scheduler") }}}, nil)
	require.NoError(t, err)
	go s.Run(ctx)

	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, db.Get(&n, `SELECT count(*) FROM job_heartbeats WHERE source = 'scheduler'`))
		return n >= 2
	}, 10*time.Second, 100*time.Millisecond)
}

func TestHeartbeatIsIdempotentAndRejectsBadPayload(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	w := newTestWorker(t, worker.Deps{DB: db})
	task, err := jobs.NewHeartbeatTask("heartbeat:2026-01-01T00:00:00Z", "api")
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task), "a retry changes nothing")
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM job_heartbeats`))
	require.Equal(t, 1, n)

	err = w.Handler().ProcessTask(context.Background(), asynq.NewTask(jobs.TypeHeartbeat, []byte(`{`)))
	require.ErrorIs(t, err, asynq.SkipRetry)
}

func TestPanicInHandlerBecomesError(t *testing.T) {
	t.Parallel()
	w := newTestWorker(t, worker.Deps{DB: nil}) // nil DB makes the handler panic
	task, _ := jobs.NewHeartbeatTask("x", "api")
	err := w.Handler().ProcessTask(context.Background(), task)
	require.ErrorContains(t, err, "panic in system:heartbeat")
}
