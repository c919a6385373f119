package postgres_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/docdata"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// v3Decision is an approved decision shaped as Didit's v3 decision endpoint answers it, carrying
// doc as its one document report (nil: a decision from before the document was read, no
// id_verifications[]).
func v3Decision(sessionID string, doc *perfilseguro.DocumentIdentity) []byte {
	body := map[string]any{
		"session_id": sessionID, "status": "Approved", "vendor_data": "1",
		"face_matches":    []any{map[string]any{"status": "Approved", "score": 96.5}},
		"liveness_checks": []any{map[string]any{"status": "Approved", "score": 98.0}},
	}
	if doc != nil {
		body["id_verifications"] = []any{map[string]any{
			"status": "Approved", "document_type": "Identity Card", "issuing_state": doc.IssuingCountry,
			"document_number": doc.DocumentNumber, "personal_number": doc.PersonalNumber,
			"first_name": doc.GivenNames, "last_name": strings.TrimSpace(doc.FirstSurname + " " + doc.SecondSurname),
			"date_of_birth": doc.DateOfBirth.Format(time.DateOnly), "expiration_date": doc.ExpiryDate.Format(time.DateOnly),
			"date_of_issue": doc.IssueDate.Format(time.DateOnly), "gender": doc.Sex, "nationality": doc.Nationality,
			"address": "C SUR 124 115 COL AMPLIACION ASTURIAS 06890 CUAUHTEMOC, CDMX",
		}}
	}
	raw, _ := json.Marshal(body)
	return raw
}

// legacyValidated is a person validated before issue 52: level 3 under the name they typed, by
// an approved check (decided on decided) whose decision is stored as the webhook path stores it
// (personal fields sealed apart) and that has no identity verdict. It returns the user's and the
// check's ids.
func legacyValidated(t *testing.T, db *sqlx.DB, n int, typed string, decided time.Time, decision func(sessionID string) []byte) (int64, int64) {
	t.Helper()
	sid := fmt.Sprintf("legacy-%d", n)
	kept, sealed, err := docdata.Seal(testDocumentKey, decision(sid))
	require.NoError(t, err)
	var uid, vid int64
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado, vigencia, fecha_validacion, verification_level,
		biometric_verified, didit_session_id) VALUES ($1, $2, 1, $3, 3, true, $4) RETURNING id`,
		typed, fmt.Sprintf("PS-5200-0000-%02d", n), decided, sid))
	require.NoError(t, db.Get(&vid, `INSERT INTO verification_sessions (user_id, provider, environment, session_id,
		verification_status, completed_at, webhook_data, webhook_data_sealed)
		VALUES ($1, 'didit', 'production', $2, 'Approved', $3, $4, $5) RETURNING id`, uid, sid, decided, kept, sealed))
	return uid, vid
}

// backfillSnapshot is everything the backfill may change, as text.
func backfillSnapshot(t *testing.T, db *sqlx.DB) string {
	t.Helper()
	var users, checks []string
	require.NoError(t, db.Select(&users, `SELECT concat_ws('|', id, nombre, name_source, verification_level, biometric_verified,
		fecha_validacion, document_key, document_expires_on, identity_verification_id, revoked_at, updated_at) FROM users ORDER BY id`))
	require.NoError(t, db.Select(&checks, `SELECT concat_ws('|', id, identity_verdict, identity_findings::text, name_score,
		duplicate_of, doc_given_names, doc_first_surname, doc_curp_hash, doc_number_sealed IS NOT NULL, document_read_at)
		FROM verification_sessions ORDER BY id`))
	var audits int
	require.NoError(t, db.Get(&audits, `SELECT count(*) FROM audit_events`))
	return strings.Join(users, "\n") + "\n--\n" + strings.Join(checks, "\n") + fmt.Sprintf("\n-- %d audit rows", audits)
}

func TestTheIdentityBackfillReadsStoredDecisionsWithoutRevokingAnyone(t *testing.T) {
	ctx, db, store := setup(t)
	decided := time.Date(2025, 5, 2, 17, 0, 0, 0, time.UTC)
	birth := time.Date(1986, 4, 12, 0, 0, 0, 0, time.UTC)
	docMaria := identity.SampleDocument("María José López Hernández", birth)
	withDoc := func(d perfilseguro.DocumentIdentity) func(string) []byte {
		return func(sid string) []byte { return v3Decision(sid, &d) }
	}
	// Typed without accents, in lower case: the document's name is certified instead.
	maria, mariaCheck := legacyValidated(t, db, 1, "maria jose lopez hernandez", decided, withDoc(docMaria))
	// Somebody else's ID on a validated profile: recorded, the level stays.
	other := identity.SampleDocument("Roberto Carlos Mendoza Salas", birth.AddDate(1, 0, 0))
	ana, anaCheck := legacyValidated(t, db, 2, "Ana Ruiz Soto", decided, withDoc(other))
	// A decision stored before the document was read: listed, not revoked.
	old, oldCheck := legacyValidated(t, db, 3, "Pedro Gómez Luna", decided, func(sid string) []byte { return v3Decision(sid, nil) })
	// María's ID again, on a second profile: a duplicate of hers.
	second, secondCheck := legacyValidated(t, db, 4, "María José López Hernández", decided.Add(time.Hour), withDoc(docMaria))
	var fechaBefore time.Time
	require.NoError(t, db.Get(&fechaBefore, `SELECT fecha_validacion FROM users WHERE id = $1`, maria))

	// A first run stops after a partial batch; a second one resumes after the cursor it logged.
	first, err := store.BackfillIdentity(ctx, 0, 2)
	require.NoError(t, err)
	require.Equal(t, 2, first.Seen)
	require.Equal(t, anaCheck, first.LastID)
	require.Equal(t, []int64{maria}, first.Bound)
	rest, err := store.BackfillIdentity(ctx, first.LastID, 2)
	require.NoError(t, err)
	require.Equal(t, 2, rest.Seen)
	require.Equal(t, 1, rest.Missing)
	require.Equal(t, 1, rest.Changed)
	require.Equal(t, 1, rest.Verdicts[identity.VerdictDuplicate])
	end, err := store.BackfillIdentity(ctx, rest.LastID, 2)
	require.NoError(t, err)
	require.Zero(t, end.Seen)

	// A match: the profile carries the document's name and key, keeps its validation date.
	u, err := store.UserByID(ctx, maria)
	require.NoError(t, err)
	require.Equal(t, "María José López Hernández", u.Nombre)
	require.True(t, u.NameFromDocument)
	require.Equal(t, 3, u.VerificationLevel)
	var bound struct {
		Fecha   time.Time `db:"fecha_validacion"`
		Check   *int64    `db:"identity_verification_id"`
		Key     *string   `db:"document_key"`
		Expires *string   `db:"document_expires_on"`
		Verdict *string   `db:"identity_verdict"`
	}
	require.NoError(t, db.Get(&bound, `SELECT u.fecha_validacion, u.identity_verification_id, u.document_key,
		u.document_expires_on::text, v.identity_verdict FROM users u JOIN verification_sessions v ON v.id = $2 WHERE u.id = $1`, maria, mariaCheck))
	require.True(t, fechaBefore.Equal(bound.Fecha), "the validation date stays")
	require.Equal(t, mariaCheck, *bound.Check)
	require.NotNil(t, bound.Key)
	require.Equal(t, "2035-12-31", *bound.Expires)
	require.Equal(t, "match", *bound.Verdict)
	stored, err := store.DocumentOf(ctx, mariaCheck)
	require.NoError(t, err)
	require.Equal(t, docMaria.PersonalNumber, stored.PersonalNumber)
	var audit string
	require.NoError(t, db.Get(&audit, `SELECT changes::text FROM audit_events WHERE action = 'user.identity_from_document' AND target_id = $1`,
		fmt.Sprint(maria)))
	require.Contains(t, audit, "maria jose lopez hernandez")

	// A mismatch: recorded on the check; the person keeps level 3 and the name they typed.
	u, err = store.UserByID(ctx, ana)
	require.NoError(t, err)
	require.Equal(t, "Ana Ruiz Soto", u.Nombre)
	require.False(t, u.NameFromDocument)
	require.Equal(t, 3, u.VerificationLevel)
	require.True(t, u.BiometricVerified)
	var verdict string
	require.NoError(t, db.Get(&verdict, `SELECT identity_verdict FROM verification_sessions WHERE id = $1`, anaCheck))
	require.Equal(t, "mismatch", verdict)

	// The duplicate: recorded against María's profile, still level 3 until it expires.
	var dup struct {
		Verdict string `db:"identity_verdict"`
		Of      *int64 `db:"duplicate_of"`
	}
	require.NoError(t, db.Get(&dup, `SELECT identity_verdict, duplicate_of FROM verification_sessions WHERE id = $1`, secondCheck))
	require.Equal(t, "duplicate", dup.Verdict)
	require.Equal(t, maria, *dup.Of)
	u, err = store.UserByID(ctx, second)
	require.NoError(t, err)
	require.Equal(t, 3, u.VerificationLevel)
	require.False(t, u.NameFromDocument)

	// Without the document: no verdict, still level 3; the administrators see both.
	u, err = store.UserByID(ctx, old)
	require.NoError(t, err)
	require.Equal(t, 3, u.VerificationLevel)
	listed, err := store.IdentityBackfillListed(ctx)
	require.NoError(t, err)
	require.Len(t, listed, 2)
	require.Equal(t, oldCheck, listed[0].VerificationID)
	require.Equal(t, postgres.BackfillMissingDocument, listed[0].Reason)
	require.Equal(t, "PS-5200-0000-03", listed[0].ProfileID)
	require.Equal(t, secondCheck, listed[1].VerificationID)
	require.Equal(t, postgres.BackfillDuplicate, listed[1].Reason)
	require.Equal(t, maria, *listed[1].DuplicateOf)

	// A second run from the start changes nothing: it looks at the one without a document only.
	before := backfillSnapshot(t, db)
	again, err := store.BackfillIdentity(ctx, 0, 100)
	require.NoError(t, err)
	require.Equal(t, 1, again.Seen)
	require.Equal(t, 1, again.Missing)
	require.Zero(t, again.Changed)
	require.Empty(t, again.Bound)
	require.Equal(t, before, backfillSnapshot(t, db))
}

func TestTheIdentityBackfillListsACheckOnlyWhileItLacksTheDocument(t *testing.T) {
	ctx, db, store := setup(t)
	decided := time.Date(2025, 5, 2, 17, 0, 0, 0, time.UTC)
	doc := identity.SampleDocument("Luis Vega Ortiz", time.Date(1980, 1, 5, 0, 0, 0, 0, time.UTC))
	_, withDoc := legacyValidated(t, db, 1, "Luis Vega Ortiz", decided, func(sid string) []byte { return v3Decision(sid, &doc) })
	_, without := legacyValidated(t, db, 2, "Eva Sol Paz", decided, func(sid string) []byte { return v3Decision(sid, nil) })
	// A check superseded by a later validation of the same person is not listed.
	var uid int64
	require.NoError(t, db.Get(&uid, `SELECT user_id FROM verification_sessions WHERE id = $1`, without))
	_, err := db.Exec(`INSERT INTO verification_sessions (user_id, provider, environment, session_id, verification_status,
		completed_at, webhook_data) VALUES ($1, 'didit', 'production', 'legacy-old', 'Approved', $2, '{"status":"Approved"}')`,
		uid, decided.AddDate(-1, 0, 0))
	require.NoError(t, err)

	// Before the backfill: the check that carries its document is waiting, not missing.
	listed, err := store.IdentityBackfillListed(ctx)
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, without, listed[0].VerificationID)
	require.Equal(t, "sin datos del documento", postgres.BackfillListedNames[listed[0].Reason])

	// A decision stored as the webhook's envelope is read by its `decision` object.
	doc2 := identity.SampleDocument("Sara Núñez Cruz", time.Date(1982, 3, 9, 0, 0, 0, 0, time.UTC))
	_, enveloped := legacyValidated(t, db, 3, "Sara Núñez Cruz", decided, func(sid string) []byte {
		raw, _ := json.Marshal(map[string]any{"session_id": sid, "status": "Approved", "webhook_type": "status.updated",
			"decision": json.RawMessage(v3Decision(sid, &doc2))})
		return raw
	})
	b, err := store.BackfillIdentity(ctx, 0, 10)
	require.NoError(t, err)
	require.Equal(t, 4, b.Seen)
	require.Equal(t, 2, b.Missing)
	require.Equal(t, 2, b.Verdicts[identity.VerdictMatch])
	u, err := store.UserByID(ctx, b.Bound[1])
	require.NoError(t, err)
	require.Equal(t, "Sara Núñez Cruz", u.Nombre)
	require.True(t, u.NameFromDocument)
	stored, err := store.DocumentOf(ctx, enveloped)
	require.NoError(t, err)
	require.Equal(t, doc2.PersonalNumber, stored.PersonalNumber)
	var verdict *string
	require.NoError(t, db.Get(&verdict, `SELECT identity_verdict FROM verification_sessions WHERE id = $1`, withDoc))
	require.Equal(t, "match", *verdict)

	// Without the document-data key nothing is read (nothing could be stored sealed).
	_, err = (&postgres.Store{DB: db}).BackfillIdentity(ctx, 0, 10)
	require.ErrorIs(t, err, postgres.ErrNoDocumentKey)
}
