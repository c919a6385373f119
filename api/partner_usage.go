package api

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// Partner usage is counted in the process and added to Redis's usage hash (jobs.PartnerUsageKey,
// flushed to Postgres by the partner:flush-usage job) once every usageFlushEvery: a Redis round
// trip per partner request cost the partner API a third of its rate (make bench-sessions). A
// count Redis refuses stays here for the next flush; a crash loses at most one interval's counts.

// usageFlushEvery spaces the writes of partner usage to Redis.
const usageFlushEvery = time.Second

// usageCounter batches partner request counts.
type usageCounter struct {
	redis  redis.UniversalClient
	logger *slog.Logger

	mu     sync.Mutex
	counts map[int64]int64 // partner id → requests not yet in Redis

	stop chan struct{}
	done chan struct{}
}

func newUsageCounter(rc redis.UniversalClient, logger *slog.Logger) *usageCounter {
	u := &usageCounter{redis: rc, logger: logger, counts: map[int64]int64{}, stop: make(chan struct{}), done: make(chan struct{})}
	go u.run()
	return u
}

// add counts one request of a partner.
func (u *usageCounter) add(partnerID int64) {
	u.mu.Lock()
	u.counts[partnerID]++
	u.mu.Unlock()
}

func (u *usageCounter) run() {
	defer close(u.done)
	tick := time.NewTicker(usageFlushEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			u.flush()
		case <-u.stop:
			u.flush()
			return
		}
	}
}

// flush adds the batched counts to Redis in one pipeline; what fails is kept for the next one.
func (u *usageCounter) flush() {
	u.mu.Lock()
	batch := u.counts
	u.counts = map[int64]int64{}
	u.mu.Unlock()
	if len(batch) == 0 || u.redis == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := u.redis.Pipelined(ctx, func(p redis.Pipeliner) error {
		for id, n := range batch {
			p.HIncrBy(ctx, jobs.PartnerUsageKey, strconv.FormatInt(id, 10), n)
		}
		return nil
	})
	if err != nil {
		u.logger.Warn("partner usage not counted yet; kept for the next flush", "partners", len(batch), "error", err)
		u.mu.Lock()
		for id, n := range batch {
			u.counts[id] += n
		}
		u.mu.Unlock()
	}
}

// close writes what is still counted; called on graceful shutdown after the last request.
func (u *usageCounter) close() {
	close(u.stop)
	<-u.done
}
