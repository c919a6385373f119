package perfilseguro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestProfileIDs(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := NewProfileID()
		require.True(t, ValidProfileID(id), id)
		seen[id] = true
	}
	require.Greater(t, len(seen), 995, "IDs are random")
	for _, bad := range []string{"", "PS-1234-5678-9", "ps-1234-5678-90", "PS-1234-5678-90 ", "PS-12a4-5678-90", "XX-1234-5678-90"} {
		require.False(t, ValidProfileID(bad), bad)
	}
}

func FuzzValidProfileID(f *testing.F) {
	f.Add("PS-1234-5678-90")
	f.Add("PS-1234-5678-9\n")
	f.Fuzz(func(t *testing.T, s string) {
		if ValidProfileID(s) {
			require.Len(t, s, 15)
			require.Equal(t, "PS-", s[:3])
		}
	})
}

func TestEmailAndNames(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ana@example.com", NormalizeEmail("  Ana@Example.COM "))
	for _, ok := range []string{"ana@example.com", "a.b+c@sub.example.mx"} {
		require.True(t, ValidEmail(ok), ok)
	}
	for _, bad := range []string{"", "ana", "ana@", "Ana <ana@example.com>", "ana@localhost", "a b@example.com"} {
		require.False(t, ValidEmail(bad), bad)
	}
	require.True(t, ValidateName("  Ana ", 3))
	require.False(t, ValidateName("  Al ", 3))
	require.True(t, ValidateName("Ñu", 2))
}

func TestValidUntilAddsVigenciaYears(t *testing.T) {
	t.Parallel()
	v := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	u := User{FechaValidacion: &v, Vigencia: 5}
	require.Equal(t, time.Date(2031, 3, 7, 10, 0, 0, 0, time.UTC), *u.ValidUntil())
	require.Nil(t, User{Vigencia: 1}.ValidUntil())
}

func TestFormatPesos(t *testing.T) {
	t.Parallel()
	for c, want := range map[int64]string{299_00: "$299.00 MXN", 5: "$0.05 MXN", 1_299_50: "$1,299.50 MXN", 1_000_000_00: "$1,000,000.00 MXN"} {
		require.Equal(t, want, FormatPesos(c), c)
	}
}

func TestYearsText(t *testing.T) {
	t.Parallel()
	require.Equal(t, "1 año", YearsText(1))
	require.Equal(t, "5 años", YearsText(5))
	require.Equal(t, "10 años", YearsText(10))
}

func TestMexicoDateTime(t *testing.T) {
	t.Parallel()
	// 26 Nov 2026 03:30 UTC is still the 25th at 21:30 in Mexico City (UTC-6).
	require.Equal(t, "25/11/2026 21:30", MexicoDateTime(time.Date(2026, 11, 26, 3, 30, 0, 0, time.UTC)))
}
