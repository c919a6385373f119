package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// ErrDocumentBound: the document certifies another live profile ("one ID, one profile").
var ErrDocumentBound = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esta identificación ya está vinculada a otro perfil.")

// assessment is what the identity assessment of one approved check decided.
type assessment struct {
	identity.Assessment
	DuplicateOf int64 // the other profile the document certifies (VerdictDuplicate)
}

// assessDocument stores the document an approved check read on its session (sealed where it
// identifies the person), assesses it against the name the person typed on the day of the
// check, and keeps the verdict and its findings on the session. A document bound to another
// live profile of the same mode turns any verdict but a decline into VerdictDuplicate.
func (s *Store) assessDocument(ctx context.Context, tx *sqlx.Tx, verificationID, userID int64, d perfilseguro.BiometricDecision, now time.Time) (assessment, error) {
	var u struct {
		Nombre string `db:"nombre"`
		Mode   int64  `db:"mode"`
	}
	if err := tx.GetContext(ctx, &u, `SELECT nombre, coalesce(test_partner_id, 0) AS mode FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
		return assessment{}, fmt.Errorf("assess verification %d: %w", verificationID, err)
	}
	if d.Identity != nil && s.Documents.Valid() {
		if err := s.StoreDocument(ctx, tx, verificationID, *d.Identity); err != nil {
			return assessment{}, err
		}
	}
	a := assessment{Assessment: identity.Assess(u.Nombre, d.Identity, d.RegistryChecks, perfilseguro.MexicoDay(now))}
	if !a.Verdict.Declined() && d.Identity != nil {
		other, err := s.documentHolder(ctx, tx, s.documentKey(*d.Identity), u.Mode, userID)
		if err != nil {
			return a, err
		}
		if other != 0 {
			a.Verdict, a.DuplicateOf = identity.VerdictDuplicate, other
			a.Findings = append(a.Findings, identity.Finding{Code: string(identity.VerdictDuplicate), Text: perfilseguro.ErrorMessage(ErrDocumentBound)})
		}
	}
	findings, err := json.Marshal(a.Assessment)
	if err != nil {
		return a, err
	}
	var dup *int64
	if a.DuplicateOf != 0 {
		dup = &a.DuplicateOf
	}
	const q = `UPDATE verification_sessions SET identity_verdict = $2, identity_findings = $3, name_score = $4,
		duplicate_of = $5 WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, verificationID, string(a.Verdict), findings, a.NameScore, dup); err != nil {
		return a, fmt.Errorf("store the assessment of verification %d: %w", verificationID, err)
	}
	return a, nil
}

// documentKey is the "one ID, one profile" key of a document: its CURP's lookup hash, else its
// issuing country and number's; "" without a key or an identifier.
func (s *Store) documentKey(d perfilseguro.DocumentIdentity) string {
	if !s.Documents.Valid() {
		return ""
	}
	l := LookupOf(s.Documents, d)
	if l.CURPHash != "" {
		return l.CURPHash
	}
	return l.NumberHash
}

// documentHolder is the other profile of the same mode the document key certifies, 0 for none.
func (s *Store) documentHolder(ctx context.Context, q sqlx.QueryerContext, key string, mode, userID int64) (int64, error) {
	if key == "" {
		return 0, nil
	}
	var ids []int64
	const find = `SELECT id FROM users WHERE document_key = $1 AND coalesce(test_partner_id, 0) = $2 AND id <> $3 LIMIT 1`
	if err := sqlx.SelectContext(ctx, q, &ids, find, key, mode, userID); err != nil {
		return 0, fmt.Errorf("document holder: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	return ids[0], nil
}

// Certification is what certifying a profile with a document did.
type Certification struct {
	ApprovedNow bool // level 3 granted (it was not granted before)
	RenewedNow  bool // a level-3 validation renewed by a check started after it began
	BoundNow    bool // a validation from before documents were read took this document, not renewed
}

// Granted reports whether the profile is now certified by this check's document.
func (c Certification) Granted() bool { return c.ApprovedNow || c.RenewedNow || c.BoundNow }

// Certify grants level 3 to the user of verification session verificationID under the
// document's name (proper case: identity.Assessment.DocumentName), binding the document to the
// profile (its key and expiry) — the one way a profile becomes "ID Validado". checkStarted is
// when the check began: a validated profile is renewed only by a check started after its
// validation. A revoked person is granted nothing. ErrDocumentBound when the document already
// certifies another profile of the same mode (the unique index settles a race).
func (s *Store) Certify(ctx context.Context, tx *sqlx.Tx, verificationID int64, name string, doc perfilseguro.DocumentIdentity, overall *float64) (Certification, error) {
	var v struct {
		UserID    int64     `db:"user_id"`
		SessionID *string   `db:"session_id"`
		CreatedAt time.Time `db:"created_at"`
	}
	if err := tx.GetContext(ctx, &v, `SELECT user_id, session_id, created_at FROM verification_sessions WHERE id = $1`, verificationID); err != nil {
		return Certification{}, fmt.Errorf("certify verification %d: %w", verificationID, err)
	}
	var expires *string
	if !doc.ExpiryDate.IsZero() {
		e := doc.ExpiryDate.Format(time.DateOnly)
		expires = &e
	}
	key := s.documentKey(doc)
	var keyArg *string
	if key != "" {
		keyArg = &key
	}
	var c Certification
	err := savepoint(ctx, tx, "certify", func() error {
		const grant = `UPDATE users SET biometric_verified = true, verification_level = 3,
			fecha_validacion = COALESCE(fecha_validacion, now()), didit_session_id = $2,
			verification_score = COALESCE($3, verification_score), revalidation_required_at = NULL,
			nombre = $4, name_source = 'document', identity_verification_id = $5, document_key = $6,
			document_expires_on = $7, updated_at = now()
			WHERE id = $1 AND NOT (biometric_verified AND verification_level = 3) AND revoked_at IS NULL`
		r, err := tx.ExecContext(ctx, grant, v.UserID, v.SessionID, overall, name, verificationID, keyArg, expires)
		if err != nil {
			return err
		}
		n, _ := r.RowsAffected()
		if c.ApprovedNow = n == 1; c.ApprovedNow {
			return nil
		}
		// Renewal: a check started after the current validation began renews it (a new
		// validation date, no longer expired) under this document.
		const renew = `WITH renewed AS (
			UPDATE users SET fecha_validacion = now(), expired_at = NULL, didit_session_id = $2,
				verification_score = COALESCE($3, verification_score), nombre = $5, name_source = 'document',
				identity_verification_id = $6, document_key = $7, document_expires_on = $8, updated_at = now()
			WHERE id = $1 AND biometric_verified AND verification_level = 3 AND revoked_at IS NULL
			  AND fecha_validacion < $4 RETURNING id)
		INSERT INTO profile_events (user_id, kind, actor) SELECT id, 'renewed', 'system' FROM renewed`
		r, err = tx.ExecContext(ctx, renew, v.UserID, v.SessionID, overall, v.CreatedAt, name, verificationID, keyArg, expires)
		if err != nil {
			return err
		}
		n, _ = r.RowsAffected()
		if c.RenewedNow = n == 1; c.RenewedNow {
			return nil
		}
		// A validation from before documents were read (no certifying check yet) takes the
		// document's name and binding from a check no newer than it, without being renewed: its
		// date, validity and payment stay as they were (a backfilled mismatch adopted, a review).
		const bind = `UPDATE users SET nombre = $2, name_source = 'document', identity_verification_id = $3,
			document_key = $4, document_expires_on = $5, updated_at = now()
			WHERE id = $1 AND biometric_verified AND verification_level = 3 AND revoked_at IS NULL
			  AND identity_verification_id IS NULL`
		r, err = tx.ExecContext(ctx, bind, v.UserID, name, verificationID, keyArg, expires)
		if err != nil {
			return err
		}
		n, _ = r.RowsAffected()
		c.BoundNow = n == 1
		return nil
	})
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" && pqErr.Constraint == "users_document_key" {
		return Certification{}, ErrDocumentBound
	}
	if err != nil {
		return Certification{}, fmt.Errorf("certify verification %d: %w", verificationID, err)
	}
	if c.ApprovedNow || c.RenewedNow {
		return c, s.consumeForGrant(ctx, tx, v.UserID)
	}
	return c, nil
}

// savepoint runs fn inside a savepoint of tx, rolled back to when fn fails, so that the
// transaction stays usable after an expected error (a unique violation).
func savepoint(ctx context.Context, tx *sqlx.Tx, name string, fn func() error) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+name); err != nil {
		return err
	}
	if err := fn(); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+name); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT "+name)
	return err
}

// DocumentBoundAttempt is a check refused because its document certifies another profile.
type DocumentBoundAttempt struct {
	OwnerID   int64     `db:"duplicate_of"` // the profile the document certifies
	CheckedAt time.Time `db:"checked_at"`
}

// DocumentBoundAttemptOf reads the refused check verificationID; nil when it is not (or no
// longer) a refusal with a known owner (the owner's account was deleted, or the row is gone).
func (s *Store) DocumentBoundAttemptOf(ctx context.Context, verificationID int64) (*DocumentBoundAttempt, error) {
	const q = `SELECT duplicate_of, COALESCE(completed_at, updated_at) AS checked_at FROM verification_sessions
		WHERE id = $1 AND identity_verdict = 'duplicate' AND duplicate_of IS NOT NULL`
	return getOptional[DocumentBoundAttempt](ctx, s.DB, fmt.Sprintf("document-bound attempt %d", verificationID), q, verificationID)
}
