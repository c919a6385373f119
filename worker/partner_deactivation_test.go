package worker_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// Issue 54 item 4: a deactivated partner gets no webhook delivery, neither from the dispatch
// sweep nor from a task already queued; reactivated, what waited is sent.
func TestADeactivatedPartnerGetsNoWebhookUntilReactivated(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var calls atomic.Int32
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer partner.Close()

	var pid, did int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret, is_active)
		VALUES ('pk_off', 'CasaLista', 'https://casalista.example', $1, 'whsec_test', false) RETURNING id`, partner.URL))
	require.NoError(t, db.Get(&did, `INSERT INTO partner_deliveries (partner_id, event, payload)
		VALUES ($1, 'verification_session.completed', '{"id":"vs_1"}') RETURNING id`, pid))

	w, opt := partnerWorker(t, db)
	ctx := context.Background()
	pending := func() []*asynq.TaskInfo {
		insp := asynq.NewInspector(opt)
		defer insp.Close()
		tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
		if errors.Is(err, asynq.ErrQueueNotFound) { // nothing was ever enqueued
			return nil
		}
		require.NoError(t, err)
		return tasks
	}

	// The sweep enqueues nothing for it, and a task queued before the deactivation sends nothing.
	dispatch, _ := jobs.NewPartnerDispatchTask("t1")
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch))
	require.Empty(t, pending())
	notify, err := jobs.NewPartnerNotifyTask(did, 1)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(ctx, notify))
	require.Zero(t, calls.Load())
	var attempts int
	require.NoError(t, db.Get(&attempts, `SELECT attempts FROM partner_deliveries WHERE id = $1`, did))
	require.Zero(t, attempts, "no attempt is spent while the partner is off")

	// Reactivated: the sweep sends it.
	_, err = db.Exec(`UPDATE api_keys SET is_active = true WHERE id = $1`, pid)
	require.NoError(t, err)
	dispatch2, _ := jobs.NewPartnerDispatchTask("t2")
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch2))
	tasks := pending()
	require.Len(t, tasks, 1)
	require.NoError(t, w.Handler().ProcessTask(ctx, asynq.NewTask(tasks[0].Type, tasks[0].Payload)))
	require.Equal(t, int32(1), calls.Load())
}
