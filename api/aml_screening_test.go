package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/screening"
	"github.com/perfilseguro/perfilseguro/worker"
)

// Issue 53 item 3: recording an operation queues the screening of its people; with Redis down the
// operation is still recorded (Postgres is the truth) and the scheduler's sweep screens it later.

// listedPerson is a verified person whose document name is on the fixture UN list.
func listedPerson(t *testing.T, e *env) int64 {
	t.Helper()
	uid := amlPerson(t, e.db, true)
	_, err := e.db.Exec(`UPDATE users SET nombre = 'José Ángel Barragán Quintero' WHERE id = $1`, uid)
	require.NoError(t, err)
	_, err = screening.ImportUNList(context.Background(), &postgres.Store{DB: e.db}, screening.FixtureSource)
	require.NoError(t, err)
	return uid
}

func screeningWorker(t *testing.T, e *env, q jobs.Enqueuer) *worker.Worker {
	t.Helper()
	return worker.New(e.asynqOpt, 1, time.Second, worker.Deps{DB: e.db, Enqueuer: q, Documents: defaultTestDocumentKey})
}

func TestRecordingAnOperationScreensItsPeople(t *testing.T) {
	t.Parallel()
	o := operationsSetup(t)
	uid := listedPerson(t, o.env)
	r := o.record(t, o.live, operation(completedSession(t, o.db, o.partnerID, uid, true, "completed"), nil))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	op := r.JSON(t)["id"].(string)

	info, err := asynq.NewInspector(o.asynqOpt).GetTaskInfo(jobs.QueueDefault, jobs.TypeAMLScreenOperation+":"+op)
	require.NoError(t, err, "the screening is queued")
	task := asynq.NewTask(info.Type, info.Payload)
	require.NoError(t, screeningWorker(t, o.env, o.queue).Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, countOf(t, o.db, `SELECT count(*) FROM aml_hits WHERE operation_id = $1 AND entry_id = '9100001' AND blocking`, op))
}

func TestAnOperationRecordedWithRedisDownIsScreenedByTheSweep(t *testing.T) {
	t.Parallel()
	dead := &lvQueue{dead: true}
	e := setup(t, func(d *api.Deps) { dead.live = d.Queue; d.Queue = dead })
	e.addPartner(t, "pk_live_0000000000000000000a0b01", "https://casalista.example", true, "widget_auth")
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000a0b01'`)
	key := []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0b01", true)}
	uid := listedPerson(t, e)

	r := e.send(t, anonymous(), "POST", "/api/partner/v1/operations",
		operation(completedSession(t, e.db, partner, uid, true, "completed"), nil), key...)
	require.Equal(t, http.StatusCreated, r.Status, "recorded although Redis is down: %s", r.Body)
	op := r.JSON(t)["id"].(string)
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_operation_people WHERE operation_id = $1 AND screened_at IS NULL`, op))

	// Minutes later Redis is back and the scheduler's sweep runs.
	_, err := e.db.Exec(`UPDATE aml_operation_people SET created_at = now() - interval '10 minutes' WHERE operation_id = $1`, op)
	require.NoError(t, err)
	w := screeningWorker(t, e, e.queue)
	sweep, err := jobs.NewAMLSweepTask("2026-11-28T06:05:00Z")
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), sweep))
	info, err := asynq.NewInspector(e.asynqOpt).GetTaskInfo(jobs.QueueDefault, jobs.TypeAMLScreenOperation+":"+op)
	require.NoError(t, err, "the sweep queued the screening")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), asynq.NewTask(info.Type, info.Payload)))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_hits WHERE operation_id = $1 AND entry_id = '9100001'`, op))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM aml_operation_people WHERE operation_id = $1 AND screened_at IS NULL`, op))
}
