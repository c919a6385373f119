package redisconn

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// startServer runs a throwaway redis-server on a free port with extra arguments.
func startServer(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("redis-server", append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no"}, args...)...)
	cmd.Dir = t.TempDir() // a replica's full sync writes dump.rdb into the working directory
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 10*time.Second, 20*time.Millisecond)
	return cmd, addr
}

// The fence returns once the replica holds the primary's earlier writes; with the replica gone it
// stops waiting for it instead of adding its timeout to every call; a single server has none.
func TestFenceWaitsForTheReplicaAndNotForAMissingOne(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ctx := context.Background()
	_, primaryAddr := startServer(t)
	replicaCmd, replicaAddr := startServer(t)
	primary := redis.NewClient(&redis.Options{Addr: primaryAddr})
	defer primary.Close()
	replica := redis.NewClient(&redis.Options{Addr: replicaAddr})
	defer replica.Close()
	host, port, _ := net.SplitHostPort(primaryAddr)
	require.NoError(t, replica.SlaveOf(ctx, host, port).Err())
	require.Eventually(t, func() bool {
		info, _ := replica.Info(ctx, "replication").Result()
		return strings.Contains(info, "master_link_status:up")
	}, 10*time.Second, 50*time.Millisecond, "the replica finished its first sync")

	require.Nil(t, Conn{Client: primary}.NewFence(time.Second), "a single server has no failover to survive")
	fence := Conn{Client: primary, failover: true}.NewFence(time.Second)
	for i := 0; i < 50; i++ {
		require.NoError(t, primary.Set(ctx, "job", i, 0).Err()) // another connection's write, like asynq's
		require.NoError(t, fence.Wait(ctx, "critical"))
		got, err := replica.Get(ctx, "job").Int()
		require.NoError(t, err)
		require.Equal(t, i, got, "after Wait the replica has the write")
	}

	replicaCmd.Process.Kill()
	replicaCmd.Wait()
	require.Eventually(t, func() bool {
		info, _ := primary.Info(ctx, "replication").Result()
		return connectedReplicas(info) == 0
	}, 10*time.Second, 50*time.Millisecond)
	time.Sleep(replicasTTL)
	start := time.Now()
	for i := 0; i < 20; i++ {
		require.NoError(t, fence.Wait(ctx, "critical"))
	}
	require.Less(t, time.Since(start), time.Second, "a lone primary is not waited for")

	primary.Close()
	require.Error(t, fence.Wait(ctx, "critical"), "an unreachable primary fails the fence")
}
