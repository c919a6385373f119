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
	return newProcessRigAs(b, procfileSetup, workerConcurrency, extraEnv...)
}

// setup is how the binary runs in a rig.
type setup string

const (
	procfileSetup  setup = "procfile"     // `perfilseguro api` and `perfilseguro worker`, two processes
	devSetup       setup = "dev"          // `perfilseguro dev`: API, worker and scheduler in one process (make run)
	farSetup       setup = "postgres-5ms" // as the Procfile, with Postgres 5 ms of round trip away
	farPostgresRTT       = 5 * time.Millisecond
)

func newProcessRigAs(b testing.TB, how setup, workerConcurrency int, extraEnv ...string) *rig {
	b.Helper()
	db, dsn := pgtest.New(b)
	opt, _ := redistest.New(b)
	procDSN := dsn
	if how == farSetup {
		proxy := pgtest.NewProxy(b, dsn)
		proxy.SetDelay(farPostgresRTT / 2)
		procDSN = proxy.URL(dsn)
	}
	r := &rig{db: db, dsn: dsn}
	graph := r.fakeWhatsApp()
	b.Cleanup(graph.Close)
	addr, metricsAddr := bintest.FreeAddr(b), bintest.FreeAddr(b)
	r.url = "http://" + addr
	r.metrics = "http://" + metricsAddr + "/metrics"
	env := append(os.Environ(), "APP_ENV=test", "SHUTDOWN_GRACE=2s", "DATABASE_URL="+procDSN,
		"REDIS_URL="+redistest.URL(opt), "HTTP_ADDR="+addr, "METRICS_ADDR="+metricsAddr, "PUBLIC_BASE_URL="+r.url,
		"WHATSAPP_BASE_URL="+graph.URL, "WHATSAPP_ACCESS_TOKEN=bench", "WHATSAPP_PHONE_NUMBER_ID=1000",
		fmt.Sprintf("WORKER_CONCURRENCY=%d", workerConcurrency),
		"RATE_LIMIT_SEND_PER_IP=1000000000", "RATE_LIMIT_SEND_PER_PHONE=1000000000")
	env = append(env, extraEnv...)
	subs := []string{"api", "worker"}
	if how == devSetup {
		subs = []string{"dev"}
	}
	for _, sub := range subs {
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
