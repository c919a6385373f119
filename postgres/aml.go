package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/perfilseguro/perfilseguro/aml"
)

// The LFPIORPI tables (0035): the UMA by year and the thresholds by activity, which
// administrators maintain with their source (api/admin_aml.go). aml.Requirement measures an
// operation against AMLTables.

// UMAValue is a stored UMA value and who changed it last.
type UMAValue struct {
	aml.UMA
	UpdatedBy *int64    // the administrator; nil for a seeded row
	UpdatedAt time.Time // when the row was last written
}

// AMLThreshold is a stored thresholds row and who changed it last.
type AMLThreshold struct {
	aml.Threshold
	UpdatedBy *int64    // the administrator; nil for a seeded row
	UpdatedAt time.Time // when the row was last written
}

type umaRow struct {
	Year      int       `db:"year"`
	Daily     int64     `db:"daily_centavos"`
	ValidFrom time.Time `db:"valid_from"`
	Source    string    `db:"source"`
	UpdatedBy *int64    `db:"updated_by"`
	UpdatedAt time.Time `db:"updated_at"`
}

func (r umaRow) value() UMAValue {
	return UMAValue{UMA: aml.UMA{Year: r.Year, ValidFrom: aml.Day(r.ValidFrom), Daily: aml.Centavos(r.Daily), Source: r.Source},
		UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt}
}

type thresholdRow struct {
	Activity             string    `db:"activity"`
	ValidFrom            time.Time `db:"valid_from"`
	IdentificationUMA    int64     `db:"identification_uma"`
	IdentificationStrict bool      `db:"identification_strict"`
	AvisoUMA             int64     `db:"aviso_uma"`
	AvisoStrict          bool      `db:"aviso_strict"`
	Monthly              bool      `db:"monthly"`
	Source               string    `db:"source"`
	UpdatedBy            *int64    `db:"updated_by"`
	UpdatedAt            time.Time `db:"updated_at"`
}

func (r thresholdRow) value() AMLThreshold {
	return AMLThreshold{Threshold: aml.Threshold{Activity: aml.Activity(r.Activity), ValidFrom: aml.Day(r.ValidFrom),
		IdentificationUMA: r.IdentificationUMA, IdentificationStrict: r.IdentificationStrict,
		AvisoUMA: r.AvisoUMA, AvisoStrict: r.AvisoStrict, Monthly: r.Monthly, Source: r.Source},
		UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt}
}

const selectUMA = `SELECT year, (daily_value * 100)::bigint AS daily_centavos, valid_from, source, updated_by, updated_at
FROM uma_values `

const selectThreshold = `SELECT activity, valid_from, identification_uma, identification_strict, aviso_uma, aviso_strict,
       monthly, source, updated_by, updated_at
FROM aml_thresholds `

// UMAValues lists the UMA table, the newest year first.
func (s *Store) UMAValues(ctx context.Context) ([]UMAValue, error) {
	var rows []umaRow
	if err := s.q(ctx).SelectContext(ctx, &rows, selectUMA+`ORDER BY year DESC`); err != nil {
		return nil, fmt.Errorf("list uma values: %w", err)
	}
	out := make([]UMAValue, len(rows))
	for i, r := range rows {
		out[i] = r.value()
	}
	return out, nil
}

// AMLThresholds lists the thresholds table by activity, the newest row of each first.
func (s *Store) AMLThresholds(ctx context.Context) ([]AMLThreshold, error) {
	var rows []thresholdRow
	const q = selectThreshold + `ORDER BY array_position(ARRAY['compraventa', 'intermediacion', 'desarrollo', 'arrendamiento'], activity),
       valid_from DESC`
	if err := s.q(ctx).SelectContext(ctx, &rows, q); err != nil {
		return nil, fmt.Errorf("list aml thresholds: %w", err)
	}
	out := make([]AMLThreshold, len(rows))
	for i, r := range rows {
		out[i] = r.value()
	}
	return out, nil
}

// AMLTables reads both tables for aml.Requirement.
func (s *Store) AMLTables(ctx context.Context) (aml.Tables, error) {
	umas, err := s.UMAValues(ctx)
	if err != nil {
		return aml.Tables{}, err
	}
	ths, err := s.AMLThresholds(ctx)
	if err != nil {
		return aml.Tables{}, err
	}
	t := aml.Tables{UMA: make([]aml.UMA, len(umas)), Thresholds: make([]aml.Threshold, len(ths))}
	for i, u := range umas {
		t.UMA[i] = u.UMA
	}
	for i, th := range ths {
		t.Thresholds[i] = th.Threshold
	}
	return t, nil
}

// PutUMA writes a year's UMA (u already validated), creating or replacing it, as the
// administrator adminID; it returns the row as it was (nil when new) and as it is.
func (s *Store) PutUMA(ctx context.Context, u aml.UMA, adminID int64) (*UMAValue, UMAValue, error) {
	q := s.q(ctx)
	before, err := getOptional[umaRow](ctx, q, "read uma value", selectUMA+`WHERE year = $1 FOR UPDATE`, u.Year)
	if err != nil {
		return nil, UMAValue{}, err
	}
	const put = `INSERT INTO uma_values (year, daily_value, valid_from, source, updated_by, updated_at)
VALUES ($1, $2::numeric / 100, $3, $4, $5, now())
ON CONFLICT (year) DO UPDATE SET daily_value = EXCLUDED.daily_value, valid_from = EXCLUDED.valid_from,
    source = EXCLUDED.source, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`
	if _, err := q.ExecContext(ctx, put, u.Year, int64(u.Daily), aml.Day(u.ValidFrom), u.Source, adminID); err != nil {
		return nil, UMAValue{}, fmt.Errorf("put uma %d: %w", u.Year, err)
	}
	var after umaRow
	if err := q.GetContext(ctx, &after, selectUMA+`WHERE year = $1`, u.Year); err != nil {
		return nil, UMAValue{}, fmt.Errorf("read uma %d: %w", u.Year, err)
	}
	var prev *UMAValue
	if before != nil {
		v := before.value()
		prev = &v
	}
	return prev, after.value(), nil
}

// PutAMLThreshold writes an activity's thresholds from a date (t already validated), creating
// or replacing the row for that activity and date, as the administrator adminID; it returns the
// row as it was (nil when new) and as it is.
func (s *Store) PutAMLThreshold(ctx context.Context, t aml.Threshold, adminID int64) (*AMLThreshold, AMLThreshold, error) {
	q := s.q(ctx)
	day := aml.Day(t.ValidFrom)
	before, err := getOptional[thresholdRow](ctx, q, "read aml threshold",
		selectThreshold+`WHERE activity = $1 AND valid_from = $2 FOR UPDATE`, string(t.Activity), day)
	if err != nil {
		return nil, AMLThreshold{}, err
	}
	const put = `INSERT INTO aml_thresholds (activity, valid_from, identification_uma, identification_strict, aviso_uma,
    aviso_strict, monthly, source, updated_by, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
ON CONFLICT (activity, valid_from) DO UPDATE SET identification_uma = EXCLUDED.identification_uma,
    identification_strict = EXCLUDED.identification_strict, aviso_uma = EXCLUDED.aviso_uma,
    aviso_strict = EXCLUDED.aviso_strict, monthly = EXCLUDED.monthly, source = EXCLUDED.source,
    updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`
	if _, err := q.ExecContext(ctx, put, string(t.Activity), day, t.IdentificationUMA, t.IdentificationStrict,
		t.AvisoUMA, t.AvisoStrict, t.Monthly, t.Source, adminID); err != nil {
		return nil, AMLThreshold{}, fmt.Errorf("put aml threshold %s %s: %w", t.Activity, day.Format(time.DateOnly), err)
	}
	var after thresholdRow
	if err := q.GetContext(ctx, &after, selectThreshold+`WHERE activity = $1 AND valid_from = $2`, string(t.Activity), day); err != nil {
		return nil, AMLThreshold{}, fmt.Errorf("read aml threshold: %w", err)
	}
	var prev *AMLThreshold
	if before != nil {
		v := before.value()
		prev = &v
	}
	return prev, after.value(), nil
}
