package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

// An action and the audit event that records it are written in one transaction, so that a crash
// between them cannot leave a change without its record (issue 38). The handler runs the action's
// store calls inside Audited; those calls find the transaction in their context (q, InTx) instead
// of taking the pool, and the event the handler returns is appended before the commit. If the
// event cannot be written the action rolls back.

type actionTxKey struct{}

// ActionTx is the transaction of the audited action ctx belongs to, or nil: stores kept outside
// this package (passkey) run their statements in it too.
func ActionTx(ctx context.Context) *sqlx.Tx { return actionTx(ctx) }

// actionTx is the transaction of the audited action ctx belongs to, or nil.
func actionTx(ctx context.Context) *sqlx.Tx {
	tx, _ := ctx.Value(actionTxKey{}).(*sqlx.Tx)
	return tx
}

// querier is what the store's statements need, from the pool or from a transaction.
type querier interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row
	NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error)
}

// q is where a store method runs its statements: the audited action's transaction when ctx
// carries one, the pool otherwise.
func (s *Store) q(ctx context.Context) querier {
	if tx := actionTx(ctx); tx != nil {
		return tx
	}
	return s.DB
}

// errNestedAction: an audited action inside another would commit the inner one's event with the
// outer transaction; nothing does this, and it is refused rather than guessed at.
var errNestedAction = errors.New("postgres: an audited action inside another")

// Audited runs do in one transaction and appends the event it returns in that transaction: both
// are written, or neither. Store calls made with the context do is given take part in it.
func (s *Store) Audited(ctx context.Context, do func(ctx context.Context) (AuditEvent, error)) error {
	if actionTx(ctx) != nil {
		return errNestedAction
	}
	return s.InTx(ctx, func(tx *sqlx.Tx) error {
		ctx := context.WithValue(ctx, actionTxKey{}, tx)
		e, err := do(ctx)
		if err != nil {
			return err
		}
		return AppendAudit(ctx, tx, e)
	})
}

// Ext is the store's connection for ctx, for the functions that take one (AddArcoRequest): the
// audited action's transaction, or the pool.
func (s *Store) Ext(ctx context.Context) sqlx.ExtContext { return s.q(ctx) }
