package scale

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
)

// The Postgres rig: three PostgreSQL 15 instances, each run by its own Patroni, agreeing through a
// three-member etcd cluster, with HAProxy in front routing to whoever Patroni's REST API calls the
// leader (and, on a second port, to the replicas). Everything runs on loopback in temporary
// directories on free ports, as the postgres user when the test runs as root (initdb refuses
// root), and is SIGKILLed when the test ends.
//
// Settings, and why:
//
//   - ttl 10, loop_wait 1, retry_timeout 4. The leader key lives ttl seconds without a renewal;
//     a lost host is noticed when it expires, so a failover takes about ttl + loop_wait (~11 s),
//     well under the 30 s the scenarios allow. Patroni's rule loop_wait + 2×retry_timeout ≤ ttl
//     (1 + 8 ≤ 10) keeps a leader that retries a slow etcd for retry_timeout from losing its key
//     meanwhile. Lower ttls make a stalled Patroni (two shared CPUs under load) lose its
//     leadership for nothing, so 10 is the floor we accept here.
//   - synchronous_mode true, synchronous_node_count 1: a commit is acknowledged once one other
//     node has flushed it, and Patroni promotes only that synchronous standby, so a lost primary
//     loses no acknowledged commit. One, not two: with three nodes a second synchronous standby
//     would make every single failure (the death of either standby) block commits until Patroni
//     reconfigures the synchronous set; one is the most a three-node cluster can ask and still
//     tolerate any one loss. synchronous_mode_strict stays off: with both standbys gone the
//     primary keeps accepting writes (availability over a second copy, as Patroni's default).
//   - fsync off. No scenario crashes a kernel: a killed process (postgres-kill) leaves its writes
//     in the page cache the surviving OS still holds, and the lost host (postgres-host) is never
//     brought back, so its disk does not matter at all; what protects the acknowledged commits
//     there is the synchronous standby having received them, which the test checks on the new
//     leader. fsync would only add the disk's flush latency of this shared machine to every
//     commit. It does mean the synchronous-replication cost measured here is the round trip to
//     the standby on loopback, without its disk flush or a network.
//   - HAProxy: option httpchk GET /primary (200 only on the leader) for the read-write port,
//     GET /replica (200 on a running replica) for the read-only one; inter 250ms fall 2 rise 1: a
//     dead leader is out after about half a second and the new one in within a quarter of a
//     second of its promotion (a check is one HTTP request to Patroni: cheap at 4 a second);
//     on-marked-down shutdown-sessions cuts the connections still open to a node marked down, so
//     the app's pool does not keep talking to a demoted primary. timeout connect/check 1 s; the
//     client/server timeouts are long (1 h) because the app keeps idle pooled connections and a
//     LISTEN connection, which a short idle timeout would cut for nothing. retries 0: HAProxy's
//     retries wait up to a second each before trying the same (dead or stopping) node again, so a
//     connection attempt hung until the client's connect_timeout; the app retries by itself every
//     100 ms (postgres.waitingConnector), and a switchover's gap fell from 2.0-2.1 s to 1.3 s.

// postgresUser is the account Patroni and Postgres run as when the test runs as root.
func postgresCred(t *testing.T) *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	require.NoError(t, err, "the postgres user (Debian's postgresql package creates it)")
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// pgBin is the newest PostgreSQL server binaries' directory.
func pgBin() string {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return ""
	}
	return filepath.Dir(matches[len(matches)-1])
}

// requirePatroniTools skips (outside CI) or fails (in CI, where scripts/ensure-tools.sh --test
// installs them) when the cluster's programs are missing.
func requirePatroniTools(t *testing.T) {
	var missing []string
	for _, tool := range []string{"patroni", "patronictl", "etcd", "haproxy"} {
		if _, err := exec.LookPath(tool); err != nil {
			if _, err := os.Stat("/usr/sbin/" + tool); err != nil {
				missing = append(missing, tool)
			}
		}
	}
	if pgBin() == "" {
		missing = append(missing, "postgresql server binaries")
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("the Postgres scenarios need %s (scripts/ensure-tools.sh --test installs them)", strings.Join(missing, ", "))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// quiet drops the tracebacks Patroni's REST API logs each time HAProxy closes a health check
// before reading the whole answer (harmless, and they would bury everything else), and the
// once-a-second "no action" of its loop.
func quiet(log string) string {
	var out []string
	skipping := false
	for _, l := range strings.Split(log, "\n") {
		switch {
		case strings.Contains(l, "Exception happened during processing of request"),
			strings.Contains(l, "WARNING: Traceback"):
			skipping = true
			continue
		case strings.Contains(l, "INFO: no action. I am"):
			// Patroni's loop says so every second: the state changes are what a failure needs.
			continue
		case skipping && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "ConnectionResetError") ||
			strings.HasPrefix(l, "BrokenPipeError") || l == ""):
			continue
		}
		skipping = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// bg is a background process of the rig in its own process group, killed with the group.
type bg struct {
	name string
	cmd  *exec.Cmd
	out  *bytes.Buffer
	dead bool
}

func startBG(t *testing.T, name string, cred *syscall.Credential, dir string, args ...string) *bg {
	t.Helper()
	b := &bg{name: name, out: &bytes.Buffer{}}
	b.cmd = exec.Command(args[0], args[1:]...)
	b.cmd.Dir = dir
	// Pdeathsig: a test binary killed before its cleanups (a closed pipe, a timeout) takes etcd,
	// HAProxy and Patroni with it.
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred, Pdeathsig: syscall.SIGKILL}
	b.cmd.Env = append(cleanEnv(), "HOME="+dir)
	b.cmd.Stdout, b.cmd.Stderr = syncWriter(b.out), syncWriter(b.out)
	require.NoError(t, b.cmd.Start(), name)
	t.Cleanup(func() {
		b.kill()
		if t.Failed() || os.Getenv("SCALE_DEBUG") != "" {
			t.Logf("%s (last lines):\n%s", name, bintest.LastLines(quiet(b.out.String()), 40))
		}
		saveLog(name, b.out.String())
	})
	return b
}

// kill SIGKILLs the process group and reaps the leader.
func (b *bg) kill() {
	if b.dead || b.cmd.Process == nil {
		return
	}
	b.dead = true
	syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	b.cmd.Wait()
}

// cleanEnv is the test's environment without libpq's PG* variables (a PGPORT meant for the
// system Postgres would steer initdb and Patroni's own connections).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return env
}

// pgNode is one Patroni-managed Postgres.
type pgNode struct {
	name             string
	dir              string // owned by postgres: data/, patroni.yml, the socket
	pgPort, restPort int
	patroni          *bg
}

func (n *pgNode) dataDir() string { return filepath.Join(n.dir, "data") }
func (n *pgNode) conf() string    { return filepath.Join(n.dir, "patroni.yml") }
func (n *pgNode) rest() string    { return fmt.Sprintf("http://127.0.0.1:%d", n.restPort) }

// postmasterPID reads the first line of postmaster.pid (0 when Postgres is not running).
func (n *pgNode) postmasterPID() int {
	b, err := os.ReadFile(filepath.Join(n.dataDir(), "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

// patroniCluster is the running rig.
type patroniCluster struct {
	t                        *testing.T
	dir                      string
	etcd                     []*bg
	etcdHosts                string
	nodes                    []*pgNode
	haproxy                  *bg
	primaryPort, replicaPort int
	cred                     *syscall.Credential
}

const patroniScope = "perfilseguro"

// dsn is the app's DATABASE_URL: HAProxy's read-write port.
func (c *patroniCluster) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2", c.primaryPort)
}

// replicaDSN is DATABASE_REPLICA_URL: HAProxy's read-only port.
func (c *patroniCluster) replicaDSN() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2", c.replicaPort)
}

// killStaleRigs SIGKILLs what a rig left running when its test binary was killed before its
// cleanups: Pdeathsig takes etcd, HAProxy and each Patroni with the binary, but not the
// postmasters Patroni started, which would keep running (and retrying their replication) beside
// the next rig on the same two cores. A rig is stale when the test binary that wrote its
// owner.pid is gone; a rig of another test binary still running is left alone.
func killStaleRigs(t *testing.T) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	prefix := filepath.Join(os.TempDir(), "scale-patroni")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		i := strings.Index(cmd, prefix)
		if i < 0 {
			continue
		}
		rig := cmd[i:]
		if j := strings.IndexAny(rig[len(prefix):], "/ "); j >= 0 { // the rig's folder ends the path or the argument
			rig = rig[:len(prefix)+j]
		}
		if owner, err := os.ReadFile(filepath.Join(rig, "owner.pid")); err == nil {
			if pid, _ := strconv.Atoi(string(owner)); pid > 0 && syscall.Kill(pid, 0) == nil {
				continue // its test binary still runs
			}
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if pid > 0 && pid != os.Getpid() {
			t.Logf("killing process %d left by an earlier rig: %s", pid, cmd)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func startPatroniCluster(t *testing.T) *patroniCluster {
	t.Helper()
	requirePatroniTools(t)
	killStaleRigs(t)
	dir, err := os.MkdirTemp("", "scale-patroni")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644))
	c := &patroniCluster{t: t, dir: dir, cred: postgresCred(t)}
	t.Cleanup(func() { os.RemoveAll(dir) }) // registered first: runs after every process is killed
	c.startEtcd()
	for i := 0; i < 3; i++ {
		c.nodes = append(c.nodes, &pgNode{name: fmt.Sprintf("pg%d", i), pgPort: freePort(t), restPort: freePort(t)})
	}
	for i, n := range c.nodes {
		c.startNode(n)
		if i == 0 { // the first bootstraps the cluster; the others clone it
			c.waitLeader(60 * time.Second)
		}
	}
	c.startHAProxy()
	// Ready: a leader, two streaming replicas, one of them synchronous, and HAProxy routing.
	require.Eventually(t, func() bool {
		m := c.members()
		streaming, sync := 0, 0
		for _, mb := range m {
			if mb.Role == "sync_standby" {
				sync++
			}
			if (mb.Role == "replica" || mb.Role == "sync_standby") && (mb.State == "streaming" || mb.State == "running") {
				streaming++
			}
		}
		return len(m) == 3 && streaming == 2 && sync == 1
	}, 120*time.Second, 500*time.Millisecond, "the cluster never had a leader, two replicas and a synchronous standby: %+v", c.members())
	waitTCP(t, c.primaryPort)
	return c
}

func (c *patroniCluster) startEtcd() {
	t := c.t
	type member struct {
		name, dir    string
		client, peer int
	}
	var ms []member
	var initial, hosts []string
	for i := 0; i < 3; i++ {
		m := member{name: fmt.Sprintf("etcd%d", i), dir: filepath.Join(c.dir, fmt.Sprintf("etcd%d", i)), client: freePort(t), peer: freePort(t)}
		require.NoError(t, os.MkdirAll(m.dir, 0o700))
		ms = append(ms, m)
		initial = append(initial, fmt.Sprintf("%s=http://127.0.0.1:%d", m.name, m.peer))
		hosts = append(hosts, fmt.Sprintf("127.0.0.1:%d", m.client))
	}
	for _, m := range ms {
		c.etcd = append(c.etcd, startBG(t, m.name, nil, m.dir, "etcd", "--name", m.name, "--data-dir", filepath.Join(m.dir, "data"),
			"--listen-client-urls", fmt.Sprintf("http://127.0.0.1:%d", m.client),
			"--advertise-client-urls", fmt.Sprintf("http://127.0.0.1:%d", m.client),
			"--listen-peer-urls", fmt.Sprintf("http://127.0.0.1:%d", m.peer),
			"--initial-advertise-peer-urls", fmt.Sprintf("http://127.0.0.1:%d", m.peer),
			"--initial-cluster", strings.Join(initial, ","), "--initial-cluster-state", "new",
			"--initial-cluster-token", "scale-"+filepath.Base(c.dir),
			// Elections tolerate the scheduling hiccups of a loaded two-CPU machine.
			"--heartbeat-interval", "200", "--election-timeout", "2000", "--log-level", "warn"))
	}
	c.etcdHosts = strings.Join(hosts, ",")
	for _, m := range ms {
		waitTCP(t, m.client)
	}
	require.Eventually(t, func() bool {
		res, err := http.Get("http://" + hosts[0] + "/health")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var h struct{ Health string }
		json.NewDecoder(res.Body).Decode(&h)
		return h.Health == "true"
	}, 30*time.Second, 200*time.Millisecond, "etcd never became healthy")
}

func (c *patroniCluster) startNode(n *pgNode) {
	t := c.t
	n.dir = filepath.Join(c.dir, n.name)
	require.NoError(t, os.MkdirAll(n.dir, 0o700))
	hba := []string{"local all all trust", "host all all 127.0.0.1/32 trust", "host replication all 127.0.0.1/32 trust"}
	conf := map[string]any{
		"scope": patroniScope, "name": n.name,
		"log":     map[string]any{"level": "INFO"},
		"restapi": map[string]any{"listen": fmt.Sprintf("127.0.0.1:%d", n.restPort), "connect_address": fmt.Sprintf("127.0.0.1:%d", n.restPort)},
		"etcd3":   map[string]any{"hosts": c.etcdHosts},
		"bootstrap": map[string]any{
			"dcs": map[string]any{
				"ttl": 10, "loop_wait": 1, "retry_timeout": 4,
				"maximum_lag_on_failover": 16 << 20,
				"synchronous_mode":        true, "synchronous_node_count": 1,
				"postgresql": map[string]any{
					"use_pg_rewind": true, "use_slots": true,
					"parameters": map[string]any{
						"max_connections": 400, "wal_level": "replica", "hot_standby": "on", "wal_log_hints": "on",
						"max_wal_senders": 10, "max_replication_slots": 10, "wal_keep_size": "256MB",
						"fsync": "off", "full_page_writes": "off", "synchronous_commit": "on",
						"shared_buffers": "64MB",
					},
				},
			},
			"initdb": []any{map[string]any{"encoding": "UTF8"}, "no-sync", map[string]any{"auth": "trust"}},
		},
		"postgresql": map[string]any{
			"listen": fmt.Sprintf("127.0.0.1:%d", n.pgPort), "connect_address": fmt.Sprintf("127.0.0.1:%d", n.pgPort),
			"data_dir": n.dataDir(), "bin_dir": pgBin(), "pgpass": filepath.Join(n.dir, "pgpass"),
			"authentication": map[string]any{
				"superuser":   map[string]any{"username": "postgres", "password": "postgres"},
				"replication": map[string]any{"username": "replicator", "password": "replicator"},
				"rewind":      map[string]any{"username": "postgres", "password": "postgres"},
			},
			"parameters": map[string]any{"unix_socket_directories": n.dir},
			"pg_hba":     hba,
		},
		"watchdog": map[string]any{"mode": "off"},
		"tags":     map[string]any{"nofailover": false, "noloadbalance": false, "clonefrom": false, "nosync": false},
	}
	b, err := json.MarshalIndent(conf, "", "  ") // YAML reads JSON
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(n.conf(), b, 0o600))
	if c.cred != nil {
		require.NoError(t, exec.Command("chown", "-R", "postgres:postgres", c.dir).Run())
	}
	n.patroni = startBG(t, "patroni "+n.name, c.cred, n.dir, "patroni", n.conf())
	// The node's postmaster runs in its own session (Patroni calls setsid): kill it too at the end.
	t.Cleanup(func() {
		if pid := n.postmasterPID(); pid > 0 {
			syscall.Kill(-pid, syscall.SIGKILL)
			syscall.Kill(pid, syscall.SIGKILL)
		}
		if t.Failed() || os.Getenv("SCALE_DEBUG") != "" {
			logs, _ := filepath.Glob(filepath.Join(n.dataDir(), "log", "*"))
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("postgres %s %s (last lines):\n%s", n.name, filepath.Base(l), bintest.LastLines(string(b), 15))
			}
		}
	})
}

func (c *patroniCluster) startHAProxy() {
	t := c.t
	c.primaryPort, c.replicaPort = freePort(t), freePort(t)
	var servers []string
	for _, n := range c.nodes {
		servers = append(servers, fmt.Sprintf("    server %s 127.0.0.1:%d check port %d", n.name, n.pgPort, n.restPort))
	}
	conf := fmt.Sprintf(`global
    maxconn 2000

defaults
    mode tcp
    timeout connect 1s
    retries 0
    timeout check 1s
    timeout client 1h
    timeout server 1h
    default-server inter 250ms fall 2 rise 1 on-marked-down shutdown-sessions

listen primary
    bind 127.0.0.1:%d
    option httpchk GET /primary
    http-check expect status 200
%s

listen replicas
    bind 127.0.0.1:%d
    balance roundrobin
    option httpchk GET /replica
    http-check expect status 200
%s
`, c.primaryPort, strings.Join(servers, "\n"), c.replicaPort, strings.Join(servers, "\n"))
	file := filepath.Join(c.dir, "haproxy.cfg")
	require.NoError(t, os.WriteFile(file, []byte(conf), 0o600))
	c.haproxy = startBG(t, "haproxy", nil, c.dir, "haproxy", "-db", "-f", file)
	waitTCP(t, c.primaryPort)
}

// member is one row of Patroni's GET /cluster.
type member struct {
	Name  string  `json:"name"`
	Role  string  `json:"role"` // leader, sync_standby, replica
	State string  `json:"state"`
	Lag   any     `json:"lag"`
	TL    float64 `json:"timeline"`
}

// members asks the nodes' REST APIs in turn for the cluster view (the first that answers).
func (c *patroniCluster) members() []member {
	client := &http.Client{Timeout: time.Second}
	for _, n := range c.nodes {
		if n.patroni == nil || n.patroni.dead {
			continue
		}
		res, err := client.Get(n.rest() + "/cluster")
		if err != nil {
			continue
		}
		var out struct {
			Members []member `json:"members"`
		}
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if err == nil {
			return out.Members
		}
	}
	return nil
}

// role returns the node with that role now (nil when none).
func (c *patroniCluster) role(role string) *pgNode {
	for _, m := range c.members() {
		if m.Role == role && (role != "leader" || m.State == "running") {
			for _, n := range c.nodes {
				if n.name == m.Name {
					return n
				}
			}
		}
	}
	return nil
}

func (c *patroniCluster) waitLeader(limit time.Duration) *pgNode {
	var l *pgNode
	require.Eventually(c.t, func() bool { l = c.role("leader"); return l != nil }, limit, 200*time.Millisecond, "no Patroni leader")
	return l
}

// patronictl runs patronictl against the cluster with one node's configuration.
func (c *patroniCluster) patronictl(args ...string) (string, error) {
	var conf string
	for _, n := range c.nodes {
		if n.patroni != nil && !n.patroni.dead {
			conf = n.conf()
			break
		}
	}
	cmd := exec.Command("patronictl", append([]string{"-c", conf}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	cmd.Env = append(cleanEnv(), "HOME="+c.dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// killPostmaster is postgres-kill: SIGKILL to the leader's postmaster alone (Patroni lives on).
func (c *patroniCluster) killPostmaster(n *pgNode) {
	// Called from the scenario's goroutine: t.Errorf, not require.
	if pid := n.postmasterPID(); pid <= 0 {
		c.t.Errorf("no postmaster.pid in %s", n.dataDir())
	} else if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		c.t.Errorf("kill postmaster %d: %v", pid, err)
	}
}

// killHost is postgres-host: the node's Patroni and its Postgres (postmaster and every backend)
// SIGKILLed together; nothing of it comes back.
func (c *patroniCluster) killHost(n *pgNode) {
	pid := n.postmasterPID()
	syscall.Kill(-n.patroni.cmd.Process.Pid, syscall.SIGKILL)
	if pid > 0 {
		syscall.Kill(-pid, syscall.SIGKILL)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	n.patroni.kill() // reaps it
}
