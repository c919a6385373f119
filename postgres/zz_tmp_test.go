package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func TestTmpHangsWithoutBound(t *testing.T) {
	_, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	db, _ := postgres.OpenWithReplyTimeout(proxy.URL(dsn), 0)
	defer db.Close()
	var one int
	db.Get(&one, "SELECT 1")
	proxy.Freeze()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- db.GetContext(ctx, &one, "SELECT 1") }()
	select {
	case err := <-done:
		t.Fatalf("returned: %v", err)
	case <-time.After(5 * time.Second):
		t.Log("still hanging after 5 s, as measured")
	}
	proxy.Thaw()
}
