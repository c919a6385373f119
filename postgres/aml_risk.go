package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/lib/pq"

	"github.com/perfilseguro/perfilseguro/aml"
)

// An operation's risk (issue 53 item 4): the weights table (0041) that administrators keep, and
// the facts of each operation that aml.AssessRisk weighs — hits, the people's declarations and
// nationality, the cash. The level is computed when an operation is read, never stored, so a
// corrected weight or a ruled hit changes it at once.

// AMLRiskWeight is a row of the weights table: a factor's points or a level's cut-off.
type AMLRiskWeight struct {
	Key       string    `db:"key"`
	Kind      string    `db:"kind"` // factor or corte
	Weight    int       `db:"weight"`
	Source    string    `db:"source"`
	UpdatedBy *int64    `db:"updated_by"` // nil: seeded
	UpdatedAt time.Time `db:"updated_at"`
}

const selectRiskWeight = `SELECT key, kind, weight, source, updated_by, updated_at FROM aml_risk_weights `

// AMLRiskWeights lists the weights table: the factors in aml.RiskKeys' order, then the cut-offs.
func (s *Store) AMLRiskWeights(ctx context.Context) ([]AMLRiskWeight, error) {
	rows := []AMLRiskWeight{}
	if err := s.q(ctx).SelectContext(ctx, &rows, selectRiskWeight+`ORDER BY array_position($1::text[], key)`,
		pq.StringArray(aml.RiskKeys)); err != nil {
		return nil, fmt.Errorf("aml risk weights: %w", err)
	}
	return rows, nil
}

// RiskWeights reads the table as aml.AssessRisk takes it.
func (s *Store) RiskWeights(ctx context.Context) (aml.RiskWeights, error) {
	rows, err := s.AMLRiskWeights(ctx)
	if err != nil {
		return aml.RiskWeights{}, err
	}
	w := aml.RiskWeights{Factors: map[string]int{}}
	for _, r := range rows {
		switch r.Key {
		case aml.RiskCutMedium:
			w.Medium = r.Weight
		case aml.RiskCutHigh:
			w.High = r.Weight
		default:
			w.Factors[r.Key] = r.Weight
		}
	}
	return w, nil
}

// PutAMLRiskWeight changes an existing row's weight and source (validated by the caller) as the
// administrator adminID; it returns the row before and after (ErrNotFound-like EINVALID is the
// caller's: only keys in aml.RiskKeys exist).
func (s *Store) PutAMLRiskWeight(ctx context.Context, key string, weight int, source string, adminID int64) (AMLRiskWeight, AMLRiskWeight, error) {
	q := s.q(ctx)
	var before, after AMLRiskWeight
	if err := q.GetContext(ctx, &before, selectRiskWeight+`WHERE key = $1 FOR UPDATE`, key); err != nil {
		return before, after, fmt.Errorf("read aml risk weight %s: %w", key, err)
	}
	const put = `UPDATE aml_risk_weights SET weight = $2, source = $3, updated_by = $4, updated_at = now() WHERE key = $1
		RETURNING key, kind, weight, source, updated_by, updated_at`
	if err := q.GetContext(ctx, &after, put, key, weight, source, adminID); err != nil {
		return before, after, fmt.Errorf("put aml risk weight %s: %w", key, err)
	}
	return before, after, nil
}

// AMLRiskFacts gathers, for each of ops (by id), the facts aml.AssessRisk weighs that the store
// knows: hits pending and confirmed, people with a foreign nationality (the document's, when not
// MEX), the latest declaration each person shared with the operation's business in its mode
// (PEP, acting for a third party), and the cash. AvisoRequired is the caller's (aml.Requirement).
func (s *Store) AMLRiskFacts(ctx context.Context, ops []AMLOperation) (map[string]aml.RiskFacts, error) {
	out := make(map[string]aml.RiskFacts, len(ops))
	if len(ops) == 0 {
		return out, nil
	}
	ids := make([]string, len(ops))
	for i, o := range ops {
		ids[i] = o.ID
		out[o.ID] = aml.RiskFacts{Cash: o.Cash}
	}
	var counts []struct {
		OperationID string `db:"operation_id"`
		Pending     int    `db:"pending"`
		Confirmed   int    `db:"confirmed"`
		Foreign     int    `db:"foreign_people"`
	}
	const q = `SELECT o.id AS operation_id,
			(SELECT count(*) FROM aml_hits h WHERE h.operation_id = o.id AND h.status = 'pendiente') AS pending,
			(SELECT count(*) FROM aml_hits h WHERE h.operation_id = o.id AND h.status = 'confirmada') AS confirmed,
			(SELECT count(*) FROM aml_operation_people p WHERE p.operation_id = o.id
				AND p.nationality IS NOT NULL AND upper(btrim(p.nationality)) NOT IN ('', 'MEX')) AS foreign_people
		FROM aml_operations o WHERE o.id = ANY($1)`
	if err := s.q(ctx).SelectContext(ctx, &counts, q, pq.StringArray(ids)); err != nil {
		return nil, fmt.Errorf("aml risk facts: %w", err)
	}
	for _, c := range counts {
		f := out[c.OperationID]
		f.PendingHits, f.ConfirmedHits, f.ForeignNationals = c.Pending, c.Confirmed, c.Foreign
		out[c.OperationID] = f
	}
	// Each person's latest declaration shared with the business, in the operation's mode.
	var decls []struct {
		OperationID string `db:"operation_id"`
		declarationRow
	}
	const dq = `SELECT DISTINCT ON (p.id) p.operation_id, ` + declarationColumns + `
		FROM aml_operation_people p
		JOIN aml_operations o ON o.id = p.operation_id
		JOIN aml_declarations d ON d.user_id = p.user_id AND d.test_mode = o.test_mode
		JOIN aml_declaration_shares sh ON sh.declaration_id = d.id AND sh.partner_id = o.partner_id
		WHERE p.operation_id = ANY($1)
		ORDER BY p.id, d.version DESC`
	if err := s.q(ctx).SelectContext(ctx, &decls, dq, pq.StringArray(ids)); err != nil {
		return nil, fmt.Errorf("aml risk declarations: %w", err)
	}
	for _, r := range decls {
		d, err := s.openDeclaration(r.declarationRow)
		if err != nil {
			return nil, err
		}
		f := out[r.OperationID]
		f.PEP = f.PEP || d.Answers.PEP
		f.ThirdPartyBeneficiary = f.ThirdPartyBeneficiary || d.Answers.ForBeneficiary
		out[r.OperationID] = f
	}
	return out, nil
}
