package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// AMLIdentity is what a business's LFPIORPI file keeps of a person, copied when the person is
// added to an operation (sql/migrations/0037_aml_files.sql): the file must outlive the account
// for 10 years, so it cannot point at the profile. Stored sealed (identity_sealed) because it
// holds the CURP and the document's number.
type AMLIdentity struct {
	Name       string                         `json:"name"`       // the name screened and printed in the file
	NameSource string                         `json:"nameSource"` // document: read from the ID; typed: what the person typed
	ProfileID  string                         `json:"profileId"`  // PS-nnnn-nnnn-nn at the time
	Document   *perfilseguro.DocumentIdentity `json:"document,omitempty"`
	// How the document was checked, from the certifying verification (zero when none).
	Provider       string          `json:"provider,omitempty"`
	VerifiedAt     *time.Time      `json:"verifiedAt,omitempty"`
	FaceMatchScore *float64        `json:"faceMatchScore,omitempty"`
	LivenessScore  *float64        `json:"livenessScore,omitempty"`
	DocumentScore  *float64        `json:"documentScore,omitempty"`
	Verdict        string          `json:"verdict,omitempty"`  // identity.Assess's verdict
	Findings       json.RawMessage `json:"findings,omitempty"` // identity.Assess's findings
	// Decision is the provider's decision as it came (it may carry aml_screenings[]).
	Decision json.RawMessage `json:"decision,omitempty"`
}

// BirthDate is the document's birth date (zero when the name is typed).
func (a AMLIdentity) BirthDate() time.Time {
	if a.Document == nil {
		return time.Time{}
	}
	return a.Document.DateOfBirth
}

type amlIdentityRow struct {
	Name           string     `db:"nombre"`
	ProfileID      string     `db:"id_validado"`
	NameSource     string     `db:"name_source"`
	VerificationID *int64     `db:"identity_verification_id"`
	Provider       *string    `db:"provider"`
	CompletedAt    *time.Time `db:"completed_at"`
	FaceMatch      *float64   `db:"face_match_score"`
	Liveness       *float64   `db:"liveness_score"`
	DocumentScore  *float64   `db:"document_score"`
	Verdict        *string    `db:"identity_verdict"`
	Findings       []byte     `db:"identity_findings"`
	Decision       []byte     `db:"webhook_data"`
}

// AMLIdentityOf reads what a file keeps of a person now: the certifying document when the
// profile's name comes from one, else the typed name alone.
func (s *Store) AMLIdentityOf(ctx context.Context, q querier, userID int64) (AMLIdentity, error) {
	var r amlIdentityRow
	const query = `SELECT u.nombre, u.id_validado, u.name_source, u.identity_verification_id,
			v.provider, v.completed_at, v.face_match_score::float8 AS face_match_score,
			v.liveness_score::float8 AS liveness_score, v.document_score::float8 AS document_score,
			v.identity_verdict, v.identity_findings, v.webhook_data
		FROM users u LEFT JOIN verification_sessions v ON v.id = u.identity_verification_id AND u.name_source = 'document'
		WHERE u.id = $1`
	if err := q.GetContext(ctx, &r, query, userID); err != nil {
		return AMLIdentity{}, fmt.Errorf("aml identity of user %d: %w", userID, err)
	}
	a := AMLIdentity{Name: r.Name, NameSource: r.NameSource, ProfileID: r.ProfileID}
	if r.NameSource != "document" || r.VerificationID == nil {
		a.NameSource = "typed"
		return a, nil
	}
	doc, err := s.DocumentOf(ctx, *r.VerificationID)
	if err != nil {
		return AMLIdentity{}, err
	}
	a.Document = doc // the profile's name is already the document's (Store.Certify)
	a.Provider, a.VerifiedAt = deref(r.Provider), r.CompletedAt
	a.FaceMatchScore, a.LivenessScore, a.DocumentScore = r.FaceMatch, r.Liveness, r.DocumentScore
	a.Verdict, a.Findings, a.Decision = deref(r.Verdict), r.Findings, r.Decision
	return a, nil
}

// snapshotAMLPerson copies a person's identity into their row of an operation's file.
func (s *Store) snapshotAMLPerson(ctx context.Context, q querier, personRowID, userID int64) error {
	a, err := s.AMLIdentityOf(ctx, q, userID)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("aml identity of user %d: %w", userID, err)
	}
	if !s.Documents.Valid() {
		return fmt.Errorf("aml identity of user %d: %w", userID, ErrNoDocumentKey)
	}
	var birth *time.Time
	var nationality *string
	if a.Document != nil {
		if !a.Document.DateOfBirth.IsZero() {
			b := a.Document.DateOfBirth
			birth = &b
		}
		if a.Document.Nationality != "" {
			nationality = &a.Document.Nationality
		}
	}
	_, err = q.ExecContext(ctx, `UPDATE aml_operation_people SET screened_name = $2, name_source = $3, birth_date = $4,
		nationality = $5, identity_sealed = $6 WHERE id = $1`,
		personRowID, a.Name, a.NameSource, birth, nationality, s.Documents.Sealer.Seal(string(raw)))
	if err != nil {
		return fmt.Errorf("aml identity of user %d: %w", userID, err)
	}
	return nil
}

// AMLPersonIdentity opens the identity a file kept of one of its people (nil when none was kept).
func (s *Store) AMLPersonIdentity(ctx context.Context, personRowID int64) (*AMLIdentity, error) {
	var sealed *string
	if err := s.q(ctx).GetContext(ctx, &sealed, `SELECT identity_sealed FROM aml_operation_people WHERE id = $1`, personRowID); err != nil {
		return nil, fmt.Errorf("aml person %d identity: %w", personRowID, err)
	}
	if sealed == nil {
		return nil, nil
	}
	if !s.Documents.Valid() {
		return nil, fmt.Errorf("aml person %d identity: %w", personRowID, ErrNoDocumentKey)
	}
	raw, err := s.Documents.Sealer.Open(*sealed)
	if err != nil {
		return nil, fmt.Errorf("aml person %d identity: %w", personRowID, err)
	}
	var a AMLIdentity
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		return nil, fmt.Errorf("aml person %d identity: %w", personRowID, err)
	}
	return &a, nil
}
