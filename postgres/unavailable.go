package postgres

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/lib/pq"
)

// IsUnavailable reports whether err says the database (or another dependency reached over the
// network) cannot serve right now but may in a few seconds: no primary during a failover, a
// connection broken or refused, a node still in recovery or already demoted, a full server. The
// API answers these with 503 and Retry-After, the worker retries them soon; anything else (a
// constraint violation, a bad query) is a real failure.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		code := string(pqErr.Code)
		switch {
		case strings.HasPrefix(code, "08"): // connection_exception and its subclasses
			return true
		case code == "57P01", // admin_shutdown: the node is stopping (a switchover, a restart)
			code == "57P02", // crash_shutdown
			code == "57P03", // cannot_connect_now: starting up, or a standby not accepting connections yet
			code == "25006", // read_only_sql_transaction: we reached a node that is not (or no longer) the primary
			code == "53300": // too_many_connections
			return true
		}
		return false
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) { // dial refused or timed out, read or write on a broken connection
		return true
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) {
		return true
	}
	// Errors lib/pq makes from text: target_session_attrs=read-write meeting a standby, and the
	// server's refusals when they come before a pq.Error can be parsed.
	msg := err.Error()
	for _, s := range []string{"session is read-only", "server is in hot standby mode",
		"the database system is shutting down", "the database system is starting up",
		"the database system is in recovery mode"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
