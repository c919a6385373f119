package api

import (
	"sync"
	"time"
)

// ttlCache keeps loaded values for ttl, so a lookup repeated within it costs no database round
// trip; an answer of "none" (a nil value) is kept like any other. With a bound, a map grown past
// it starts afresh, so a flood of unknown keys cannot grow it.
type ttlCache[V any] struct {
	ttl   time.Duration
	bound int // 0: unbounded
	mu    sync.Mutex
	items map[string]ttlItem[V]
}

type ttlItem[V any] struct {
	v       V
	expires time.Time
}

// get returns key's value while it is fresh at now; otherwise it loads, keeps and returns it (a
// failed load is not kept).
func (c *ttlCache[V]) get(key string, now time.Time, load func() (V, error)) (V, error) {
	c.mu.Lock()
	it, ok := c.items[key]
	c.mu.Unlock()
	if ok && now.Before(it.expires) {
		return it.v, nil
	}
	v, err := load()
	if err != nil {
		var none V
		return none, err
	}
	c.mu.Lock()
	if c.items == nil || (c.bound > 0 && len(c.items) > c.bound) {
		c.items = map[string]ttlItem[V]{}
	}
	c.items[key] = ttlItem[V]{v: v, expires: now.Add(c.ttl)}
	c.mu.Unlock()
	return v, nil
}
