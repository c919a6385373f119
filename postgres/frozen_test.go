package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// The server freezes mid-conversation behind a proxy that still acknowledges everything (haproxy
// in front of a primary that hung, or vanished without a reset): a query on a pooled connection
// fails within the reply bound with an error IsUnavailable recognizes, with or without a context
// deadline (lib/pq's cancel cannot unblock that read), and once the server answers again so does
// the pool.
func TestPoolGivesUpOnAFrozenServer(t *testing.T) {
	t.Parallel()
	const reply = time.Second
	_, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	db, err := postgres.OpenWithReplyTimeout(proxy.URL(dsn), reply)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })

	// Two connections in the pool, idle, as between requests.
	ctx := context.Background()
	c1, err := db.Conn(ctx)
	require.NoError(t, err)
	c2, err := db.Conn(ctx)
	require.NoError(t, err)
	require.NoError(t, c1.PingContext(ctx))
	require.NoError(t, c2.PingContext(ctx))
	require.NoError(t, c1.Close())
	require.NoError(t, c2.Close())

	proxy.Freeze()
	var one int
	start := time.Now()
	err = db.GetContext(ctx, &one, `SELECT 1`)
	took := time.Since(start)
	require.Error(t, err)
	require.True(t, postgres.IsUnavailable(err), "unavailable: %v", err)
	require.Less(t, took, reply+time.Second, "gave up within the reply bound")

	// The API's case: the request's context ends first, lib/pq's cancel goes nowhere, and the
	// query still ends at the reply bound (it used to wait for ever).
	short, cancel := context.WithTimeout(ctx, reply/4)
	defer cancel()
	start = time.Now()
	err = db.GetContext(short, &one, `SELECT 1`)
	took = time.Since(start)
	require.Error(t, err)
	require.True(t, postgres.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded), "unavailable: %v", err)
	require.Less(t, took, reply+time.Second, "gave up within the reply bound")

	proxy.Thaw()
	bounded, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	require.NoError(t, db.GetContext(bounded, &one, `SELECT 1`), "the pool serves again")
	require.Equal(t, 1, one)
}
