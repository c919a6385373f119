package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
)

// The migration seeds the UMA INEGI published and the LFPIORPI thresholds, each with its
// source, and the seeded tables measure an operation as the law reads.
func TestTheSeededAMLTablesMeasureASaleAndARent(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	umas, err := store.UMAValues(ctx)
	require.NoError(t, err)
	byYear := map[int]aml.Centavos{}
	for _, u := range umas {
		byYear[u.Year] = u.Daily
		require.NotEmpty(t, u.Source)
		require.Nil(t, u.UpdatedBy)
		require.Equal(t, aml.UMAValidFrom(u.Year), u.ValidFrom)
	}
	require.Equal(t, map[int]aml.Centavos{2023: 10374, 2024: 10857, 2025: 11314, 2026: 11731}, byYear)
	require.Equal(t, 2026, umas[0].Year, "newest first")

	ths, err := store.AMLThresholds(ctx)
	require.NoError(t, err)
	require.Len(t, ths, 4)
	require.Equal(t, aml.Compraventa, ths[0].Activity)
	for _, th := range ths {
		require.Contains(t, th.Source, "LFPIORPI art. 17")
		require.Contains(t, th.Source, "16/07/2025")
	}

	tables, err := store.AMLTables(ctx)
	require.NoError(t, err)
	day := time.Date(2025, time.September, 10, 0, 0, 0, 0, time.UTC)
	r, err := aml.Requirement(aml.Compraventa, 11314*8025, day, tables)
	require.NoError(t, err)
	require.True(t, r.Identify)
	require.True(t, r.Aviso)
	r, err = aml.Requirement(aml.Arrendamiento, 11314*1605, day, tables)
	require.NoError(t, err)
	require.False(t, r.Identify, "rent identifies above 1,605 UMA, not at it")
	require.True(t, r.Threshold.Monthly)
}

func TestPutUMAAndThresholdReplaceAndRecordTheAdministrator(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	a, err := store.EnsureAdmin(ctx, "umbrales@example.com", "Umbrales", perfilseguro.RoleAdministrator)
	require.NoError(t, err)

	before, after, err := store.PutUMA(ctx, aml.UMA{Year: 2027, Daily: 12099, ValidFrom: aml.UMAValidFrom(2027), Source: "INEGI 2027"}, a.ID)
	require.NoError(t, err)
	require.Nil(t, before)
	require.Equal(t, aml.Centavos(12099), after.Daily)
	require.Equal(t, &a.ID, after.UpdatedBy)

	before, after, err = store.PutUMA(ctx, aml.UMA{Year: 2025, Daily: 11315, ValidFrom: aml.UMAValidFrom(2025), Source: "corrección"}, a.ID)
	require.NoError(t, err)
	require.NotNil(t, before)
	require.Equal(t, aml.Centavos(11314), before.Daily)
	require.Equal(t, aml.Centavos(11315), after.Daily)
	require.Equal(t, "corrección", after.Source)

	reform := time.Date(2025, time.July, 17, 0, 0, 0, 0, time.UTC)
	prev, th, err := store.PutAMLThreshold(ctx, aml.Threshold{Activity: aml.Desarrollo, ValidFrom: reform,
		IdentificationUMA: 8025, AvisoUMA: 8025, Source: "DOF 16/07/2025 fr. V Bis"}, a.ID)
	require.NoError(t, err)
	require.NotNil(t, prev)
	require.Equal(t, int64(0), prev.IdentificationUMA)
	require.Equal(t, int64(8025), th.IdentificationUMA)
	ths, err := store.AMLThresholds(ctx)
	require.NoError(t, err)
	require.Len(t, ths, 4, "replaced, not added")

	prev, _, err = store.PutAMLThreshold(ctx, aml.Threshold{Activity: aml.Desarrollo, ValidFrom: reform.AddDate(1, 0, 0),
		AvisoUMA: 9000, Source: "otra reforma"}, a.ID)
	require.NoError(t, err)
	require.Nil(t, prev)
	tables, err := store.AMLTables(ctx)
	require.NoError(t, err)
	r, err := aml.Requirement(aml.Desarrollo, 100, reform.AddDate(1, 1, 0), tables)
	require.NoError(t, err)
	require.Equal(t, int64(9000), r.Threshold.AvisoUMA)

	// The database refuses what validation would (a second line of defence).
	_, _, err = store.PutUMA(ctx, aml.UMA{Year: 2028, Daily: 0, ValidFrom: aml.UMAValidFrom(2028), Source: "x"}, a.ID)
	require.Error(t, err)
}
