package redisconn_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/redisconn"
)

// Each topology gives asynq and go-redis the same servers and credentials.
func TestEachTopologyOpensMatchingAsynqAndGoRedisConnections(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, network, addr string }{
		{"redis://:s3cret@10.0.0.5:6380/4", "tcp", "10.0.0.5:6380"},
		{"rediss://user:pw@redis.example:6390/1", "tcp", "redis.example:6390"},
		{"unix:///run/redis/redis.sock?db=2", "unix", "/run/redis/redis.sock"},
	} {
		conn, err := redisconn.Open(redisconn.Config{URL: tc.url})
		require.NoError(t, err, tc.url)
		opt, ok := conn.Asynq.(redisconn.GuardedOpt).RedisConnOpt.(asynq.RedisClientOpt)
		require.True(t, ok)
		require.Equal(t, opt, conn.AsynqServer, "the worker's asynq.Server has no breaker: its processor would spin on instant refusals")
		o := conn.Client.(*redis.Client).Options()
		require.Equal(t, tc.network, opt.Network, tc.url)
		require.Equal(t, tc.addr, opt.Addr, tc.url)
		require.Equal(t, o.DB, opt.DB, tc.url)
		require.Equal(t, o.Password, opt.Password, tc.url)
		require.Equal(t, o.TLSConfig != nil, opt.TLSConfig != nil, tc.url)
		require.NoError(t, conn.Close())
	}

	sentinel := redisconn.Config{SentinelAddrs: []string{"10.0.0.1:26379", "10.0.0.2:26379", "10.0.0.3:26379"},
		MasterName: "perfilseguro", Password: "primary-pw", SentinelPassword: "sentinel-pw", DB: 3, TLS: true}
	conn, err := redisconn.Open(sentinel)
	require.NoError(t, err)
	fo, ok := conn.Asynq.(redisconn.GuardedOpt).RedisConnOpt.(asynq.RedisFailoverClientOpt)
	require.True(t, ok)
	require.Equal(t, sentinel.SentinelAddrs, fo.SentinelAddrs)
	require.Equal(t, "perfilseguro", fo.MasterName)
	require.Equal(t, "primary-pw", fo.Password)
	require.Equal(t, "sentinel-pw", fo.SentinelPassword)
	require.Equal(t, 3, fo.DB)
	require.NotNil(t, fo.TLSConfig)
	require.Equal(t, "sentinel", sentinel.Topology())
	require.NoError(t, conn.Close())

	cluster := redisconn.Config{ClusterAddrs: []string{"10.0.1.1:7000", "10.0.1.2:7000"}, Password: "cluster-pw"}
	conn, err = redisconn.Open(cluster)
	require.NoError(t, err)
	co, ok := conn.Asynq.(redisconn.ClusterOpt)
	require.True(t, ok)
	require.Equal(t, cluster.ClusterAddrs, co.Options.Addrs)
	require.Equal(t, "cluster-pw", co.Options.Password)
	require.Equal(t, time.Second, co.Options.ClusterStateReloadInterval, "a promoted replica is found within a second")
	asynqSide, ok := co.MakeRedisClient().(*redis.ClusterClient)
	require.True(t, ok, "asynq gets a cluster client")
	require.Equal(t, cluster.ClusterAddrs, asynqSide.Options().Addrs)
	asynqSide.Close()
	_, isCluster := conn.Client.(*redis.ClusterClient)
	require.True(t, isCluster)
	require.NoError(t, conn.Close())
}

// Every malformed form is refused with a message naming the variable to fix.
func TestMalformedConfigurationsNameTheVariable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  redisconn.Config
		want string
	}{
		{redisconn.Config{URL: "http://127.0.0.1:6379"}, "REDIS_URL"},
		{redisconn.Config{URL: "redis://127.0.0.1:6379/notadb"}, "REDIS_URL"},
		{redisconn.Config{URL: ""}, "REDIS_URL"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1"}, MasterName: "m"}, "REDIS_SENTINELS"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1:port"}, MasterName: "m"}, "REDIS_SENTINELS"},
		{redisconn.Config{SentinelAddrs: []string{":26379"}, MasterName: "m"}, "REDIS_SENTINELS"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1:70000"}, MasterName: "m"}, "REDIS_SENTINELS"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1:26379"}}, "REDIS_SENTINEL_MASTER"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1:26379"}, MasterName: "m", DB: 16}, "REDIS_DB"},
		{redisconn.Config{ClusterAddrs: []string{"node-a"}}, "REDIS_CLUSTER_NODES"},
		{redisconn.Config{ClusterAddrs: []string{"10.0.1.1:7000"}, DB: 2}, "REDIS_DB"},
		{redisconn.Config{ClusterAddrs: []string{"10.0.1.1:7000"}, MasterName: "m"}, "REDIS_SENTINEL_MASTER"},
		{redisconn.Config{SentinelAddrs: []string{"10.0.0.1:26379"}, MasterName: "m", ClusterAddrs: []string{"10.0.1.1:7000"}}, "choose one"},
		{redisconn.Config{URL: "redis://127.0.0.1:6379", MasterName: "m"}, "REDIS_SENTINELS"},
	} {
		_, err := redisconn.Open(tc.cfg)
		require.Error(t, err, "%+v", tc.cfg)
		require.Contains(t, err.Error(), tc.want, "%+v", tc.cfg)
	}
}

// The description printed at start never shows a password.
func TestStringMasksPasswords(t *testing.T) {
	t.Parallel()
	for _, c := range []redisconn.Config{
		{URL: "redis://user:hunter2@10.0.0.5:6379/0"},
		{SentinelAddrs: []string{"10.0.0.1:26379"}, MasterName: "m", Password: "hunter2", SentinelPassword: "hunter2"},
		{ClusterAddrs: []string{"10.0.1.1:7000"}, Password: "hunter2"},
	} {
		s := c.String()
		require.NotContains(t, s, "hunter2")
		require.True(t, strings.HasPrefix(s, c.Topology()), s)
	}
	require.Equal(t, []string{"a:1", "b:2"}, redisconn.ParseAddrs(" a:1, ,b:2 ,"))
}

// A single server really answers through both connections.
func TestSingleServerAnswers(t *testing.T) {
	t.Parallel()
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	conn, err := redisconn.Open(redisconn.Config{URL: "redis://" + addr + "/0"})
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.Client.Ping(context.Background()).Err())
	insp := asynq.NewInspector(conn.Asynq)
	defer insp.Close()
	_, err = insp.Queues()
	require.NoError(t, err)
}

// Nothing outside this package constructs a Redis connection: every process reaches the
// configured topology through Open. (Test code builds its own throwaway connections.)
func TestNothingElseConstructsARedisConnection(t *testing.T) {
	t.Parallel()
	forbidden := map[string]map[string]bool{
		"github.com/redis/go-redis/v9": {"NewClient": true, "NewFailoverClient": true, "NewClusterClient": true,
			"NewUniversalClient": true, "NewRing": true, "NewFailoverClusterClient": true, "NewSentinelClient": true},
		"github.com/hibiken/asynq": {"RedisClientOpt": true, "RedisFailoverClientOpt": true, "RedisClusterClientOpt": true},
	}
	root := filepath.Join("..")
	var offenders []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			// redistest lends tests throwaway databases on the test server: test support, not a process.
			case "node_modules", ".git", "web", "e2e", "redisconn", "redistest":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string]string{} // local import name → path
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			name := filepath.Base(p)
			if p == "github.com/redis/go-redis/v9" {
				name = "redis"
			}
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && forbidden[names[pkg.Name]][sel.Sel.Name] {
				offenders = append(offenders, path+": "+pkg.Name+"."+sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, offenders, "construct Redis connections with redisconn.Open")
}
