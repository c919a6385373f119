package postgres

import (
	"context"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bounds on a connection to Postgres. During a failover the primary disappears and, for a few
// seconds, nothing answers in its place; these make the application notice that quickly instead
// of waiting on the operating system's defaults (a dial or a read to a vanished host can wait
// minutes).
const (
	// connectTimeout bounds a connection attempt, TCP and the startup handshake together (lib/pq's
	// connect_timeout): on a LAN a healthy server answers in milliseconds, and an attempt that
	// lands on a black hole must fail while the request that needs it can still answer 503.
	connectTimeout = 3 * time.Second
	// keepAliveIdle, keepAliveInterval and keepAliveCount notice an idle pooled connection whose
	// host vanished within about 5 + 3×2 = 11 s.
	keepAliveIdle     = 5 * time.Second
	keepAliveInterval = 2 * time.Second
	keepAliveCount    = 3
	// userTimeout (TCP_USER_TIMEOUT, Linux) drops a connection whose sent data stays unacknowledged
	// this long: a query written to a vanished host fails in ~10 s, not after ~15 min of retransmits.
	userTimeout = 10 * time.Second
	// replyTimeout bounds the silence of a server that owes the pool a reply (replyConn). Postgres
	// sends nothing while a statement runs, so this is also the longest a statement of the pool may
	// run: the pool's statements are short (the longest are the worker's: ApplyRetention's DELETEs,
	// a day's worth of expired rows each, found by an index on their time column, and
	// ExpireInvitations' batches of 5000 rows, expected to take seconds), and the API's are
	// cancelled at 15 s (api requestBound), so an ordinary slow query ends by its context first;
	// 30 s is still below the HTTP server's 60 s write timeout, so the request can answer 503.
	// Migrations, which may build an index on a large table, run on a pool without this bound
	// (OpenForMigrations).
	replyTimeout = 30 * time.Second
)

// dialer is lib/pq's Dialer with the bounds above; with reply set, its connections are replyConns.
type dialer struct {
	d     net.Dialer
	reply time.Duration
}

// newDialer is the dialer of the LISTEN connection, which waits on reads for ever by design.
func newDialer() dialer {
	return dialer{d: net.Dialer{
		Timeout: connectTimeout,
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: keepAliveIdle,
			Interval: keepAliveInterval, Count: keepAliveCount},
		Control: setUserTimeout,
	}}
}

// newPoolDialer is the dialer of a query pool (open): its replies are bounded by reply.
func newPoolDialer(reply time.Duration) dialer {
	d := newDialer()
	d.reply = reply
	return d
}

func (d dialer) Dial(network, address string) (net.Conn, error) {
	return d.wrap(d.d.Dial(network, address))
}

func (d dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.wrap(d.d.DialContext(ctx, network, address))
}

func (d dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return d.wrap(d.d.DialContext(ctx, network, address))
}

func (d dialer) wrap(c net.Conn, err error) (net.Conn, error) {
	if err != nil || d.reply <= 0 {
		return c, err
	}
	return &replyConn{Conn: c, timeout: d.reply}, nil
}

// replyConn bounds the wait for a frozen peer: a server that stopped mid-query, or haproxy that
// still acknowledges our packets but forwards nothing (its backend is gone). Keepalives and
// TCP_USER_TIMEOUT see a healthy socket then, and a context does not help: lib/pq cancels with a
// CancelRequest on another connection, which cannot unblock the read on this one, so the query
// would wait for ever. Once we have written, a reply is awaited and every read must make progress
// within timeout (each read re-arms it, so a long result stream is fine while bytes keep coming);
// past it the read fails with a timeout *net.OpError, lib/pq marks the connection bad, database/sql
// discards it and IsUnavailable says so. The bound is armed by a read only: lib/pq reads only while
// it awaits a reply, so an idle pooled connection is never broken (nor is one never written to).
// A deadline the caller sets (lib/pq's connect_timeout during the handshake) wins while it is set;
// when it is cleared the bound resumes.
type replyConn struct {
	net.Conn
	timeout time.Duration

	mu       sync.Mutex
	awaiting bool // we wrote: the server owes us a reply
	explicit bool // the caller set a read deadline of its own
}

func (c *replyConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.awaiting = true
	c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c *replyConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	if c.awaiting && !c.explicit {
		if err := c.Conn.SetReadDeadline(time.Now().Add(c.timeout)); err != nil {
			c.mu.Unlock()
			return 0, err
		}
	}
	c.mu.Unlock()
	return c.Conn.Read(b)
}

func (c *replyConn) SetDeadline(t time.Time) error {
	if err := c.Conn.SetWriteDeadline(t); err != nil {
		return err
	}
	return c.SetReadDeadline(t)
}

func (c *replyConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.explicit = !t.IsZero()
	if !c.explicit && c.awaiting { // cleared while a reply is awaited: the bound resumes
		t = time.Now().Add(c.timeout)
	}
	return c.Conn.SetReadDeadline(t)
}

// withDefaults adds to dsn, unless it sets them itself, connect_timeout (see connectTimeout) and,
// for the leader, target_session_attrs=read-write: a new connection that lands on a node still in
// recovery or already demoted (haproxy's health check lags the failover by a second or two) is
// refused at once, instead of joining the pool and failing every write it is given.
func withDefaults(dsn string, leader bool) string {
	params := [][2]string{{"connect_timeout", strconv.Itoa(int(connectTimeout / time.Second))}}
	if leader {
		params = append(params, [2]string{"target_session_attrs", "read-write"})
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return dsn // lib/pq reports the error
		}
		q := u.Query()
		for _, p := range params {
			if !q.Has(p[0]) {
				q.Set(p[0], p[1])
			}
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	for _, p := range params {
		if !strings.Contains(dsn, p[0]+"=") {
			dsn = strings.TrimSpace(dsn + " " + p[0] + "=" + p[1])
		}
	}
	return dsn
}
