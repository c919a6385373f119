package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// primaryWait is how long connection attempts wait for a primary once an outage began, and
// primaryStep how often they try meanwhile. 2 s covers a planned switchover's gap (about 1.3 s in
// the scale rig once HAProxy stopped retrying on its own; 2-3 s before) while leaving a request
// time to be served within the 5 s the load balancer's client waits, backlog included (3 s was
// tried: the backlog of the gap then took 5-6 s to work off on the rig's 2 cores); the API bounds
// requests at 15 s.
const (
	primaryWait = 2 * time.Second
	primaryStep = 100 * time.Millisecond
)

// waitingConnector rides out the gap of a planned switchover (patronictl switchover), when for a
// second or two haproxy has no primary (it refuses the dial, or accepts then closes) or sends a
// new connection to the demoted node (target_session_attrs=read-write refuses it, Postgres answers
// 57P03 or 57P01). A connection attempt has sent no statement, so trying it again is always safe:
// an attempt that fails as IsUnavailable is repeated every step until the outage, shared by every
// Connect of the pool, is wait old. Past that the outage is not a switchover but an unplanned
// failover (~10 s without a primary): each Connect then makes a single attempt and fails fast, as
// requests waiting longer would pile up behind database/sql's pool and answer late, where a 503
// with Retry-After tells the client when to come back. A success ends the outage; so does a
// quiet spell of wait without failures, so that a failure long past does not make the next
// switchover fail fast. Connect also runs from database/sql's opener goroutine, without a
// deadline: the wait bounds it all the same (plus one attempt, itself bounded by connect_timeout).
type waitingConnector struct {
	driver.Connector
	wait, step time.Duration

	mu          sync.Mutex
	outageSince time.Time // zero: no outage
	// failedAt is when the last attempt failed as IsUnavailable (unix nanoseconds, zero: none
	// yet), written under mu; PrimaryWatch reads it on every request without the lock.
	failedAt atomic.Int64
}

// PrimaryWatch tells when a leader pool last waited for a primary, for admission control
// (package api, admission.go: why the requests of a switchover's gap are not counted).
type PrimaryWatch struct{ c *waitingConnector }

// MissedSince reports whether a connection attempt failed for want of a primary at or after t.
func (w PrimaryWatch) MissedSince(t time.Time) bool {
	failed := w.c.failedAt.Load()
	return failed != 0 && failed >= t.UnixNano()
}

// leaders maps each leader pool (Open) to its connector, which database/sql keeps private. A
// process opens its leader pools once (a test binary a few hundred): entries are never removed.
var leaders sync.Map // *sql.DB → *waitingConnector

// WatchPrimary is the PrimaryWatch of a pool made by Open; ok is false for any other pool.
func WatchPrimary(db *sql.DB) (w PrimaryWatch, ok bool) {
	c, ok := leaders.Load(db)
	if !ok {
		return PrimaryWatch{}, false
	}
	return PrimaryWatch{c.(*waitingConnector)}, true
}

func (c *waitingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	for {
		conn, err := c.Connector.Connect(ctx)
		if err == nil || !IsUnavailable(err) {
			if err == nil {
				c.mu.Lock()
				if since := c.outageSince; !since.IsZero() {
					slog.Info("postgres: a primary accepts connections again", "waited", time.Since(since).Round(time.Millisecond))
				}
				c.outageSince = time.Time{}
				c.mu.Unlock()
			}
			return conn, err
		}
		if ctx.Err() != nil { // the caller gave up: that says nothing about the primary
			return nil, err
		}
		now := time.Now()
		c.mu.Lock()
		lastFail := time.Unix(0, c.failedAt.Swap(now.UnixNano()))
		if c.outageSince.IsZero() || now.Sub(lastFail) > c.wait {
			slog.Warn("postgres: no primary accepts connections; waiting for one", "up_to", c.wait, "error", err)
			c.outageSince = now
		}
		left := c.wait - now.Sub(c.outageSince)
		c.mu.Unlock()
		if left <= 0 {
			return nil, err
		}
		timer := time.NewTimer(min(c.step, left))
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("%w (waiting for a primary: %w)", err, ctx.Err())
		}
	}
}
