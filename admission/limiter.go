// Package admission decides, before a request does any work, whether the API takes it now or
// refuses it at once. Past capacity a server that takes everything answers nobody in time: every
// request waits behind the others until its client gives up. An adaptive concurrency limit keeps
// the work in progress at what the machine answers promptly; what does not fit is refused in
// microseconds, and the refused client can come back.
//
// The limit is AIMD on latency (in the spirit of Netflix's concurrency-limits, of which no
// maintained Go port is available to us): every window (100 ms) the average time of the requests
// answered in it is compared with a target (10 ms by default; see Config.Target for why).
// In a window where the work in progress came near the limit (half of it or more), the limit
// grows by one below the target and, once a second such window in a row is above it, shrinks by a
// tenth; other windows leave it alone (slow answers with little in progress, as on a cold start,
// are not queueing). One slow window alone is not enough: a garbage collection or another process
// taking the CPU for a moment slows one window without anything queueing in this process, and a
// cut limit refuses public lookups for the seconds it takes to grow back (seen with vegeta on the
// same 2 cores, issue 27); a queue that is really building shows in the next window too. A latency-gradient limit (Gradient2) was tried first and measured worse here:
// on a CPU-bound machine latency grows with concurrency long before throughput stops growing, so
// comparing with the unloaded latency drove the limit to its floor and halved the sign-ups served
// (BENCHMARKS.md, "Sign-ups past capacity"). Requests carry a priority; lower priorities may only
// use a share of the limit, so that when sign-ups flood in, public verifications, status polls,
// provider webhooks and wallet updates still find room.
package admission

import (
	"math"
	"sync"
	"time"
)

// Priority orders requests for admission.
type Priority int

const (
	// Exempt requests are always admitted and not counted (health and readiness checks: shedding
	// them would make a load balancer take a busy but healthy instance out of service).
	Exempt Priority = iota
	// High: public verification, status polls of signed-in people, provider webhooks, PassKit.
	High
	// Normal: everything else.
	Normal
	// Low: new sign-ups and code sends, the requests that create work for later (a code job).
	Low
	numPriorities
)

// String names the priority for metrics and logs.
func (p Priority) String() string {
	return [...]string{"exempt", "high", "normal", "low"}[p]
}

// share is the part of the limit each priority may fill: a Low request is admitted only while
// the work in progress stays under 70 % of the limit, leaving the rest for the others.
var share = [numPriorities]float64{Exempt: math.Inf(1), High: 1, Normal: 0.9, Low: 0.7}

// Config tunes a Limiter; zero fields take the defaults.
type Config struct {
	InitialLimit float64 // 100: room for a burst at start (a cold start, a restart of its peer)
	MinLimit     float64 // 8: even a slow moment keeps this much work going
	MaxLimit     float64 // 1000
	// Target (10 ms) is the average latency above which the limit shrinks. It bounds more than the
	// admitted requests' time: on a CPU-bound machine every admitted request in progress also
	// delays the refusals, which wait for the same cores. 25 ms (half the API's 50 ms p99
	// objective) let in so much work at 4× capacity that refusals took 49-137 ms at p99; with
	// 10 ms, 23 ms, as many sign-ups served and theirs at 41 ms instead of 97 ms (make
	// bench-overload, BENCHMARKS.md). A sign-up takes 3-5 ms unloaded when Postgres is on the same
	// machine or network; where it is farther, raise the target to two or three times that
	// (ADMISSION_LATENCY_TARGET), or the limit sinks to its floor under load.
	Target     time.Duration
	Backoff    float64       // 0.9: what the limit is multiplied by when latency is past the target
	Window     time.Duration // 100 ms: how long a latency sample is averaged
	MinSamples int           // 10: a window closes only with this many samples
	Now        func() time.Time
}

func (c *Config) defaults() {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.InitialLimit, 100)
	// The floor. 32 was tried (after a Postgres failover on the scale rig's crowded cores the
	// limit sank to 8 and refused sign-ups for the rest of the run), but at 4× capacity it let so
	// much work in that refusals waited 329 ms at p99 instead of 73 ms (make bench-overload,
	// BENCHMARKS.md); the limit now climbs back from the floor once answers are prompt (update).
	def(&c.MinLimit, 8)
	def(&c.MaxLimit, 1000)
	def(&c.Backoff, 0.9)
	if c.Target <= 0 {
		c.Target = 10 * time.Millisecond
	}
	if c.Window <= 0 {
		c.Window = 100 * time.Millisecond
	}
	if c.MinSamples <= 0 {
		c.MinSamples = 10
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Limiter is an adaptive concurrency limit shared by priorities. Safe for concurrent use.
type Limiter struct {
	cfg Config

	mu       sync.Mutex
	limit    float64
	inflight int
	// the current window: sum and count of latencies, the most work in progress seen
	windowStart time.Time
	sum         time.Duration
	samples     int
	maxInflight int
	slowRun     int // consecutive windows near the limit with latency past the target
	shed        [numPriorities]uint64
	// AcquireWithin's waiters, woken by closing freed whenever a place is given back
	waiters int
	freed   chan struct{}
}

// New makes a Limiter.
func New(cfg Config) *Limiter {
	cfg.defaults()
	return &Limiter{cfg: cfg, limit: cfg.InitialLimit, windowStart: cfg.Now(), freed: make(chan struct{})}
}

// Ticket is an admitted request; give it back with Done when the request is answered.
type Ticket struct {
	start   time.Time
	counted bool
}

// Started is when the request was admitted (zero for an exempt request).
func (t Ticket) Started() time.Time { return t.start }

// Acquire admits a request of priority p, or refuses it (ok false) when the work in progress
// already fills p's share of the limit. A refused request has done nothing yet and must do nothing.
func (l *Limiter) Acquire(p Priority) (t Ticket, ok bool) {
	if p == Exempt {
		return Ticket{}, true
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.fits(p) {
		l.shed[p]++
		return Ticket{}, false
	}
	return l.admit(now), true
}

func (l *Limiter) fits(p Priority) bool { return float64(l.inflight) < math.Max(1, l.limit*share[p]) }

func (l *Limiter) admit(now time.Time) Ticket {
	l.inflight++
	l.maxInflight = max(l.maxInflight, l.inflight)
	return Ticket{start: now, counted: true}
}

// AcquireWithin is Acquire that, when p's share is full, waits up to wait for a place before
// refusing. Only for moments known to be passing, when a short wait serves a person better than a
// refusal: the backlog a Postgres switchover leaves (package api). The time waited is part of the
// request's latency sample.
func (l *Limiter) AcquireWithin(p Priority, wait time.Duration) (Ticket, bool) {
	if p == Exempt {
		return Ticket{}, true
	}
	start := l.cfg.Now()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.fits(p) {
		l.waiters++
		freed := l.freed
		l.mu.Unlock()
		select {
		case <-freed:
			l.mu.Lock()
			l.waiters--
		case <-timer.C:
			l.mu.Lock()
			l.waiters--
			l.shed[p]++
			return Ticket{}, false
		}
	}
	return l.admit(start), true
}

// release gives a place back and wakes the waiters of AcquireWithin, if any (l.mu held).
func (l *Limiter) release() {
	l.inflight--
	if l.waiters > 0 {
		close(l.freed)
		l.freed = make(chan struct{})
	}
}

// Done gives an admitted request's place back and records how long it took.
func (l *Limiter) Done(t Ticket) {
	if !t.counted {
		return
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.release()
	l.sum += now.Sub(t.start)
	l.samples++
	if l.samples >= l.cfg.MinSamples && now.Sub(l.windowStart) >= l.cfg.Window {
		l.update(l.sum / time.Duration(l.samples))
		l.windowStart, l.sum, l.samples, l.maxInflight = now, 0, 0, l.inflight
	}
}

// update moves the limit after a window whose requests took avg on average.
func (l *Limiter) update(avg time.Duration) {
	// Only a window in which the work in progress came near the limit says anything about the
	// limit: slow answers with little in progress (a cold start, a slow moment of a dependency)
	// are not queueing, and fast ones with little in progress say nothing about more.
	if float64(l.maxInflight) < l.limit/2 {
		l.slowRun = 0
		// Little in progress and prompt answers: a limit cut in a moment of trouble goes back to
		// where it started, a tenth at a time. Without this it stayed low until the next busy
		// moment and refused the start of it: after a Postgres switchover (requests waiting 1-2 s
		// for the new primary cut it) the API refused sign-ups for seconds with the database
		// back (make scale, postgres-switchover).
		if avg <= l.cfg.Target && l.limit < l.cfg.InitialLimit {
			l.limit = math.Min(l.cfg.InitialLimit, l.limit+math.Max(1, l.limit/10))
		}
		return
	}
	if avg <= l.cfg.Target {
		l.slowRun = 0
		l.limit = math.Min(l.cfg.MaxLimit, l.limit+1)
		return
	}
	if l.slowRun++; l.slowRun >= 2 {
		l.limit = math.Max(l.cfg.MinLimit, l.limit*l.cfg.Backoff)
	}
}

// Ignore gives an admitted request's place back without taking its time as a latency sample:
// for requests that mostly wait on purpose (a short wait for a provider page, a file download).
func (l *Limiter) Ignore(t Ticket) {
	if !t.counted {
		return
	}
	l.mu.Lock()
	l.release()
	l.mu.Unlock()
}

// Stats is a snapshot for metrics.
type Stats struct {
	Limit    float64
	Inflight int
	Shed     [numPriorities]uint64 // refused requests, by priority, since the start
}

// Stats reads the current limit, work in progress and refusals.
func (l *Limiter) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Stats{Limit: l.limit, Inflight: l.inflight, Shed: l.shed}
}

// Priorities lists the priorities that can be refused, for metrics.
func Priorities() []Priority { return []Priority{High, Normal, Low} }
