package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// The administrators' identity review (issue 52, item 2 "near"): an approved biometric check
// whose document the assessment could not settle (identity.VerdictNear, VerdictNoDocument) waits
// here until an administrator approves it (level 3 under the document's name, Certify) or
// declines it (nothing granted). Either way the check keeps who decided, when and why.

// Errors of resolving a review.
var (
	ErrReviewNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos esa revisión de identidad.")
	ErrReviewResolved = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esta revisión ya fue resuelta.")
	// ErrReviewNoDocument: a check without a readable document cannot certify a name.
	ErrReviewNoDocument = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Esta verificación no trae los datos del documento: no se puede aprobar. Recházala y pide una nueva verificación.")
	// ErrReviewNotGranted: the profile could not take the validation (revoked, or validated since by a newer check).
	ErrReviewNotGranted = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"El perfil no puede recibir esta validación: está revocado o ya fue validado con una verificación más reciente.")
)

// Review resolutions as stored in verification_sessions.identity_resolution.
const (
	ReviewApproved = "approved"
	ReviewDeclined = "declined"
)

// BiometricScores are a check's scores as the provider gave them (nil: not given).
type BiometricScores struct {
	FaceMatch *float64 `db:"face_match_score"`
	Liveness  *float64 `db:"liveness_score"`
	Document  *float64 `db:"document_score"`
	Overall   *float64 `db:"overall_score"`
}

// IdentityCheck is an approved check's identity assessment with the document it read (opened:
// the caller masks the CURP and the number before showing them).
type IdentityCheck struct {
	VerificationID int64                          `db:"id"`
	UserID         int64                          `db:"user_id"`
	ProfileID      string                         `db:"id_validado"`
	TypedName      string                         `db:"nombre"` // the name on the profile (typed, or the document's once certified)
	Verdict        string                         `db:"identity_verdict"`
	NameScore      *float64                       `db:"name_score"`
	CheckedAt      time.Time                      `db:"checked_at"`
	Resolution     *string                        `db:"identity_resolution"`
	ResolvedAt     *time.Time                     `db:"identity_resolved_at"`
	ResolutionWhy  *string                        `db:"identity_resolution_reason"`
	DuplicateOf    *int64                         `db:"duplicate_of"`
	FindingsJSON   []byte                         `db:"identity_findings"`
	Assessment     identity.Assessment            `db:"-"`
	Document       *perfilseguro.DocumentIdentity `db:"-"`
	BiometricScores
}

const selectIdentityCheck = `SELECT v.id, v.user_id, u.id_validado, u.nombre, v.identity_verdict, v.name_score::float8 AS name_score,
	COALESCE(v.completed_at, v.updated_at) AS checked_at, v.identity_resolution, v.identity_resolved_at,
	v.identity_resolution_reason, v.duplicate_of, v.identity_findings,
	v.face_match_score::float8 AS face_match_score, v.liveness_score::float8 AS liveness_score,
	v.document_score::float8 AS document_score, v.overall_score::float8 AS overall_score
	FROM verification_sessions v JOIN users u ON u.id = v.user_id `

// complete decodes the stored assessment and opens the stored document.
func (s *Store) complete(ctx context.Context, c *IdentityCheck) error {
	if len(c.FindingsJSON) > 0 {
		if err := json.Unmarshal(c.FindingsJSON, &c.Assessment); err != nil {
			return fmt.Errorf("findings of verification %d: %w", c.VerificationID, err)
		}
	}
	doc, err := s.DocumentOf(ctx, c.VerificationID)
	if err != nil {
		return err
	}
	c.Document = doc
	return nil
}

// maxIdentityReviews bounds one page of the queue.
const maxIdentityReviews = 200

// IdentityReviews lists the checks waiting for an administrator's review, oldest first.
func (s *Store) IdentityReviews(ctx context.Context) ([]IdentityCheck, error) {
	q := selectIdentityCheck + `WHERE v.identity_verdict IN ('near', 'no_document') AND v.identity_resolution IS NULL
		ORDER BY v.completed_at NULLS LAST, v.id LIMIT $1`
	var out []IdentityCheck
	if err := s.DB.SelectContext(ctx, &out, q, maxIdentityReviews); err != nil {
		return nil, fmt.Errorf("identity reviews: %w", err)
	}
	for i := range out {
		if err := s.complete(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// IdentityReviewDecision is an administrator's decision on a review.
type IdentityReviewDecision struct {
	VerificationID int64
	AdminID        int64 // the deciding administrator
	Approve        bool
	Reason         string // required to decline; optional to approve
	// Then runs inside the transaction once the decision is recorded (the person's e-mail, the
	// pass builds): its error rolls everything back.
	Then func(tx *sqlx.Tx, check IdentityCheck) error
}

// ResolveIdentityReview records an administrator's decision in one transaction (the caller's
// audited action, when ctx carries one): the check is locked and must still wait for a review
// (ErrReviewResolved otherwise); approving certifies the profile with the document's name
// (Certify: ErrDocumentBound when the document now certifies another profile), declining grants
// nothing. The deciding administrator is kept as identity_resolved_by_admin (and in the audit
// row written with the decision).
func (s *Store) ResolveIdentityReview(ctx context.Context, d IdentityReviewDecision) (IdentityCheck, Certification, error) {
	var check IdentityCheck
	var cert Certification
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var lock struct {
			Verdict    *string `db:"identity_verdict"`
			Resolution *string `db:"identity_resolution"`
		}
		err := getOne(ctx, tx, &lock, ErrReviewNotFound, fmt.Sprintf("lock review %d", d.VerificationID),
			`SELECT identity_verdict, identity_resolution FROM verification_sessions WHERE id = $1 FOR UPDATE`, d.VerificationID)
		if err != nil {
			return err
		}
		if lock.Verdict == nil || !identity.Verdict(*lock.Verdict).InReview() {
			return ErrReviewNotFound
		}
		if lock.Resolution != nil {
			return ErrReviewResolved
		}
		if err := tx.GetContext(ctx, &check, selectIdentityCheck+`WHERE v.id = $1`, d.VerificationID); err != nil {
			return fmt.Errorf("review %d: %w", d.VerificationID, err)
		}
		if err := s.complete(ctx, &check); err != nil {
			return err
		}
		resolution := ReviewDeclined
		if d.Approve {
			resolution = ReviewApproved
			name := check.Assessment.DocumentName
			if check.Document == nil || name == "" {
				return ErrReviewNoDocument
			}
			if cert, err = s.Certify(ctx, tx, d.VerificationID, name, *check.Document, check.Overall); err != nil {
				return err
			}
			if !cert.Granted() {
				return ErrReviewNotGranted
			}
		}
		const resolve = `UPDATE verification_sessions SET identity_resolution = $2, identity_resolved_at = now(),
			identity_resolution_reason = $3, identity_resolved_by_admin = NULLIF($4, 0), updated_at = now() WHERE id = $1`
		if _, err := tx.ExecContext(ctx, resolve, d.VerificationID, resolution, nullable(d.Reason), d.AdminID); err != nil {
			return fmt.Errorf("resolve review %d: %w", d.VerificationID, err)
		}
		check.Resolution = &resolution
		if d.Then != nil {
			return d.Then(tx, check)
		}
		return nil
	})
	if err != nil {
		return IdentityCheck{}, Certification{}, err
	}
	return check, cert, nil
}

// IdentityReviewOutcome is a resolved review as the person's e-mail tells it.
type IdentityReviewOutcome struct {
	VerificationID int64   `db:"id"`
	UserID         int64   `db:"user_id"`
	Resolution     string  `db:"identity_resolution"`
	Reason         *string `db:"identity_resolution_reason"`
}

// IdentityReviewOutcomeOf reads the resolved review verificationID; nil when it is not resolved
// by an administrator (not committed yet, or the account is gone).
func (s *Store) IdentityReviewOutcomeOf(ctx context.Context, verificationID int64) (*IdentityReviewOutcome, error) {
	const q = `SELECT id, user_id, identity_resolution, identity_resolution_reason FROM verification_sessions
		WHERE id = $1 AND identity_resolution IN ('approved', 'declined')`
	return getOptional[IdentityReviewOutcome](ctx, s.DB, fmt.Sprintf("identity review %d", verificationID), q, verificationID)
}

// LinkedProfile is another profile tied to this one by a document ("one ID, one profile").
type LinkedProfile struct {
	UserID         int64     `db:"user_id"`
	ProfileID      string    `db:"id_validado"`
	Nombre         string    `db:"nombre"`
	VerificationID int64     `db:"verification_id"`
	At             time.Time `db:"at"`
	// Holder: the other profile holds the document this profile presented; false: the other
	// profile presented the document this profile holds.
	Holder bool `db:"holder"`
}

// UserIdentity is what the admin user view shows of a profile's identity document.
type UserIdentity struct {
	// Check is the check whose document certifies the profile, else its latest assessed check; nil when none.
	Check  *IdentityCheck
	Linked []LinkedProfile
}

// UserIdentityOf reads the certifying (else latest assessed) check of userID with its document,
// and the profiles linked to it by a refused duplicate, from either side.
func (s *Store) UserIdentityOf(ctx context.Context, userID int64) (UserIdentity, error) {
	var out UserIdentity
	var exists bool
	if err := s.DB.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)`, userID); err != nil {
		return out, fmt.Errorf("identity of user %d: %w", userID, err)
	}
	if !exists {
		return out, ErrUserNotFound
	}
	q := selectIdentityCheck + `WHERE v.user_id = $1 AND v.identity_verdict IS NOT NULL
		ORDER BY (v.id = u.identity_verification_id) DESC, v.completed_at DESC NULLS LAST, v.id DESC LIMIT 1`
	var c IdentityCheck
	err := s.DB.GetContext(ctx, &c, q, userID)
	switch {
	case isNoRows(err):
	case err != nil:
		return out, fmt.Errorf("identity of user %d: %w", userID, err)
	default:
		if err := s.complete(ctx, &c); err != nil {
			return out, err
		}
		out.Check = &c
	}
	const linked = `SELECT o.id AS user_id, o.id_validado, o.nombre, v.id AS verification_id,
			COALESCE(v.completed_at, v.updated_at) AS at, true AS holder
		FROM verification_sessions v JOIN users o ON o.id = v.duplicate_of
		WHERE v.user_id = $1 AND v.duplicate_of IS NOT NULL
		UNION ALL
		SELECT o.id, o.id_validado, o.nombre, v.id, COALESCE(v.completed_at, v.updated_at), false
		FROM verification_sessions v JOIN users o ON o.id = v.user_id
		WHERE v.duplicate_of = $1
		ORDER BY at DESC`
	if err := s.DB.SelectContext(ctx, &out.Linked, linked, userID); err != nil {
		return out, fmt.Errorf("linked profiles of user %d: %w", userID, err)
	}
	return out, nil
}

// ErrNameFromDocument refuses an administrator's edit of a name read from the identity document.
var ErrNameFromDocument = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"El nombre de este perfil viene de su identificación oficial; no se puede editar.")
