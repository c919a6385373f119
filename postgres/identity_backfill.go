package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

// Issue 52 item 7: the people validated before the document was read keep their level until it
// expires; their stored decisions are read once (BackfillIdentity) and the document they carry
// is stored and assessed as a new check's would be, without revoking anyone.

// IdentityBackfillBatch is what one batch of the identity backfill did.
type IdentityBackfillBatch struct {
	LastID  int64 // the highest verification id looked at: the next batch starts after it
	Seen    int   // approved checks without a verdict looked at
	Changed int   // checks given a verdict (their document stored and assessed)
	Missing int   // checks whose stored decision carries no document ("sin datos del documento")
	// Bound are the users whose profile now carries its document (name, key, expiry): their
	// passes are rebuilt.
	Bound    []int64
	Verdicts map[identity.Verdict]int // the verdicts given, by verdict
}

// backfillRow is an approved check without a verdict, with its stored provider answers.
type backfillRow struct {
	ID            int64     `db:"id"`
	UserID        int64     `db:"user_id"`
	SessionID     *string   `db:"session_id"`
	Raw           []byte    `db:"raw_response"`
	RawSealed     *string   `db:"raw_response_sealed"`
	Webhook       []byte    `db:"webhook_data"`
	WebhookSealed *string   `db:"webhook_data_sealed"`
	DecidedAt     time.Time `db:"decided_at"`
}

// pendingChecks are the approved checks no assessment has looked at (identity_verdict NULL).
const pendingChecks = `SELECT id, user_id, session_id, raw_response, raw_response_sealed, webhook_data,
	webhook_data_sealed, COALESCE(completed_at, updated_at, created_at) AS decided_at
	FROM verification_sessions WHERE id > $1 AND verification_status = 'Approved' AND identity_verdict IS NULL
	ORDER BY id LIMIT $2`

// BackfillIdentity reads, for up to limit approved checks with id > afterID that have no
// identity verdict yet, the document their stored decision carries (webhook_data, else
// raw_response; sealed parts opened), stores it on the check (StoreDocument), assesses it against
// the person's name on the day of the check (identity.Assess, via assessDocument) and keeps the
// verdict, in one transaction. Nobody loses a level:
//   - match: when the check is the person's current validation, the profile takes the document
//     (its proper-case name, name_source 'document', the document's key and expiry) and keeps
//     its fecha_validacion; no payment is consumed.
//   - duplicate: the document already certifies another profile; recorded (duplicate_of).
//   - mismatch, near, expired_document, under_age: recorded on the check, for Mi Perfil and the
//     administrators' review; the level stays until it expires.
//   - a decision without the document: counted as missing and left without a verdict, so a
//     later run looks again and IdentityBackfillListed lists it for the administrators.
//
// A check with a verdict is never picked again, so a second run changes nothing.
func (s *Store) BackfillIdentity(ctx context.Context, afterID int64, limit int) (IdentityBackfillBatch, error) {
	if !s.Documents.Valid() {
		return IdentityBackfillBatch{}, fmt.Errorf("identity backfill: %w", ErrNoDocumentKey)
	}
	b := IdentityBackfillBatch{Verdicts: map[identity.Verdict]int{}}
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var rows []backfillRow
		if err := tx.SelectContext(ctx, &rows, pendingChecks+` FOR UPDATE`, afterID, limit); err != nil {
			return err
		}
		for _, r := range rows {
			b.Seen, b.LastID = b.Seen+1, r.ID
			d, err := s.storedDecision(r)
			if err != nil {
				return err
			}
			if d == nil || d.Identity == nil {
				b.Missing++
				continue
			}
			a, err := s.assessDocument(ctx, tx, r.ID, r.UserID, *d, r.DecidedAt)
			if err != nil {
				return err
			}
			if a.Verdict == identity.VerdictMatch {
				bound, err := s.bindBackfilled(ctx, tx, r, a, *d.Identity)
				if errors.Is(err, ErrDocumentBound) {
					a.Verdict = identity.VerdictDuplicate
					err = s.markBackfillDuplicate(ctx, tx, r, *d.Identity)
				}
				if err != nil {
					return err
				}
				if bound {
					b.Bound = append(b.Bound, r.UserID)
				}
			}
			b.Changed++
			b.Verdicts[a.Verdict]++
		}
		return nil
	})
	if err != nil {
		return IdentityBackfillBatch{}, fmt.Errorf("identity backfill after %d: %w", afterID, err)
	}
	return b, nil
}

// storedDecision is the decision stored on a check, parsed (didit.ParseDecision): webhook_data
// (the decision applied), else raw_response; a stored webhook envelope is read by its
// `decision` object. nil when neither holds a decision that parses.
func (s *Store) storedDecision(r backfillRow) (*perfilseguro.BiometricDecision, error) {
	var found *perfilseguro.BiometricDecision
	for _, stored := range []struct {
		kept   []byte
		sealed *string
		what   string
	}{{r.Webhook, r.WebhookSealed, "webhook_data"}, {r.Raw, r.RawSealed, "raw_response"}} {
		if len(stored.kept) == 0 {
			continue
		}
		whole, err := s.openRaw(stored.kept, stored.sealed)
		if err != nil {
			return nil, fmt.Errorf("verification %d %s: %w", r.ID, stored.what, err)
		}
		d := parseStoredDecision(whole)
		if d != nil && d.Identity != nil {
			return d, nil
		}
		if found == nil {
			found = d
		}
	}
	return found, nil
}

// parseStoredDecision reads a stored answer as a decision, or as a webhook whose `decision`
// object is one; nil when it is neither.
func parseStoredDecision(raw []byte) *perfilseguro.BiometricDecision {
	d, err := didit.ParseDecision(raw)
	if err == nil && d.Identity != nil {
		return &d
	}
	var envelope struct {
		Decision json.RawMessage `json:"decision"`
	}
	if json.Unmarshal(raw, &envelope) == nil && len(envelope.Decision) > 0 && string(envelope.Decision) != "null" {
		if inner, ierr := didit.ParseDecision(envelope.Decision); ierr == nil {
			return &inner
		}
	}
	if err != nil {
		return nil
	}
	return &d
}

// bindBackfilled gives the profile the document of its current validation (the check r, the
// one users.didit_session_id names) when the profile is level 3, live and not yet bound to a
// document: the document's name, name_source 'document', the check, the document's key and
// expiry. fecha_validacion, the plan and the payments stay as they are. An audit row (actor
// system) keeps the name before and after. bound is false when r is not the profile's current
// validation (an older check, a revoked or expired profile); ErrDocumentBound when another
// profile holds the document.
func (s *Store) bindBackfilled(ctx context.Context, tx *sqlx.Tx, r backfillRow, a assessment, doc perfilseguro.DocumentIdentity) (bool, error) {
	if r.SessionID == nil {
		return false, nil
	}
	var expires *string
	if !doc.ExpiryDate.IsZero() {
		e := doc.ExpiryDate.Format(time.DateOnly)
		expires = &e
	}
	var key *string
	if k := s.documentKey(doc); k != "" {
		key = &k
	}
	var before []struct {
		Nombre    string `db:"nombre"`
		ProfileID string `db:"id_validado"`
	}
	err := savepoint(ctx, tx, "backfill_bind", func() error {
		const bind = `UPDATE users u SET nombre = $2, name_source = 'document', identity_verification_id = $3,
			document_key = $4, document_expires_on = $5, updated_at = now()
			FROM (SELECT id, nombre FROM users WHERE id = $1) old
			WHERE u.id = old.id AND u.didit_session_id = $6 AND u.biometric_verified AND u.verification_level = 3
			  AND u.revoked_at IS NULL AND u.expired_at IS NULL AND u.identity_verification_id IS NULL
			RETURNING old.nombre, u.id_validado`
		return tx.SelectContext(ctx, &before, bind, r.UserID, a.DocumentName, r.ID, key, expires, *r.SessionID)
	})
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" && pqErr.Constraint == "users_document_key" {
		return false, ErrDocumentBound
	}
	if err != nil || len(before) == 0 {
		return false, err
	}
	ev := AuditEvent{ActorKind: ActorSystem, ActorLabel: "identity backfill", Action: "user.identity_from_document",
		TargetKind: "user", TargetID: strconv.FormatInt(r.UserID, 10), Outcome: OutcomeOK}
	if before[0].Nombre != a.DocumentName {
		ev.Changes = map[string]Change{"nombre": {Before: before[0].Nombre, After: a.DocumentName}}
	}
	return true, AppendAudit(ctx, tx, ev)
}

// markBackfillDuplicate records that the document of check r certifies another profile (found
// when binding it lost a race).
func (s *Store) markBackfillDuplicate(ctx context.Context, tx *sqlx.Tx, r backfillRow, doc perfilseguro.DocumentIdentity) error {
	var mode int64
	if err := tx.GetContext(ctx, &mode, `SELECT coalesce(test_partner_id, 0) FROM users WHERE id = $1`, r.UserID); err != nil {
		return err
	}
	other, err := s.documentHolder(ctx, tx, s.documentKey(doc), mode, r.UserID)
	if err != nil {
		return err
	}
	var dup *int64
	if other != 0 {
		dup = &other
	}
	_, err = tx.ExecContext(ctx, `UPDATE verification_sessions SET identity_verdict = 'duplicate', duplicate_of = $2 WHERE id = $1`, r.ID, dup)
	return err
}

// Reasons an IdentityBackfillListed entry is listed.
const (
	BackfillMissingDocument = "missing_document" // the stored decision carries no document
	BackfillDuplicate       = "duplicate"        // the document certifies another profile
)

// BackfillListedNames says each reason in words, as the administrators read it.
var BackfillListedNames = map[string]string{
	BackfillMissingDocument: "sin datos del documento",
	BackfillDuplicate:       "identificación vinculada a otro perfil",
}

// IdentityBackfillListed is a validated profile the backfill could not certify from its document.
type IdentityBackfillListed struct {
	VerificationID int64     `db:"id" json:"verificationId"`
	UserID         int64     `db:"user_id" json:"userId"`
	ProfileID      string    `db:"id_validado" json:"profileId"`
	Nombre         string    `db:"nombre" json:"nombre"`
	Level          int       `db:"verification_level" json:"level"`
	DecidedAt      time.Time `db:"decided_at" json:"decidedAt"`
	Reason         string    `db:"reason" json:"reason"` // BackfillMissingDocument or BackfillDuplicate
	DuplicateOf    *int64    `db:"duplicate_of" json:"duplicateOf,omitempty"`
}

// IdentityBackfillListed lists, oldest check first, the validated profiles (level 3, not revoked,
// not yet bound to a document) whose current validation the backfill could not certify: its
// stored decision lacks the document (reason BackfillMissingDocument; checked by reading it,
// so a check not yet backfilled but carrying its document is not listed) or its document
// certifies another profile (BackfillDuplicate). Nobody listed loses a level.
func (s *Store) IdentityBackfillListed(ctx context.Context) ([]IdentityBackfillListed, error) {
	const q = `SELECT v.id, v.user_id, u.id_validado, u.nombre, u.verification_level,
		COALESCE(v.completed_at, v.updated_at, v.created_at) AS decided_at,
		CASE WHEN v.identity_verdict = 'duplicate' THEN 'duplicate' ELSE 'missing_document' END AS reason, v.duplicate_of,
		v.raw_response, v.raw_response_sealed, v.webhook_data, v.webhook_data_sealed, v.session_id
		FROM verification_sessions v JOIN users u ON u.id = v.user_id AND u.didit_session_id = v.session_id
		WHERE v.verification_status = 'Approved' AND (v.identity_verdict IS NULL OR v.identity_verdict = 'duplicate')
		  AND u.biometric_verified AND u.verification_level = 3 AND u.revoked_at IS NULL AND u.identity_verification_id IS NULL
		ORDER BY v.id`
	var rows []struct {
		IdentityBackfillListed
		Raw           []byte  `db:"raw_response"`
		RawSealed     *string `db:"raw_response_sealed"`
		Webhook       []byte  `db:"webhook_data"`
		WebhookSealed *string `db:"webhook_data_sealed"`
		SessionID     *string `db:"session_id"`
	}
	if err := s.DB.SelectContext(ctx, &rows, q); err != nil {
		return nil, fmt.Errorf("identity backfill list: %w", err)
	}
	out := []IdentityBackfillListed{}
	for _, r := range rows {
		if r.Reason == BackfillMissingDocument {
			d, err := s.storedDecision(backfillRow{ID: r.VerificationID, Raw: r.Raw, RawSealed: r.RawSealed, Webhook: r.Webhook, WebhookSealed: r.WebhookSealed})
			if err != nil {
				return nil, fmt.Errorf("identity backfill list: %w", err)
			}
			if d != nil && d.Identity != nil {
				continue // not backfilled yet, and it has what the backfill needs
			}
		}
		out = append(out, r.IdentityBackfillListed)
	}
	return out, nil
}
