package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
)

// The sign-in path runs a handful of statements hundreds of times a second. lib/pq sends every
// statement with arguments as an unnamed one: two round trips, parsed and planned each time. A
// statement prepared once per pool (and, by database/sql, once per connection on first use)
// runs in one round trip and Postgres may keep its plan.
var preparedStmts sync.Map // preparedKey → *sqlx.Stmt

type preparedKey struct {
	db    *sqlx.DB
	query string
}

// prepared returns the pool's prepared statement for query, preparing it on first use. A
// failed preparation is not cached, so it is tried again on the next call.
func (s *Store) prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	key := preparedKey{s.DB, query}
	if st, ok := preparedStmts.Load(key); ok {
		return st.(*sqlx.Stmt), nil
	}
	st, err := s.DB.PreparexContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if prev, loaded := preparedStmts.LoadOrStore(key, st); loaded {
		st.Close()
		return prev.(*sqlx.Stmt), nil
	}
	return st, nil
}

// stmtIn is the prepared statement for query, bound to tx when there is one.
func (s *Store) stmtIn(ctx context.Context, tx *sqlx.Tx, query string) (*sqlx.Stmt, error) {
	st, err := s.prepared(ctx, query)
	if err != nil || tx == nil {
		return st, err
	}
	return tx.StmtxContext(ctx, st), nil
}

// getPrepared scans one row of a prepared query, in tx or on the pool (tx nil).
func (s *Store) getPrepared(ctx context.Context, tx *sqlx.Tx, dest any, query string, args ...any) error {
	st, err := s.stmtIn(ctx, tx, query)
	if err != nil {
		return err
	}
	return st.GetContext(ctx, dest, args...)
}

// selectPrepared scans the rows of a prepared query on the pool into dest (a slice).
func (s *Store) selectPrepared(ctx context.Context, dest any, query string, args ...any) error {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return err
	}
	return st.SelectContext(ctx, dest, args...)
}

// selectRows scans the rows of a prepared query on the pool; what names the query in its error.
func selectRows[T any](ctx context.Context, s *Store, what, query string, args ...any) ([]T, error) {
	var found []T
	if err := s.selectPrepared(ctx, &found, query, args...); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return found, nil
}

// execPrepared runs a prepared statement, in tx or on the pool (tx nil).
func (s *Store) execPrepared(ctx context.Context, tx *sqlx.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.stmtIn(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}
