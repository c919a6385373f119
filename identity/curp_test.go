package identity

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// Public examples: python-stdnum's documented CURP and those used by open-source validators.
var publicCURPs = []struct {
	curp  string
	birth time.Time
	sex   string
	state string
}{
	{"BOXW310820HNERXN09", day(1931, 8, 20), "H", "NE"},
	{"HEGG560427MVZRRL04", day(1956, 4, 27), "M", "VZ"},
	{"MAAR790213HMNRLF03", day(1979, 2, 13), "H", "MN"},
	{"TUAZ790213HMNRLF02", day(1979, 2, 13), "H", "MN"},
	{"TUAZ040213MCLRLFA7", day(2004, 2, 13), "M", "CL"},
	{"JIAZ040213MCLRLFA6", day(2004, 2, 13), "M", "CL"},
}

func TestCURPCheckDigitOnPublicExamples(t *testing.T) {
	t.Parallel()
	for _, p := range publicCURPs {
		digit, ok := CURPCheckDigit(p.curp[:17])
		require.True(t, ok, p.curp)
		require.Equal(t, p.curp[17], digit, p.curp)

		got := CheckCURP(p.curp, p.birth, p.sex, p.state)
		require.True(t, got.OK(), "%s: %v", p.curp, got.Problems)
		require.Equal(t, p.birth, got.Birth)
		require.Equal(t, p.sex, got.Sex)
		require.Equal(t, p.state, got.State)
		require.NotContains(t, fmt.Sprintf("%+v %v", got, got.Problems), p.curp, "logging a result writes no CURP")
	}
	require.Equal(t, "BOXW310820HNERXN09", NormalizeCURP(" boxw310820 hnerxn09\n"))
}

func TestCURPCheckDigitByHand(t *testing.T) {
	t.Parallel()
	// B=11 O=25 X=34 W=33 (Ñ=24 sits between N and O), then the digits, H=17 N=23 E=14 R=28 X=34 N=23 0.
	values := []int{11, 25, 34, 33, 3, 1, 0, 8, 2, 0, 17, 23, 14, 28, 34, 23, 0}
	sum := 0
	for i, v := range values {
		sum += v * (18 - i)
	}
	want := byte('0' + (10-sum%10)%10)
	got, ok := CURPCheckDigit("BOXW310820HNERXN0")
	require.True(t, ok)
	require.Equal(t, want, got)
	require.Equal(t, byte('9'), got)

	_, ok = CURPCheckDigit("BOXW310820HNERXN")
	require.False(t, ok, "16 characters")
	_, ok = CURPCheckDigit("BOXW310820HNERXN-")
	require.False(t, ok, "a character outside the alphabet")
}

func TestCheckCURPNamesEachProblem(t *testing.T) {
	t.Parallel()
	const good = "BOXW310820HNERXN09"
	cases := []struct {
		name  string
		curp  string
		birth time.Time
		sex   string
		state string
		want  []CURPProblem
		valid bool
	}{
		{"valid, nothing to compare", good, time.Time{}, "", "", nil, true},
		{"lower case and spaces", " boxw 310820 hnerxn09 ", day(1931, 8, 20), "h", "ne", nil, true},
		{"state by name", good, day(1931, 8, 20), "H", "Nacido en el extranjero", nil, true},
		{"wrong check digit", "BOXW310820HNERXN08", time.Time{}, "", "", []CURPProblem{ProblemCheckDigit}, false},
		{"month 13", "BOXW311320HNERXN09", time.Time{}, "", "", []CURPProblem{ProblemBirthDate, ProblemCheckDigit}, false},
		{"30 February", "BOXW310230HNERXN09", time.Time{}, "", "", []CURPProblem{ProblemBirthDate, ProblemCheckDigit}, false},
		{"17 characters", "BOXW310820HNERXN0", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"19 characters", good + "1", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"second letter not a vowel", "MRAR790213HMNRLF03", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"unknown state", "BOXW310820HZZRXN09", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"vowel among the consonants", "BOXW310820HNEAXN09", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"sex letter F is not a CURP letter", "BOXW310820FNERXN09", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"empty", "", time.Time{}, "", "", []CURPProblem{ProblemFormat}, false},
		{"birth date differs", good, day(1931, 8, 21), "H", "NE", []CURPProblem{ProblemBirthDiff}, true},
		{"century differs", good, day(2031, 8, 20), "H", "NE", []CURPProblem{ProblemBirthDiff}, true},
		{"sex differs", good, day(1931, 8, 20), "M", "NE", []CURPProblem{ProblemSexDiff}, true},
		{"state differs", good, day(1931, 8, 20), "H", "JC", []CURPProblem{ProblemStateDiff}, true},
		{"unknown state given", good, day(1931, 8, 20), "H", "Atlántida", []CURPProblem{ProblemStateDiff}, true},
		{"all three differ", good, day(1990, 1, 1), "M", "Jalisco", []CURPProblem{ProblemBirthDiff, ProblemSexDiff, ProblemStateDiff}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := CheckCURP(tc.curp, tc.birth, tc.sex, tc.state)
			require.Equal(t, tc.want, got.Problems)
			require.Equal(t, tc.valid, got.Valid)
			require.Equal(t, tc.valid && len(tc.want) == 0, got.OK())
		})
	}
}

func TestCheckCURPBirthTimeZoneDoesNotMatter(t *testing.T) {
	t.Parallel()
	mexico := time.FixedZone("CST", -6*3600)
	got := CheckCURP("BOXW310820HNERXN09", time.Date(1931, 8, 20, 23, 0, 0, 0, mexico), "H", "NE")
	require.True(t, got.OK(), got.Problems)
}

func TestEveryCURPProblemHasSpanishText(t *testing.T) {
	t.Parallel()
	for _, p := range []CURPProblem{ProblemFormat, ProblemBirthDate, ProblemCheckDigit, ProblemBirthDiff, ProblemSexDiff, ProblemStateDiff} {
		require.NotEmpty(t, p.Text(), p)
	}
}

func TestExampleCURP(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                 string
		given, first, second string
		birth                time.Time
		sex, state           string
		prefix               string // the first 17 characters RENAPO's rules give
	}{
		{"María and José are skipped", "MARÍA JOSÉ", "LÓPEZ", "HERNÁNDEZ", day(1990, 5, 14), "M", "Jalisco", "LOHJ900514MJCPRS0"},
		{"plain", "Juan José", "Martínez", "Pérez", day(1989, 8, 12), "H", "Durango", "MAPJ890812HDGRRN0"},
		{"particles left out", "Juan", "de la Garza", "Treviño", day(1975, 11, 3), "H", "NL", "GATJ751103HNLRRN0"},
		{"no second surname", "Sofía", "Delgado", "", day(1988, 1, 31), "M", "DF", "DEXS880131MDFLXF0"},
		{"ñ reads as X", "Iñaki", "Muñoz", "Peña", day(1995, 7, 9), "H", "CDMX", "MUPI950709HDFXXX0"},
		{"inconvenient word", "Yolanda", "Buendía", "Espinoza", day(1970, 3, 2), "M", "PL", "BXEY700302MPLNSL0"},
		{"born in 2000s", "Ana María", "Ruiz", "Soto", day(2005, 2, 28), "M", "QT", "RUSA050228MQTZTN" + "A"},
		{"born abroad", "Pieter", "van der Berg", "López", day(1982, 12, 24), "H", "NE", "BELP821224HNERPT0"},
		{"sex X", "Alex", "Gómez", "Ríos", day(1999, 9, 9), "X", "Oaxaca", "GORA990909XOCMSL0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			curp := ExampleCURP(tc.given, tc.first, tc.second, tc.birth, tc.sex, tc.state)
			require.Len(t, curp, 18)
			require.Equal(t, tc.prefix, curp[:17])
			state, _ := StateCode(tc.state)
			got := CheckCURP(curp, tc.birth, tc.sex, state)
			require.True(t, got.OK(), "%s: %v", curp, got.Problems)
			require.True(t, CURPMatchesName(curp, fields(tc.given, tc.first, tc.second)))
		})
	}
}

func TestCURPMatchesName(t *testing.T) {
	t.Parallel()
	withDigit := func(first17 string) string {
		d, ok := CURPCheckDigit(first17)
		require.True(t, ok)
		return first17 + string(d)
	}
	// mxcurpy's README: Juan José Martínez Pérez, 12-08-1989, Durango.
	juan := withDigit("MAPJ890812HDGRRN0")
	require.True(t, CURPMatchesName(juan, fields("JUAN JOSÉ", "MARTÍNEZ", "PÉREZ")))
	require.True(t, CURPMatchesName(juan, CompareNames("Juan José Martínez", full("MARTINEZ PEREZ JUAN JOSE")).Document), "full name read in the INE order")
	require.False(t, CURPMatchesName(juan, fields("PEDRO", "GARCÍA", "RUIZ")), "another person")
	require.False(t, CURPMatchesName(juan, fields("JUAN JOSÉ", "PÉREZ", "MARTÍNEZ")), "surnames swapped")
	require.False(t, CURPMatchesName(juan[:17], fields("JUAN JOSÉ", "MARTÍNEZ", "PÉREZ")), "not a CURP")

	// An X for an inconvenient word RENAPO lists and this package does not is still the name.
	require.True(t, CURPMatchesName(withDigit("MXPJ890812HDGRRN0"), fields("JUAN JOSÉ", "MARTÍNEZ", "PÉREZ")))
	require.False(t, CURPMatchesName(withDigit("MEPJ890812HDGRRN0"), fields("JUAN JOSÉ", "MARTÍNEZ", "PÉREZ")))
}

func TestStateCodeAndSex(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"jc": "JC", "Nuevo León": "NL", "NUEVO LEON": "NL", "CDMX": "DF", "Ciudad de México": "DF", "Estado de México": "MC", "Veracruz de Ignacio de la Llave": "VZ", "San Luis Potosí": "SP"} {
		got, ok := StateCode(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	_, ok := StateCode("Texas")
	require.False(t, ok)
	require.Len(t, States, 33, "32 states and NE")

	require.Equal(t, "H", SexFromICAO("M"))
	require.Equal(t, "M", SexFromICAO("f"))
	require.Equal(t, "X", SexFromICAO("X"))
	require.Equal(t, "", SexFromICAO("<"))
}
