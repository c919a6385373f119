package identity

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAgeOn(t *testing.T) {
	t.Parallel()
	birth := day(2008, 6, 15)
	require.Equal(t, 17, AgeOn(birth, day(2026, 6, 14)), "the day before the birthday")
	require.Equal(t, 18, AgeOn(birth, day(2026, 6, 15)), "on the birthday")
	require.Equal(t, 18, AgeOn(birth, day(2027, 6, 14)))
	require.Equal(t, 0, AgeOn(birth, birth))

	leap := day(2008, 2, 29)
	require.Equal(t, 17, AgeOn(leap, day(2026, 2, 28)), "29 February: not yet on 28 February")
	require.Equal(t, 18, AgeOn(leap, day(2026, 3, 1)), "29 February: a year older on 1 March")
	require.Equal(t, 20, AgeOn(leap, day(2028, 2, 29)))

	// Calendar dates as written: a late hour in Mexico City is still that day.
	mexico := time.FixedZone("CST", -6*3600)
	require.Equal(t, 17, AgeOn(birth, time.Date(2026, 6, 14, 23, 30, 0, 0, mexico)))
}

func TestCheckDocumentDates(t *testing.T) {
	t.Parallel()
	birth := day(2008, 6, 15)
	expiry := day(2030, 12, 31)

	got := CheckDocumentDates(birth, expiry, day(2026, 6, 14))
	require.Equal(t, DocumentDates{Age: 17, UnderAge: true, Expired: false}, got)

	got = CheckDocumentDates(birth, expiry, day(2026, 6, 15))
	require.Equal(t, DocumentDates{Age: 18, UnderAge: false, Expired: false}, got)

	got = CheckDocumentDates(birth, expiry, day(2030, 12, 31))
	require.False(t, got.Expired, "valid through its expiry date")
	got = CheckDocumentDates(birth, expiry, day(2031, 1, 1))
	require.True(t, got.Expired, "expired the day after")

	got = CheckDocumentDates(birth, time.Time{}, day(2090, 1, 1))
	require.False(t, got.Expired, "no expiry printed")
}

func TestValidUntil(t *testing.T) {
	t.Parallel()
	plan := day(2027, 11, 28)
	require.Equal(t, plan, ValidUntil(plan, day(2031, 12, 31)), "the plan ends first")
	require.Equal(t, day(2027, 3, 1), ValidUntil(plan, day(2027, 3, 1)), "the ID expires first")
	require.Equal(t, plan, ValidUntil(plan, time.Time{}), "no expiry")
	require.Equal(t, day(2031, 12, 31), ExpiryFromYear(2031, time.UTC))
}
