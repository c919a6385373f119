package api

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// A request the browser abandons while its query runs (a navigation away) is a client
// cancellation: status 499 in the request line at INFO level and in the metrics, no "request
// failed" error line, nothing for the 5xx alert to count. Not parallel: it reads slog's default
// logger, where writeError logs failures.
func TestARequestTheClientCancelsIsLoggedAs499NotAsAnError(t *testing.T) {
	db, err := sqlx.Open("postgres", pgtest.AdminURL())
	require.NoError(t, err)
	defer db.Close()

	var errorLog bytes.Buffer
	previous := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&errorLog, nil)))
	defer slog.SetDefault(previous)
	var requestLog bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&requestLog, nil))

	s := &Server{metrics: newMetrics(nil)}
	mux := http.NewServeMux()
	started := make(chan struct{})
	mux.HandleFunc("GET /api/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		if _, err := db.ExecContext(r.Context(), `SELECT pg_sleep(10)`); err != nil {
			writeError(w, r, err) // what lib/pq says when the query is canceled under it
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	finished := make(chan struct{})
	chain := withRequestID(withLogging(logger)(s.withMetrics(mux)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(finished)
		chain.ServeHTTP(w, r)
	}))
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/slow", nil)
	go func() {
		<-started
		time.Sleep(100 * time.Millisecond)
		cancel() // the browser navigates away
	}()
	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.Canceled)
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler went on after the client left")
	}

	line := requestLog.String()
	require.Contains(t, line, `"status":499`, line)
	require.Contains(t, line, `"level":"INFO"`, line)
	require.NotContains(t, line, `"level":"ERROR"`, line)
	require.False(t, strings.Contains(errorLog.String(), "request failed"), errorLog.String())
	scrape := httptest.NewRecorder()
	s.metrics.handler().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, metricsPath, nil))
	require.Contains(t, scrape.Body.String(), `perfilseguro_http_requests_total{code="499",method="GET",route="GET /api/slow"} 1`)
	require.NotContains(t, scrape.Body.String(), `code="500"`)
}
