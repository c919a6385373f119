package redisconn

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Fence makes a write survive the loss of its primary before it is reported done. Redis
// replicates asynchronously: a job acknowledged by a primary that dies the next millisecond may
// never reach the replica that Sentinel (or the cluster) promotes. Wait writes a marker on the
// primary that holds a hash tag's slot and waits (WAIT) until a replica has it; replication is
// one ordered stream per primary, so every earlier write to that primary — the enqueue of
// another connection included — is then on the replica too.
type Fence struct {
	client  redis.UniversalClient
	timeout time.Duration

	mu       sync.Mutex
	replicas map[string]replicaCount // primary address → its replicas, as last read
}

// replicaCount is a primary's connected replicas and when that was read.
type replicaCount struct {
	n  int
	at time.Time
}

// replicasTTL: how long a primary's replica count is trusted. With none, Wait does not wait
// (there is nowhere to wait for), so a lone promoted primary costs no latency.
const replicasTTL = time.Second

// NewFence returns the fence of a connection: nil for a single server, which has no failover to
// survive (a nil *Fence waits for nothing).
func (c Conn) NewFence(timeout time.Duration) *Fence {
	if _, single := c.Client.(*redis.Client); single && !c.failover {
		return nil
	}
	return &Fence{client: c.Client, timeout: timeout, replicas: map[string]replicaCount{}}
}

// Wait returns once a replica of the primary holding hashTag's slot has every write that primary
// took before the call, or an error when that primary cannot be reached. A primary without
// replicas, or replicas that do not answer within the timeout, do not fail the call: the write
// is on the primary, which is all this topology offers at that moment.
func (f *Fence) Wait(ctx context.Context, hashTag string) error {
	if f == nil {
		return nil
	}
	key := "perfilseguro:fence:{" + hashTag + "}"
	primary := f.client
	if cc, ok := f.client.(*redis.ClusterClient); ok {
		node, err := cc.MasterForKey(ctx, key)
		if err != nil {
			return fmt.Errorf("fence %s: %w", hashTag, err)
		}
		primary = node
	}
	addr := primaryAddr(primary)
	n, known := f.replicaCount(addr)
	if !known { // read at most once a second per primary, before deciding whether to wait
		info, err := primary.Info(ctx, "replication").Result()
		if err != nil {
			return fmt.Errorf("fence %s: %w", hashTag, err)
		}
		n = connectedReplicas(info)
		f.setReplicaCount(addr, n)
	}
	var wait *redis.Cmd
	_, err := primary.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, key)
		if n > 0 {
			wait = p.Do(ctx, "WAIT", 1, f.timeout.Milliseconds()) // not in Pipeliner's interface
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fence %s: %w", hashTag, err)
	}
	if wait != nil {
		if acked, _ := wait.Int(); acked == 0 {
			f.setReplicaCount(addr, 0) // no replica answered in time: not waited for until read again
		}
	}
	return nil
}

func (f *Fence) replicaCount(addr string) (int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.replicas[addr]
	if !ok || time.Since(c.at) > replicasTTL {
		return 0, false
	}
	return c.n, true
}

func (f *Fence) setReplicaCount(addr string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replicas[addr] = replicaCount{n: n, at: time.Now()}
}

// primaryAddr names the server a client talks to (a failover client's is its master name).
func primaryAddr(c redis.UniversalClient) string {
	if rc, ok := c.(*redis.Client); ok {
		return rc.Options().Addr
	}
	return "primary"
}

// connectedReplicas reads connected_slaves from INFO replication.
func connectedReplicas(info string) int {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "connected_slaves:"); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}
