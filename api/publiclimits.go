package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"
)

// PublicLimits limit public lookups (GET /api/verify/{id} and the QR image) per client address.
// Misses (400 and 404: a made-up or mistyped ID) are limited tightly and across replicas, since
// walking the ID space is made of misses; hits are limited loosely and per replica, since a
// notary's office may scan dozens of real codes from one address.
type PublicLimits struct {
	MissesPerMinute int // made-up or malformed IDs per address per minute
	MissBurst       int // misses allowed at once before the per-minute pace applies
	HitsPerMinute   int // lookups of existing profiles per address per minute (per replica)
	HitBurst        int
}

// DefaultPublicLimits: 20 misses a minute with a burst of 10; 600 hits a minute with a burst of 120.
var DefaultPublicLimits = PublicLimits{MissesPerMinute: 20, MissBurst: 10, HitsPerMinute: 600, HitBurst: 120}

func (l PublicLimits) withDefaults() PublicLimits {
	d := DefaultPublicLimits
	if l.MissesPerMinute > 0 {
		d.MissesPerMinute = l.MissesPerMinute
	}
	if l.MissBurst > 0 {
		d.MissBurst = l.MissBurst
	}
	if l.HitsPerMinute > 0 {
		d.HitsPerMinute = l.HitsPerMinute
	}
	if l.HitBurst > 0 {
		d.HitBurst = l.HitBurst
	}
	return d
}

// publicLimiter applies PublicLimits. An address over its miss limit is refused every lookup,
// hits included, until the wait is over: answering hits would let a blocked scraper tell real IDs
// (200) from made-up ones (429) at no cost. The block is remembered in memory, so refusing it costs
// no Redis round trip; another replica learns it at the address's next miss there.
type publicLimiter struct {
	limits PublicLimits
	redis  redis.UniversalClient
	now    func() time.Time

	mu      sync.Mutex
	blocked map[string]time.Time     // address → refused until
	hits    map[string]*rate.Limiter // address → its hit allowance on this replica
	swept   time.Time
}

func newPublicLimiter(limits PublicLimits, rc redis.UniversalClient) *publicLimiter {
	return &publicLimiter{limits: limits.withDefaults(), redis: rc, now: time.Now,
		blocked: map[string]time.Time{}, hits: map[string]*rate.Limiter{}}
}

// errPublicLimited is the 429 of a public lookup, with the wait in seconds.
func errPublicLimited(wait time.Duration) error {
	secs := max(int(math.Ceil(wait.Seconds())), 1)
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: secs, Body: ErrorBody{
		Message: fmt.Sprintf("Demasiadas consultas desde tu conexión. Intenta nuevamente en %s.", humanWait(secs))}}
}

// admit refuses an address that is serving a miss block, before any lookup.
func (l *publicLimiter) admit(ip string) error {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	if until, ok := l.blocked[ip]; ok && now.Before(until) {
		return errPublicLimited(until.Sub(now))
	}
	return nil
}

// hit charges a lookup of an existing profile (or a QR image) to the address on this replica.
func (l *publicLimiter) hit(ip string) error {
	now := l.now()
	l.mu.Lock()
	lim, ok := l.hits[ip]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(float64(l.limits.HitsPerMinute)/60), l.limits.HitBurst)
		l.hits[ip] = lim
	}
	l.mu.Unlock()
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return errPublicLimited(d)
	}
	return nil
}

// miss charges a miss to the address across replicas (Redis). Past the limit the address is
// blocked here until the wait is over. When Redis cannot be reached the miss is let through (a
// public lookup must not depend on Redis) and the error is returned for the log.
func (l *publicLimiter) miss(ctx context.Context, ip string) (refused error, unavailable error) {
	res, err := gcra.Run(ctx, l.redis, []string{"rate:public:miss:" + ip},
		l.limits.MissesPerMinute, 60, l.limits.MissBurst).Slice()
	if err != nil || len(res) != 2 {
		return nil, fmt.Errorf("public miss limit: %v %v", res, err)
	}
	if allowed, _ := res[0].(int64); allowed == 1 {
		return nil, nil
	}
	wait, _ := res[1].(string)
	secs, err := strconv.ParseFloat(wait, 64)
	if err != nil {
		return nil, fmt.Errorf("public miss limit: retry-after %q", wait)
	}
	d := time.Duration(secs * float64(time.Second))
	l.mu.Lock()
	l.blocked[ip] = l.now().Add(d)
	l.mu.Unlock()
	return errPublicLimited(d), nil
}

// sweep drops ended blocks and idle hit allowances once a minute (called with mu held).
func (l *publicLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for ip, until := range l.blocked {
		if !now.Before(until) {
			delete(l.blocked, ip)
		}
	}
	for ip, lim := range l.hits {
		if lim.TokensAt(now) >= float64(l.limits.HitBurst) {
			delete(l.hits, ip) // full again: forgetting it changes nothing
		}
	}
}

// gcra is one GCRA limit with its own period and burst (the limits of allowAll are hourly with a
// burst equal to the rate). KEYS[1]: the key; ARGV: events per period, period in seconds, burst.
// Returns {allowed, retry-after seconds}.
var gcra = redis.NewScript(`
local t = redis.call("TIME")
local now = (t[1] - 1483228800) + (t[2] / 1000000)
local emission = tonumber(ARGV[2]) / tonumber(ARGV[1])
local tolerance = emission * tonumber(ARGV[3])
local tat = math.max(tonumber(redis.call("GET", KEYS[1]) or now), now)
local new_tat = tat + emission
local allow_at = new_tat - tolerance
if allow_at > now then
  return {0, tostring(allow_at - now)}
end
redis.call("SET", KEYS[1], new_tat, "EX", math.ceil(new_tat - now))
return {1, "0"}
`)
