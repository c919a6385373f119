package worker_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// scriptedPusher answers each push token with a scripted error.
type scriptedPusher map[string]error

func (s scriptedPusher) PushPassUpdate(_ context.Context, token string) error { return s[token] }

func TestPassPushesRetryOnlyWhatARetryCanFix(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	now := time.Now()
	id := insertUser(t, db, 3, &now, 1)
	_, err := db.Exec(`INSERT INTO apple_pass_tokens (user_id, serial_number, token_hash, token_sealed)
		SELECT id, id_validado, repeat('a', 64), 'sealed' FROM users WHERE id = $1`, id)
	require.NoError(t, err)
	for _, tok := range []string{"ok", "gone", "refused", "down"} {
		_, err := db.Exec(`INSERT INTO apple_pass_registrations (device_library_id, pass_type_id, serial_number, push_token)
			SELECT $2, 'pass.mx.test', id_validado, $2 FROM users WHERE id = $1`, id, tok)
		require.NoError(t, err)
	}
	pusher := scriptedPusher{"gone": fmt.Errorf("410: %w", perfilseguro.ErrPushTokenGone),
		"refused": fmt.Errorf("400 BadDeviceToken: %w", perfilseguro.ErrPermanent), "down": errors.New("503")}
	w := newTestWorker(t, worker.Deps{DB: db, Passes: worker.PassesDeps{Pusher: pusher}})
	task, err := jobs.NewPushPassUpdateTask(jobs.PushPassUpdatePayload{UserID: id, DataHash: "h"})
	require.NoError(t, err)

	err = w.Handler().ProcessTask(context.Background(), task)
	require.ErrorContains(t, err, "503", "APNs down: retried")
	var left []string
	require.NoError(t, db.Select(&left, `SELECT push_token FROM apple_pass_registrations ORDER BY push_token`))
	require.Equal(t, []string{"down", "ok", "refused"}, left, "a 410 forgot its device; nothing else did")

	delete(pusher, "down")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task), "a permanent refusal is not retried")
}
