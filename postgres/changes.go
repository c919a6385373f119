package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// PublicProfileChannel is the channel on which migration 0007's triggers announce, on commit, the
// profile ID of every changed, deleted or re-scored public record.
const PublicProfileChannel = "public_profile_changed"

// ProfileChangeSink is what a cache of public records learns from a ProfileChangeFeed.
type ProfileChangeSink interface {
	// Changed says the record of this profile ID changed or is gone.
	Changed(profileID string)
	// Reset says changes may have been missed (the feed reconnected): drop everything.
	Reset()
	// FreshUntil says every change committed up to t minus the feed's staleness bound has been
	// passed to Changed: cached records may be served until t, and not after.
	FreshUntil(t time.Time)
}

// ProfileChangeFeed listens on PublicProfileChannel on a connection of its own and passes what it
// hears to a sink. It proves the feed is current with a heartbeat: every Heartbeat it sends a
// notification of its own through DB; hearing it back means every change committed before it was
// sent has been heard (notifications arrive in commit order), so the sink may serve cached records
// until the send time plus MaxStaleness. When the connection stalls or drops, the heartbeats stop
// coming back and the cache stops serving within MaxStaleness; after a reconnect the sink is reset.
//
// After a failover the listening connection may stay up on the old leader (now a replica, or cut
// off) while DB sends the heartbeats to the new one, where nobody hears them: no error, just
// silence. A watchdog notices that a heartbeat DB accepted has not come back within Watchdog and
// replaces the listening connection (which lands on the new leader) and resets the sink.
type ProfileChangeFeed struct {
	DSN          string   // the database to listen to (a connection of its own, outside DB's pool)
	DB           *sqlx.DB // sends the heartbeats
	Sink         ProfileChangeSink
	Logger       *slog.Logger
	Heartbeat    time.Duration // 0: 250 ms
	MaxStaleness time.Duration // 0: 1 s, the longest a replica may serve a record after its change
	Watchdog     time.Duration // 0: 3 s, the longest a sent heartbeat may stay unheard
}

// Run listens until ctx is cancelled. It does not give up: while Postgres is down it keeps
// trying to connect (and the cache does not serve meanwhile).
func (f *ProfileChangeFeed) Run(ctx context.Context) {
	heartbeat, staleness, watchdog := f.Heartbeat, f.MaxStaleness, f.Watchdog
	if heartbeat <= 0 {
		heartbeat = 250 * time.Millisecond
	}
	if staleness <= 0 {
		staleness = time.Second
	}
	if watchdog <= 0 {
		watchdog = 3 * time.Second
	}
	logger := f.Logger
	if logger == nil {
		logger = slog.Default()
	}
	// A tag of this process's own heartbeats: other replicas' heartbeats are ignored.
	b := make([]byte, 8)
	rand.Read(b)
	tag := "heartbeat:" + hex.EncodeToString(b) + ":"
	var unheard atomic.Int64 // send time (unix ns) of the oldest accepted heartbeat not yet heard; 0: none
	go f.beat(ctx, tag, heartbeat, logger, &unheard)
	for ctx.Err() == nil {
		f.listen(ctx, tag, heartbeat, staleness, watchdog, logger, &unheard)
	}
}

// listen runs one listening connection (pq reconnects it by itself) until ctx ends or the
// watchdog gives up on it.
func (f *ProfileChangeFeed) listen(ctx context.Context, tag string, heartbeat, staleness, watchdog time.Duration,
	logger *slog.Logger, unheard *atomic.Int64) {
	var up atomic.Bool
	l := pq.NewDialListener(newDialer(), withDefaults(f.DSN, true), 100*time.Millisecond, 2*time.Second,
		func(ev pq.ListenerEventType, err error) {
			switch ev {
			case pq.ListenerEventConnected:
				up.Store(true)
			case pq.ListenerEventConnectionAttemptFailed, pq.ListenerEventDisconnected:
				up.Store(false)
				logger.Warn("public profile change feed: connection lost; cached public records stop being served", "error", err)
			case pq.ListenerEventReconnected:
				up.Store(true)
				logger.Info("public profile change feed: reconnected")
			}
		})
	defer l.Close()
	stop := context.AfterFunc(ctx, func() { l.Close() }) // Listen waits for a connection
	defer stop()
	if err := l.Listen(PublicProfileChannel); err != nil {
		if ctx.Err() == nil {
			logger.Warn("public profile change feed: cannot listen; trying again", "error", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		return
	}
	// A new connection: whatever was announced before it was heard by no one here.
	unheard.Store(0)
	f.Sink.Reset()
	check := time.NewTicker(heartbeat)
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case n, ok := <-l.Notify:
			switch {
			case !ok: // closed
				return
			case n == nil: // reconnected: whatever was announced meanwhile is lost
				unheard.Store(0)
				f.Sink.Reset()
			case strings.HasPrefix(n.Extra, "heartbeat:"):
				if sent, ok := strings.CutPrefix(n.Extra, tag); ok {
					if ns, err := strconv.ParseInt(sent, 10, 64); err == nil {
						if u := unheard.Load(); u != 0 && ns >= u {
							unheard.CompareAndSwap(u, 0)
						}
						f.Sink.FreshUntil(time.Unix(0, ns).Add(staleness))
					}
				}
			default:
				f.Sink.Changed(n.Extra)
			}
		case <-check.C:
			if u := unheard.Load(); u != 0 && up.Load() && time.Since(time.Unix(0, u)) > watchdog {
				logger.Warn("public profile change feed: own heartbeats not heard back although sent; reconnecting",
					"unheard_for", time.Since(time.Unix(0, u)).Round(time.Millisecond).String())
				return
			}
		}
	}
}

// beat sends a heartbeat every interval; the send time rides in the payload. A heartbeat DB
// accepted is remembered in unheard until it is heard back (the watchdog's evidence).
func (f *ProfileChangeFeed) beat(ctx context.Context, tag string, interval time.Duration, logger *slog.Logger, unheard *atomic.Int64) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sent := time.Now()
		beatCtx, cancel := context.WithTimeout(ctx, interval)
		_, err := f.DB.ExecContext(beatCtx, `SELECT pg_notify($1, $2)`, PublicProfileChannel, tag+strconv.FormatInt(sent.UnixNano(), 10))
		cancel()
		switch {
		case err == nil:
			unheard.CompareAndSwap(0, sent.UnixNano())
		case ctx.Err() == nil:
			logger.Warn("public profile change feed: heartbeat not sent", "error", err)
		}
	}
}
