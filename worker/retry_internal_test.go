package worker

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lib/pq"
	"github.com/stretchr/testify/require"
)

// A job that failed because Postgres had no primary runs again within 1–2 s, whatever its retry
// count, and keeps its retries; any other failure backs off as before and counts.
func TestRetryDelayIsShortWhilePostgresIsUnavailable(t *testing.T) {
	t.Parallel()
	failover := fmt.Errorf("claim code 7: %w", &pq.Error{Code: "57P01", Message: "terminating connection due to administrator command"})
	for n := range 20 {
		d := retryDelay(n, failover, nil)
		require.GreaterOrEqual(t, d, time.Second)
		require.LessOrEqual(t, d, 2*time.Second)
	}
	require.False(t, countsAsFailure(failover))
	other := errors.New("provider answered 500")
	require.Equal(t, 2*time.Second, retryDelay(0, other, nil))
	require.Equal(t, 5*time.Minute, retryDelay(12, other, nil))
	require.True(t, countsAsFailure(other))
}
