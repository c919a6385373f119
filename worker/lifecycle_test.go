package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// The expiry job runs on a controllable clock: nothing at the last second of the validity, the
// expiry recorded at its end, the passes rebuilt voided, and nothing more on the next run.
func TestExpiryIsRecordedWhenTheValidityEndsAndThePassesAreVoided(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	opt, queue := newQueue(t)
	validated := time.Date(2025, 11, 22, 12, 0, 0, 0, time.UTC)
	id := insertUser(t, db, 3, &validated, 1)
	now := validated.AddDate(1, 0, 0).Add(-time.Second)
	fake := &countingPasses{}
	w := worker.New(opt, 1, time.Second, worker.Deps{DB: db, Enqueuer: queue, PublicBaseURL: "https://perfilseguro.mx", Sealer: sealer,
		Passes: worker.PassesDeps{Apple: fake, Google: fake}, Now: func() time.Time { return now }})
	ctx := context.Background()
	run := func() {
		task, err := jobs.NewExpireProfilesTask(now.Format(time.RFC3339Nano))
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(ctx, task))
	}
	expiredAt := func() *time.Time {
		var at *time.Time
		require.NoError(t, db.Get(&at, `SELECT expired_at FROM users WHERE id = $1`, id))
		return at
	}
	run()
	require.Nil(t, expiredAt(), "one second before the end it is still valid")

	now = validated.AddDate(1, 0, 0)
	run()
	require.NotNil(t, expiredAt())
	require.True(t, expiredAt().Equal(now), "recorded at the job's moment")
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	pending, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	var types []string
	for _, p := range pending {
		types = append(types, p.Type)
	}
	require.ElementsMatch(t, []string{jobs.TypeBuildApplePass, jobs.TypeBuildGooglePass}, types, "both passes are rebuilt")

	// The rebuilt passes carry the expired status (the builders void them).
	apple, _ := jobs.NewBuildApplePassTask(id)
	require.NoError(t, w.Handler().ProcessTask(ctx, apple))
	require.Equal(t, perfilseguro.PassExpired, fake.last.Status)

	now = now.Add(time.Hour)
	run()
	var events int
	require.NoError(t, db.Get(&events, `SELECT count(*) FROM profile_events WHERE user_id = $1 AND kind = 'expired'`, id))
	require.Equal(t, 1, events, "recorded once")
}
