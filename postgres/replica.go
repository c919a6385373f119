package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Reads sent to the replica (DATABASE_REPLICA_URL), chosen because a second or two of lag cannot
// mislead anyone and nothing is written from what they return:
//   - Consultations: a person's list of who looked their profile up; the lookups are recorded off
//     the response path anyway (api/passes_logs.go), so the list already trails by a moment.
//   - ListUsers: the administrators' user list and search; editing a user reads it again from the
//     leader (UserByID).
//   - AuditEvents: the audit trail listing and its CSV export, append-only history.
//
// Never on the replica: sign-in, codes, sessions, payments, public verification (a revocation
// must be seen at once), and any read followed by a write.

// replicaPause is how long the replica is left alone after it failed as unavailable: its reads go
// to the leader meanwhile instead of each waiting for a connection attempt to fail.
const replicaPause = 5 * time.Second

// Replica is a read-only pool for reads that tolerate lag, and when it last failed.
type Replica struct {
	db        *sqlx.DB
	downUntil atomic.Int64 // unix nanoseconds
}

// NewReplica wraps a pool opened with OpenReplica; nil gives nil (no replica).
func NewReplica(db *sqlx.DB) *Replica {
	if db == nil {
		return nil
	}
	return &Replica{db: db}
}

// lagging runs read on the replica, or on the leader when there is no replica, it failed a moment
// ago, or it fails now as unavailable (or cancels the query because of a conflict with recovery).
func (s *Store) lagging(ctx context.Context, read func(sqlx.QueryerContext) error) error {
	r := s.Replica
	if r == nil || time.Now().UnixNano() < r.downUntil.Load() {
		return read(s.DB)
	}
	err := read(r.db)
	if err == nil || ctx.Err() != nil || !(IsUnavailable(err) || isRecoveryConflict(err)) {
		return err
	}
	r.downUntil.Store(time.Now().Add(replicaPause).UnixNano())
	return read(s.DB)
}

// countAndList runs, through lagging, a count and the page of rows it counts: the lists of
// ListUsers and AuditEvents. Both statements go to the same pool, so the total and the page agree.
func countAndList[T any](ctx context.Context, s *Store, what, count, list string, args ...any) ([]T, int, error) {
	var total int
	var rows []T
	err := s.lagging(ctx, func(db sqlx.QueryerContext) error {
		if err := sqlx.GetContext(ctx, db, &total, count, args...); err != nil {
			return fmt.Errorf("count %s: %w", what, err)
		}
		rows = nil // a second try (on the leader) starts afresh
		if err := sqlx.SelectContext(ctx, db, &rows, list, args...); err != nil {
			return fmt.Errorf("list %s: %w", what, err)
		}
		return nil
	})
	return rows, total, err
}

// isRecoveryConflict: a hot standby cancelled the query to apply the leader's changes (40001).
func isRecoveryConflict(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "40001"
}
