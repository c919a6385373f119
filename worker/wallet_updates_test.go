package worker_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// scriptedObjects is a Google Wallet updater that records what it is given and answers err.
type scriptedObjects struct {
	mu      sync.Mutex
	updates []perfilseguro.PassData
	err     error
}

func (s *scriptedObjects) UpdatePass(_ context.Context, p perfilseguro.PassData) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates = append(s.updates, p)
	return s.err
}

// The saved Google object follows every change of a pass that existed (not its first build), and
// the job retries only what a retry can fix.
func TestGoogleObjectsFollowTheirPassAndRetryOnlyWhatCanBeFixed(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	queue, objects, passes := &lvQueue{}, &scriptedObjects{}, &countingPasses{}
	w := newTestWorker(t, worker.Deps{DB: db, Enqueuer: queue, PublicBaseURL: "https://perfilseguro.mx",
		Sealer: sealer, Passes: worker.PassesDeps{Apple: passes, Google: passes, GoogleObjects: objects}})
	ctx := context.Background()
	validated := time.Now().AddDate(0, -2, 0)
	id := insertUser(t, db, 3, &validated, 1)
	build := func() {
		task, err := jobs.NewBuildGooglePassTask(id)
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(ctx, task))
	}
	build()
	require.Empty(t, queue.types(), "a first build has no saved object to update")

	_, err := db.Exec(`UPDATE users SET revoked_at = now(), revoked_reason = 'Fraude' WHERE id = $1`, id)
	require.NoError(t, err)
	build()
	require.Equal(t, []string{jobs.TypeUpdateGoogleObject}, queue.types())
	update := queue.tasks[0]
	require.NoError(t, w.Handler().ProcessTask(ctx, update))
	require.Len(t, objects.updates, 1)
	require.Equal(t, perfilseguro.PassRevoked, objects.updates[0].Status)
	require.Equal(t, "Ana López", objects.updates[0].Name)

	for _, c := range []struct {
		err       error
		want      error
		retryable bool
	}{
		{fmtErr(perfilseguro.ErrPassNotSaved), nil, false},
		{fmtErr(perfilseguro.ErrPermanent), asynq.SkipRetry, false},
		{errors.New("googlewallet: 503"), nil, true},
	} {
		objects.err = c.err
		err := w.Handler().ProcessTask(ctx, update)
		switch {
		case c.retryable:
			require.Error(t, err)
			require.NotErrorIs(t, err, asynq.SkipRetry)
		case c.want == nil:
			require.NoError(t, err, "an object nobody saved is nothing to update")
		default:
			require.ErrorIs(t, err, c.want)
		}
	}

	// A job for an older build does nothing: the newer build has its own.
	objects.err = nil
	before := len(objects.updates)
	_, err = db.Exec(`UPDATE users SET nombre = 'Ana María López' WHERE id = $1`, id)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(ctx, update))
	require.Len(t, objects.updates, before)
}

func fmtErr(wrapped error) error { return errors.Join(errors.New("googlewallet: refused"), wrapped) }

// The wallet sweep re-queues what a lost enqueue left undone (a deleted account's passes to void,
// a pass older than its profile's revocation) and forgets a deleted account's pass after 30 days.
func TestWalletSweepRequeuesLostWorkAndForgetsOldTombstones(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	queue := &lvQueue{}
	now := time.Now()
	w := newTestWorker(t, worker.Deps{DB: db, Enqueuer: queue, PublicBaseURL: "https://perfilseguro.mx",
		Sealer: sealer, Now: func() time.Time { return now }})
	ctx := context.Background()
	validated := now.AddDate(0, -3, 0)

	// A deleted account whose void job was lost, and one deleted 31 days ago (voided long since).
	withToken := func(serialOf int64) string {
		var serial string
		require.NoError(t, db.Get(&serial, `INSERT INTO apple_pass_tokens (user_id, serial_number, token_hash, token_sealed)
			SELECT id, id_validado, repeat('a', 64), 'sealed' FROM users WHERE id = $1 RETURNING serial_number`, serialOf))
		_, err := db.Exec(`INSERT INTO apple_pass_registrations (device_library_id, pass_type_id, serial_number, push_token)
			VALUES ('dev', 'pass.mx.perfilseguro.dev', $1, 'push')`, serial)
		require.NoError(t, err)
		return serial
	}
	lost := withToken(insertUser(t, db, 3, &validated, 1))
	old := withToken(insertUser(t, db, 3, &validated, 1))
	_, err := db.Exec(`DELETE FROM users WHERE id_validado IN ($1, $2)`, lost, old)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE wallet_tombstones SET deleted_at = now() - interval '5 minutes' WHERE serial_number = $1`, lost)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE wallet_tombstones SET deleted_at = now() - interval '31 days', voided_at = now() - interval '31 days' WHERE serial_number = $1`, old)
	require.NoError(t, err)

	// A revoked profile whose rebuild was lost, and one revoked a moment ago (its rebuild is queued).
	stale, fresh := insertUser(t, db, 3, &validated, 1), insertUser(t, db, 3, &validated, 1)
	for _, id := range []int64{stale, fresh} {
		_, err := db.Exec(`INSERT INTO wallet_passes (user_id, kind, data_hash, save_url, built_at)
			VALUES ($1, 'google', repeat('b', 64), 'https://pay.google.com/gp/v/save/x', now() - interval '1 hour')`, id)
		require.NoError(t, err)
	}
	_, err = db.Exec(`UPDATE users SET revoked_at = CASE WHEN id = $1 THEN now() - interval '10 minutes' ELSE now() END,
		revoked_reason = 'Fraude' WHERE id IN ($1, $2)`, stale, fresh)
	require.NoError(t, err)

	task, err := jobs.NewSweepWalletTask("tick")
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(ctx, task))
	require.ElementsMatch(t, []string{jobs.TypeVoidDeletedPasses, jobs.TypeBuildGooglePass}, queue.types())
	for _, q := range queue.tasks {
		if q.Type() == jobs.TypeVoidDeletedPasses {
			require.JSONEq(t, `{"serialNumber":"`+lost+`"}`, string(q.Payload()))
		} else {
			require.JSONEq(t, `{"userId":`+itoa(stale)+`}`, string(q.Payload()))
		}
	}
	var tokens, registrations, tombstones int
	require.NoError(t, db.Get(&tokens, `SELECT count(*) FROM apple_pass_tokens WHERE serial_number = $1`, old))
	require.NoError(t, db.Get(&registrations, `SELECT count(*) FROM apple_pass_registrations WHERE serial_number = $1`, old))
	require.NoError(t, db.Get(&tombstones, `SELECT count(*) FROM wallet_tombstones WHERE serial_number = $1`, old))
	require.Zero(t, tokens+registrations+tombstones, "after 30 days nothing of the deleted account's pass is kept")
	require.NoError(t, db.Get(&tokens, `SELECT count(*) FROM apple_pass_tokens WHERE serial_number = $1 AND user_id IS NULL`, lost))
	require.Equal(t, 1, tokens, "a recent deletion's pass is kept for its devices")
}
