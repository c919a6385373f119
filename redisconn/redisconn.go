// Package redisconn is the one way the processes reach Redis: a single server, a Sentinel-managed
// primary with automatic failover, or a Redis Cluster. Open returns both the asynq connection
// option and a go-redis UniversalClient for the same topology; nothing else constructs a Redis
// connection (TestNothingElseConstructsARedisConnection).
package redisconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/perfilseguro/perfilseguro/tracing"
)

// Topologies.
const (
	Single   = "single"
	Sentinel = "sentinel"
	Cluster  = "cluster"
)

// Config is where Redis is, read from the environment by package config:
//
//	single server: REDIS_URL (redis://, rediss:// or unix://)
//	Sentinel:      REDIS_SENTINELS (host:port,…), REDIS_SENTINEL_MASTER, and optionally
//	               REDIS_PASSWORD (the primary's and replicas'), REDIS_SENTINEL_PASSWORD,
//	               REDIS_USERNAME, REDIS_DB, REDIS_TLS=true
//	Cluster:       REDIS_CLUSTER_NODES (seed host:port,…), and optionally REDIS_PASSWORD,
//	               REDIS_USERNAME, REDIS_TLS=true (a cluster has database 0 only)
type Config struct {
	URL              string   // REDIS_URL: a single server
	SentinelAddrs    []string // REDIS_SENTINELS
	MasterName       string   // REDIS_SENTINEL_MASTER
	SentinelPassword string   // REDIS_SENTINEL_PASSWORD
	ClusterAddrs     []string // REDIS_CLUSTER_NODES
	Username         string   // REDIS_USERNAME (ACL user) for Sentinel and Cluster
	Password         string   // REDIS_PASSWORD for Sentinel and Cluster (REDIS_URL carries its own)
	DB               int      // REDIS_DB for Sentinel
	TLS              bool     // REDIS_TLS for Sentinel and Cluster (rediss:// for a single server)
}

// Topology names the configured topology.
func (c Config) Topology() string {
	switch {
	case len(c.SentinelAddrs) > 0:
		return Sentinel
	case len(c.ClusterAddrs) > 0:
		return Cluster
	}
	return Single
}

// Validate reports the first problem, naming the variable to fix.
func (c Config) Validate() error {
	if len(c.SentinelAddrs) > 0 && len(c.ClusterAddrs) > 0 {
		return errors.New("REDIS_SENTINELS and REDIS_CLUSTER_NODES are both set: choose one topology")
	}
	switch c.Topology() {
	case Sentinel:
		if err := checkAddrs("REDIS_SENTINELS", c.SentinelAddrs); err != nil {
			return err
		}
		if c.MasterName == "" {
			return errors.New("REDIS_SENTINEL_MASTER is required with REDIS_SENTINELS (the name the sentinels monitor)")
		}
		if c.DB < 0 || c.DB > 15 {
			return fmt.Errorf("REDIS_DB must be a database number from 0 to 15, not %d", c.DB)
		}
	case Cluster:
		if err := checkAddrs("REDIS_CLUSTER_NODES", c.ClusterAddrs); err != nil {
			return err
		}
		if c.DB != 0 {
			return errors.New("REDIS_DB must be 0 with REDIS_CLUSTER_NODES (a cluster has database 0 only)")
		}
		if c.MasterName != "" || c.SentinelPassword != "" {
			return errors.New("REDIS_SENTINEL_MASTER and REDIS_SENTINEL_PASSWORD belong to REDIS_SENTINELS, not REDIS_CLUSTER_NODES")
		}
	default:
		if c.MasterName != "" || c.SentinelPassword != "" {
			return errors.New("REDIS_SENTINEL_MASTER and REDIS_SENTINEL_PASSWORD need REDIS_SENTINELS")
		}
		if _, err := redis.ParseURL(c.URL); err != nil {
			return fmt.Errorf("REDIS_URL: %v (expected redis://, rediss:// or unix://)", err)
		}
	}
	return nil
}

// checkAddrs requires host:port addresses with a valid port.
func checkAddrs(name string, addrs []string) error {
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil || host == "" {
			return fmt.Errorf("%s: %q is not host:port", name, a)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%s: %q has no valid port", name, a)
		}
	}
	return nil
}

// ParseAddrs splits a comma-separated address list, dropping empty items and spaces.
func ParseAddrs(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// String describes the topology with passwords masked, for the configuration printed at start.
func (c Config) String() string {
	switch c.Topology() {
	case Sentinel:
		return fmt.Sprintf("sentinel master=%s sentinels=%s db=%d tls=%t password=%s sentinel_password=%s",
			c.MasterName, strings.Join(c.SentinelAddrs, ","), c.DB, c.TLS, maskSet(c.Password), maskSet(c.SentinelPassword))
	case Cluster:
		return fmt.Sprintf("cluster nodes=%s tls=%t password=%s", strings.Join(c.ClusterAddrs, ","), c.TLS, maskSet(c.Password))
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return "single (unparsable REDIS_URL)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return "single " + u.Redacted()
}

func maskSet(s string) string {
	if s == "" {
		return "(none)"
	}
	return "(set)"
}

// ClusterOpt is the asynq connection option of a cluster (see Open).
type ClusterOpt struct{ Options redis.ClusterOptions }

// MakeRedisClient gives asynq (client, servers, scheduler, inspector, asynqmon) its own client.
func (o ClusterOpt) MakeRedisClient() interface{} {
	opts := o.Options
	return redis.NewClusterClient(&opts)
}

// Conn is one topology's connections: asynq's option (the client, servers, scheduler, inspector
// and asynqmon make their own pools from it) and a go-redis client for everything else.
type Conn struct {
	Asynq  asynq.RedisConnOpt
	Client redis.UniversalClient
	// AsynqServer is Asynq without the breaker, for asynq.Server (the worker): its processor asks
	// for the next task again at once after an error, so refusals in microseconds would spin it;
	// go-redis's own retries keep its pace while Redis is away.
	AsynqServer asynq.RedisConnOpt

	failover bool     // Client is a Sentinel failover client (also a *redis.Client)
	breaker  *Breaker // fails commands fast while Redis is unreachable (breaker.go); nil: none
}

// Close stops the breaker's probe and closes the go-redis client (asynq closes what it makes).
func (c Conn) Close() error {
	c.breaker.Close()
	return c.Client.Close()
}

// guarded puts both sides of a single server's or a Sentinel primary's connection behind one
// breaker. A cluster has none: its nodes fail one at a time, and go-redis routes around a lost
// primary once the slot map is read again (a breaker for the whole cluster would refuse the
// slots of the nodes that still answer).
func (c Conn) guarded() Conn {
	c.breaker = newBreaker()
	c.Client.AddHook(hook{c.breaker})
	c.AsynqServer = c.Asynq
	c.Asynq = GuardedOpt{RedisConnOpt: c.Asynq, breaker: c.breaker}
	client := c.Client
	c.breaker.start(func(ctx context.Context) error { return client.Ping(ctx).Err() })
	return c
}

// Open validates c and builds its connections; nothing is dialled yet. With tracing on, every
// command of both becomes a client span (tracing.Redis).
func Open(c Config) (Conn, error) {
	conn, err := open(c)
	if err != nil {
		return conn, err
	}
	if conn.AsynqServer == nil {
		conn.AsynqServer = conn.Asynq
	}
	if !tracing.Enabled() {
		return conn, nil
	}
	if err := tracing.Redis(conn.Client); err != nil {
		return Conn{}, fmt.Errorf("redis tracing: %w", err)
	}
	conn.Asynq, conn.AsynqServer = tracedOpt{conn.Asynq}, tracedOpt{conn.AsynqServer}
	return conn, nil
}

// tracedOpt gives asynq clients whose commands are client spans too (an enqueue's EVALSHA).
type tracedOpt struct{ asynq.RedisConnOpt }

func (o tracedOpt) MakeRedisClient() interface{} {
	c := o.RedisConnOpt.MakeRedisClient()
	if u, ok := c.(redis.UniversalClient); ok {
		_ = tracing.Redis(u) // it fails only for a client type go-redis does not make
	}
	return c
}

func open(c Config) (Conn, error) {
	if err := c.Validate(); err != nil {
		return Conn{}, err
	}
	var tlsConfig *tls.Config
	if c.TLS {
		tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	switch c.Topology() {
	case Sentinel:
		opt := asynq.RedisFailoverClientOpt{MasterName: c.MasterName, SentinelAddrs: c.SentinelAddrs,
			SentinelPassword: c.SentinelPassword, Username: c.Username, Password: c.Password, DB: c.DB, TLSConfig: tlsConfig}
		return Conn{Asynq: opt, failover: true, Client: redis.NewFailoverClient(&redis.FailoverOptions{MasterName: c.MasterName,
			SentinelAddrs: c.SentinelAddrs, SentinelPassword: c.SentinelPassword, Username: c.Username,
			Password: c.Password, DB: c.DB, TLSConfig: tlsConfig})}.guarded(), nil
	case Cluster:
		// asynq's RedisClusterClientOpt cannot set how often the slot map is read again, and
		// go-redis's default is a minute: after a primary's loss every process would keep dialing
		// it for up to a minute (seen in the scale rig). asynq takes any RedisConnOpt that makes a
		// UniversalClient, so both sides get the same cluster options, re-read every second.
		opts := redis.ClusterOptions{Addrs: c.ClusterAddrs, Username: c.Username, Password: c.Password,
			TLSConfig: tlsConfig, ClusterStateReloadInterval: time.Second}
		return Conn{Asynq: ClusterOpt{opts}, Client: redis.NewClusterClient(&opts)}, nil
	}
	o, err := redis.ParseURL(c.URL)
	if err != nil {
		return Conn{}, fmt.Errorf("REDIS_URL: %w", err)
	}
	// asynq gets the same server as REDIS_URL, including a unix:// socket and TLS.
	opt := asynq.RedisClientOpt{Network: o.Network, Addr: o.Addr, DB: o.DB, Username: o.Username,
		Password: o.Password, TLSConfig: o.TLSConfig}
	return Conn{Asynq: opt, Client: redis.NewClient(o)}.guarded(), nil
}
