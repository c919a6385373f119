package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/docdata"
	"github.com/perfilseguro/perfilseguro/secure"
)

// ErrNoDocumentKey: the Store was made without the document-data key, so it may not store
// document identifiers (they are never written in clear).
var ErrNoDocumentKey = errors.New("no document-data key: DOCUMENT_DATA_KEY")

// documentRow is the storage shape of a document's data on its verification session.
type documentRow struct {
	Type           *string    `db:"doc_type"`
	IssuingCountry *string    `db:"doc_issuing_country"`
	IssuingState   *string    `db:"doc_issuing_state"`
	GivenNames     *string    `db:"doc_given_names"`
	FirstSurname   *string    `db:"doc_first_surname"`
	SecondSurname  *string    `db:"doc_second_surname"`
	FullName       *string    `db:"doc_full_name"`
	BirthDate      *time.Time `db:"doc_birth_date"`
	Sex            *string    `db:"doc_sex"`
	Nationality    *string    `db:"doc_nationality"`
	IssueDate      *time.Time `db:"doc_issue_date"`
	ExpiryDate     *time.Time `db:"doc_expiry_date"`
	NumberSealed   *string    `db:"doc_number_sealed"`
	CURPSealed     *string    `db:"doc_curp_sealed"`
	AddressSealed  *string    `db:"doc_address_sealed"`
	ReadAt         *time.Time `db:"document_read_at"`
}

// DocumentLookup is what a document is found by without opening anything: the keyed hashes of
// its CURP and of its issuing country and number ("" when the document gave none).
type DocumentLookup struct {
	CURPHash   string
	NumberHash string
}

// LookupOf is the lookup of a document under key: the CURP hashed as it is (normalised), the
// number together with its issuing country (two countries may issue the same number).
func LookupOf(key secure.DocumentKey, d perfilseguro.DocumentIdentity) DocumentLookup {
	var l DocumentLookup
	if d.PersonalNumber != "" {
		l.CURPHash = key.Hash(secure.LookupCURP, d.PersonalNumber)
	}
	if d.DocumentNumber != "" {
		l.NumberHash = key.Hash(secure.LookupDocumentNumber, d.IssuingCountry+":"+d.DocumentNumber)
	}
	return l
}

// StoreDocument keeps what the identity document said on the verification session that read it:
// the document number, the CURP and the address sealed with s.Documents, the CURP and the
// number's lookup hashes beside them, the other fields in clear. Storing again replaces the
// previous reading. It returns ErrNoDocumentKey without the key and an error naming the session
// (never the document) when the session does not exist.
func (s *Store) StoreDocument(ctx context.Context, q sqlx.ExecerContext, verificationID int64, d perfilseguro.DocumentIdentity) error {
	if !s.Documents.Valid() {
		return fmt.Errorf("store document of verification %d: %w", verificationID, ErrNoDocumentKey)
	}
	seal := func(v string) *string {
		if v == "" {
			return nil
		}
		sealed := s.Documents.Sealer.Seal(v)
		return &sealed
	}
	l := LookupOf(s.Documents, d)
	const query = `UPDATE verification_sessions SET doc_type = $2, doc_issuing_country = $3, doc_issuing_state = $4,
		doc_given_names = $5, doc_first_surname = $6, doc_second_surname = $7, doc_full_name = $8,
		doc_birth_date = $9, doc_sex = $10, doc_nationality = $11, doc_issue_date = $12, doc_expiry_date = $13,
		doc_number_sealed = $14, doc_number_hash = $15, doc_curp_sealed = $16, doc_curp_hash = $17,
		doc_address_sealed = $18, document_read_at = now(), updated_at = now()
		WHERE id = $1`
	ok, err := changedOne(ctx, q, fmt.Sprintf("store document of verification %d", verificationID), query, verificationID,
		nullable(d.DocumentType), nullable(d.IssuingCountry), nullable(d.IssuingState),
		nullable(d.GivenNames), nullable(d.FirstSurname), nullable(d.SecondSurname), nullable(d.FullName),
		nullDate(d.DateOfBirth), nullable(d.Sex), nullable(d.Nationality), nullDate(d.IssueDate), nullDate(d.ExpiryDate),
		seal(d.DocumentNumber), nullable(l.NumberHash), seal(d.PersonalNumber), nullable(l.CURPHash), seal(d.Address))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("store document: verification %d does not exist", verificationID)
	}
	return nil
}

// DocumentOf reads back, opened, the document stored on a verification session; nil when none
// was stored (or the session does not exist).
func (s *Store) DocumentOf(ctx context.Context, verificationID int64) (*perfilseguro.DocumentIdentity, error) {
	const q = `SELECT doc_type, doc_issuing_country, doc_issuing_state, doc_given_names, doc_first_surname,
		doc_second_surname, doc_full_name, doc_birth_date, doc_sex, doc_nationality, doc_issue_date, doc_expiry_date,
		doc_number_sealed, doc_curp_sealed, doc_address_sealed, document_read_at
		FROM verification_sessions WHERE id = $1`
	r, err := getOptional[documentRow](ctx, s.DB, fmt.Sprintf("document of verification %d", verificationID), q, verificationID)
	if err != nil || r == nil || r.ReadAt == nil {
		return nil, err
	}
	d := perfilseguro.DocumentIdentity{
		DocumentType: deref(r.Type), IssuingCountry: deref(r.IssuingCountry), IssuingState: deref(r.IssuingState),
		GivenNames: deref(r.GivenNames), FirstSurname: deref(r.FirstSurname), SecondSurname: deref(r.SecondSurname),
		FullName: deref(r.FullName), Sex: deref(r.Sex), Nationality: deref(r.Nationality),
		DateOfBirth: dateOf(r.BirthDate), IssueDate: dateOf(r.IssueDate), ExpiryDate: dateOf(r.ExpiryDate),
	}
	for _, f := range []struct {
		sealed *string
		dst    *string
	}{{r.NumberSealed, &d.DocumentNumber}, {r.CURPSealed, &d.PersonalNumber}, {r.AddressSealed, &d.Address}} {
		if f.sealed == nil {
			continue
		}
		if !s.Documents.Valid() {
			return nil, fmt.Errorf("document of verification %d: %w", verificationID, ErrNoDocumentKey)
		}
		v, err := s.Documents.Sealer.Open(*f.sealed)
		if err != nil {
			return nil, fmt.Errorf("document of verification %d: %w", verificationID, err)
		}
		*f.dst = v
	}
	return &d, nil
}

// DocumentHolders lists the users (oldest first, distinct) whose stored verification read a
// document with the same CURP or the same issuing country and number as d: the base of "one ID,
// one profile". The caller decides which of those count (live, validated).
func (s *Store) DocumentHolders(ctx context.Context, d perfilseguro.DocumentIdentity) ([]int64, error) {
	if !s.Documents.Valid() {
		return nil, fmt.Errorf("document holders: %w", ErrNoDocumentKey)
	}
	l := LookupOf(s.Documents, d)
	if l.CURPHash == "" && l.NumberHash == "" {
		return nil, nil
	}
	const q = `SELECT user_id FROM verification_sessions
		WHERE (doc_curp_hash = $1 AND $1 <> '') OR (doc_number_hash = $2 AND $2 <> '')
		GROUP BY user_id ORDER BY min(id)`
	var ids []int64
	if err := s.DB.SelectContext(ctx, &ids, q, l.CURPHash, l.NumberHash); err != nil {
		return nil, fmt.Errorf("document holders: %w", err)
	}
	return ids, nil
}

func nullDate(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	v := t.Format(time.DateOnly)
	return &v
}

// dateOf is a stored date as the domain holds it: UTC midnight, zero when NULL.
func dateOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// sealRaw is a provider's raw answer as it is stored (docdata.Seal): the non-personal part in
// clear (nil for an empty answer) and the personal part sealed apart.
func (s *Store) sealRaw(raw []byte) ([]byte, *string, error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	return docdata.Seal(s.Documents, raw)
}

// openRaw is a stored raw answer whole again.
func (s *Store) openRaw(kept []byte, sealed *string) ([]byte, error) {
	return docdata.Open(s.Documents, kept, sealed)
}
