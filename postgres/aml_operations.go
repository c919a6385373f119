package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
)

// LFPIORPI operations (sql/migrations/0036_aml_operations.sql, issue 53 item 1): what a
// real-estate business records — kind, amount, date, property, its role — and the people in it,
// each linked to a verification session they completed with that business. What an operation
// requires is computed when it is read (aml.Requirement against AMLTables), never stored.

// AMLRetentionYears is how long an operation's file is kept from its date (LFPIORPI as reformed,
// DOF 16/07/2025; it was 5). The migration's CHECK says the same.
const AMLRetentionYears = 10

var (
	// ErrOperationNotFound is an operation that does not exist for this partner and mode.
	ErrOperationNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "La operación no existe.")
	// ErrOperationPerson is a person whose session is not a completed one of this business (and mode).
	ErrOperationPerson = perfilseguro.Errorf(perfilseguro.EUNPROCESSABLE,
		"La persona debe haber completado una verificación con tu plataforma.")
)

// NewAMLOperation is an operation about to be recorded (validated by the caller).
type NewAMLOperation struct {
	ID                string       // op_ + 24 hex, made by the caller
	PartnerID         int64        // api_keys.id
	TestMode          bool         // recorded with a test key or in the console's test mode
	Kind              aml.Activity // the activity
	Amount            aml.Centavos // the amount, monthly for rent
	Cash              aml.Centavos // how much of Amount was paid in cash (0: none)
	OperationDate     time.Time    // the calendar day of the operation
	PropertyReference string       // the business's own reference for the property (1-200)
	BusinessRole      string       // what the business is in it: vendedor, comprador, intermediario…
	People            []NewAMLOperationPerson
	CreatedByUser     *int64 // the console's partner user, or nil
	CreatedByKey      *int64 // the secret key (partner_keys.id), or nil
	CreatedByLabel    string // who recorded it, as the file names them (an e-mail, a key's hint)
}

// NewAMLOperationPerson is one person in a new operation.
type NewAMLOperationPerson struct {
	Role      string // comprador, vendedor, arrendador, arrendatario, otro
	SessionID string // a partner session (vs_…) the person completed with the business
}

// AMLOperation is a stored operation with its people.
type AMLOperation struct {
	ID                string
	PartnerID         int64
	TestMode          bool
	Kind              aml.Activity
	Amount            aml.Centavos
	Cash              aml.Centavos // paid in cash
	Monthly           bool         // the amount is a monthly rent
	OperationDate     time.Time
	PropertyReference string
	BusinessRole      string
	CreatedByLabel    string
	CreatedAt         time.Time
	RetentionUntil    time.Time // the file is kept until this day
	// StoppedAt: a confirmed hit on a blocked-persons list stopped the operation (nil: not
	// stopped); StoppedReason says which.
	StoppedAt     *time.Time
	StoppedReason string
	People        []AMLOperationPerson
}

// AMLOperationPerson is one person in an operation, with what the business may know of them.
type AMLOperationPerson struct {
	ID        int64 // aml_operation_people.id
	Role      string
	SessionID string // "" once the session was purged
	UserID    *int64 // nil once the account is gone
	// ProfileID and Name are what the person shared in the session ("" when not asked or withdrawn).
	ProfileID string
	Name      string
	// IdentityVerified: the profile's name comes from an identity document that certifies it.
	IdentityVerified bool
}

type amlOperationRow struct {
	ID                string     `db:"id"`
	PartnerID         int64      `db:"partner_id"`
	TestMode          bool       `db:"test_mode"`
	Kind              string     `db:"kind"`
	Amount            int64      `db:"amount_centavos"`
	Cash              int64      `db:"cash_centavos"`
	Monthly           bool       `db:"monthly"`
	OperationDate     time.Time  `db:"operation_date"`
	PropertyReference string     `db:"property_reference"`
	BusinessRole      string     `db:"business_role"`
	CreatedByLabel    string     `db:"created_by_label"`
	CreatedAt         time.Time  `db:"created_at"`
	RetentionUntil    time.Time  `db:"retention_until"`
	StoppedAt         *time.Time `db:"stopped_at"`
	StoppedReason     *string    `db:"stopped_reason"`
}

func (r amlOperationRow) operation() AMLOperation {
	return AMLOperation{ID: r.ID, PartnerID: r.PartnerID, TestMode: r.TestMode, Kind: aml.Activity(r.Kind),
		Amount: aml.Centavos(r.Amount), Cash: aml.Centavos(r.Cash), Monthly: r.Monthly, OperationDate: aml.Day(r.OperationDate),
		PropertyReference: r.PropertyReference, BusinessRole: r.BusinessRole, CreatedByLabel: r.CreatedByLabel,
		CreatedAt: r.CreatedAt, RetentionUntil: aml.Day(r.RetentionUntil), StoppedAt: r.StoppedAt,
		StoppedReason: deref(r.StoppedReason), People: []AMLOperationPerson{}}
}

type amlPersonRow struct {
	ID               int64   `db:"id"`
	OperationID      string  `db:"operation_id"`
	Role             string  `db:"role"`
	SessionID        *string `db:"partner_session_id"`
	UserID           *int64  `db:"user_id"`
	ProfileID        *string `db:"profile_id"`
	Name             *string `db:"name"`
	IdentityVerified bool    `db:"identity_verified"`
}

const amlOperationColumns = `id, partner_id, test_mode, kind, amount_centavos, cash_centavos, monthly, operation_date, property_reference,
	business_role, created_by_label, created_at, retention_until, stopped_at, stopped_reason`

// InsertAMLOperation records an operation and its people in one transaction. Each person's session
// must be a completed one of the same partner and mode (ErrOperationPerson otherwise), each
// listed once (the caller refuses repeats); the person's account is copied from it.
func (s *Store) InsertAMLOperation(ctx context.Context, n NewAMLOperation) (AMLOperation, error) {
	var row amlOperationRow
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO aml_operations (id, partner_id, test_mode, kind, amount_centavos, monthly, operation_date,
			property_reference, business_role, created_by_user, created_by_key, created_by_label, retention_until, cash_centavos)
			VALUES ($1, $2, $3, $4, $5, $4 = 'arrendamiento', $6, $7, $8, $9, $10, $11, ($6::date + interval '10 years')::date, $12)
			RETURNING ` + amlOperationColumns
		if err := tx.GetContext(ctx, &row, q, n.ID, n.PartnerID, n.TestMode, string(n.Kind), int64(n.Amount),
			aml.Day(n.OperationDate), n.PropertyReference, n.BusinessRole, n.CreatedByUser, n.CreatedByKey, n.CreatedByLabel,
			int64(n.Cash)); err != nil {
			return fmt.Errorf("insert aml operation: %w", err)
		}
		for _, p := range n.People {
			// The session must be this business's, in this mode, and completed.
			const person = `INSERT INTO aml_operation_people (operation_id, role, partner_session_id, user_id)
				SELECT $1, $2, id, user_id FROM partner_sessions
				WHERE id = $3 AND partner_id = $4 AND livemode = $5 AND status = 'completed' AND user_id IS NOT NULL
				RETURNING id, user_id`
			var added struct {
				ID     int64 `db:"id"`
				UserID int64 `db:"user_id"`
			}
			err := tx.GetContext(ctx, &added, person, n.ID, p.Role, p.SessionID, n.PartnerID, !n.TestMode)
			if isNoRows(err) {
				return ErrOperationPerson
			}
			if err != nil {
				return fmt.Errorf("insert aml operation person: %w", err)
			}
			// The file keeps what the document says now: the account may be gone tomorrow.
			if err := s.snapshotAMLPerson(ctx, tx, added.ID, added.UserID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return AMLOperation{}, err
	}
	return s.AMLOperation(ctx, n.PartnerID, n.TestMode, row.ID)
}

// AMLOperation reads one of a partner's operations in a mode, with its people
// (ErrOperationNotFound otherwise).
func (s *Store) AMLOperation(ctx context.Context, partnerID int64, testMode bool, id string) (AMLOperation, error) {
	var row amlOperationRow
	err := s.q(ctx).GetContext(ctx, &row, `SELECT `+amlOperationColumns+` FROM aml_operations
		WHERE id = $1 AND partner_id = $2 AND test_mode = $3`, id, partnerID, testMode)
	if errors.Is(err, sql.ErrNoRows) {
		return AMLOperation{}, ErrOperationNotFound
	}
	if err != nil {
		return AMLOperation{}, fmt.Errorf("aml operation %s: %w", id, err)
	}
	ops := []AMLOperation{row.operation()}
	if err := s.withPeople(ctx, ops); err != nil {
		return AMLOperation{}, err
	}
	return ops[0], nil
}

// AMLOperations lists a partner's operations in a mode, newest first, limit at a time; after is the
// last id of the previous page ("" for the first).
func (s *Store) AMLOperations(ctx context.Context, partnerID int64, testMode bool, after string, limit int) ([]AMLOperation, error) {
	var rows []amlOperationRow
	err := s.q(ctx).SelectContext(ctx, &rows, `SELECT `+amlOperationColumns+` FROM aml_operations
		WHERE partner_id = $1 AND test_mode = $2
		  AND ($3 = '' OR (created_at, id) < (SELECT created_at, id FROM aml_operations WHERE id = $3 AND partner_id = $1))
		ORDER BY created_at DESC, id DESC LIMIT $4`, partnerID, testMode, after, limit)
	if err != nil {
		return nil, fmt.Errorf("aml operations: %w", err)
	}
	ops := make([]AMLOperation, len(rows))
	for i, r := range rows {
		ops[i] = r.operation()
	}
	return ops, s.withPeople(ctx, ops)
}

// withPeople fills the people of ops in one query, in the order they were recorded.
func (s *Store) withPeople(ctx context.Context, ops []AMLOperation) error {
	if len(ops) == 0 {
		return nil
	}
	ids := make([]string, len(ops))
	at := map[string]int{}
	for i, o := range ops {
		ids[i], at[o.ID] = o.ID, i
	}
	var rows []amlPersonRow
	const q = `SELECT p.id, p.operation_id, p.role, p.partner_session_id, p.user_id,
			ps.shared ->> 'profileId' AS profile_id, ps.shared ->> 'name' AS name,
			COALESCE(u.name_source = 'document' AND u.identity_verification_id IS NOT NULL, false) AS identity_verified
		FROM aml_operation_people p
		LEFT JOIN partner_sessions ps ON ps.id = p.partner_session_id
		LEFT JOIN users u ON u.id = p.user_id
		WHERE p.operation_id = ANY($1)
		ORDER BY p.id`
	if err := s.q(ctx).SelectContext(ctx, &rows, q, pq.StringArray(ids)); err != nil {
		return fmt.Errorf("aml operation people: %w", err)
	}
	for _, r := range rows {
		p := AMLOperationPerson{ID: r.ID, Role: r.Role, UserID: r.UserID, IdentityVerified: r.IdentityVerified}
		if r.SessionID != nil {
			p.SessionID = *r.SessionID
		}
		if r.ProfileID != nil {
			p.ProfileID = *r.ProfileID
		}
		if r.Name != nil {
			p.Name = *r.Name
		}
		i := at[r.OperationID]
		ops[i].People = append(ops[i].People, p)
	}
	return nil
}

// OperationCandidate is a completed session of a business that a person in an operation may be
// linked to (the console's chooser).
type OperationCandidate struct {
	SessionID        string    `db:"id"`
	Reference        string    `db:"reference"`
	Name             *string   `db:"name"`       // as shared; nil when not asked or withdrawn
	ProfileID        *string   `db:"profile_id"` // as shared
	IdentityVerified bool      `db:"identity_verified"`
	EndedAt          time.Time `db:"ended_at"`
}

// OperationCandidates lists a partner's completed sessions in a mode whose person still has an
// account, the newest first, at most limit.
func (s *Store) OperationCandidates(ctx context.Context, partnerID int64, live bool, limit int) ([]OperationCandidate, error) {
	out := []OperationCandidate{}
	const q = `SELECT ps.id, ps.reference, ps.shared ->> 'name' AS name, ps.shared ->> 'profileId' AS profile_id,
			(u.name_source = 'document' AND u.identity_verification_id IS NOT NULL) AS identity_verified,
			COALESCE(ps.ended_at, ps.created_at) AS ended_at
		FROM partner_sessions ps JOIN users u ON u.id = ps.user_id
		WHERE ps.partner_id = $1 AND ps.livemode = $2 AND ps.status = 'completed'
		ORDER BY ps.ended_at DESC NULLS LAST, ps.id DESC LIMIT $3`
	if err := s.q(ctx).SelectContext(ctx, &out, q, partnerID, live, limit); err != nil {
		return nil, fmt.Errorf("operation candidates: %w", err)
	}
	return out, nil
}
