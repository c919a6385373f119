package screening

import (
	"testing"

	"github.com/hbollon/go-edlib"
	"github.com/stretchr/testify/require"
)

func TestJaroWinklerAgreesWithGoEdlib(t *testing.T) {
	t.Parallel()
	for _, p := range [][2]string{
		{"barragan", "barragam"}, {"hernandez", "hernandes"}, {"martha", "marhta"}, {"quintero", "quinteros"},
		{"gonzalez", "gonzales"}, {"abc", "xyz"}, {"dixon", "dicksonx"}, {"sokoloff", "sokolov"}, {"a", "a"},
		{"ndayishimiye", "ndayishimiyi"}, {"núñez", "nunez"},
	} {
		want := float64(edlib.JaroWinklerSimilarity(p[0], p[1]))
		require.InDelta(t, want, jaroWinkler(p[0], p[1]), 1e-6, "%s / %s", p[0], p[1])
	}
}
