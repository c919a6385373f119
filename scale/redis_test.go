package scale

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/stretchr/testify/require"
)

var (
	portsMu sync.Mutex
	ports   = map[int]bool{}
)

// freePort is a loopback port nobody listens on and that this test binary has not handed out
// yet: the kernel may offer a port again once its probe listener closed, and a rig that names
// several ports before starting anything (etcd's initial cluster) must not get one twice.
func freePort(t *testing.T) int {
	portsMu.Lock()
	defer portsMu.Unlock()
	for {
		p := bintest.FreePort(t)
		if !ports[p] {
			ports[p] = true
			return p
		}
	}
}

func waitTCP(t *testing.T, port int) { bintest.WaitTCP(t, port) }

// redisProc is one redis-server (or sentinel) process of the rig.
type redisProc struct {
	port int
	cmd  *exec.Cmd
}

func (r *redisProc) addr() string { return fmt.Sprintf("127.0.0.1:%d", r.port) }

// kill is the lost host: SIGKILL, no goodbye to replicas or sentinels.
func (r *redisProc) kill() {
	if r.cmd.Process != nil && r.cmd.ProcessState == nil {
		r.cmd.Process.Signal(syscall.SIGKILL)
		r.cmd.Wait()
	}
}

// startRedis runs redis-server with a config file written in dir (sentinels rewrite theirs).
func startRedis(t *testing.T, dir string, port int, sentinel bool, conf ...string) *redisProc {
	t.Helper()
	lines := append([]string{"port " + strconv.Itoa(port), "bind 127.0.0.1", "daemonize no", "save \"\"",
		"appendonly no", "loglevel warning", "dir " + dir}, conf...)
	file := filepath.Join(dir, fmt.Sprintf("redis-%d.conf", port))
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	args := []string{file}
	bin := "redis-server"
	if sentinel {
		if _, err := exec.LookPath("redis-sentinel"); err == nil {
			bin = "redis-sentinel"
		} else {
			args = append(args, "--sentinel") // the same binary in sentinel mode
		}
	}
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = syncWriter(&out), syncWriter(&out)
	require.NoError(t, cmd.Start(), bin)
	r := &redisProc{port: port, cmd: cmd}
	t.Cleanup(func() {
		r.kill()
		if t.Failed() {
			t.Logf("%s :%d (last lines):\n%s", bin, port, bintest.LastLines(out.String(), 15))
		}
	})
	waitTCP(t, port)
	return r
}

// topology is a running Redis deployment and how the processes reach it.
type topology struct {
	name string
	env  map[string]string // the REDIS_* variables of every process
	// victim is the primary that holds the critical queue (sign-in codes): the one to kill.
	victim *redisProc
}

const masterName = "perfilseguro"

// startSentinel runs a primary, one replica and three sentinels.
func startSentinel(t *testing.T) *topology {
	t.Helper()
	dir := t.TempDir()
	primary := startRedis(t, dir, freePort(t), false)
	replicaPort := freePort(t)
	startRedis(t, dir, replicaPort, false, fmt.Sprintf("replicaof 127.0.0.1 %d", primary.port))
	var sentinels []string
	for i := 0; i < 3; i++ {
		s := startRedis(t, dir, freePort(t), true,
			fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d 2", masterName, primary.port),
			"sentinel down-after-milliseconds "+masterName+" 1000",
			"sentinel failover-timeout "+masterName+" 3000",
			"sentinel parallel-syncs "+masterName+" 1")
		sentinels = append(sentinels, s.addr())
	}
	// Ready when every sentinel knows the replica and the other sentinels.
	ctx := context.Background()
	for _, addr := range sentinels {
		sc := redis.NewSentinelClient(&redis.Options{Addr: addr})
		require.Eventually(t, func() bool {
			replicas, err := sc.Replicas(ctx, masterName).Result()
			others, err2 := sc.Sentinels(ctx, masterName).Result()
			return err == nil && err2 == nil && len(replicas) == 1 && len(others) == 2
		}, 30*time.Second, 200*time.Millisecond, "sentinel %s never saw the replica and its peers", addr)
		sc.Close()
	}
	return &topology{name: "sentinel", victim: primary,
		env: map[string]string{"REDIS_SENTINELS": strings.Join(sentinels, ","), "REDIS_SENTINEL_MASTER": masterName}}
}

// startCluster runs a Redis Cluster of three primaries with one replica each.
func startCluster(t *testing.T) *topology {
	t.Helper()
	dir := t.TempDir()
	var nodes []*redisProc
	var addrs []string
	for i := 0; i < 6; i++ {
		// The cluster bus port is named too: Redis would otherwise take port+10000, which nothing
		// reserved (another test's listener once held it and the node could not start).
		port := freePort(t)
		n := startRedis(t, dir, port, false, "cluster-enabled yes", fmt.Sprintf("cluster-port %d", freePort(t)),
			fmt.Sprintf("cluster-config-file nodes-%d.conf", port), "cluster-node-timeout 1000")
		nodes = append(nodes, n)
		addrs = append(addrs, n.addr())
	}
	out, err := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	require.NoError(t, err, "redis-cli --cluster create: %s", out)
	ctx := context.Background()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer cc.Close()
	require.Eventually(t, func() bool {
		for _, n := range nodes {
			c := redis.NewClient(&redis.Options{Addr: n.addr()})
			info, err := c.ClusterInfo(ctx).Result()
			c.Close()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				return false
			}
		}
		return true
	}, 30*time.Second, 200*time.Millisecond, "the cluster never became ok")
	cc.ReloadState(ctx)
	var primary *redis.Client
	require.Eventually(t, func() bool {
		primary, err = cc.MasterForKey(ctx, "asynq:{critical}:pending")
		return err == nil
	}, 10*time.Second, 100*time.Millisecond)
	var victim *redisProc
	for _, n := range nodes {
		if n.addr() == primary.Options().Addr {
			victim = n
		}
	}
	require.NotNil(t, victim, "the critical queue's primary is one of ours")
	// Every primary has its replica before the load starts.
	require.Eventually(t, func() bool {
		c := redis.NewClient(&redis.Options{Addr: victim.addr()})
		defer c.Close()
		info, err := c.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "connected_slaves:1")
	}, 30*time.Second, 200*time.Millisecond)
	return &topology{name: "cluster", victim: victim, env: map[string]string{"REDIS_CLUSTER_NODES": strings.Join(addrs, ",")}}
}
