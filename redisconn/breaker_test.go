package redisconn_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/redisconn"
)

// Redis behind a proxy the test cuts (the shared test server keeps running): the first command
// fails slowly, as go-redis spends its retries; every command after it, go-redis's and asynq's,
// fails in milliseconds with ErrUnreachable; once Redis is back the probe closes the breaker
// within a few of its turns, with no command of ours needed.
func TestBreakerRefusesAtOnceWhileRedisIsUnreachableAndRecovers(t *testing.T) {
	t.Parallel()
	_, opts := redistest.New(t)
	proxy := pgtest.NewProxy(t, "redis://"+opts.Addr)
	conn, err := redisconn.Open(redisconn.Config{URL: proxy.URL(fmt.Sprintf("redis://%s/%d", opts.Addr, opts.DB))})
	require.NoError(t, err)
	defer conn.Close()
	queue := asynq.NewClient(conn.Asynq)
	defer queue.Close()
	ctx := context.Background()

	require.NoError(t, conn.Client.Set(ctx, "breaker", "1", time.Minute).Err())
	require.ErrorIs(t, conn.Client.Get(ctx, "missing").Err(), redis.Nil, "a reply is not a lost connection")
	require.Error(t, conn.Client.Do(ctx, "NOSUCHCOMMAND").Err())
	require.NoError(t, conn.Client.Set(ctx, "n", "x", time.Minute).Err())
	require.Error(t, conn.Client.Incr(ctx, "n").Err(), "an error reply is a working connection too")
	require.NoError(t, conn.Client.Ping(ctx).Err(), "still closed")

	proxy.Down()
	err = conn.Client.Get(ctx, "breaker").Err()
	require.Error(t, err)
	require.NotErrorIs(t, err, redisconn.ErrUnreachable, "the first failure is go-redis's own")

	for i := 0; i < 5; i++ {
		start := time.Now()
		err := conn.Client.Get(ctx, "breaker").Err()
		require.ErrorIs(t, err, redisconn.ErrUnreachable)
		require.Less(t, time.Since(start), 50*time.Millisecond, "refused at once")

		start = time.Now()
		_, err = conn.Client.Pipelined(ctx, func(p redis.Pipeliner) error { p.Incr(ctx, "n"); return nil })
		require.ErrorIs(t, err, redisconn.ErrUnreachable)
		_, err = queue.EnqueueContext(ctx, asynq.NewTask("breaker:test", nil))
		require.ErrorIs(t, err, redisconn.ErrUnreachable, "asynq's clients share the breaker")
		require.Less(t, time.Since(start), 50*time.Millisecond, "refused at once")
	}
	time.Sleep(3 * redisconn.ProbeEvery) // the probe keeps failing meanwhile
	require.ErrorIs(t, conn.Client.Ping(ctx).Err(), redisconn.ErrUnreachable)

	proxy.Up()
	require.Eventually(t, func() bool { return conn.Client.Get(ctx, "breaker").Err() == nil },
		5*time.Second, 20*time.Millisecond, "the probe closed the breaker")
	_, err = queue.EnqueueContext(ctx, asynq.NewTask("breaker:test", nil))
	require.NoError(t, err)
}

// A caller whose own context ended says nothing about Redis: the breaker stays closed.
func TestBreakerIgnoresCallersThatGaveUp(t *testing.T) {
	t.Parallel()
	_, opts := redistest.New(t)
	conn, err := redisconn.Open(redisconn.Config{URL: fmt.Sprintf("redis://%s/%d", opts.Addr, opts.DB)})
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.Error(t, conn.Client.Ping(ctx).Err())
	expired, cancel := context.WithTimeout(context.Background(), -time.Second)
	defer cancel()
	require.Error(t, conn.Client.Ping(expired).Err())
	require.NoError(t, conn.Client.Ping(context.Background()).Err(), "not refused")
}
