package identity

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func FuzzCompareNames(f *testing.F) {
	f.Add("María López Hernández", "MARÍA", "LÓPEZ", "HERNÁNDEZ")
	f.Add("Juan de la Garza", "JUAN", "DE LA GARZA", "")
	f.Add("Mari Carmen", "MARICARMEN", "IBARRA", "SOLÍS")
	f.Add("  -- ", "", "", "")
	f.Add("de la y", "DE", "LA", "Y")
	f.Fuzz(func(t *testing.T, typed, given, first, second string) {
		doc := DocumentName{GivenNames: given, FirstSurname: first, SecondSurname: second}
		for _, res := range []NameResult{CompareNames(typed, doc), CompareNames(typed, DocumentName{FullName: given + " " + first + " " + second})} {
			require.Contains(t, []Outcome{Match, Near, Mismatch}, res.Outcome)
			require.GreaterOrEqual(t, res.Score, 0.0)
			require.LessOrEqual(t, res.Score, 1.0)
			require.Equal(t, res.Outcome == Match, len(res.Reasons) == 0, "a match has no reasons, anything else has one: %v", res.Reasons)
			for _, w := range res.Words {
				require.Equal(t, w.How == "absent", w.Part == PartNone)
			}
		}

		// The document's own name, typed in any case and with or without accents, matches
		// whenever it has a given name and a first surname.
		g, _ := words(given, PartGiven)
		s, _ := words(first, PartFirstSurname)
		// A part that ends in a particle ("0 Y") names nobody: the particle binds to the next part.
		if len(g) > 0 && len(s) > 0 && !endsInParticle(given) && !endsInParticle(first) && !endsInParticle(second) {
			own := given + " " + first + " " + second
			for _, typed := range []string{own, strings.ToUpper(own), strings.ToLower(own), Fold(own)} {
				require.Equal(t, Match, CompareNames(typed, doc).Outcome, "%q", typed)
			}
			// Any order of the parts still matches, where no particle moves with them.
			if !hasParticle(own) {
				require.Equal(t, Match, CompareNames(second+" "+first+" "+given, doc).Outcome)
			}
		}
		// ProperName changes case only.
		require.Equal(t, Fold(typed), Fold(ProperName(typed)))
	})
}

func FuzzCheckCURP(f *testing.F) {
	f.Add("BOXW310820HNERXN09", "Juan", "Pérez", "López", 1931, 8, 20, "H", "NE")
	f.Add("", "María José", "de la Garza", "", 2005, 2, 28, "M", "Jalisco")
	f.Add("ñÑ", "Iñaki", "Muñoz", "Peña", 1999, 12, 31, "X", "CDMX")
	f.Fuzz(func(t *testing.T, curp, given, first, second string, year, month, dayOfMonth int, sex, state string) {
		birth := time.Date(year, time.Month(month), dayOfMonth, 0, 0, 0, 0, time.UTC)
		res := CheckCURP(curp, birth, sex, state)
		if res.Valid {
			c := NormalizeCURP(curp)
			require.Len(t, c, 18)
			digit, ok := CURPCheckDigit(c[:17])
			require.True(t, ok)
			require.Equal(t, c[17], digit)
			require.NotContains(t, fmt.Sprintf("%+v", res), c, "a result never carries the CURP")
			require.False(t, res.Birth.IsZero())
		} else {
			require.NotEmpty(t, res.Problems)
		}

		// A CURP built for a person passes the check against that person's data, and no other
		// sex or birth date.
		if birth.Year() < 1900 || birth.Year() > 2099 {
			return
		}
		sex = []string{"H", "M", "X"}[len(sex)%3]
		code, ok := StateCode(state)
		if !ok {
			code = "NE"
		}
		built := ExampleCURP(given, first, second, birth, sex, code)
		got := CheckCURP(built, birth, sex, code)
		require.True(t, got.OK(), "%s for %q %q %q: %v", built, given, first, second, got.Problems)
		require.True(t, CURPMatchesName(built, DocumentName{GivenNames: given, FirstSurname: first, SecondSurname: second}))
		other := map[string]string{"H": "M", "M": "X", "X": "H"}[sex]
		require.Contains(t, CheckCURP(built, birth.AddDate(0, 0, 1), other, code).Problems, ProblemSexDiff)
		require.Contains(t, CheckCURP(built, birth.AddDate(0, 0, 1), other, code).Problems, ProblemBirthDiff)
	})
}

func endsInParticle(s string) bool {
	w := strings.Fields(Fold(s))
	return len(w) > 0 && particles[w[len(w)-1]]
}

func hasParticle(s string) bool {
	for _, w := range strings.Fields(Fold(s)) {
		if particles[w] {
			return true
		}
	}
	return false
}
