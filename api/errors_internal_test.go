package api

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"

	"github.com/lib/pq"
	"github.com/stretchr/testify/require"
)

// Every way Postgres says "no primary right now" is a 503 with Retry-After and the Spanish
// message; an ordinary failure is not.
func TestPostgresUnavailableIs503WithRetryAfter(t *testing.T) {
	t.Parallel()
	pqErr := func(code string) error {
		return fmt.Errorf("insert user: %w", &pq.Error{Code: pq.ErrorCode(code), Message: "x"})
	}
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	unavailable := map[string]error{
		"08000 connection_exception":          pqErr("08000"),
		"08006 connection_failure":            pqErr("08006"),
		"08001 sqlclient_unable_to_establish": pqErr("08001"),
		"57P01 admin_shutdown":                pqErr("57P01"),
		"57P02 crash_shutdown":                pqErr("57P02"),
		"57P03 cannot_connect_now":            pqErr("57P03"),
		"25006 read_only_sql_transaction":     pqErr("25006"),
		"53300 too_many_connections":          pqErr("53300"),
		"io.EOF":                              fmt.Errorf("query: %w", io.EOF),
		"io.ErrUnexpectedEOF":                 fmt.Errorf("query: %w", io.ErrUnexpectedEOF),
		"driver.ErrBadConn":                   fmt.Errorf("query: %w", driver.ErrBadConn),
		"connection refused":                  fmt.Errorf("query: %w", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
		"connection reset":                    fmt.Errorf("query: %w", syscall.ECONNRESET),
		"dial timeout":                        fmt.Errorf("query: %w", dialTimeout),
		"read-only session (target attrs)":    fmt.Errorf("session is read-only"),
		"hot standby (target attrs)":          fmt.Errorf("server is in hot standby mode"),
		"request bound passed":                fmt.Errorf("query: %w", context.DeadlineExceeded),
		"shutting down (message only)":        fmt.Errorf("pq: the database system is shutting down"),
	}
	for name, err := range unavailable {
		t.Run(name, func(t *testing.T) {
			status, retryAfter, msg := written(t, err)
			require.Equal(t, http.StatusServiceUnavailable, status)
			require.Equal(t, "10", retryAfter)
			require.Equal(t, "El servicio no está disponible en este momento. Intenta nuevamente en unos minutos.", msg)
		})
	}
	for name, err := range map[string]error{
		"23505 unique_violation": pqErr("23505"),
		"23503 foreign_key":      pqErr("23503"),
		"42P01 undefined_table":  pqErr("42P01"),
		"plain error":            fmt.Errorf("something broke"),
	} {
		t.Run(name, func(t *testing.T) {
			status, retryAfter, _ := written(t, err)
			require.Equal(t, http.StatusInternalServerError, status)
			require.Empty(t, retryAfter)
		})
	}
}

// A request that ran out of its time answers 503 whatever error the driver gave up with.
func TestRequestPastItsBoundIs503(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-ctx.Done()
	r := httptest.NewRequest("GET", "/api/admin/users", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	writeError(w, r, &pq.Error{Code: "57014", Message: "canceling statement due to user request"})
	require.Equal(t, http.StatusServiceUnavailable, w.Code)
	require.Equal(t, "10", w.Header().Get("Retry-After"))
}

func written(t *testing.T, err error) (status int, retryAfter, message string) {
	t.Helper()
	w := httptest.NewRecorder()
	writeError(w, httptest.NewRequest("POST", "/api/register", nil), err)
	var body struct {
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body))
	return w.Code, w.Header().Get("Retry-After"), body.Message
}
