package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
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
type ProfileChangeFeed struct {
	DSN          string   // the database to listen to (a connection of its own, outside DB's pool)
	DB           *sqlx.DB // sends the heartbeats
	Sink         ProfileChangeSink
	Logger       *slog.Logger
	Heartbeat    time.Duration // 0: 250 ms
	MaxStaleness time.Duration // 0: 1 s, the longest a replica may serve a record after its change
}

// Run listens until ctx is cancelled.
func (f *ProfileChangeFeed) Run(ctx context.Context) error {
	heartbeat, staleness := f.Heartbeat, f.MaxStaleness
	if heartbeat <= 0 {
		heartbeat = 250 * time.Millisecond
	}
	if staleness <= 0 {
		staleness = time.Second
	}
	logger := f.Logger
	if logger == nil {
		logger = slog.Default()
	}
	l := pq.NewListener(f.DSN, 100*time.Millisecond, 2*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventConnectionAttemptFailed, pq.ListenerEventDisconnected:
			logger.Warn("public profile change feed: connection lost; cached public records stop being served", "error", err)
		case pq.ListenerEventReconnected:
			logger.Info("public profile change feed: reconnected")
		}
	})
	defer l.Close()
	if err := l.Listen(PublicProfileChannel); err != nil {
		return fmt.Errorf("listen %s: %w", PublicProfileChannel, err)
	}
	// A tag of this process's own heartbeats: other replicas' heartbeats are ignored.
	b := make([]byte, 8)
	rand.Read(b)
	tag := "heartbeat:" + hex.EncodeToString(b) + ":"
	go f.beat(ctx, tag, heartbeat, logger)
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-l.Notify:
			switch {
			case n == nil: // reconnected: whatever was announced meanwhile is lost
				f.Sink.Reset()
			case strings.HasPrefix(n.Extra, "heartbeat:"):
				if sent, ok := strings.CutPrefix(n.Extra, tag); ok {
					if ns, err := strconv.ParseInt(sent, 10, 64); err == nil {
						f.Sink.FreshUntil(time.Unix(0, ns).Add(staleness))
					}
				}
			default:
				f.Sink.Changed(n.Extra)
			}
		}
	}
}

// beat sends a heartbeat every interval; the send time rides in the payload.
func (f *ProfileChangeFeed) beat(ctx context.Context, tag string, interval time.Duration, logger *slog.Logger) {
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
		if err != nil && ctx.Err() == nil {
			logger.Warn("public profile change feed: heartbeat not sent", "error", err)
		}
	}
}
