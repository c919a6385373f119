package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
)

// The compliance officer's review of possible hits (issue 53 item 3; tables of 0037): what each
// person of an operation was screened against, the candidates found, and the ruling on each —
// descartada or confirmada with a reason. Confirming a hit on a blocked-persons list stops the
// operation and raises the suspicious-operation aviso due 24 hours later, in one transaction.

// Hit statuses and decisions (aml_hits.status).
const (
	HitPending   = "pendiente"
	HitDismissed = "descartada"
	HitConfirmed = "confirmada"
)

var (
	// ErrHitNotFound is a hit that is not of this partner and mode.
	ErrHitNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "La posible coincidencia no existe.")
	// ErrHitResolved is a hit already ruled on: a ruling is never changed.
	ErrHitResolved = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esta posible coincidencia ya se resolvió; la resolución no se puede cambiar.")
	// ErrOperationStopped is a change to an operation a confirmed hit stopped.
	ErrOperationStopped = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"La operación está detenida por una coincidencia confirmada; ya no admite cambios.")
	// ErrFileLocked is a change to the file of a person who deleted their account (kept, locked).
	ErrFileLocked = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"El expediente está bloqueado: la persona eliminó su cuenta y la ley obliga a conservarlo sin cambios.")
)

// AMLScreening is the latest screening of a person (or their beneficiary) against one list.
type AMLScreening struct {
	ID                int64      `db:"id"`
	OperationPersonID int64      `db:"operation_person_id"`
	Subject           string     `db:"subject"` // persona, beneficiario
	ScreenedName      string     `db:"screened_name"`
	Source            string     `db:"source"` // lista, proveedor
	ListName          string     `db:"list_name"`
	Version           *int       `db:"version"`             // nil for the provider's screening
	VersionDate       *time.Time `db:"version_imported_at"` // when that version was imported
	CheckedAt         time.Time  `db:"checked_at"`
	CandidateCount    int        `db:"candidate_count"`
}

// AMLHit is a possible hit and its ruling.
type AMLHit struct {
	ID                int64          `db:"id"`
	OperationID       string         `db:"operation_id"`
	OperationPersonID int64          `db:"operation_person_id"`
	Subject           string         `db:"subject"`
	ListName          string         `db:"list_name"`
	Version           *int           `db:"version"`
	EntryID           string         `db:"entry_id"`
	MatchedName       string         `db:"matched_name"`
	Score             float64        `db:"score"`
	Reasons           pq.StringArray `db:"reasons"`
	Blocking          bool           `db:"blocking"`
	Status            string         `db:"status"`
	ResolutionReason  *string        `db:"resolution_reason"`
	ResolvedByLabel   *string        `db:"resolved_by_label"`
	ResolvedAt        *time.Time     `db:"resolved_at"`
	CreatedAt         time.Time      `db:"created_at"`
}

// AMLPersonReview is what one person of an operation was screened against and the hits found.
type AMLPersonReview struct {
	Locked     bool // the person deleted their account: the file is kept, locked
	Screenings []AMLScreening
	Hits       []AMLHit
}

// AMLReviews reads, for the people of the given operations, their latest screening per list and
// subject and all their hits, keyed by aml_operation_people.id.
func (s *Store) AMLReviews(ctx context.Context, operationIDs []string) (map[int64]*AMLPersonReview, error) {
	out := map[int64]*AMLPersonReview{}
	if len(operationIDs) == 0 {
		return out, nil
	}
	var people []struct {
		ID     int64 `db:"id"`
		Locked bool  `db:"locked"`
	}
	if err := s.q(ctx).SelectContext(ctx, &people, `SELECT id, person_deleted_at IS NOT NULL AS locked
		FROM aml_operation_people WHERE operation_id = ANY($1)`, pq.StringArray(operationIDs)); err != nil {
		return nil, fmt.Errorf("aml review people: %w", err)
	}
	for _, p := range people {
		out[p.ID] = &AMLPersonReview{Locked: p.Locked, Screenings: []AMLScreening{}, Hits: []AMLHit{}}
	}
	var screenings []AMLScreening
	const qScreenings = `SELECT * FROM (
			SELECT DISTINCT ON (sc.operation_person_id, sc.subject, sc.source, coalesce(sc.list_id, 0))
			       sc.id, sc.operation_person_id, sc.subject, sc.screened_name, sc.source,
			       coalesce(l.name, 'Evaluación del proveedor de verificación') AS list_name,
			       v.version, v.imported_at AS version_imported_at, sc.checked_at, sc.candidate_count
			FROM aml_screenings sc
			JOIN aml_operation_people p ON p.id = sc.operation_person_id
			LEFT JOIN screening_lists l ON l.id = sc.list_id
			LEFT JOIN screening_list_versions v ON v.id = sc.version_id
			WHERE p.operation_id = ANY($1)
			ORDER BY sc.operation_person_id, sc.subject, sc.source, coalesce(sc.list_id, 0), sc.checked_at DESC, sc.id DESC
		) latest ORDER BY operation_person_id, subject, list_name`
	if err := s.q(ctx).SelectContext(ctx, &screenings, qScreenings, pq.StringArray(operationIDs)); err != nil {
		return nil, fmt.Errorf("aml screenings: %w", err)
	}
	for _, sc := range screenings {
		if r := out[sc.OperationPersonID]; r != nil {
			r.Screenings = append(r.Screenings, sc)
		}
	}
	var hits []AMLHit
	if err := s.q(ctx).SelectContext(ctx, &hits, selectHits+`WHERE h.operation_id = ANY($1)
		ORDER BY h.operation_person_id, h.score DESC, h.id`, pq.StringArray(operationIDs)); err != nil {
		return nil, fmt.Errorf("aml hits: %w", err)
	}
	for _, h := range hits {
		if r := out[h.OperationPersonID]; r != nil {
			r.Hits = append(r.Hits, h)
		}
	}
	return out, nil
}

const selectHits = `SELECT h.id, h.operation_id, h.operation_person_id, h.subject, h.list_name, v.version, h.entry_id,
	h.matched_name, h.score::float8 AS score, h.reasons, h.blocking, h.status, h.resolution_reason, h.resolved_by_label,
	h.resolved_at, h.created_at
FROM aml_hits h LEFT JOIN screening_list_versions v ON v.id = h.version_id `

// PendingAMLHit is a hit waiting for the compliance officer, with where it was found.
type PendingAMLHit struct {
	AMLHit
	PropertyReference string `db:"property_reference"`
	ScreenedName      string `db:"person_screened_name"`
}

// PendingAMLHits lists a partner's hits still pending in a mode, the newest first (at most
// limit), and how many there are. Hits of a stopped operation are left out: it admits no ruling.
func (s *Store) PendingAMLHits(ctx context.Context, partnerID int64, testMode bool, limit int) ([]PendingAMLHit, int, error) {
	const where = `WHERE h.status = 'pendiente' AND o.partner_id = $1 AND o.test_mode = $2 AND o.stopped_at IS NULL`
	var total int
	if err := s.q(ctx).GetContext(ctx, &total, `SELECT count(*) FROM aml_hits h JOIN aml_operations o ON o.id = h.operation_id `+where,
		partnerID, testMode); err != nil {
		return nil, 0, fmt.Errorf("count pending aml hits: %w", err)
	}
	out := []PendingAMLHit{}
	q := `SELECT h.id, h.operation_id, h.operation_person_id, h.subject, h.list_name, v.version, h.entry_id,
			h.matched_name, h.score::float8 AS score, h.reasons, h.blocking, h.status, h.resolution_reason, h.resolved_by_label,
			h.resolved_at, h.created_at, o.property_reference, coalesce(p.screened_name, '') AS person_screened_name
		FROM aml_hits h JOIN aml_operations o ON o.id = h.operation_id
		JOIN aml_operation_people p ON p.id = h.operation_person_id
		LEFT JOIN screening_list_versions v ON v.id = h.version_id ` + where + `
		ORDER BY h.created_at DESC, h.id DESC LIMIT $3`
	if err := s.q(ctx).SelectContext(ctx, &out, q, partnerID, testMode, limit); err != nil {
		return nil, 0, fmt.Errorf("pending aml hits: %w", err)
	}
	return out, total, nil
}

// HitResolution is a compliance officer's ruling on a hit.
type HitResolution struct {
	PartnerID int64
	TestMode  bool
	HitID     int64
	Decision  string // HitDismissed or HitConfirmed
	Reason    string // at least 5 characters (checked by the caller and the table)
	ByUser    int64  // partner_users.id
	ByLabel   string // their e-mail, as the file names them
	At        time.Time
}

// ResolvedHit is what a ruling did.
type ResolvedHit struct {
	Hit              AMLHit
	OperationStopped bool       // this ruling stopped the operation
	AvisoID          *int64     // the suspicious-operation aviso it raised
	AvisoDueAt       *time.Time // when that aviso is due
}

// ResolveAMLHit records a ruling in one transaction (joining the caller's, e.g. an audited
// action): the hit must be this partner's and mode's (ErrHitNotFound), still pending
// (ErrHitResolved), its operation not stopped (ErrOperationStopped) and its person's file not
// locked (ErrFileLocked). Confirming a blocking hit also stops the operation and inserts the
// 'sospechosa' aviso due 24 hours after the ruling (aml.SuspiciousDue).
func (s *Store) ResolveAMLHit(ctx context.Context, h HitResolution) (ResolvedHit, error) {
	var out ResolvedHit
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var cur struct {
			Status   string     `db:"status"`
			Blocking bool       `db:"blocking"`
			ListName string     `db:"list_name"`
			OpID     string     `db:"operation_id"`
			Stopped  *time.Time `db:"stopped_at"`
			Locked   bool       `db:"locked"`
		}
		// The operation is locked first: two rulings on one operation never both stop it.
		const q = `SELECT h.status, h.blocking, h.list_name, h.operation_id, o.stopped_at,
				p.person_deleted_at IS NOT NULL AS locked
			FROM aml_hits h JOIN aml_operations o ON o.id = h.operation_id
			JOIN aml_operation_people p ON p.id = h.operation_person_id
			WHERE h.id = $1 AND o.partner_id = $2 AND o.test_mode = $3
			FOR UPDATE OF o, h`
		err := tx.GetContext(ctx, &cur, q, h.HitID, h.PartnerID, h.TestMode)
		if isNoRows(err) {
			return ErrHitNotFound
		}
		if err != nil {
			return fmt.Errorf("aml hit %d: %w", h.HitID, err)
		}
		switch {
		case cur.Locked:
			return ErrFileLocked
		case cur.Stopped != nil:
			return ErrOperationStopped
		case cur.Status != HitPending:
			return ErrHitResolved
		}
		if _, err := tx.ExecContext(ctx, `UPDATE aml_hits SET status = $2, resolution_reason = $3, resolved_by_user = $4,
				resolved_by_label = $5, resolved_at = $6 WHERE id = $1`,
			h.HitID, h.Decision, h.Reason, h.ByUser, h.ByLabel, h.At); err != nil {
			return fmt.Errorf("resolve aml hit %d: %w", h.HitID, err)
		}
		if h.Decision == HitConfirmed && cur.Blocking {
			reason := "Coincidencia confirmada en la lista «" + cur.ListName + "»: " + h.Reason
			if _, err := tx.ExecContext(ctx, `UPDATE aml_operations SET stopped_at = $2, stopped_reason = $3 WHERE id = $1`,
				cur.OpID, h.At, reason); err != nil {
				return fmt.Errorf("stop aml operation %s: %w", cur.OpID, err)
			}
			due := aml.SuspiciousDue(h.At)
			var id int64
			if err := tx.GetContext(ctx, &id, `INSERT INTO aml_avisos (partner_id, test_mode, kind, operation_id, hit_id, due_at)
					VALUES ($1, $2, 'sospechosa', $3, $4, $5) RETURNING id`,
				h.PartnerID, h.TestMode, cur.OpID, h.HitID, due); err != nil {
				return fmt.Errorf("suspicious aviso for hit %d: %w", h.HitID, err)
			}
			out.OperationStopped, out.AvisoID, out.AvisoDueAt = true, &id, &due
		}
		return tx.GetContext(ctx, &out.Hit, selectHits+`WHERE h.id = $1`, h.HitID)
	})
	return out, err
}
