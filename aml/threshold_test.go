package aml_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// tables are the values the migration seeds (0035_aml_tables.sql).
func tables() aml.Tables {
	reform := date(2025, time.July, 17)
	return aml.Tables{
		UMA: []aml.UMA{
			{Year: 2024, ValidFrom: aml.UMAValidFrom(2024), Daily: 10857},
			{Year: 2025, ValidFrom: aml.UMAValidFrom(2025), Daily: 11314},
			{Year: 2026, ValidFrom: aml.UMAValidFrom(2026), Daily: 11731},
		},
		Thresholds: []aml.Threshold{
			{Activity: aml.Compraventa, AvisoUMA: 8025, ValidFrom: reform},
			{Activity: aml.Intermediacion, AvisoUMA: 8025, ValidFrom: reform},
			{Activity: aml.Desarrollo, AvisoUMA: 8025, ValidFrom: reform},
			{Activity: aml.Arrendamiento, IdentificationUMA: 1605, IdentificationStrict: true, AvisoUMA: 3210, Monthly: true, ValidFrom: reform},
		},
	}
}

// At, just below and just above each threshold, in two UMA years, for every activity.
func TestRequirementAtEachThresholdInTwoUMAYears(t *testing.T) {
	t.Parallel()
	type want struct{ identify, aviso bool }
	for _, year := range []struct {
		day   time.Time
		year  int
		daily aml.Centavos
	}{
		{date(2025, time.August, 20), 2025, 11314},
		{date(2026, time.March, 3), 2026, 11731},
	} {
		for _, activity := range []aml.Activity{aml.Compraventa, aml.Intermediacion, aml.Desarrollo} {
			aviso := year.daily * 8025 // 2025: 907,948.50 pesos; 2026: 941,412.75
			for _, c := range []struct {
				amount aml.Centavos
				want   want
			}{
				{1, want{true, false}}, // identification always
				{aviso - 1, want{true, false}},
				{aviso, want{true, true}}, // "igual o superior"
				{aviso + 1, want{true, true}},
			} {
				t.Run(fmt.Sprintf("%s %d %s", activity, year.year, c.amount), func(t *testing.T) {
					r, err := aml.Requirement(activity, c.amount, year.day, tables())
					require.NoError(t, err)
					require.Equal(t, c.want, want{r.Identify, r.Aviso})
					require.Equal(t, year.year, r.UMAYear)
					require.Equal(t, aml.Centavos(0), r.IdentificationPesos)
					require.Equal(t, aviso, r.AvisoPesos)
				})
			}
		}
		identification, aviso := year.daily*1605, year.daily*3210
		for _, c := range []struct {
			monthly aml.Centavos
			want    want
		}{
			{identification - 1, want{false, false}},
			{identification, want{false, false}}, // rent: "superior a" 1,605 UMA
			{identification + 1, want{true, false}},
			{aviso - 1, want{true, false}},
			{aviso, want{true, true}}, // "igual o superior" 3,210 UMA
			{aviso + 1, want{true, true}},
		} {
			t.Run(fmt.Sprintf("arrendamiento %d %s", year.year, c.monthly), func(t *testing.T) {
				r, err := aml.Requirement(aml.Arrendamiento, c.monthly, year.day, tables())
				require.NoError(t, err)
				require.Equal(t, c.want, want{r.Identify, r.Aviso})
				require.Equal(t, year.year, r.UMAYear)
				require.Equal(t, identification, r.IdentificationPesos)
				require.True(t, r.Threshold.Monthly)
			})
		}
	}
}

func TestThePesoThresholdsAreExactInCentavos(t *testing.T) {
	t.Parallel()
	r, err := aml.Requirement(aml.Arrendamiento, 100, date(2025, time.September, 1), tables())
	require.NoError(t, err)
	require.Equal(t, "181589.70", r.IdentificationPesos.String()) // 1,605 × 113.14
	require.Equal(t, "363179.40", r.AvisoPesos.String())          // 3,210 × 113.14
	r, err = aml.Requirement(aml.Compraventa, 100, date(2026, time.June, 1), tables())
	require.NoError(t, err)
	require.Equal(t, "941412.75", r.AvisoPesos.String()) // 8,025 × 117.31
	require.Equal(t, "-0.05", aml.Centavos(-5).String())
}

// INEGI's UMA is in force from 1 February: January is measured in the previous year's UMA.
func TestJanuaryUsesThePreviousYearsUMA(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		day  time.Time
		year int
	}{
		{date(2026, time.January, 31), 2025},
		{date(2026, time.February, 1), 2026},
		{date(2026, time.January, 1), 2025},
		{time.Date(2026, time.February, 1, 23, 30, 0, 0, perfilseguro.MexicoCity()), 2026}, // the calendar day as given
	} {
		r, err := aml.Requirement(aml.Compraventa, 100, c.day, tables())
		require.NoError(t, err)
		require.Equal(t, c.year, r.UMAYear, c.day)
	}
}

func TestTheThresholdsInForceOnTheDayApply(t *testing.T) {
	t.Parallel()
	tb := tables()
	// An older row for rent (before the reform, made up for the test) and a later one.
	tb.Thresholds = append(tb.Thresholds,
		aml.Threshold{Activity: aml.Arrendamiento, IdentificationUMA: 100, AvisoUMA: 200, Monthly: true, ValidFrom: date(2013, time.September, 1)},
		aml.Threshold{Activity: aml.Arrendamiento, IdentificationUMA: 2000, AvisoUMA: 4000, Monthly: true, ValidFrom: date(2027, time.January, 1)})
	amount := aml.Centavos(11314 * 1700) // 1,700 UMA of 2025
	r, err := aml.Requirement(aml.Arrendamiento, amount, date(2025, time.July, 16), tb)
	require.NoError(t, err)
	require.Equal(t, int64(100), r.Threshold.IdentificationUMA)
	require.True(t, r.Aviso)
	r, err = aml.Requirement(aml.Arrendamiento, amount, date(2025, time.July, 17), tb)
	require.NoError(t, err)
	require.Equal(t, int64(1605), r.Threshold.IdentificationUMA)
	require.True(t, r.Identify)
	require.False(t, r.Aviso)
	r, err = aml.Requirement(aml.Arrendamiento, amount, date(2027, time.March, 1), tb)
	require.NoError(t, err)
	require.Equal(t, int64(2000), r.Threshold.IdentificationUMA)
}

func TestRequirementRefusesWhatItCannotMeasure(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		activity aml.Activity
		amount   aml.Centavos
		day      time.Time
		want     error
	}{
		{"permuta", 100, date(2025, time.August, 1), aml.ErrActivity},
		{aml.Compraventa, 0, date(2025, time.August, 1), aml.ErrAmount},
		{aml.Compraventa, -100, date(2025, time.August, 1), aml.ErrAmount},
		{aml.Compraventa, 100, date(2024, time.January, 31), aml.ErrNoUMA}, // before the first UMA in the table
		{aml.Compraventa, 100, date(2025, time.July, 16), aml.ErrNoThreshold},
	} {
		_, err := aml.Requirement(c.activity, c.amount, c.day, tables())
		require.True(t, errors.Is(err, c.want), "%v: %v", c, err)
	}
}

func TestUMAAndThresholdValidationSpeakSpanish(t *testing.T) {
	t.Parallel()
	u := aml.UMA{Year: 2027, Daily: 12000, Source: "  INEGI, comunicado de prensa  "}
	require.NoError(t, u.Validate())
	require.Equal(t, "INEGI, comunicado de prensa", u.Source)
	require.Equal(t, aml.UMAValidFrom(2027), u.ValidFrom)

	for _, c := range []struct {
		u     aml.UMA
		field string
		msg   string
	}{
		{aml.UMA{Year: 2027, Daily: 0, Source: "INEGI"}, "dailyValue", "El valor diario de la UMA debe ser mayor que cero"},
		{aml.UMA{Year: 2027, Daily: -1, Source: "INEGI"}, "dailyValue", "El valor diario de la UMA debe ser mayor que cero"},
		{aml.UMA{Year: 2027, Daily: 100, Source: "   "}, "source", "Indica la fuente del valor (comunicado del INEGI o publicación en el DOF)"},
		{aml.UMA{Year: 1999, Daily: 100, Source: "INEGI"}, "year", "El año debe estar entre 2016 y 2100"},
	} {
		err := c.u.Validate()
		require.Equal(t, perfilseguro.EINVALID, perfilseguro.ErrorCode(err))
		require.Equal(t, c.msg, perfilseguro.ErrorMessage(err))
		var e *perfilseguro.Error
		require.ErrorAs(t, err, &e)
		require.Contains(t, e.Fields, c.field)
	}

	ok := aml.Threshold{Activity: aml.Compraventa, AvisoUMA: 8025, ValidFrom: date(2025, time.July, 17), Source: "LFPIORPI art. 17 fr. V"}
	require.NoError(t, ok.Validate())
	for _, c := range []struct {
		edit  func(*aml.Threshold)
		field string
	}{
		{func(t *aml.Threshold) { t.Activity = "permuta" }, "activity"},
		{func(t *aml.Threshold) { t.IdentificationUMA = -1 }, "identificationUma"},
		{func(t *aml.Threshold) { t.AvisoUMA = 0 }, "avisoUma"},
		{func(t *aml.Threshold) { t.AvisoUMA = -5 }, "avisoUma"},
		{func(t *aml.Threshold) { t.IdentificationUMA = 9000 }, "identificationUma"},
		{func(t *aml.Threshold) { t.ValidFrom = time.Time{} }, "validFrom"},
		{func(t *aml.Threshold) { t.Source = "" }, "source"},
	} {
		th := ok
		c.edit(&th)
		var e *perfilseguro.Error
		require.ErrorAs(t, th.Validate(), &e, c.field)
		require.Contains(t, e.Fields, c.field)
		require.Equal(t, perfilseguro.EINVALID, e.Code)
	}
}

func TestParseCentavosReadsPesosWithoutFloatingPoint(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]aml.Centavos{"113.14": 11314, "113.1": 11310, "117": 11700, " 0.07 ": 7, "-3.50": -350,
		"907948.50": 90794850} {
		got, err := aml.ParseCentavos(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "abc", "1,000.00", "113.145", ".5", "1e3", "12.", "9999999999999999"} {
		_, err := aml.ParseCentavos(bad)
		require.Error(t, err, bad)
	}
}
