package worker_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// refusingMail refuses every message for good (a rejected address).
type refusingMail struct{ tries int }

func (m *refusingMail) SendEmail(context.Context, perfilseguro.Email) error {
	m.tries++
	return fmt.Errorf("550 no such mailbox: %w", perfilseguro.ErrPermanent)
}

// TestAnExportThatCannotBeDeliveredLeavesNothing: when the e-mail is refused for good, the built
// archive is erased, the export is marked failed, and the person may ask again the same day.
func TestAnExportThatCannotBeDeliveredLeavesNothing(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	opt, client := newQueue(t)
	sealer := secure.NewSealer(lvSecret)
	var user int64
	require.NoError(t, db.Get(&user, `INSERT INTO users (nombre, email, id_validado) VALUES ('Ana López', 'ana@example.com', 'PS-1000-2000-30') RETURNING id`))
	now := time.Now()
	insert := func(tokenByte string) int64 {
		var id int64
		require.NoError(t, db.Get(&id, `INSERT INTO data_exports (user_id, requested_day, token_hash, sealed_token, requested_at, expires_at)
			VALUES ($1, $2, repeat($3, 64), $4, $5, $6) RETURNING id`, user, perfilseguro.MexicoDay(now), tokenByte,
			sealer.Seal("t"+tokenByte), now.Add(-5*time.Minute), now.Add(24*time.Hour)))
		return id
	}
	id := insert("a")
	mail := &refusingMail{}
	w := worker.New(opt, 1, time.Second, worker.Deps{DB: db, Enqueuer: client, Email: mail, Sealer: sealer, PublicBaseURL: "http://x"})
	task, err := jobs.NewBuildDataExportTask(jobs.BuildDataExportPayload{ExportID: id, ExpiresAt: now.Add(24 * time.Hour)})
	require.NoError(t, err)
	err = w.Handler().ProcessTask(context.Background(), task)
	require.ErrorIs(t, err, asynq.SkipRetry)
	require.Equal(t, 1, mail.tries)
	var status string
	var archive, sealed *string
	require.NoError(t, db.QueryRow(`SELECT status, archive::text, sealed_token FROM data_exports WHERE id = $1`, id).Scan(&status, &archive, &sealed))
	require.Equal(t, "failed", status)
	require.Nil(t, archive)
	require.Nil(t, sealed)
	insert("b") // the day's export was not spent

	// A queued export whose job Redis lost is queued again by the retention run.
	retention, err := jobs.NewApplyRetentionTask("tick-1")
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), retention))
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	var stranded int64
	require.NoError(t, db.Get(&stranded, `SELECT id FROM data_exports WHERE status = 'queued'`))
	info, err := insp.GetTaskInfo(jobs.QueueDefault, fmt.Sprintf("%s:%d", jobs.TypeBuildDataExport, stranded))
	require.NoError(t, err, "re-queued")
	require.Equal(t, jobs.TypeBuildDataExport, info.Type)
	require.False(t, errors.Is(err, asynq.ErrTaskNotFound))
}
