package aml_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/aml"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestAvisosAreDueTheSeventeenthOfTheNextMonthInMexicoCity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ op, due string }{
		{"2026-03-01", "2026-04-17T23:59:59-06:00"},
		{"2026-03-31", "2026-04-17T23:59:59-06:00"},
		{"2025-12-05", "2026-01-17T23:59:59-06:00"}, // December → January of the next year
		{"2026-01-31", "2026-02-17T23:59:59-06:00"},
	} {
		due := aml.AvisoDue(day(c.op))
		want, err := time.Parse(time.RFC3339, c.due)
		require.NoError(t, err)
		require.True(t, want.Equal(due), "%s: %s", c.op, due)
		require.Equal(t, "America/Mexico_City", due.Location().String())
		require.Equal(t, 17, due.In(aml.MexicoCity).Day())
	}
	require.Equal(t, day("2025-12-01"), aml.Period(day("2025-12-31")))
}

func TestASuspiciousAvisoIsDueTwentyFourHoursAfterTheConfirmation(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 10, 22, 30, 0, 0, time.UTC)
	require.Equal(t, time.Date(2026, 5, 11, 22, 30, 0, 0, time.UTC), aml.SuspiciousDue(at))
}

func TestCompleteMonthsEndBeforeTheCurrentMonthInMexicoCity(t *testing.T) {
	t.Parallel()
	// 1 March 2026 03:00 UTC is still 28 February in Mexico City: February is not complete.
	months := aml.CompleteMonths(day("2025-11-20"), time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC))
	require.Equal(t, []time.Time{day("2025-11-01"), day("2025-12-01"), day("2026-01-01")}, months)
	months = aml.CompleteMonths(day("2025-11-20"), time.Date(2026, 3, 1, 7, 0, 0, 0, time.UTC))
	require.Len(t, months, 4)
	require.Empty(t, aml.CompleteMonths(day("2026-03-02"), time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)))
}
