package pgtest

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	"github.com/stretchr/testify/require"
)

// SetDelay adds its delay each way: every round trip through the proxy takes at least twice it.
func TestProxyDelayAddsToEveryRoundTrip(t *testing.T) {
	_, dsn := New(t)
	p := NewProxy(t, dsn)
	p.SetDelay(15 * time.Millisecond)
	db, err := sqlx.Open("postgres", p.URL(dsn))
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	var one int
	require.NoError(t, db.Get(&one, `SELECT 1`)) // the connection: several round trips
	for range 3 {
		start := time.Now()
		require.NoError(t, db.Get(&one, `SELECT 1`))
		require.Equal(t, 1, one)
		require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond, "15 ms there and 15 ms back")
	}
}
