package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/expediente"
)

// Avisos (issue 53 item 4; table aml_avisos in 0037). SyncAMLAvisos writes what a business owes
// in a mode: an 'umbral' aviso per operation whose amount reaches the aviso threshold (due the
// 17th of the next month) and a 'sin_operaciones' report for each complete month, from the month
// of its first operation in that mode, in which no operation required an aviso (the SAT's
// "informe en ceros"). 'sospechosa' avisos are written when a blocking hit is confirmed (item 3)
// and only listed here. Test operations give test avisos only.

var (
	// ErrAvisoNotFound is an aviso that does not exist for this partner and mode.
	ErrAvisoNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "El aviso no existe.")
	// ErrAvisoFiled is an aviso already marked as filed.
	ErrAvisoFiled = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Este aviso ya está marcado como presentado; no se puede presentar dos veces.")
)

// AMLAviso is a stored aviso with the operation it reports (zero for sin_operaciones).
type AMLAviso struct {
	ID              int64      `db:"id"`
	PartnerID       int64      `db:"partner_id"`
	TestMode        bool       `db:"test_mode"`
	Kind            string     `db:"kind"` // umbral, sospechosa, sin_operaciones
	OperationID     *string    `db:"operation_id"`
	HitID           *int64     `db:"hit_id"`
	Period          *time.Time `db:"period"` // the month reported (its first day)
	DueAt           time.Time  `db:"due_at"`
	FiledAt         *time.Time `db:"filed_at"`
	Acknowledgement *string    `db:"acknowledgement"` // the SAT's folio
	FiledByLabel    *string    `db:"filed_by_label"`
	CreatedAt       time.Time  `db:"created_at"`
	// The operation, for umbral and sospechosa.
	OperationKind     *string    `db:"operation_kind"`
	OperationAmount   *int64     `db:"operation_amount"`
	OperationDate     *time.Time `db:"operation_date"`
	PropertyReference *string    `db:"property_reference"`
	// The hit, for sospechosa.
	HitListName    *string `db:"hit_list_name"`
	HitMatchedName *string `db:"hit_matched_name"`
}

const selectAviso = `SELECT a.id, a.partner_id, a.test_mode, a.kind, a.operation_id, a.hit_id, a.period, a.due_at, a.filed_at,
	a.acknowledgement, a.filed_by_label, a.created_at,
	o.kind AS operation_kind, o.amount_centavos AS operation_amount, o.operation_date, o.property_reference,
	h.list_name AS hit_list_name, h.matched_name AS hit_matched_name
FROM aml_avisos a
LEFT JOIN aml_operations o ON o.id = a.operation_id
LEFT JOIN aml_hits h ON h.id = a.hit_id `

// SyncAMLAvisos writes the umbral and sin_operaciones avisos a partner owes in a mode as of now,
// measured against tables; it is idempotent. An unfiled aviso that a corrected table no longer
// requires is removed (a filed one stays: it was presented). It returns how many were added.
func (s *Store) SyncAMLAvisos(ctx context.Context, partnerID int64, testMode bool, tables aml.Tables, now time.Time) (int, error) {
	var ops []struct {
		ID     string    `db:"id"`
		Kind   string    `db:"kind"`
		Amount int64     `db:"amount_centavos"`
		Date   time.Time `db:"operation_date"`
	}
	added := 0
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &ops, `SELECT id, kind, amount_centavos, operation_date FROM aml_operations
			WHERE partner_id = $1 AND test_mode = $2 ORDER BY operation_date`, partnerID, testMode); err != nil {
			return fmt.Errorf("aviso operations: %w", err)
		}
		if len(ops) == 0 {
			return nil
		}
		avisoMonths := map[time.Time]bool{}
		var notRequired []string
		for _, op := range ops {
			day := aml.Day(op.Date)
			res, err := aml.Requirement(aml.Activity(op.Kind), aml.Centavos(op.Amount), day, tables)
			if err != nil || !res.Aviso {
				notRequired = append(notRequired, op.ID)
				continue
			}
			avisoMonths[aml.Period(day)] = true
			r, err := tx.ExecContext(ctx, `INSERT INTO aml_avisos (partner_id, test_mode, kind, operation_id, period, due_at)
				VALUES ($1, $2, 'umbral', $3, $4, $5) ON CONFLICT (operation_id) WHERE kind = 'umbral' DO NOTHING`,
				partnerID, testMode, op.ID, aml.Period(day), aml.AvisoDue(day))
			if err != nil {
				return fmt.Errorf("insert umbral aviso: %w", err)
			}
			n, _ := r.RowsAffected()
			added += int(n)
		}
		if len(notRequired) > 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM aml_avisos WHERE kind = 'umbral' AND filed_at IS NULL
				AND operation_id = ANY($1)`, pq.StringArray(notRequired)); err != nil {
				return fmt.Errorf("remove umbral avisos: %w", err)
			}
		}
		for _, month := range aml.CompleteMonths(aml.Day(ops[0].Date), now) {
			if avisoMonths[month] {
				if _, err := tx.ExecContext(ctx, `DELETE FROM aml_avisos WHERE kind = 'sin_operaciones' AND filed_at IS NULL
					AND partner_id = $1 AND test_mode = $2 AND period = $3`, partnerID, testMode, month); err != nil {
					return fmt.Errorf("remove sin_operaciones aviso: %w", err)
				}
				continue
			}
			r, err := tx.ExecContext(ctx, `INSERT INTO aml_avisos (partner_id, test_mode, kind, period, due_at)
				VALUES ($1, $2, 'sin_operaciones', $3, $4)
				ON CONFLICT (partner_id, test_mode, period) WHERE kind = 'sin_operaciones' DO NOTHING`,
				partnerID, testMode, month, aml.AvisoDue(month))
			if err != nil {
				return fmt.Errorf("insert sin_operaciones aviso: %w", err)
			}
			n, _ := r.RowsAffected()
			added += int(n)
		}
		return nil
	})
	return added, err
}

// AMLAvisoPartners lists the partners and modes that have operations: the daily job syncs each.
func (s *Store) AMLAvisoPartners(ctx context.Context) ([]struct {
	PartnerID int64 `db:"partner_id"`
	TestMode  bool  `db:"test_mode"`
}, error) {
	var out []struct {
		PartnerID int64 `db:"partner_id"`
		TestMode  bool  `db:"test_mode"`
	}
	if err := s.q(ctx).SelectContext(ctx, &out, `SELECT DISTINCT partner_id, test_mode FROM aml_operations ORDER BY 1, 2`); err != nil {
		return nil, fmt.Errorf("aviso partners: %w", err)
	}
	return out, nil
}

// AMLAvisos lists a partner's avisos in a mode: those not filed first, by deadline, then the
// filed ones, the latest deadline first; at most limit.
func (s *Store) AMLAvisos(ctx context.Context, partnerID int64, testMode bool, limit int) ([]AMLAviso, error) {
	out := []AMLAviso{}
	err := s.q(ctx).SelectContext(ctx, &out, selectAviso+`WHERE a.partner_id = $1 AND a.test_mode = $2
		ORDER BY a.filed_at IS NOT NULL, CASE WHEN a.filed_at IS NULL THEN a.due_at END, a.due_at DESC, a.id LIMIT $3`,
		partnerID, testMode, limit)
	if err != nil {
		return nil, fmt.Errorf("aml avisos: %w", err)
	}
	return out, nil
}

// AMLAviso reads one of a partner's avisos in a mode (ErrAvisoNotFound otherwise).
func (s *Store) AMLAviso(ctx context.Context, partnerID int64, testMode bool, id int64) (AMLAviso, error) {
	var a AMLAviso
	err := s.q(ctx).GetContext(ctx, &a, selectAviso+`WHERE a.id = $1 AND a.partner_id = $2 AND a.test_mode = $3`, id, partnerID, testMode)
	if isNoRows(err) {
		return AMLAviso{}, ErrAvisoNotFound
	}
	if err != nil {
		return AMLAviso{}, fmt.Errorf("aml aviso %d: %w", id, err)
	}
	return a, nil
}

// FileAMLAviso marks an aviso as filed with the SAT's acknowledgement number (folio) by label:
// ErrAvisoFiled when it already is, ErrAvisoNotFound when it is not this partner's in this mode.
func (s *Store) FileAMLAviso(ctx context.Context, partnerID int64, testMode bool, id int64, folio, label string, now time.Time) (AMLAviso, error) {
	a, err := s.AMLAviso(ctx, partnerID, testMode, id)
	if err != nil {
		return AMLAviso{}, err
	}
	r, err := s.q(ctx).ExecContext(ctx, `UPDATE aml_avisos SET filed_at = $2, acknowledgement = $3, filed_by_label = $4
		WHERE id = $1 AND filed_at IS NULL`, id, now, folio, label)
	if err != nil {
		return AMLAviso{}, fmt.Errorf("file aml aviso %d: %w", id, err)
	}
	if n, _ := r.RowsAffected(); n == 0 || a.FiledAt != nil {
		return AMLAviso{}, ErrAvisoFiled
	}
	return s.AMLAviso(ctx, partnerID, testMode, id)
}

// AvisoPerson is one person of an aviso's operation: their role, what the file kept of their
// identity (nil when none was kept) and their latest declaration shared with the business.
type AvisoPerson struct {
	Role        string
	Identity    *AMLIdentity
	Declaration *expediente.Answers
}

// AMLAvisoPeople reads the people of an operation for its aviso's export, in the order recorded.
func (s *Store) AMLAvisoPeople(ctx context.Context, op AMLOperation) ([]AvisoPerson, error) {
	out := make([]AvisoPerson, 0, len(op.People))
	for _, p := range op.People {
		id, err := s.AMLPersonIdentity(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		ap := AvisoPerson{Role: p.Role, Identity: id}
		row, err := getOptional[declarationRow](ctx, s.q(ctx), "aviso declaration", `SELECT `+declarationColumns+`
			FROM aml_declarations d JOIN aml_declaration_shares sh ON sh.declaration_id = d.id
			WHERE d.user_id = $1 AND d.test_mode = $2 AND sh.partner_id = $3
			ORDER BY d.version DESC LIMIT 1`, p.UserID, op.TestMode, op.PartnerID)
		if err != nil {
			return nil, err
		}
		if row != nil {
			d, err := s.openDeclaration(*row)
			if err != nil {
				return nil, err
			}
			ap.Declaration = &d.Answers
		}
		out = append(out, ap)
	}
	return out, nil
}
