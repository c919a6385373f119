package tracing

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"slices"
	"strings"

	"github.com/XSAM/otelsql"
	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
)

// OpenDB opens a pool on connector whose statements are client spans when tracing is on: named
// by the operation, with the statement's text (placeholders only, never the values bound to
// them). Rows, prepares, pings and session resets get no span of their own.
func OpenDB(connector driver.Connector) *sql.DB {
	if !Enabled() {
		return sql.OpenDB(connector)
	}
	return otelsql.OpenDB(connector,
		otelsql.WithAttributes(attribute.String("db.system.name", "postgresql")),
		otelsql.WithSpanOptions(otelsql.SpanOptions{OmitRows: true, OmitConnPrepare: true, OmitConnResetSession: true,
			SpanFilter: func(_ context.Context, method otelsql.Method, _ string, _ []driver.NamedValue) bool {
				return method != otelsql.MethodConnPing
			}}))
}

// Redis makes each command of client a client span when tracing is on: named by the command,
// never with its arguments (keys hold rate-limit subjects, values codes).
func Redis(client redis.UniversalClient) error {
	if !Enabled() {
		return nil
	}
	return redisotel.InstrumentTracing(client, redisotel.WithDBStatement(false), redisotel.WithCallerEnabled(false),
		redisotel.WithCommandFilter(handshake), redisotel.WithCommandsFilter(func(cmds []redis.Cmder) bool {
			return !slices.ContainsFunc(cmds, func(c redis.Cmder) bool { return !handshake(c) })
		}))
}

// handshake: the commands a new connection sends before any work (AUTH, HELLO, SELECT of the
// database, CLIENT SETINFO, which older servers refuse). Not what a request did; no span.
func handshake(cmd redis.Cmder) bool {
	switch strings.ToLower(cmd.Name()) {
	case "auth", "hello", "select", "client":
		return true
	}
	return false
}
