package worker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/screening"
	"github.com/perfilseguro/perfilseguro/worker"
)

func TestTheUNListImportJobStoresTheLiveAndTestListsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, worker.Deps{})
	task, err := jobs.NewImportUNListTask(screening.FixtureSource)
	require.NoError(t, err)
	require.NoError(t, f.w.Handler().ProcessTask(context.Background(), task))
	require.NoError(t, f.w.Handler().ProcessTask(context.Background(), task), "a retry or a second run")

	var lists []struct {
		TestMode bool `db:"test_mode"`
		Versions int  `db:"versions"`
	}
	require.NoError(t, f.db.Select(&lists, `SELECT l.test_mode, count(v.id) AS versions FROM screening_lists l
		JOIN screening_list_versions v ON v.list_id = l.id WHERE l.kind = 'un' AND l.owner_id IS NULL
		GROUP BY l.id, l.test_mode ORDER BY l.test_mode`))
	require.Len(t, lists, 2)
	require.False(t, lists[0].TestMode)
	require.True(t, lists[1].TestMode)
	require.Equal(t, 1, lists[0].Versions)
	require.Equal(t, 1, lists[1].Versions)
}

func TestTheUNListImportJobRefusesAnEmptySourceForGood(t *testing.T) {
	t.Parallel()
	f := newFixture(t, worker.Deps{})
	task, err := jobs.NewImportUNListTask("")
	require.NoError(t, err)
	err = f.w.Handler().ProcessTask(context.Background(), task)
	require.True(t, errors.Is(err, asynq.SkipRetry), "%v", err)

	task, err = jobs.NewImportUNListTask("/nonexistent/consolidated.xml")
	require.NoError(t, err)
	err = f.w.Handler().ProcessTask(context.Background(), task)
	require.Error(t, err)
	var n int
	require.NoError(t, f.db.Get(&n, `SELECT count(*) FROM screening_list_versions`))
	require.Zero(t, n)
}
