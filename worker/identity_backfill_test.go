package worker_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/secure"
)

func TestTheIdentityBackfillJobLogsItsProgressAndRunsTwiceToTheSameResult(t *testing.T) {
	t.Parallel()
	f, logs := docSetup(t, docKey)
	decision := docFixture(t, "decision_v3_ine.json") // MARÍA JOSÉ LÓPEZ HERNÁNDEZ's INE
	decided := time.Date(2025, 6, 1, 18, 0, 0, 0, time.UTC)
	// Validated before issue 52: level 3 under the typed name, the decision stored in clear (the
	// backfill may run before the redaction job) and no verdict; one stored without a document.
	legacy := func(name, sid, stored string) int64 {
		uid := f.user(t, 2)
		vid := f.session(t, uid, sid)
		_, err := f.db.Exec(`UPDATE users SET nombre = $2, verification_level = 3, biometric_verified = true,
			fecha_validacion = $3, didit_session_id = $4 WHERE id = $1`, uid, name, decided, sid)
		require.NoError(t, err)
		_, err = f.db.Exec(`UPDATE verification_sessions SET verification_status = 'Approved', completed_at = $2,
			webhook_data = $3 WHERE id = $1`, vid, decided, stored)
		require.NoError(t, err)
		return uid
	}
	maria := legacy("Maria Jose Lopez Hernandez", "legacy-1", decision)
	legacy("Pedro Gómez Luna", "legacy-2", `{"session_id": "legacy-2", "status": "Approved"}`)

	snapshot := func() string {
		return tableText(t, f.db, `(SELECT id, nombre, name_source, verification_level, fecha_validacion, document_key,
			identity_verification_id, updated_at FROM users)`) +
			tableText(t, f.db, `(SELECT id, identity_verdict, identity_findings, duplicate_of, document_read_at FROM verification_sessions)`)
	}
	task := lvTask(jobs.NewBackfillIdentityTask(jobs.BackfillIdentityPayload{}))
	require.NoError(t, f.run(t, task))
	first := snapshot()
	require.Contains(t, logs.String(), "msg=\"backfilling identity from stored decisions\"")
	require.Contains(t, logs.String(), "batch_seen=2 batch_changed=1 batch_missing=1")
	require.Contains(t, logs.String(), "listed_missing_document=1 listed_duplicate=0")
	requireNoPersonal(t, "the job's log", logs.String())

	var verdict string
	require.NoError(t, f.db.Get(&verdict, `SELECT identity_verdict FROM verification_sessions WHERE session_id = 'legacy-1'`))
	var nombre string
	var level int
	require.NoError(t, f.db.QueryRow(`SELECT nombre, verification_level FROM users WHERE id = $1`, maria).Scan(&nombre, &level))
	require.Equal(t, 3, level, "nobody loses a level")
	require.Equal(t, "match", verdict)
	require.Equal(t, "María José López Hernández", nombre, "the profile carries the document's name")
	require.Contains(t, f.queue.types(), jobs.TypeBuildApplePass, "the pass is rebuilt with it")
	require.Contains(t, logs.String(), "bound=1")

	// Again: the check with a verdict is not read, the one without a document is looked at only.
	require.NoError(t, f.run(t, task))
	require.Equal(t, first, snapshot())
	require.Contains(t, logs.String(), "batch_seen=1 batch_changed=0 batch_missing=1")

	keyless, _ := docSetup(t, secure.DocumentKey{})
	err := keyless.run(t, task)
	require.Error(t, err)
	require.Contains(t, fmt.Sprint(err), "DOCUMENT_DATA_KEY")
}
