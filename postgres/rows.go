package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// isNoRows reports whether a query found no row.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// getOptional reads the one row a query finds into a new T, or nil when it finds none; what names
// the row in errors.
func getOptional[T any](ctx context.Context, q querier, what string, query string, args ...any) (*T, error) {
	var v T
	if err := q.GetContext(ctx, &v, query, args...); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &v, nil
}

// changedOne runs a statement and reports whether it changed exactly one row (a claim or a
// state change that happens once); what names it in errors.
func changedOne(ctx context.Context, q sqlx.ExecerContext, what string, query string, args ...any) (bool, error) {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// getOne reads the one row a query finds into dest: notFound when it finds none, and any other
// failure wrapped with what.
func getOne(ctx context.Context, q sqlx.QueryerContext, dest any, notFound error, what string, query string, args ...any) error {
	err := sqlx.GetContext(ctx, q, dest, query, args...)
	if isNoRows(err) {
		return notFound
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// lockOthers runs query, which locks a group's rows (FOR UPDATE) and returns their ids, and counts
// the members other than id: whether a change to id leaves the group someone. what names the group.
func lockOthers(ctx context.Context, tx *sqlx.Tx, id int64, what string, query string, args ...any) (int, error) {
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, query, args...); err != nil {
		return 0, fmt.Errorf("lock %s: %w", what, err)
	}
	others := 0
	for _, x := range ids {
		if x != id {
			others++
		}
	}
	return others, nil
}
