package faults

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// pgCluster is a private PostgreSQL instance a test may restart without disturbing others.
type pgCluster struct {
	t    *testing.T
	dir  string
	port int
	bin  string
}

func pgBinDir() string {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return ""
	}
	return filepath.Dir(matches[len(matches)-1])
}

// asPostgres runs a PostgreSQL tool, as the postgres user when we are root (initdb refuses root).
func (c *pgCluster) asPostgres(tool string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, tool)
	if isRoot() {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func startPostgres(t *testing.T) *pgCluster {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		t.Skip("PostgreSQL server binaries not installed")
	}
	dir, err := os.MkdirTemp("", "pgfault")
	require.NoError(t, err)
	if isRoot() {
		require.NoError(t, exec.Command("chown", "postgres", dir).Run())
	}
	c := &pgCluster{t: t, dir: dir, port: freePort(t), bin: bin}
	out, err := c.asPostgres("initdb", "-D", filepath.Join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync").CombinedOutput()
	require.NoError(t, err, string(out))
	c.start()
	t.Cleanup(func() {
		c.stop()
		os.RemoveAll(dir)
	})
	return c
}

func (c *pgCluster) start() {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", c.port, c.dir)
	out, err := c.asPostgres("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "start").CombinedOutput()
	require.NoError(c.t, err, string(out))
}

func (c *pgCluster) stop() {
	c.asPostgres("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "fast", "-w", "stop").Run()
}

func (c *pgCluster) url() string {
	return "postgres://postgres@127.0.0.1:" + strconv.Itoa(c.port) + "/postgres?sslmode=disable"
}

// Postgres restarted: the API answers 503 meanwhile and recovers by itself.
func TestAPIRecoversAfterPostgresRestart(t *testing.T) {
	t.Parallel()
	pg := startPostgres(t)
	redis := startRedis(t)
	env := map[string]string{"DATABASE_URL": pg.url(), "REDIS_URL": redis.url()}
	cmd := exec.Command(bintest.Path(t), "migrate")
	cmd.Env = append(os.Environ(), "APP_ENV=test", "DATABASE_URL="+pg.url())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	api := startAPI(t, env)

	status, _ := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status)

	pg.stop()
	require.Eventually(t, func() bool { return api.get("/readyz") == http.StatusServiceUnavailable }, 10*time.Second, 100*time.Millisecond)
	status, body := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusServiceUnavailable, status, body)
	require.Contains(t, body["message"], "no está disponible")

	pg.start()
	require.Eventually(t, func() bool { return api.get("/readyz") == http.StatusOK }, 30*time.Second, 200*time.Millisecond)
	require.Eventually(t, func() bool {
		status, _ := api.post("/api/register", nextRegistration())
		return status == http.StatusCreated
	}, 30*time.Second, 500*time.Millisecond, "registration works again without a restart of the API")
}

// A failover as the API sees it through haproxy: every connection to Postgres breaks and new ones
// are refused for a few seconds (no primary), then a primary answers again at the same address.
// Meanwhile requests get a prompt 503 in Spanish (not a 500, not a hang) and /readyz names
// postgres; afterwards the same process serves again, with no restart.
func TestAPIRidesOutAFailoverBehindAProxy(t *testing.T) {
	t.Parallel()
	_, dsn := pgtest.New(t)
	proxy := pgtest.NewProxy(t, dsn)
	redis := startRedis(t)
	api := startAPI(t, map[string]string{"DATABASE_URL": proxy.URL(dsn), "REDIS_URL": redis.url()})
	status, body := api.post("/api/register", nextRegistration())
	require.Equal(t, http.StatusCreated, status, body)

	proxy.Down()
	for range 3 {
		start := time.Now()
		status, body := api.post("/api/register", nextRegistration())
		require.Equal(t, http.StatusServiceUnavailable, status, body)
		require.Contains(t, body["message"], "no está disponible")
		require.Less(t, time.Since(start), 5*time.Second)
	}
	status, ready := api.getJSON("/readyz")
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, "unreachable", ready["checks"].(map[string]any)["postgres"], ready)
	time.Sleep(2 * time.Second)

	proxy.Up()
	require.Eventually(t, func() bool {
		status, _ := api.post("/api/register", nextRegistration())
		return status == http.StatusCreated
	}, 15*time.Second, 200*time.Millisecond, "registration works again without a restart of the API")
	require.Equal(t, http.StatusOK, api.get("/readyz"))
}
