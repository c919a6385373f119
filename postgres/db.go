// Package postgres implements the root package's services on PostgreSQL with sqlx.
package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"

	"github.com/perfilseguro/perfilseguro/sql/migrations"
	"github.com/perfilseguro/perfilseguro/tracing"
)

// Open connects to the primary (the leader) and checks the connection. Connection attempts are
// bounded and broken connections noticed quickly (dial.go), so that during a failover requests
// fail fast with an error IsUnavailable recognizes, and the pool recovers by itself once a new
// primary answers: database/sql discards a broken connection and opens a new one on demand.
func Open(ctx context.Context, dsn string) (*sqlx.DB, error) {
	return openChecked(ctx, dsn, replyTimeout)
}

// OpenForMigrations connects like Open but without the bound on a reply: a migration that builds
// an index on a large table keeps the server silent for as long as that takes.
func OpenForMigrations(ctx context.Context, dsn string) (*sqlx.DB, error) {
	return openChecked(ctx, dsn, 0)
}

func openChecked(ctx context.Context, dsn string, reply time.Duration) (*sqlx.DB, error) {
	db, err := open(dsn, true, reply)
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping postgres: %w", err)
	}
	return db, nil
}

// OpenReplica opens a pool on a read-only replica without checking it: a replica that does not
// answer is not a reason to stop, its queries fall back to the leader (Store.Replica).
func OpenReplica(dsn string) (*sqlx.DB, error) { return open(dsn, false, replyTimeout) }

// open builds a pool whose connections bound the wait for a reply by reply (dial.go, replyConn).
// The leader's connection attempts wait up to primaryWait for a primary (connector.go); a
// replica's do not: its reads fall back to the leader at once (Store.lagging).
func open(dsn string, leader bool, reply time.Duration) (*sqlx.DB, error) {
	return openWaiting(dsn, leader, reply, primaryWait)
}

// openWaiting is open with the leader's wait for a primary of the caller's choosing.
func openWaiting(dsn string, leader bool, reply, wait time.Duration) (*sqlx.DB, error) {
	pqc, err := pq.NewConnector(withDefaults(dsn, leader))
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	pqc.Dialer(newPoolDialer(reply))
	var connector driver.Connector = pqc
	var waiting *waitingConnector
	if leader {
		waiting = &waitingConnector{Connector: pqc, wait: wait, step: primaryStep}
		connector = waiting
	}
	db := sqlx.NewDb(tracing.OpenDB(connector), "postgres") // statements are client spans when tracing is on
	if waiting != nil {
		leaders.Store(db.DB, waiting)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20) // as many as may be open: closing busy-hour connections forks new backends
	db.SetConnMaxIdleTime(5 * time.Minute)
	// A connection is replaced now and then, so that none outlives a change behind haproxy
	// unnoticed and replicas that came back get their share of a replica pool again.
	db.SetConnMaxLifetime(30 * time.Minute)
	return db, nil
}

// Migrate applies every pending embedded migration; running it again changes nothing.
func Migrate(ctx context.Context, db *sqlx.DB) error {
	provider, err := goose.NewProvider(goose.DialectPostgres, db.DB, migrations.FS)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	for _, r := range results {
		slog.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// IsUniqueViolation reports whether err is a unique-constraint violation, and on which constraint.
func IsUniqueViolation(err error) (string, bool) {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		return pqErr.Constraint, true
	}
	return "", false
}
