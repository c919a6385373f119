package postgres_test

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// recordingSink counts what a feed tells its cache.
type recordingSink struct {
	mu      sync.Mutex
	changed []string
	resets  int
	fresh   int
}

func (s *recordingSink) Changed(id string) {
	s.mu.Lock()
	s.changed = append(s.changed, id)
	s.mu.Unlock()
}
func (s *recordingSink) Reset()                 { s.mu.Lock(); s.resets++; s.mu.Unlock() }
func (s *recordingSink) FreshUntil(_ time.Time) { s.mu.Lock(); s.fresh++; s.mu.Unlock() }

func (s *recordingSink) counts() (resets, fresh int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resets, s.fresh
}

func (s *recordingSink) heard(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.changed, id)
}

// logBuffer is a log destination tests can read while the feed writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

// runFeed runs f until the test ends and checks that Run returns only then.
func runFeed(t *testing.T, f *postgres.ProfileChangeFeed) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the feed did not stop with its context")
		}
	})
}

// The LISTEN connection dropped and refused for a while: the feed reconnects by itself, resets
// the cache, and heartbeats prove it current again.
func TestProfileChangeFeedReconnectsAfterItsConnectionDrops(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	sink := &recordingSink{}
	logs := &logBuffer{}
	runFeed(t, &postgres.ProfileChangeFeed{DSN: proxy.URL(dsn), DB: db, Sink: sink,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), Heartbeat: 50 * time.Millisecond})

	require.Eventually(t, func() bool { _, fresh := sink.counts(); return fresh > 0 }, 5*time.Second, 20*time.Millisecond)
	resetsBefore, _ := sink.counts()

	proxy.Down()
	time.Sleep(200 * time.Millisecond) // heartbeats in flight arrive or are lost
	_, frozen := sink.counts()
	time.Sleep(500 * time.Millisecond)
	_, fresh := sink.counts()
	require.Equal(t, frozen, fresh, "no proof of currency while the connection is down")

	proxy.Up()
	require.Eventually(t, func() bool {
		resets, fresh := sink.counts()
		return resets > resetsBefore && fresh > frozen
	}, 10*time.Second, 20*time.Millisecond, "reconnected, reset, current again")
	require.Positive(t, logs.count("reconnected"))

	_, err := db.Exec(`SELECT pg_notify($1, 'PS-0000-0000-01')`, postgres.PublicProfileChannel)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return sink.heard("PS-0000-0000-01") }, 5*time.Second, 20*time.Millisecond)
}

// Postgres down when the feed starts: Run keeps trying instead of returning, and serves once
// Postgres answers.
func TestProfileChangeFeedWaitsForPostgresAtStart(t *testing.T) {
	t.Parallel()
	db, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	proxy.Down()
	sink := &recordingSink{}
	runFeed(t, &postgres.ProfileChangeFeed{DSN: proxy.URL(dsn), DB: db, Sink: sink,
		Logger: slog.New(slog.NewTextHandler(&logBuffer{}, nil)), Heartbeat: 50 * time.Millisecond})
	time.Sleep(time.Second)
	_, fresh := sink.counts()
	require.Zero(t, fresh)
	proxy.Up()
	require.Eventually(t, func() bool { _, fresh := sink.counts(); return fresh > 0 }, 10*time.Second, 20*time.Millisecond)
}

// The LISTEN connection is up but hears nothing of the heartbeats, as on an old leader after a
// failover (here: it listens on one database while the heartbeats are sent in another, and two
// databases never share notifications). The watchdog replaces the connection, again and again,
// and the cache is never told it is current.
func TestProfileChangeFeedWatchdogReplacesADeafConnection(t *testing.T) {
	t.Parallel()
	_, listenDSN := pgtest.New(t)
	heartbeatDB, _ := pgtest.New(t)
	sink := &recordingSink{}
	logs := &logBuffer{}
	runFeed(t, &postgres.ProfileChangeFeed{DSN: listenDSN, DB: heartbeatDB, Sink: sink,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), Heartbeat: 50 * time.Millisecond, Watchdog: 500 * time.Millisecond})

	require.Eventually(t, func() bool {
		return logs.count("own heartbeats not heard back") >= 2
	}, 10*time.Second, 50*time.Millisecond, "the watchdog reconnected twice")
	// The third connection's reset follows its log line: wait for it rather than race it.
	require.Eventually(t, func() bool { resets, _ := sink.counts(); return resets >= 3 },
		5*time.Second, 20*time.Millisecond, "reset on every new connection")
	_, fresh := sink.counts()
	require.Zero(t, fresh, "never current")
}
