package phone

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalizeMX(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"5512345678":         "+525512345678",
		"55 1234 5678":       "+525512345678",
		"(55) 1234-5678":     "+525512345678",
		"525512345678":       "+525512345678",
		"+525512345678":      "+525512345678",
		"+52 1 55 1234 5678": "+525512345678",
		"5215512345678":      "+525512345678",
		"0445512345678":      "+525512345678",
		"0455512345678":      "+525512345678",
		"33 1234 5678":       "+523312345678",
		"+52 81 1234 5678":   "+528112345678",
	}
	for in, want := range ok {
		got, err := NormalizeMX(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	bad := map[string]error{
		"":                ErrCharacters,
		"55-abc-5678":     ErrCharacters,
		"+52+5512345678":  ErrCharacters,
		"551234567":       ErrTooShort,
		"+1 212 555 0100": ErrInvalid,
		"55123456789012":  ErrInvalid,
		"0000000000":      ErrInvalid,
	}
	for in, want := range bad {
		_, err := NormalizeMX(in)
		require.ErrorIs(t, err, want, in)
	}
}

func TestNormalizeAllowedCountries(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"+1 212 555 0123":    "+12125550123",   // US
		"+1 416 555 0123":    "+14165550123",   // CA
		"+34 612 34 56 78":   "+34612345678",   // ES
		"+54 9 11 2345 6789": "+5491123456789", // AR mobile
		"+57 301 234 5678":   "+573012345678",  // CO
		"+51 912 345 678":    "+51912345678",   // PE
		"+56 9 6123 4567":    "+56961234567",   // CL
		"+1 787 234 5678":    "+17872345678",   // PR
		"5512345678":         "+525512345678",  // no country code: Mexico
		"+52 55 1234 5678":   "+525512345678",
	}
	for in, want := range ok {
		got, err := Normalize(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := Normalize("+44 7911 123456") // UK: valid number, country not allowed
	require.ErrorIs(t, err, ErrCountry)
	_, err = Normalize("+1 000 000 0000")
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Normalize("hola")
	require.ErrorIs(t, err, ErrCharacters)
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"5512345678", "+525512345678", "+5215512345678", "+34612345678", "044 55", "++", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Normalize(in)
		if err != nil {
			return
		}
		// Whatever is accepted is E.164 and stable under a second pass.
		require.Regexp(t, `^\+[1-9][0-9]{6,14}$`, out)
		again, err := Normalize(out)
		require.NoError(t, err)
		require.Equal(t, out, again)
	})
}
