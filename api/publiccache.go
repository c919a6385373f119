package api

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// publicCacheMax bounds the cache: about 1 kB a record, so at most ~200 MB. Unknown IDs are cached
// too (as not found), which costs a scraper nothing extra: misses are limited per address.
const publicCacheMax = 200_000

// publicCache is a read-through cache of public records (GET /api/verify/{id} rendered, but for
// its expiry and timestamp: publicrecord.go), so that QR scans do not each cost a Postgres query. It only serves while a
// postgres.ProfileChangeFeed proves it current (FreshUntil): a level change, an edit, an expiry
// recorded in the database or a deletion reaches every replica within the feed's staleness bound
// (1 s), and a replica that deletes a user forgets the record at once. Expiry by the calendar
// needs nothing: whether a record is expired is decided at each answer from its dates.
type publicCache struct {
	mu      sync.RWMutex
	records map[string]publicRecord // by profile ID
	byUser  map[int64]string        // user id → profile ID, for forgetting by user
	// gen counts invalidations: a record read from Postgres is stored only if no invalidation
	// happened since the read began, so a change that commits during the read is never hidden.
	gen        uint64
	freshUntil atomic.Int64 // unix nanoseconds; 0 until a feed runs
	hits       atomic.Uint64
	misses     atomic.Uint64
}

func newPublicCache() *publicCache {
	return &publicCache{records: map[string]publicRecord{}, byUser: map[int64]string{}}
}

// fresh reports whether cached records may be served at now (the wall clock: the feed's, not a
// test's injected clock).
func (c *publicCache) fresh(now time.Time) bool { return now.UnixNano() < c.freshUntil.Load() }

// get returns the cached record of a profile ID and the generation to store a fresh read under.
func (c *publicCache) get(profileID string) (publicRecord, uint64, bool) {
	c.mu.RLock()
	p, ok := c.records[profileID]
	gen := c.gen
	c.mu.RUnlock()
	if ok && c.fresh(time.Now()) {
		c.hits.Add(1)
		return p, gen, true
	}
	c.misses.Add(1)
	return publicRecord{}, gen, false
}

// put stores a record read from Postgres, unless an invalidation came after the read began.
func (c *publicCache) put(profileID string, p publicRecord, gen uint64) {
	if !c.fresh(time.Now()) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.records) >= publicCacheMax {
		for id, old := range c.records { // map order is random: evict one at random
			delete(c.records, id)
			if !old.notFound {
				delete(c.byUser, old.userID)
			}
			break
		}
	}
	c.records[profileID] = p
	if !p.notFound {
		c.byUser[p.userID] = profileID
	}
}

// Changed forgets one profile ID (postgres.ProfileChangeSink).
func (c *publicCache) Changed(profileID string) {
	c.mu.Lock()
	if p, ok := c.records[profileID]; ok {
		delete(c.records, profileID)
		if !p.notFound {
			delete(c.byUser, p.userID)
		}
	}
	c.gen++
	c.mu.Unlock()
}

// forgetUser forgets a user's record at once (this replica deleted or changed it).
func (c *publicCache) forgetUser(userID int64) {
	c.mu.Lock()
	if id, ok := c.byUser[userID]; ok {
		delete(c.records, id)
		delete(c.byUser, userID)
	}
	c.gen++
	c.mu.Unlock()
}

// Reset forgets everything (postgres.ProfileChangeSink).
func (c *publicCache) Reset() {
	c.mu.Lock()
	clear(c.records)
	clear(c.byUser)
	c.gen++
	c.mu.Unlock()
}

// FreshUntil lets cached records be served until t (postgres.ProfileChangeSink).
func (c *publicCache) FreshUntil(t time.Time) {
	for {
		old := c.freshUntil.Load()
		if t.UnixNano() <= old || c.freshUntil.CompareAndSwap(old, t.UnixNano()) {
			return
		}
	}
}

// PublicRecordCache is the sink a postgres.ProfileChangeFeed keeps current; without a running
// feed the cache never serves and every lookup reads Postgres.
func (s *Server) PublicRecordCache() postgres.ProfileChangeSink { return s.public }
