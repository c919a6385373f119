package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/perfilseguro/perfilseguro/amlscreen"
	"github.com/perfilseguro/perfilseguro/expediente"
)

// Screening the people of operations (issue 53 item 3; amlscreen, worker/aml_screening.go):
// who is screened (the name and birth date copied into the file, the beneficiary of the latest
// declaration shared with the business), what was already consulted, and the screenings and
// hits recorded. sql/migrations/0037_aml_files.sql and 0039_aml_screening_runs.sql.

// ScreeningListsStamp changes whenever a screening list gets a new version (amlscreen.Lists):
// the newest version's id and the number of versions.
func (s *Store) ScreeningListsStamp(ctx context.Context) (string, error) {
	var r struct {
		Max   int64 `db:"max"`
		Count int64 `db:"count"`
	}
	if err := s.DB.GetContext(ctx, &r, `SELECT coalesce(max(id), 0) AS max, count(*) AS count FROM screening_list_versions`); err != nil {
		return "", fmt.Errorf("screening lists stamp: %w", err)
	}
	return fmt.Sprintf("%d/%d", r.Max, r.Count), nil
}

type amlScreeningPersonRow struct {
	ID          int64      `db:"id"`
	OperationID string     `db:"operation_id"`
	PartnerID   int64      `db:"partner_id"`
	TestMode    bool       `db:"test_mode"`
	UserID      *int64     `db:"user_id"`
	Name        string     `db:"screened_name"`
	BirthDate   *time.Time `db:"birth_date"`
	Screened    bool       `db:"screened"`
}

const amlScreeningPeopleQuery = `SELECT p.id, p.operation_id, o.partner_id, o.test_mode, p.user_id, p.screened_name,
		p.birth_date, p.screened_at IS NOT NULL AS screened
	FROM aml_operation_people p JOIN aml_operations o ON o.id = p.operation_id
	WHERE p.screened_name IS NOT NULL AND `

// AMLOperationToScreen reads the people of an operation as the screening needs them;
// ErrOperationNotFound when the operation is not there (yet).
func (s *Store) AMLOperationToScreen(ctx context.Context, operationID string) ([]amlscreen.Person, error) {
	var exists bool
	if err := s.DB.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM aml_operations WHERE id = $1)`, operationID); err != nil {
		return nil, fmt.Errorf("aml operation %s: %w", operationID, err)
	}
	if !exists {
		return nil, ErrOperationNotFound
	}
	var rows []amlScreeningPersonRow
	if err := s.DB.SelectContext(ctx, &rows, amlScreeningPeopleQuery+`p.operation_id = $1 ORDER BY p.id`, operationID); err != nil {
		return nil, fmt.Errorf("aml operation %s people: %w", operationID, err)
	}
	return s.amlScreeningPeople(ctx, rows)
}

// AMLPeopleToRescreen reads up to limit people, after the row id after, whose operation's file is
// still kept on day today (retention_until >= today), people whose account was deleted included:
// the file is locked against partners, not against the law's screening.
func (s *Store) AMLPeopleToRescreen(ctx context.Context, today time.Time, after int64, limit int) ([]amlscreen.Person, error) {
	var rows []amlScreeningPersonRow
	err := s.DB.SelectContext(ctx, &rows, amlScreeningPeopleQuery+`o.retention_until >= $1 AND p.id > $2 ORDER BY p.id LIMIT $3`,
		today.Format(time.DateOnly), after, limit)
	if err != nil {
		return nil, fmt.Errorf("aml people to rescreen: %w", err)
	}
	return s.amlScreeningPeople(ctx, rows)
}

// amlScreeningPeople completes rows with what each subject was already screened against, the
// beneficiary each declared and, for people never screened, the provider's decision.
func (s *Store) amlScreeningPeople(ctx context.Context, rows []amlScreeningPersonRow) ([]amlscreen.Person, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	var gone []int64 // people whose account is deleted: their last screened beneficiary stands
	for i, r := range rows {
		ids[i] = r.ID
		if r.UserID == nil {
			gone = append(gone, r.ID)
		}
	}
	consulted, provider, err := s.amlConsulted(ctx, ids)
	if err != nil {
		return nil, err
	}
	beneficiaries, err := s.amlBeneficiaries(ctx, ids, gone)
	if err != nil {
		return nil, err
	}
	out := make([]amlscreen.Person, len(rows))
	for i, r := range rows {
		p := amlscreen.Person{RowID: r.ID, Operation: r.OperationID, PartnerID: r.PartnerID, TestMode: r.TestMode,
			ProviderScreened: provider[r.ID] || r.Screened}
		person := amlscreen.Subject{Kind: amlscreen.SubjectPerson, Name: r.Name, Consulted: consulted[subjectKey{r.ID, amlscreen.SubjectPerson}]}
		if r.BirthDate != nil {
			person.BirthDate = *r.BirthDate
		}
		p.Subjects = append(p.Subjects, person)
		if b, ok := beneficiaries[r.ID]; ok {
			b.Consulted = consulted[subjectKey{r.ID, amlscreen.SubjectBeneficiary}]
			p.Subjects = append(p.Subjects, b)
		}
		if !p.ProviderScreened {
			// The provider's screening is read once, at the first screening of the person.
			id, err := s.AMLPersonIdentity(ctx, r.ID)
			if err != nil {
				return nil, err
			}
			if id != nil {
				p.Provider = id.Decision
			}
		}
		out[i] = p
	}
	return out, nil
}

type subjectKey struct {
	person  int64
	subject string
}

// amlConsulted reads the list versions each subject was screened against, and who has the
// provider's screening recorded.
func (s *Store) amlConsulted(ctx context.Context, ids []int64) (map[subjectKey]map[int64]bool, map[int64]bool, error) {
	var rows []struct {
		Person  int64  `db:"operation_person_id"`
		Subject string `db:"subject"`
		Version *int64 `db:"version_id"`
	}
	err := s.DB.SelectContext(ctx, &rows, `SELECT DISTINCT operation_person_id, subject, version_id FROM aml_screenings
		WHERE operation_person_id = ANY($1)`, pq.Array(ids))
	if err != nil {
		return nil, nil, fmt.Errorf("aml screenings consulted: %w", err)
	}
	consulted, provider := map[subjectKey]map[int64]bool{}, map[int64]bool{}
	for _, r := range rows {
		if r.Version == nil {
			provider[r.Person] = true
			continue
		}
		k := subjectKey{r.Person, r.Subject}
		if consulted[k] == nil {
			consulted[k] = map[int64]bool{}
		}
		consulted[k][*r.Version] = true
	}
	return consulted, provider, nil
}

// amlBeneficiaries finds the beneficiario controlador each person declared: the latest version of
// their declaration shared with the operation's business, in its mode. A person whose account
// was deleted keeps being screened with the beneficiary last screened for them (their
// declarations are no longer linked to them).
func (s *Store) amlBeneficiaries(ctx context.Context, ids, gone []int64) (map[int64]amlscreen.Subject, error) {
	out := map[int64]amlscreen.Subject{}
	var declared []struct {
		Person int64  `db:"id"`
		Sealed string `db:"answers_sealed"`
	}
	err := s.DB.SelectContext(ctx, &declared, `SELECT DISTINCT ON (p.id) p.id, d.answers_sealed
		FROM aml_operation_people p
		JOIN aml_operations o ON o.id = p.operation_id
		JOIN aml_declarations d ON d.user_id = p.user_id AND d.test_mode = o.test_mode
		JOIN aml_declaration_shares sh ON sh.declaration_id = d.id AND sh.partner_id = o.partner_id
		WHERE p.id = ANY($1) ORDER BY p.id, d.version DESC`, pq.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("aml declared beneficiaries: %w", err)
	}
	for _, d := range declared {
		if !s.Documents.Valid() {
			return nil, fmt.Errorf("aml declaration of person %d: %w", d.Person, ErrNoDocumentKey)
		}
		raw, err := s.Documents.Sealer.Open(d.Sealed)
		if err != nil {
			return nil, fmt.Errorf("aml declaration of person %d: %w", d.Person, err)
		}
		var a expediente.Answers
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			return nil, fmt.Errorf("aml declaration of person %d: %w", d.Person, err)
		}
		if !a.ForBeneficiary || a.Beneficiary == nil || a.Beneficiary.Name == "" {
			continue
		}
		b := amlscreen.Subject{Kind: amlscreen.SubjectBeneficiary, Name: a.Beneficiary.Name}
		if bd := a.Beneficiary.BirthDate; !bd.IsZero() {
			b.BirthDate = time.Date(bd.Year, bd.Month, bd.Day, 0, 0, 0, 0, time.UTC)
		}
		out[d.Person] = b
	}
	if len(gone) == 0 {
		return out, nil
	}
	var last []struct {
		Person int64      `db:"operation_person_id"`
		Name   string     `db:"screened_name"`
		Birth  *time.Time `db:"screened_birth"`
	}
	err = s.DB.SelectContext(ctx, &last, `SELECT DISTINCT ON (operation_person_id) operation_person_id, screened_name, screened_birth
		FROM aml_screenings WHERE subject = 'beneficiario' AND operation_person_id = ANY($1)
		ORDER BY operation_person_id, checked_at DESC, id DESC`, pq.Array(gone))
	if err != nil {
		return nil, fmt.Errorf("aml screened beneficiaries: %w", err)
	}
	for _, l := range last {
		b := amlscreen.Subject{Kind: amlscreen.SubjectBeneficiary, Name: l.Name}
		if l.Birth != nil {
			b.BirthDate = *l.Birth
		}
		out[l.Person] = b
	}
	return out, nil
}

// AMLPersonScreenings are the screenings to record for one person of an operation.
type AMLPersonScreenings struct {
	PersonRowID int64
	Records     []amlscreen.Record
}

// RecordAMLScreenings stores the screenings of one person of an operation and their hits, and
// marks the person screened (RecordAMLScreeningsBatch of one).
func (s *Store) RecordAMLScreenings(ctx context.Context, personRowID int64, records []amlscreen.Record) (newHits int, err error) {
	return s.RecordAMLScreeningsBatch(ctx, []AMLPersonScreenings{{PersonRowID: personRowID, Records: records}})
}

// amlScreeningKey names one screening of a person: a subject against a list version (0: the
// provider's own).
type amlScreeningKey struct {
	person  int64
	subject string
	version int64
}

type amlScreeningRow struct {
	Person    int64   `json:"p"`
	Subject   string  `json:"s"`
	Name      string  `json:"n"`
	Birth     *string `json:"b"`
	Source    string  `json:"src"`
	ListID    int64   `json:"l"`
	VersionID int64   `json:"v"`
	Count     int     `json:"c"`
}

type amlHitRow struct {
	Screening   int64           `json:"sid"`
	Operation   string          `json:"op"`
	Person      int64           `json:"p"`
	Subject     string          `json:"s"`
	ListID      int64           `json:"l"`
	VersionID   int64           `json:"v"`
	ListName    string          `json:"list_name"`
	EntryID     string          `json:"entry_id"`
	MatchedName string          `json:"matched_name"`
	Score       float64         `json:"score"`
	Reasons     []string        `json:"reasons"`
	Entry       json.RawMessage `json:"entry"`
	Blocking    bool            `json:"blocking"`
}

// RecordAMLScreeningsBatch stores the screenings of several people and their hits, and marks
// them screened, in one transaction of a few statements (a re-screen writes 100,000 people).
// The people's rows are locked and what was already recorded is read again inside it, so two
// runs at once (the sweep and the recording, or two re-screens) record each list version once
// per subject; an entry already raised for a subject is not raised again (aml_hits_once).
// newHits is the number of hits added.
func (s *Store) RecordAMLScreeningsBatch(ctx context.Context, batch []AMLPersonScreenings) (newHits int, err error) {
	if len(batch) == 0 {
		return 0, nil
	}
	ids := make([]int64, len(batch))
	for i, b := range batch {
		ids[i] = b.PersonRowID
	}
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		newHits = 0
		var people []struct {
			ID        int64  `db:"id"`
			Operation string `db:"operation_id"`
		}
		if err := tx.SelectContext(ctx, &people, `SELECT id, operation_id FROM aml_operation_people WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
			pq.Array(ids)); err != nil {
			return fmt.Errorf("lock aml people: %w", err)
		}
		operation := make(map[int64]string, len(people))
		for _, p := range people {
			operation[p.ID] = p.Operation
		}
		var done []struct {
			Person  int64  `db:"operation_person_id"`
			Subject string `db:"subject"`
			Version *int64 `db:"version_id"`
		}
		if err := tx.SelectContext(ctx, &done, `SELECT DISTINCT operation_person_id, subject, version_id FROM aml_screenings
			WHERE operation_person_id = ANY($1)`, pq.Array(ids)); err != nil {
			return fmt.Errorf("aml screenings of people: %w", err)
		}
		recorded := map[amlScreeningKey]bool{}
		for _, d := range done {
			var v int64
			if d.Version != nil {
				v = *d.Version
			}
			recorded[amlScreeningKey{d.Person, d.Subject, v}] = true
		}
		var rows []amlScreeningRow
		pending := map[amlScreeningKey]amlscreen.Record{}
		for _, b := range batch {
			if _, ok := operation[b.PersonRowID]; !ok {
				continue // the operation is gone
			}
			for _, r := range b.Records {
				k := amlScreeningKey{b.PersonRowID, r.Subject, r.VersionID}
				if recorded[k] {
					continue
				}
				recorded[k] = true
				row := amlScreeningRow{Person: b.PersonRowID, Subject: r.Subject, Name: r.ScreenedName, Source: r.Source,
					ListID: r.ListID, VersionID: r.VersionID, Count: r.CandidateCount}
				if !r.ScreenedBirth.IsZero() {
					d := r.ScreenedBirth.Format(time.DateOnly)
					row.Birth = &d
				}
				rows = append(rows, row)
				pending[k] = r
			}
		}
		if len(rows) > 0 {
			n, err := insertAMLScreenings(ctx, tx, rows, pending, operation)
			if err != nil {
				return err
			}
			newHits = n
		}
		_, err := tx.ExecContext(ctx, `UPDATE aml_operation_people SET screened_at = now() WHERE id = ANY($1) AND screened_at IS NULL`, pq.Array(ids))
		return err
	})
	return newHits, err
}

// insertAMLScreenings writes the screenings in one statement and their hits in another.
func insertAMLScreenings(ctx context.Context, tx *sqlx.Tx, rows []amlScreeningRow, records map[amlScreeningKey]amlscreen.Record,
	operation map[int64]string) (int, error) {
	doc, err := json.Marshal(rows)
	if err != nil {
		return 0, fmt.Errorf("aml screenings: %w", err)
	}
	var inserted []struct {
		ID      int64  `db:"id"`
		Person  int64  `db:"operation_person_id"`
		Subject string `db:"subject"`
		Version *int64 `db:"version_id"`
	}
	err = tx.SelectContext(ctx, &inserted, `INSERT INTO aml_screenings (operation_person_id, subject, screened_name,
		screened_birth, source, list_id, version_id, candidate_count)
		SELECT r.p, r.s, r.n, r.b::date, r.src, NULLIF(r.l, 0), NULLIF(r.v, 0), r.c
		FROM jsonb_to_recordset($1::jsonb) AS r(p bigint, s text, n text, b text, src text, l bigint, v bigint, c integer)
		RETURNING id, operation_person_id, subject, version_id`, string(doc))
	if err != nil {
		return 0, fmt.Errorf("insert aml screenings: %w", err)
	}
	var hits []amlHitRow
	for _, in := range inserted {
		var v int64
		if in.Version != nil {
			v = *in.Version
		}
		r := records[amlScreeningKey{in.Person, in.Subject, v}]
		for _, h := range r.Hits {
			entry := h.Entry
			if len(entry) == 0 {
				entry = json.RawMessage(`{}`)
			}
			reasons := h.Reasons
			if reasons == nil {
				reasons = []string{}
			}
			hits = append(hits, amlHitRow{in.ID, operation[in.Person], in.Person, in.Subject, r.ListID, v, h.ListName, h.EntryID,
				h.MatchedName, math.Round(h.Score*10000) / 10000, reasons, entry, h.Blocking})
		}
	}
	if len(hits) == 0 {
		return 0, nil
	}
	if doc, err = json.Marshal(hits); err != nil {
		return 0, fmt.Errorf("aml hits: %w", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO aml_hits (screening_id, operation_id, operation_person_id, subject, list_id,
		version_id, list_name, entry_id, matched_name, score, reasons, entry, blocking)
		SELECT h.sid, h.op, h.p, h.s, NULLIF(h.l, 0), NULLIF(h.v, 0), h.list_name, h.entry_id, h.matched_name, h.score,
		       ARRAY(SELECT jsonb_array_elements_text(h.reasons)), h.entry, h.blocking
		FROM jsonb_to_recordset($1::jsonb) AS h(sid bigint, op text, p bigint, s text, l bigint, v bigint, list_name text,
		     entry_id text, matched_name text, score numeric, reasons jsonb, entry jsonb, blocking boolean)
		ON CONFLICT (operation_person_id, subject, coalesce(list_id, 0), entry_id) DO NOTHING`, string(doc))
	if err != nil {
		return 0, fmt.Errorf("insert aml hits: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// UnscreenedAMLOperations lists up to limit operations with a person never screened, recorded
// before the given time (the sweep leaves the recording's own job its moment).
func (s *Store) UnscreenedAMLOperations(ctx context.Context, before time.Time, limit int) ([]string, error) {
	var ids []string
	err := s.DB.SelectContext(ctx, &ids, `SELECT operation_id FROM aml_operation_people
		WHERE screened_at IS NULL AND screened_name IS NOT NULL AND created_at < $1
		GROUP BY operation_id ORDER BY min(created_at) LIMIT $2`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("unscreened aml operations: %w", err)
	}
	return ids, nil
}

// AMLRescreen is how far a re-screening run got.
type AMLRescreen struct {
	Reason     string     `db:"reason"`
	After      int64      `db:"after_person"`
	People     int        `db:"people"`
	NewHits    int        `db:"new_hits"`
	StartedAt  time.Time  `db:"started_at"`
	FinishedAt *time.Time `db:"finished_at"`
}

// StartAMLRescreen reads the run named reason, creating it at its start when new.
func (s *Store) StartAMLRescreen(ctx context.Context, reason string) (AMLRescreen, error) {
	var r AMLRescreen
	err := s.DB.GetContext(ctx, &r, `WITH ins AS (INSERT INTO aml_rescreens (reason) VALUES ($1) ON CONFLICT (reason) DO NOTHING RETURNING *)
		SELECT reason, after_person, people, new_hits, started_at, finished_at FROM ins
		UNION ALL SELECT reason, after_person, people, new_hits, started_at, finished_at FROM aml_rescreens WHERE reason = $1
		LIMIT 1`, reason)
	if err != nil {
		return AMLRescreen{}, fmt.Errorf("aml rescreen %q: %w", reason, err)
	}
	return r, nil
}

// AdvanceAMLRescreen records a batch done: the last person's row id, how many people and new hits
// it added, and whether the run is over.
func (s *Store) AdvanceAMLRescreen(ctx context.Context, reason string, after int64, people, newHits int, finished bool) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE aml_rescreens SET after_person = greatest(after_person, $2), people = people + $3,
		new_hits = new_hits + $4, finished_at = CASE WHEN $5 THEN now() ELSE finished_at END WHERE reason = $1`,
		reason, after, people, newHits, finished)
	if err != nil {
		return fmt.Errorf("aml rescreen %q: %w", reason, err)
	}
	return nil
}

// AMLNotifyTarget is a business, in a mode, with possible hits it was not told about.
type AMLNotifyTarget struct {
	PartnerID int64 `db:"partner_id"`
	TestMode  bool  `db:"test_mode"`
}

// AMLUnnotifiedTargets lists the businesses (per mode) with pending hits not notified yet.
func (s *Store) AMLUnnotifiedTargets(ctx context.Context) ([]AMLNotifyTarget, error) {
	var out []AMLNotifyTarget
	err := s.DB.SelectContext(ctx, &out, `SELECT DISTINCT o.partner_id, o.test_mode FROM aml_hits h
		JOIN aml_operations o ON o.id = h.operation_id
		WHERE h.notified_at IS NULL AND h.status = 'pendiente' ORDER BY o.partner_id, o.test_mode`)
	if err != nil {
		return nil, fmt.Errorf("aml hits to notify: %w", err)
	}
	return out, nil
}

// AMLHitsToNotify is what one notice to a business says: its name, the pending hits it was not
// told about (ids), and who is told (its active cumplimiento and propietario users' e-mails).
type AMLHitsToNotify struct {
	PartnerName string
	HitIDs      []int64
	Recipients  []string
}

// AMLHitsNotice reads what to tell a business (in a mode) about its new possible hits.
func (s *Store) AMLHitsNotice(ctx context.Context, partnerID int64, testMode bool) (AMLHitsToNotify, error) {
	var n AMLHitsToNotify
	if err := s.DB.GetContext(ctx, &n.PartnerName, `SELECT partner_name FROM api_keys WHERE id = $1`, partnerID); err != nil {
		return n, fmt.Errorf("partner %d: %w", partnerID, err)
	}
	err := s.DB.SelectContext(ctx, &n.HitIDs, `SELECT h.id FROM aml_hits h JOIN aml_operations o ON o.id = h.operation_id
		WHERE o.partner_id = $1 AND o.test_mode = $2 AND h.notified_at IS NULL AND h.status = 'pendiente' ORDER BY h.id`,
		partnerID, testMode)
	if err != nil {
		return n, fmt.Errorf("aml hits to notify: %w", err)
	}
	err = s.DB.SelectContext(ctx, &n.Recipients, `SELECT email FROM partner_users WHERE partner_id = $1
		AND role IN ('cumplimiento', 'propietario') AND disabled_at IS NULL ORDER BY id`, partnerID)
	if err != nil {
		return n, fmt.Errorf("aml notice recipients: %w", err)
	}
	return n, nil
}

// MarkAMLHitsNotified records that the business was told about these hits.
func (s *Store) MarkAMLHitsNotified(ctx context.Context, ids []int64, at time.Time) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE aml_hits SET notified_at = $2 WHERE id = ANY($1) AND notified_at IS NULL`,
		pq.Array(ids), at); err != nil {
		return fmt.Errorf("mark aml hits notified: %w", err)
	}
	return nil
}

// ScreeningVersionsNotRescreened lists the list versions imported since the given time whose
// re-screen never started (reason jobs.AMLRescreenReason: "version-<id>").
func (s *Store) ScreeningVersionsNotRescreened(ctx context.Context, since time.Time) ([]int64, error) {
	var ids []int64
	err := s.DB.SelectContext(ctx, &ids, `SELECT v.id FROM screening_list_versions v WHERE v.imported_at >= $1
		AND NOT EXISTS (SELECT 1 FROM aml_rescreens r WHERE r.reason = 'version-' || v.id) ORDER BY v.id`, since)
	if err != nil {
		return nil, fmt.Errorf("screening versions not rescreened: %w", err)
	}
	return ids, nil
}
