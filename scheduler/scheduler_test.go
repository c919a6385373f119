package scheduler_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/scheduler"
)

// countingQueue counts enqueue attempts on the way to the real Redis.
type countingQueue struct {
	*asynq.Client
	calls atomic.Int64
}

func (c *countingQueue) EnqueueContext(ctx context.Context, t *asynq.Task, o ...asynq.Option) (*asynq.TaskInfo, error) {
	c.calls.Add(1)
	return c.Client.EnqueueContext(ctx, t, o...)
}

func TestTwoSchedulersEnqueueEachTickOnce(t *testing.T) {
	t.Parallel()
	opt, _ := redistest.New(t)
	entries := []scheduler.Entry{{Name: "heartbeat", Interval: time.Second, Build: func(tick string) (*asynq.Task, error) {
		return jobs.NewHeartbeatTask(tick, "scheduler")
	}}}
	q1 := &countingQueue{Client: asynq.NewClient(opt)}
	q2 := &countingQueue{Client: asynq.NewClient(opt)}
	defer q1.Close()
	defer q2.Close()
	s1, err := scheduler.New(q1, entries, nil)
	require.NoError(t, err)
	s2, err := scheduler.New(q2, entries, nil)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
	defer cancel()
	done := make(chan struct{}, 2)
	go func() { s1.Run(ctx); done <- struct{}{} }()
	go func() { s2.Run(ctx); done <- struct{}{} }()
	<-done
	<-done

	insp := asynq.NewInspector(opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueLow, asynq.PageSize(100))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(tasks), 3, "one task per elapsed second")
	seen := map[string]bool{}
	for _, task := range tasks {
		require.Equal(t, jobs.TypeHeartbeat, task.Type)
		require.False(t, seen[task.ID], "tick %s enqueued twice", task.ID)
		seen[task.ID] = true
	}
	// Both replicas fired every tick; only one enqueue per tick landed.
	require.Equal(t, int64(2*len(tasks)), q1.calls.Load()+q2.calls.Load())
}

func TestTickRoundsReplicaClocksTogether(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 21, 12, 1, 0, 0, time.UTC)
	a := scheduler.Tick("heartbeat", base.Add(-400*time.Millisecond), time.Minute)
	b := scheduler.Tick("heartbeat", base.Add(900*time.Millisecond), time.Minute)
	require.Equal(t, a, b)
	require.Equal(t, "heartbeat:2026-11-21T12:01:00Z", a)
	require.NotEqual(t, a, scheduler.Tick("heartbeat", base.Add(time.Minute), time.Minute))
}

func TestEnqueuedTicksAreNotedInRedisForTheMetrics(t *testing.T) {
	t.Parallel()
	opt, redisOpts := redistest.New(t)
	rdb := redis.NewClient(redisOpts)
	defer rdb.Close()
	q := asynq.NewClient(opt)
	defer q.Close()
	entries := []scheduler.Entry{{Name: "heartbeat", Interval: time.Second, Build: func(tick string) (*asynq.Task, error) {
		return jobs.NewHeartbeatTask(tick, "scheduler")
	}}}
	s, err := scheduler.New(q, entries, nil)
	require.NoError(t, err)
	s.RecordTicks(rdb)
	require.Equal(t, redis.Nil, rdb.HGet(context.Background(), jobs.SchedulerTicksKey, "heartbeat").Err(), "nothing before a tick")

	start := time.Now().Unix()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	require.NoError(t, s.Run(ctx))
	at, err := rdb.HGet(context.Background(), jobs.SchedulerTicksKey, "heartbeat").Int64()
	require.NoError(t, err)
	require.GreaterOrEqual(t, at, start)
	require.LessOrEqual(t, at, time.Now().Unix())
}

// The UN list is imported every 6 hours when a source is configured, and not at all without one.
func TestTheUNListImportIsScheduledOnlyWithASource(t *testing.T) {
	find := func(entries []scheduler.Entry) *scheduler.Entry {
		for i := range entries {
			if entries[i].Name == "screening-un-list" {
				return &entries[i]
			}
		}
		return nil
	}
	require.Nil(t, find(scheduler.Table(time.Minute, "")))
	e := find(scheduler.Table(time.Minute, "/srv/lists/consolidated.xml"))
	require.NotNil(t, e)
	require.Equal(t, 6*time.Hour, e.Interval)
	task, err := e.Build("2026-11-28T06:00:00Z")
	require.NoError(t, err)
	require.Equal(t, jobs.TypeImportUNList, task.Type())
	require.JSONEq(t, `{"source":"/srv/lists/consolidated.xml"}`, string(task.Payload()))
	require.True(t, e.AtStart, "a fresh install imports the list when the scheduler starts")
}

// An entry marked AtStart is enqueued as soon as the scheduler runs, before its first aligned tick.
func TestAnAtStartEntryIsEnqueuedWhenTheSchedulerStarts(t *testing.T) {
	t.Parallel()
	opt, _ := redistest.New(t)
	q := asynq.NewClient(opt)
	defer q.Close()
	entries := scheduler.Table(time.Hour, "/srv/lists/consolidated.xml")
	s, err := scheduler.New(q, entries, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	require.NoError(t, s.Run(ctx))

	insp := asynq.NewInspector(opt)
	defer insp.Close()
	var imports int
	for _, queue := range []string{jobs.QueueCritical, jobs.QueueDefault, jobs.QueueLow} {
		tasks, err := insp.ListPendingTasks(queue, asynq.PageSize(100))
		if err != nil {
			continue // a queue nothing was enqueued on does not exist yet
		}
		for _, task := range tasks {
			if task.Type == jobs.TypeImportUNList {
				imports++
			}
		}
	}
	require.Equal(t, 1, imports, "the UN list import is queued at start, once")
}

// The AML sweep (operations recorded while Redis was down) runs every 5 minutes, one per tick.
func TestTheAMLSweepIsScheduled(t *testing.T) {
	var e *scheduler.Entry
	for _, x := range scheduler.Table(time.Minute, "") {
		if x.Name == "aml-screen-sweep" {
			e = &x
		}
	}
	require.NotNil(t, e)
	require.Equal(t, 5*time.Minute, e.Interval)
	task, err := e.Build("2026-11-28T06:05:00Z")
	require.NoError(t, err)
	require.Equal(t, jobs.TypeAMLSweep, task.Type())
}

// The avisos a business owes are written once a day.
func TestTheAMLAvisosAreSyncedDaily(t *testing.T) {
	var e *scheduler.Entry
	for _, x := range scheduler.Table(time.Minute, "") {
		if x.Name == "aml-avisos" {
			e = &x
		}
	}
	require.NotNil(t, e)
	require.Equal(t, 24*time.Hour, e.Interval)
	task, err := e.Build("2026-11-28T00:00:00Z")
	require.NoError(t, err)
	require.Equal(t, jobs.TypeSyncAMLAvisos, task.Type())
}
