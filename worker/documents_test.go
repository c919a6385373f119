package worker_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// docPersonal are values of the docdata fixtures that identify the person: none may be stored or
// logged in clear.
var docPersonal = []string{"LOHJ880314MDFPRS09", "IDMEX2031456789", "ASTURIAS", "MARÍA", "LÓPEZ", "1988-03-14", "portrait.jpg"}

// docIdentifiers are the values that identify the person outside our system: never in clear anywhere.
var docIdentifiers = []string{"LOHJ880314MDFPRS09", "IDMEX2031456789", "ASTURIAS", "portrait.jpg"}

var docKey = secure.NewDocumentKey("worker-document-key-0123456789abcdef01")

// syncBuffer is a log sink safe for the worker's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// docSetup is lvSetup with the document-data key on both sides and the worker's log captured.
func docSetup(t *testing.T, key secure.DocumentKey) (*lvFixture, *syncBuffer) {
	t.Helper()
	db, _ := pgtest.New(t)
	logs := &syncBuffer{}
	f := &lvFixture{db: db, store: &postgres.Store{DB: db, Documents: key}, mail: &mailbox{}, provider: &lvProvider{}, queue: &lvQueue{}}
	f.w = newTestWorker(t, worker.Deps{DB: db, Enqueuer: f.queue, Email: f.mail, Documents: key,
		Logger: slog.New(slog.NewTextHandler(logs, nil)), Sealer: secure.NewSealer(lvSecret),
		PublicBaseURL: "https://perfilseguro.test", Levels: worker.LevelsDeps{Biometric: f.provider, WebhookGrace: time.Nanosecond}})
	return f, logs
}

func docFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docdata", "testdata", name))
	require.NoError(t, err)
	return string(b)
}

// webhooksAsText is provider_webhooks with its bodies as text (bytea prints as hex).
const webhooksAsText = `(SELECT id, provider, session_id, convert_from(body, 'UTF8') AS body, body_sealed FROM provider_webhooks)`

func tableText(t *testing.T, db *sqlx.DB, table string) string {
	t.Helper()
	var rows []string
	require.NoError(t, db.Select(&rows, `SELECT t::text FROM `+table+` t ORDER BY id`))
	return strings.Join(rows, "\n")
}

func requireNoPersonal(t *testing.T, where, text string) {
	t.Helper()
	for _, v := range docPersonal {
		require.NotContains(t, text, v, "%q in clear in %s", v, where)
	}
}

func TestAStoredWebhookAndDecisionHoldNoDocumentFieldInClear(t *testing.T) {
	t.Parallel()
	f, logs := docSetup(t, docKey)
	uid := f.user(t, 2)
	// The person registered with the name on the fixture's INE (issue 52: a match grants level 3).
	_, err := f.db.Exec(`UPDATE users SET nombre = 'María José López Hernández' WHERE id = $1`, uid)
	require.NoError(t, err)
	const sid = "6f1c2f4e-0c1a-4f3b-9a51-3f0f8c1b2d01"
	f.session(t, uid, sid)
	// The provider answers its v3 decision, document data included, for our user.
	decision := strings.Replace(docFixture(t, "decision_v3_ine.json"), `"vendor_data": "42"`, fmt.Sprintf(`"vendor_data": "%d"`, uid), 1)
	require.Contains(t, decision, fmt.Sprintf(`"vendor_data": "%d"`, uid))
	f.provider.mu.Lock()
	f.provider.bodies = map[string]string{sid: decision}
	f.provider.mu.Unlock()

	body := docFixture(t, "webhook_v3.json")
	sum := sha256.Sum256([]byte(body))
	id, _, err := f.store.InsertWebhook(context.Background(), "didit", hex.EncodeToString(sum[:]), nil, []byte(body))
	require.NoError(t, err)
	require.NoError(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(id))))

	level, ok := f.level(t, uid)
	require.Equal(t, 3, level, "the webhook was read whole and the decision applied")
	require.True(t, ok)
	// The provider's raw answers hold nothing personal in clear; the document's name and dates
	// are kept in their own columns (they make the profile's name), its identifiers only sealed.
	requireNoPersonal(t, "verification_sessions' raw answers", tableText(t, f.db,
		"(SELECT id, raw_response, raw_response_sealed, webhook_data, webhook_data_sealed FROM verification_sessions)"))
	for _, v := range docIdentifiers {
		require.NotContains(t, tableText(t, f.db, "verification_sessions"), v, "%q in clear in verification_sessions", v)
	}
	requireNoPersonal(t, "provider_webhooks", tableText(t, f.db, webhooksAsText))
	requireNoPersonal(t, "the worker's log", logs.String())
	var sealed int
	require.NoError(t, f.db.Get(&sealed, `SELECT count(*) FROM verification_sessions WHERE webhook_data_sealed IS NOT NULL`))
	require.Equal(t, 1, sealed, "the decision's personal part is kept, sealed")
}

func TestTheRedactionJobRunsTwiceToTheSameResult(t *testing.T) {
	t.Parallel()
	f, logs := docSetup(t, docKey)
	decision := docFixture(t, "decision_v3_ine.json")
	body := docFixture(t, "webhook_v3.json")
	// Five sessions and webhooks as the release before stored them: in clear.
	for i := range 5 {
		vid := f.session(t, f.user(t, 2), fmt.Sprintf("old-%d", i))
		_, err := f.db.Exec(`UPDATE verification_sessions SET webhook_data = $2 WHERE id = $1`, vid, decision)
		require.NoError(t, err)
		_, err = f.db.Exec(`INSERT INTO provider_webhooks (provider, body_sha256, session_id, body) VALUES ('didit', $1, $2, $3)`,
			strings.Repeat(fmt.Sprint(i), 64), fmt.Sprintf("old-%d", i), body)
		require.NoError(t, err)
	}
	require.Contains(t, tableText(t, f.db, "verification_sessions"), "LOHJ880314MDFPRS09")

	snapshot := func() string {
		return tableText(t, f.db, "(SELECT id, raw_response, raw_response_sealed, webhook_data, webhook_data_sealed FROM verification_sessions)") +
			tableText(t, f.db, webhooksAsText)
	}
	task := lvTask(jobs.NewRedactStoredDecisionsTask(jobs.RedactStoredDecisionsPayload{}))
	require.NoError(t, f.run(t, task))
	first := snapshot()
	requireNoPersonal(t, "the tables after the job", first)
	require.Contains(t, logs.String(), "table=verification_sessions seen=5 changed=5")
	require.Contains(t, logs.String(), "table=provider_webhooks seen=5 changed=5")
	requireNoPersonal(t, "the job's log", logs.String())

	// Again (a retry, or an operator running it twice): nothing to do, not a byte changed.
	require.NoError(t, f.run(t, task))
	require.Equal(t, first, snapshot())
	require.Contains(t, logs.String(), "table=verification_sessions seen=0 changed=0")

	// Even with the marks lost, a run from the start changes nothing.
	_, err := f.db.Exec(`UPDATE verification_sessions SET raw_redacted_at = NULL; UPDATE provider_webhooks SET raw_redacted_at = NULL`)
	require.NoError(t, err)
	require.NoError(t, f.run(t, task))
	require.Equal(t, first, snapshot())
	require.Contains(t, logs.String(), "table=provider_webhooks seen=5 changed=0")

	// The sealed parts still open into the provider's answers.
	wh, err := f.store.WebhookByID(context.Background(), 1)
	require.NoError(t, err)
	require.Contains(t, string(wh.Body), "LOHJ880314MDFPRS09")
}

func TestTheRedactionJobResumesAfterAnIDAndRefusesWithoutTheKey(t *testing.T) {
	t.Parallel()
	f, logs := docSetup(t, docKey)
	decision := docFixture(t, "decision_v3_ine.json")
	var vids []int64
	for i := range 3 {
		vid := f.session(t, f.user(t, 2), fmt.Sprintf("old-%d", i))
		_, err := f.db.Exec(`UPDATE verification_sessions SET webhook_data = $2 WHERE id = $1`, vid, decision)
		require.NoError(t, err)
		vids = append(vids, vid)
	}
	// Resuming after the first row leaves it as it was.
	require.NoError(t, f.run(t, lvTask(jobs.NewRedactStoredDecisionsTask(jobs.RedactStoredDecisionsPayload{AfterSession: vids[0]}))))
	require.Contains(t, logs.String(), "table=verification_sessions seen=2 changed=2")
	var clear []int64
	require.NoError(t, f.db.Select(&clear, `SELECT id FROM verification_sessions WHERE webhook_data::text LIKE '%LOHJ880314MDFPRS09%' ORDER BY id`))
	require.Equal(t, vids[:1], clear)

	keyless, _ := docSetup(t, secure.DocumentKey{})
	_, err := keyless.db.Exec(`INSERT INTO provider_webhooks (provider, body_sha256, body) VALUES ('didit', $1, $2)`, strings.Repeat("c", 64), decision)
	require.NoError(t, err)
	err = keyless.run(t, lvTask(jobs.NewRedactStoredDecisionsTask(jobs.RedactStoredDecisionsPayload{})))
	require.ErrorIs(t, err, postgres.ErrNoDocumentKey, "a worker without the key would lose what it removes")
	require.Contains(t, tableText(t, keyless.db, webhooksAsText), "LOHJ880314MDFPRS09", "nothing dropped")
}
