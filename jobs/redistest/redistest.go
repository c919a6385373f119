// Package redistest lends each test its own Redis logical database on the real server.
package redistest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Addr is the Redis server used by tests.
func Addr() string {
	if v := os.Getenv("TEST_REDIS_ADDR"); v != "" {
		return v
	}
	return "127.0.0.1:6379"
}

// firstDB..lastDB are lent to tests (0 is development, 5 is the browser tests).
const firstDB, lastDB = 6, 15

// New reserves an empty logical database for this test and returns asynq and go-redis options for it.
func New(t testing.TB) (asynq.RedisClientOpt, *redis.Options) {
	t.Helper()
	ctx := context.Background()
	locks := redis.NewClient(&redis.Options{Addr: Addr(), DB: 0})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for db := firstDB; db <= lastDB; db++ {
			key := fmt.Sprintf("pstest:lock:%d", db)
			ok, err := locks.SetNX(ctx, key, os.Getpid(), 10*time.Minute).Result()
			if err != nil {
				t.Fatalf("redistest: %v", err)
			}
			if !ok {
				continue
			}
			opts := &redis.Options{Addr: Addr(), DB: db}
			c := redis.NewClient(opts)
			c.FlushDB(ctx)
			c.Close()
			t.Cleanup(func() {
				c := redis.NewClient(opts)
				c.FlushDB(context.Background())
				c.Close()
				locks.Del(context.Background(), key)
				locks.Close()
			})
			return asynq.RedisClientOpt{Addr: Addr(), DB: db}, opts
		}
		if time.Now().After(deadline) {
			t.Fatalf("redistest: no free Redis database")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// URL is the REDIS_URL of o, for a perfilseguro process started by a test.
func URL(o asynq.RedisClientOpt) string { return fmt.Sprintf("redis://%s/%d", o.Addr, o.DB) }
