package load

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// newProcessRig runs the real binary as the Procfile does: `perfilseguro api` and `perfilseguro
// worker` as two processes on a fresh database and Redis DB, with the fake WhatsApp API in this
// process and the limits of sending raised out of the way (all the load comes from one IP).
func newProcessRig(b testing.TB, workerConcurrency int, extraEnv ...string) *rig {
	b.Helper()
	db, dsn := pgtest.New(b)
	opt, _ := redistest.New(b)
	r := &rig{db: db, dsn: dsn}
	graph := r.fakeWhatsApp()
	b.Cleanup(graph.Close)
	addr, metricsAddr := freeAddr(b), freeAddr(b)
	r.url = "http://" + addr
	r.metrics = "http://" + metricsAddr + "/metrics"
	env := append(os.Environ(), "APP_ENV=test", "SHUTDOWN_GRACE=2s", "DATABASE_URL="+dsn,
		"REDIS_URL="+redistest.URL(opt), "HTTP_ADDR="+addr, "METRICS_ADDR="+metricsAddr, "PUBLIC_BASE_URL="+r.url,
		"WHATSAPP_BASE_URL="+graph.URL, "WHATSAPP_ACCESS_TOKEN=bench", "WHATSAPP_PHONE_NUMBER_ID=1000",
		fmt.Sprintf("WORKER_CONCURRENCY=%d", workerConcurrency),
		"RATE_LIMIT_SEND_PER_IP=1000000000", "RATE_LIMIT_SEND_PER_PHONE=1000000000")
	env = append(env, extraEnv...)
	for _, sub := range []string{"api", "worker"} {
		cmd := exec.Command(bintest.Path(b), sub)
		cmd.Env = env // output goes to /dev/null: both log every request and job
		require.NoError(b, cmd.Start())
		b.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
		})
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(r.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		require.True(b, time.Now().Before(deadline), "the API never became ready")
		time.Sleep(50 * time.Millisecond)
	}
	return r
}
