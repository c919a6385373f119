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

// What Mi Perfil tells a person about the document their last approved check read, and the one
// way out of a mismatch that is the person's own: taking the document's name (issue 52, item 2).

// Errors of AdoptDocumentName.
var (
	// ErrNothingToAdopt: the person's latest approved check is not an unsettled mismatch.
	ErrNothingToAdopt = perfilseguro.Errorf(perfilseguro.ECONFLICT, "No hay un nombre de identificación pendiente de confirmar.")
	// ErrAdoptRevoked: a revoked validation is granted nothing until an administrador lifts it.
	ErrAdoptRevoked = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Tu validación fue revocada: no podemos certificar tu identificación hasta que soporte revise tu caso.")
)

// IdentityOutcome is what the latest approved check with a verdict certified, as its owner may
// read it: never the CURP, the document number or the address.
type IdentityOutcome struct {
	VerificationID int64
	Verdict        identity.Verdict
	DocumentName   string             // proper case; "" when the document gave none
	Findings       []identity.Finding // Spanish texts
	CheckedAt      time.Time          // when the decision was applied
	Resolution     string             // "" while unsettled; 'adopted', 'approved' or 'declined'
}

// identityOutcomeRow is how the latest assessed check is read.
type identityOutcomeRow struct {
	ID         int64     `db:"id"`
	Verdict    string    `db:"identity_verdict"`
	Findings   []byte    `db:"identity_findings"`
	CheckedAt  time.Time `db:"checked_at"`
	Resolution *string   `db:"identity_resolution"`
	Overall    *float64  `db:"overall_score"`
}

func (r identityOutcomeRow) outcome() (IdentityOutcome, identity.Assessment, error) {
	o := IdentityOutcome{VerificationID: r.ID, Verdict: identity.Verdict(r.Verdict), CheckedAt: r.CheckedAt,
		Resolution: deref(r.Resolution), Findings: []identity.Finding{}}
	var a identity.Assessment
	if len(r.Findings) > 0 {
		if err := json.Unmarshal(r.Findings, &a); err != nil {
			return o, a, fmt.Errorf("identity findings of verification %d: %w", r.ID, err)
		}
	}
	o.DocumentName = a.DocumentName
	if a.Findings != nil {
		o.Findings = a.Findings
	}
	return o, a, nil
}

// latestAssessedCheck is the user's most recent approved check that was assessed (0033).
const latestAssessedCheck = `SELECT id, identity_verdict, identity_findings,
		COALESCE(completed_at, updated_at) AS checked_at, identity_resolution, overall_score
	FROM verification_sessions
	WHERE user_id = $1 AND verification_status = 'Approved' AND identity_verdict IS NOT NULL
	ORDER BY COALESCE(completed_at, updated_at) DESC, id DESC LIMIT 1`

// IdentityOutcomeOf is what the user's most recent approved, assessed check certified (nil when
// none was assessed: a person not yet checked, or validated before issue 52), and whether the
// profile's name is the one its document gave.
func (s *Store) IdentityOutcomeOf(ctx context.Context, userID int64) (*IdentityOutcome, bool, error) {
	var fromDocument bool
	const src = `SELECT name_source = 'document' FROM users WHERE id = $1`
	if err := getOne(ctx, s.q(ctx), &fromDocument, ErrUserNotFound, "name source", src, userID); err != nil {
		return nil, false, err
	}
	r, err := getOptional[identityOutcomeRow](ctx, s.q(ctx), fmt.Sprintf("identity outcome of user %d", userID), latestAssessedCheck, userID)
	if err != nil || r == nil {
		return nil, fromDocument, err
	}
	o, _, err := r.outcome()
	if err != nil {
		return nil, fromDocument, err
	}
	return &o, fromDocument, nil
}

// Adoption is what AdoptDocumentName did.
type Adoption struct {
	VerificationID int64
	TypedName      string // the name the profile had
	DocumentName   string // the name it has now
	Certification
}

// AdoptDocumentName settles the user's mismatch by giving the profile its document's name, in
// tx: the user's latest approved, assessed check must be an unsettled mismatch (locked, so two
// requests settle it once); Certify grants level 3 under the document's name and binds the
// document; the check is marked adopted by the user at now. ErrNothingToAdopt when there is no
// such mismatch, ErrDocumentBound when the document now certifies another profile,
// ErrAdoptRevoked when the validation is revoked. A renamed profile is not annulled: the name
// comes from the very document the check certified.
func (s *Store) AdoptDocumentName(ctx context.Context, tx *sqlx.Tx, userID int64, now time.Time) (Adoption, error) {
	var u struct {
		Nombre  string `db:"nombre"`
		Revoked bool   `db:"revoked"`
	}
	const lockUser = `SELECT nombre, revoked_at IS NOT NULL AS revoked FROM users WHERE id = $1 FOR UPDATE`
	if err := getOne(ctx, tx, &u, ErrUserNotFound, "adopt: user", lockUser, userID); err != nil {
		return Adoption{}, err
	}
	r, err := getOptional[identityOutcomeRow](ctx, tx, fmt.Sprintf("adopt: check of user %d", userID), latestAssessedCheck+" FOR UPDATE", userID)
	if err != nil {
		return Adoption{}, err
	}
	if r == nil || r.Verdict != string(identity.VerdictMismatch) || r.Resolution != nil {
		return Adoption{}, ErrNothingToAdopt
	}
	_, a, err := r.outcome()
	if err != nil {
		return Adoption{}, err
	}
	if u.Revoked {
		return Adoption{}, ErrAdoptRevoked
	}
	doc, err := s.DocumentOf(ctx, r.ID)
	if err != nil {
		return Adoption{}, err
	}
	if doc == nil || a.DocumentName == "" {
		return Adoption{}, ErrNothingToAdopt // nothing was read that could be certified
	}
	c, err := s.Certify(ctx, tx, r.ID, a.DocumentName, *doc, r.Overall)
	if err != nil {
		return Adoption{}, err
	}
	if !c.Granted() {
		return Adoption{}, ErrNothingToAdopt // a newer validation already stands
	}
	const settle = `UPDATE verification_sessions SET identity_resolution = 'adopted', identity_resolved_at = $2,
		identity_resolved_by = $3, updated_at = now() WHERE id = $1 AND identity_resolution IS NULL`
	ok, err := changedOne(ctx, tx, "adopt: settle the check", settle, r.ID, now, userID)
	if err != nil {
		return Adoption{}, err
	}
	if !ok {
		return Adoption{}, ErrNothingToAdopt // settled meanwhile (the lock makes this a safeguard)
	}
	return Adoption{VerificationID: r.ID, TypedName: u.Nombre, DocumentName: a.DocumentName, Certification: c}, nil
}
