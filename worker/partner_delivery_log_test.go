package worker_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
	"github.com/perfilseguro/perfilseguro/worker"
)

// A webhook whose host resolves to a private address is refused, and the partner-visible log
// says only that the address is not public: not which address it resolved to.
func TestARefusedDeliveryDoesNotTellThePartnerTheResolvedAddress(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { calls++ }))
	defer srv.Close()
	// "localhost" resolves (127.0.0.1 or ::1): the address is found by DNS, not written in the URL.
	hook := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)

	var pid, uid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_private_hook', 'CasaLista', 'https://casalista.example', $1, 'whsec_test') RETURNING id`, hook))
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado, partner_id) VALUES ('Ana', 'PS-1111-2222-44', $1) RETURNING id`, pid))
	_, err := db.Exec(`UPDATE users SET verification_level = 1, is_phone_verified = true WHERE id = $1`, uid)
	require.NoError(t, err)

	opt, ropts := redistest.New(t)
	client := asynq.NewClient(opt)
	rc := redis.NewClient(ropts)
	t.Cleanup(func() { client.Close(); rc.Close() })
	w := worker.New(opt, 1, time.Second, worker.Deps{DB: db, Enqueuer: client, Redis: rc,
		HTTPClient: outbound.PublicOnlyClient(5 * time.Second)})
	ctx := context.Background()
	dispatch, _ := jobs.NewPartnerDispatchTask("t1")
	require.NoError(t, w.Handler().ProcessTask(ctx, dispatch))
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	require.NoError(t, w.Handler().ProcessTask(ctx, asynq.NewTask(tasks[0].Type, tasks[0].Payload)))

	var attempts int
	var lastError string
	require.NoError(t, db.QueryRow(`SELECT attempts, last_error FROM partner_deliveries`).Scan(&attempts, &lastError))
	require.Equal(t, 1, attempts, "the attempt is logged, to be retried")
	require.Zero(t, calls, "nothing reached the private address")
	require.Equal(t, perfilseguro.AddressNotPublicNote, lastError)
	for _, leak := range []string{"127.0.0.1", "::1", "dial", "not public:"} {
		require.NotContains(t, lastError, leak)
	}
}
