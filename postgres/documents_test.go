package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The identifiers and personal values of the docdata fixtures, none of which may be stored in clear.
const (
	docCURP    = "LOHJ880314MDFPRS09"
	docNumber  = "IDMEX2031456789"
	docAddress = "ASTURIAS"
)

var docPersonal = []string{docCURP, docNumber, docAddress, "MARÍA", "LÓPEZ", "1988-03-14", "s3.amazonaws.com", "portrait.jpg"}

// docStore is a store with a document-data key on a database of its own.
func docStore(t *testing.T) (context.Context, *sqlx.DB, *postgres.Store) {
	t.Helper()
	ctx, db, store := setup(t)
	store.Documents = secure.NewDocumentKey("test-document-key-0123456789abcdef0123")
	return ctx, db, store
}

// docVerification is a started verification session of a new level-2 user.
func docVerification(t *testing.T, ctx context.Context, store *postgres.Store, sessionID string) (userID, vid int64) {
	t.Helper()
	userID = lvUser(t, store, 2)
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = store.InsertVerificationSession(ctx, tx, userID, "didit", "test")
		return err
	}))
	ok, err := store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: sessionID, URL: "https://x/" + sessionID,
		Raw: []byte(`{"session_id":"` + sessionID + `","url":"https://x","expected_details":{"first_name":"María José","last_name":"López Hernández","date_of_birth":"1988-03-14"}}`)})
	require.NoError(t, err)
	require.True(t, ok)
	return userID, vid
}

// tableText is every row of table as Postgres prints it: what a dump or a stolen disk shows.
// webhooksAsText is provider_webhooks with its bodies as text (bytea prints as hex).
const webhooksAsText = `(SELECT id, provider, session_id, convert_from(body, 'UTF8') AS body, body_sealed FROM provider_webhooks)`

func tableText(t *testing.T, db *sqlx.DB, table string) string {
	t.Helper()
	var rows []string
	require.NoError(t, db.Select(&rows, `SELECT t::text FROM `+table+` t ORDER BY id`))
	return strings.Join(rows, "\n")
}

func docFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docdata", "testdata", name))
	require.NoError(t, err)
	return b
}

func sameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(got, &g))
	require.Equal(t, w, g)
}

func TestAStoredDocumentKeepsNoIdentifierInClear(t *testing.T) {
	t.Parallel()
	ctx, db, store := docStore(t)
	userID, vid := docVerification(t, ctx, store, "doc-s-1")
	doc := perfilseguro.DocumentIdentity{
		DocumentType: perfilseguro.DocumentINE, IssuingCountry: "MEX", IssuingState: "Ciudad de México",
		DocumentNumber: docNumber, PersonalNumber: docCURP, GivenNames: "MARÍA JOSÉ", FirstSurname: "LÓPEZ",
		SecondSurname: "HERNÁNDEZ", FullName: "MARÍA JOSÉ LÓPEZ HERNÁNDEZ", Sex: "F", Nationality: "MEX",
		DateOfBirth: time.Date(1988, 3, 14, 0, 0, 0, 0, time.UTC), IssueDate: time.Date(2021, 6, 10, 0, 0, 0, 0, time.UTC),
		ExpiryDate: time.Date(2031, 12, 31, 0, 0, 0, 0, time.UTC), Address: "C SUR 124 115 COL AMPLIACION ASTURIAS 06890",
	}
	none, err := store.DocumentOf(ctx, vid)
	require.NoError(t, err)
	require.Nil(t, none, "nothing stored yet")
	require.NoError(t, store.StoreDocument(ctx, db, vid, doc))

	got, err := store.DocumentOf(ctx, vid)
	require.NoError(t, err)
	require.Equal(t, doc, *got, "read back whole, identifiers opened")

	all := tableText(t, db, "verification_sessions")
	for _, v := range []string{docCURP, docNumber, docAddress, "06890"} {
		require.NotContains(t, all, v, "%q in clear in verification_sessions", v)
	}
	require.Contains(t, all, "MARÍA JOSÉ", "the names stay in clear for the comparison")
	require.Contains(t, all, "2031-12-31")

	// Found by its CURP or its number however they are typed; another document is not.
	other := lvUser(t, store, 2)
	holders, err := store.DocumentHolders(ctx, perfilseguro.DocumentIdentity{PersonalNumber: " lohj880314mdfprs09 "})
	require.NoError(t, err)
	require.Equal(t, []int64{userID}, holders)
	holders, err = store.DocumentHolders(ctx, perfilseguro.DocumentIdentity{IssuingCountry: "MEX", DocumentNumber: docNumber})
	require.NoError(t, err)
	require.Equal(t, []int64{userID}, holders)
	holders, err = store.DocumentHolders(ctx, perfilseguro.DocumentIdentity{IssuingCountry: "GTM", DocumentNumber: docNumber})
	require.NoError(t, err)
	require.Empty(t, holders, "the same number from another country is another document")
	holders, err = store.DocumentHolders(ctx, perfilseguro.DocumentIdentity{PersonalNumber: "LOHJ880314MDFPRS08"})
	require.NoError(t, err)
	require.Empty(t, holders)
	require.NotEqual(t, other, userID)

	// Without the key nothing is stored, and what is stored does not open.
	keyless := &postgres.Store{DB: db}
	require.True(t, errors.Is(keyless.StoreDocument(ctx, db, vid, doc), postgres.ErrNoDocumentKey))
	_, err = keyless.DocumentOf(ctx, vid)
	require.ErrorIs(t, err, postgres.ErrNoDocumentKey)
	wrong := &postgres.Store{DB: db, Documents: secure.NewDocumentKey("another-document-key-0123456789abcdef")}
	_, err = wrong.DocumentOf(ctx, vid)
	require.Error(t, err)
	require.NotContains(t, err.Error(), docCURP)
	require.Error(t, store.StoreDocument(ctx, db, vid+1000, doc), "no such verification")
}

func TestRawCopiesAreStoredWithoutPersonalFieldsInClear(t *testing.T) {
	t.Parallel()
	ctx, db, store := docStore(t)
	_, vid := docVerification(t, ctx, store, "6f1c2f4e-0c1a-4f3b-9a51-3f0f8c1b2d01")

	decision := docFixture(t, "decision_v3_ine.json")
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: "6f1c2f4e-0c1a-4f3b-9a51-3f0f8c1b2d01",
			Status: perfilseguro.BiometricInReview, Raw: decision})
		return err
	}))
	body := docFixture(t, "webhook_v3.json")
	sid := "6f1c2f4e-0c1a-4f3b-9a51-3f0f8c1b2d01"
	whID, processed, err := store.InsertWebhook(ctx, "didit", strings.Repeat("a", 64), &sid, body)
	require.NoError(t, err)
	require.False(t, processed)

	for _, table := range []string{"verification_sessions", webhooksAsText} {
		all := tableText(t, db, table)
		for _, v := range docPersonal {
			require.NotContains(t, all, v, "%q in clear in %s", v, table)
		}
	}
	var bodyText string
	require.NoError(t, db.Get(&bodyText, `SELECT convert_from(body, 'UTF8') FROM provider_webhooks WHERE id = $1`, whID))
	for _, v := range docPersonal {
		require.NotContains(t, bodyText, v)
	}
	require.Contains(t, bodyText, `"status":"Approved"`, "what is not personal stays readable")

	// The worker reads the webhook whole.
	wh, err := store.WebhookByID(ctx, whID)
	require.NoError(t, err)
	sameJSON(t, body, wh.Body)
	// And the stored decision opens whole.
	var kept []byte
	var sealed *string
	require.NoError(t, db.QueryRow(`SELECT webhook_data, webhook_data_sealed FROM verification_sessions WHERE id = $1`, vid).Scan(&kept, &sealed))
	require.NotNil(t, sealed)
	var score float64
	require.NoError(t, db.Get(&score, `SELECT (webhook_data->'face_matches'->0->>'score')::float FROM verification_sessions WHERE id = $1`, vid))
	require.Equal(t, 92.5, score)

	// A store without the key drops the personal part rather than keep it in clear.
	keyless := &postgres.Store{DB: db}
	sid2 := "other"
	id2, _, err := keyless.InsertWebhook(ctx, "didit", strings.Repeat("b", 64), &sid2, body)
	require.NoError(t, err)
	wh2, err := keyless.WebhookByID(ctx, id2)
	require.NoError(t, err)
	require.NotContains(t, string(wh2.Body), docCURP)
}

func TestRedactingStoredDecisionsTwiceChangesNothingTheSecondTime(t *testing.T) {
	t.Parallel()
	ctx, db, store := docStore(t)
	decision := docFixture(t, "decision_v3_ine.json")
	body := docFixture(t, "webhook_v3.json")
	// Rows as the release before this one stored them: the provider's answers in clear.
	var vids []int64
	for i := range 3 {
		_, vid := docVerification(t, ctx, store, fmt.Sprintf("old-%d", i))
		_, err := db.Exec(`UPDATE verification_sessions SET raw_response = $2, webhook_data = $3, raw_response_sealed = NULL,
			raw_redacted_at = NULL WHERE id = $1`, vid, `{"session_id":"x","expected_details":{"first_name":"MARÍA"}}`, decision)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO provider_webhooks (provider, body_sha256, session_id, body) VALUES ('didit', $1, 'x', $2)`,
			strings.Repeat(fmt.Sprint(i), 64), body)
		require.NoError(t, err)
		vids = append(vids, vid)
	}
	_, clean := docVerification(t, ctx, store, "clean") // no decision yet: only marked
	require.Contains(t, tableText(t, db, "verification_sessions"), docCURP, "the old rows hold the CURP in clear")

	run := func() (sessions, webhooks postgres.RedactBatch) {
		for after := int64(0); ; {
			b, err := store.RedactStoredSessions(ctx, after, 2)
			require.NoError(t, err)
			if b.Seen == 0 {
				break
			}
			sessions.Seen, sessions.Changed, after = sessions.Seen+b.Seen, sessions.Changed+b.Changed, b.LastID
		}
		for after := int64(0); ; {
			b, err := store.RedactStoredWebhooks(ctx, after, 2)
			require.NoError(t, err)
			if b.Seen == 0 {
				break
			}
			webhooks.Seen, webhooks.Changed, after = webhooks.Seen+b.Seen, webhooks.Changed+b.Changed, b.LastID
		}
		return sessions, webhooks
	}
	s, w := run()
	require.Equal(t, postgres.RedactBatch{Seen: 4, Changed: 3}, s, "the row stored since this release is only marked")
	require.Equal(t, postgres.RedactBatch{Seen: 3, Changed: 3}, w)
	for _, table := range []string{"verification_sessions", webhooksAsText} {
		for _, v := range docPersonal {
			require.NotContains(t, tableText(t, db, table), v, "%q in clear in %s after the job", v, table)
		}
	}
	var ids []int64
	require.NoError(t, db.Select(&ids, `SELECT id FROM provider_webhooks ORDER BY id`))
	wh, err := store.WebhookByID(ctx, ids[0])
	require.NoError(t, err)
	sameJSON(t, body, wh.Body)

	// A second run finds nothing to do; even with the marks cleared it changes no byte.
	snapshot := func() string {
		return tableText(t, db, "(SELECT id, raw_response, raw_response_sealed, webhook_data, webhook_data_sealed FROM verification_sessions)") +
			tableText(t, db, webhooksAsText)
	}
	before := snapshot()
	s, w = run()
	require.Zero(t, s.Seen+w.Seen)
	_, err = db.Exec(`UPDATE verification_sessions SET raw_redacted_at = NULL`)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE provider_webhooks SET raw_redacted_at = NULL`)
	require.NoError(t, err)
	s, w = run()
	require.Equal(t, postgres.RedactBatch{Seen: 4}, s)
	require.Equal(t, postgres.RedactBatch{Seen: 3}, w)
	require.Equal(t, before, snapshot())
	require.NotZero(t, clean)
	require.Len(t, vids, 3)

	_, err = (&postgres.Store{DB: db}).RedactStoredSessions(ctx, 0, 10)
	require.ErrorIs(t, err, postgres.ErrNoDocumentKey, "without the key the job would lose what it removes")
}
