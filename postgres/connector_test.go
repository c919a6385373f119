package postgres_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lib/pq"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// scripted is a driver.Connector whose attempts fail with err while failing says so.
type scripted struct {
	mu       sync.Mutex
	err      error
	failing  func() bool
	attempts int
}

func (s *scripted) Connect(context.Context) (driver.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts++
	if s.failing() {
		return nil, s.err
	}
	return fakeConn{}, nil
}

func (s *scripted) Driver() driver.Driver { return nil }

// call runs Connect and reports its error, how long it took, and how many attempts it made.
func (s *scripted) call(c driver.Connector, ctx context.Context) (took time.Duration, attempts int, err error) {
	s.mu.Lock()
	before := s.attempts
	s.mu.Unlock()
	start := time.Now()
	conn, err := c.Connect(ctx)
	took = time.Since(start)
	if err == nil && conn == nil {
		err = errors.New("no connection and no error")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return took, s.attempts - before, err
}

type fakeConn struct{}

func (fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("fake") }
func (fakeConn) Close() error                        { return nil }
func (fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("fake") }

var (
	refused  = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	starting = &pq.Error{Code: "57P03", Message: "the database system is starting up"}
)

// A switchover's gap: the attempts fail for 500 ms, and the one Connect succeeds after it.
func TestConnectWaitsOutASwitchover(t *testing.T) {
	t.Parallel()
	until := time.Now().Add(500 * time.Millisecond)
	inner := &scripted{err: starting, failing: func() bool { return time.Now().Before(until) }}
	c := postgres.NewWaitingConnector(inner, time.Second, 20*time.Millisecond)

	took, attempts, err := inner.call(c, context.Background())
	require.NoError(t, err)
	require.GreaterOrEqual(t, took, 450*time.Millisecond)
	require.Less(t, took, 800*time.Millisecond)
	require.Greater(t, attempts, 1)
}

// No primary for longer than the wait: the first Connect gives up at the wait, the next ones fail
// at once after one attempt each; a success ends the outage, and the next one is waited out again.
func TestConnectFailsFastInALongOutage(t *testing.T) {
	t.Parallel()
	const wait = 400 * time.Millisecond
	var down sync.Mutex // held: no primary
	isDown := true
	inner := &scripted{err: refused, failing: func() bool { down.Lock(); defer down.Unlock(); return isDown }}
	set := func(v bool) { down.Lock(); isDown = v; down.Unlock() }
	c := postgres.NewWaitingConnector(inner, wait, 20*time.Millisecond)
	ctx := context.Background()

	took, _, err := inner.call(c, ctx)
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	require.True(t, postgres.IsUnavailable(err))
	require.GreaterOrEqual(t, took, wait)
	require.Less(t, took, wait+300*time.Millisecond)

	took, attempts, err := inner.call(c, ctx)
	require.ErrorIs(t, err, syscall.ECONNREFUSED)
	require.Less(t, took, 50*time.Millisecond, "fails fast")
	require.Equal(t, 1, attempts)

	set(false)
	took, attempts, err = inner.call(c, ctx)
	require.NoError(t, err, "the first call after the primary is back succeeds")
	require.Less(t, took, 50*time.Millisecond)
	require.Equal(t, 1, attempts)

	set(true)
	took, _, err = inner.call(c, ctx)
	require.Error(t, err)
	require.GreaterOrEqual(t, took, wait, "a new outage is waited out again")
}

// An outage whose last failure is older than the wait is over (the pool may have needed no new
// connection since): the next failure starts a new one instead of failing fast.
func TestConnectForgetsAnOutageLongPast(t *testing.T) {
	t.Parallel()
	const wait = 300 * time.Millisecond
	inner := &scripted{err: refused, failing: func() bool { return true }}
	c := postgres.NewWaitingConnector(inner, wait, 20*time.Millisecond)

	took, _, err := inner.call(c, context.Background())
	require.Error(t, err)
	require.GreaterOrEqual(t, took, wait)
	time.Sleep(wait + 100*time.Millisecond)
	took, _, err = inner.call(c, context.Background())
	require.Error(t, err)
	require.GreaterOrEqual(t, took, wait)
}

// An error that is not about availability (wrong password) is returned at once.
func TestConnectReturnsOtherErrorsAtOnce(t *testing.T) {
	t.Parallel()
	auth := &pq.Error{Code: "28P01", Message: "password authentication failed"}
	inner := &scripted{err: auth, failing: func() bool { return true }}
	c := postgres.NewWaitingConnector(inner, time.Second, 20*time.Millisecond)

	took, attempts, err := inner.call(c, context.Background())
	require.ErrorIs(t, err, auth)
	require.False(t, postgres.IsUnavailable(err))
	require.Less(t, took, 50*time.Millisecond)
	require.Equal(t, 1, attempts)
}

// The caller gives up while Connect waits: it returns promptly, with an error that says both.
func TestConnectStopsWaitingWhenCancelled(t *testing.T) {
	t.Parallel()
	inner := &scripted{err: starting, failing: func() bool { return true }}
	c := postgres.NewWaitingConnector(inner, 2*time.Second, 50*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(120*time.Millisecond, cancel)

	took, _, err := inner.call(c, ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.True(t, postgres.IsUnavailable(err), "still a 503: %v", err)
	require.Less(t, took, 250*time.Millisecond)
}

// openThroughProxy opens a leader pool (no connection yet) through a proxy to a test database.
func openThroughProxy(t *testing.T, wait time.Duration) (*pgtest.Proxy, func(context.Context) error) {
	t.Helper()
	_, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	db, err := postgres.OpenWithPrimaryWait(proxy.URL(dsn), wait)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return proxy, func(ctx context.Context) error {
		var one int
		return db.GetContext(ctx, &one, `SELECT 1`)
	}
}

// haproxy has no primary for 400 ms, refusing the dial (Down) or accepting and closing (Reject):
// a query that needs a new connection meanwhile succeeds once the primary is back.
func TestPoolWaitsForANewPrimary(t *testing.T) {
	t.Parallel()
	for name, gap := range map[string]func(*pgtest.Proxy){
		"refused":  (*pgtest.Proxy).Down,
		"rejected": (*pgtest.Proxy).Reject,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			proxy, query := openThroughProxy(t, time.Second)
			gap(proxy)
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				done <- query(ctx)
			}()
			time.Sleep(400 * time.Millisecond)
			proxy.Up()
			require.NoError(t, <-done)
			require.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond)
		})
	}
}

// No primary for good: the first query fails within about the wait, the next ones at once, as
// errors the API answers with 503; once a primary is back the pool serves again.
func TestPoolFailsFastWithoutAPrimary(t *testing.T) {
	t.Parallel()
	const wait = time.Second
	proxy, query := openThroughProxy(t, wait)
	require.NoError(t, query(context.Background()))
	proxy.Down()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The pooled connection was broken by Down: the query on it may fail without any wait.
	var err error
	start := time.Now()
	for range 3 {
		if err = query(ctx); time.Since(start) >= wait {
			break
		}
	}
	took := time.Since(start)
	require.Error(t, err)
	require.True(t, postgres.IsUnavailable(err), "unavailable: %v", err)
	require.GreaterOrEqual(t, took, wait)
	require.Less(t, took, wait+time.Second)

	for range 3 {
		start = time.Now()
		err = query(ctx)
		require.Error(t, err)
		require.True(t, postgres.IsUnavailable(err), "unavailable: %v", err)
		require.Less(t, time.Since(start), 200*time.Millisecond, "fails fast")
	}

	proxy.Up()
	require.NoError(t, query(ctx), "the pool serves again")
}

// The leader pool's PrimaryWatch says when it last waited for a primary; a replica pool has none.
func TestPrimaryWatchSeesTheGap(t *testing.T) {
	t.Parallel()
	_, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	db, err := postgres.OpenWithPrimaryWait(proxy.URL(dsn), time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	watch, ok := postgres.WatchPrimary(db.DB)
	require.True(t, ok)
	start := time.Now()
	var one int
	require.NoError(t, db.Get(&one, `SELECT 1`))
	assert.False(t, watch.MissedSince(start), "a primary answered")

	proxy.Down()
	db.SetMaxIdleConns(0) // the next query needs a new connection
	go func() {
		time.Sleep(300 * time.Millisecond)
		proxy.Up()
	}()
	require.NoError(t, db.Get(&one, `SELECT 1`), "waited for the primary")
	assert.True(t, watch.MissedSince(start))
	assert.False(t, watch.MissedSince(time.Now()), "nothing missed since it came back")

	replica, err := postgres.OpenReplica(dsn)
	require.NoError(t, err)
	t.Cleanup(func() { replica.Close() })
	_, ok = postgres.WatchPrimary(replica.DB)
	assert.False(t, ok)
}
