// Package admission decides, before a request does any work, whether the API takes it now, lets
// it wait a moment for a place, or refuses it. Past capacity a server that takes everything
// answers nobody in time: every request waits behind the others until its client gives up. A
// concurrency limit keeps the work in progress at what the machine answers promptly; what does not
// fit waits in a short queue, and is refused (in milliseconds) only when that queue stands.
//
// Nothing here is tuned to a machine (issue 37). Two measurements replace the fixed latency
// target of the first version, which refused 44 % of what a slower machine could serve because an
// unloaded sign-up there already took longer than the target:
//
//   - The queue (CoDel, as in Facebook's adaptive LIFO/CoDel servers): a request that finds the
//     limit full waits for a place. While the shortest wait of the last 100 ms stays under 5 ms
//     the queue is only a burst being absorbed, and requests may wait long (Patience); once it
//     stays above, the queue is standing: the machine is past capacity, and requests that cannot
//     get a place within a few milliseconds (StandingPatience) are refused. The waits measure
//     queueing itself, whatever a request costs.
//   - The limit follows the latency of each kind of request relative to its own no-load latency.
//     That no-load latency is learnt continuously, per kind (a sign-up costs a hundred status
//     polls): the shortest time of the requests that ran with no more than Quiet others in
//     progress, over two rotating 30 s periods. When the machine is busy for so long that no
//     request ran quietly, the limiter probes, as Envoy's adaptive concurrency filter does: for a
//     moment it lets only Quiet requests run (the others wait in the queue, not refused) and
//     takes their times. The limit grows while the window's requests take less than Tolerance
//     times their no-load latency, and shrinks when two windows in a row take more.
//
// What was tried or read and not taken: Netflix's Gradient2 compares the latency with a long-term
// average of all requests; with mixed requests the average is set by the cheap ones, and on this
// CPU-bound machine it drove the limit to its floor (BENCHMARKS.md, "Sign-ups past capacity").
// Vegas estimates the queue from minRTT and the limit, again with one minRTT for all requests, and
// its minRTT, never re-probed, stays wrong once the machine changes (another process takes the
// cores, Postgres moves farther). Envoy refuses the requests arriving while it samples minRTT; here
// they wait in the queue. A fixed latency target (the first version) is right on one machine only.
//
// Requests carry a priority: places are given to waiting High requests first, then Normal, then
// Low, and Low requests give up soonest, so public verification is refused only after sign-ups are
// already being refused and the queue stands.
package admission

import (
	"container/list"
	"math"
	"runtime"
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

// Config tunes a Limiter; zero fields take the defaults. None of them depends on the machine.
type Config struct {
	InitialLimit float64 // 100: room for a burst at start (a cold start, a restart of its peer)
	MinLimit     float64 // 8: even a slow moment keeps this much work going
	MaxLimit     float64 // 1000
	// Tolerance (2): how many times its no-load latency a request may take, on average over a
	// window, before the limit stops growing. Below 2 the limit stopped short of the throughput
	// the machine reaches with more work in progress (Postgres commits in groups).
	Tolerance float64
	// Quiet (GOMAXPROCS, at least 2): a request that ran with no more than this many in progress
	// ran as on an idle machine; its time is a no-load sample. Also the limit while probing.
	Quiet      int
	Backoff    float64       // 0.9: what the limit is multiplied by when latency is past tolerance
	Window     time.Duration // 100 ms: how long latency samples are gathered before the limit moves
	MinSamples int           // 10: a window closes only with this many samples
	// The queue: CoDel's target (5 ms) and interval (100 ms). Waits that stay above the target for
	// an interval mean the queue stands.
	QueueTarget   time.Duration
	QueueInterval time.Duration
	// How long a request may wait for a place, by priority: while the queue is a passing burst
	// (Patience: High 1 s, Normal 500 ms, Low 300 ms) and while it stands (StandingPatience: High
	// 100 ms, Normal 20 ms, Low 10 ms). Standing waits are short because a refusal should be fast.
	Patience         [numPriorities]time.Duration
	StandingPatience [numPriorities]time.Duration
	// NoLoadPeriod (30 s): a kind's no-load latency is the shortest quiet sample of the current
	// and the previous period; a kind with no quiet sample for a period is stale and the limiter
	// probes (at most every ProbeGap, 5 s, for at most ProbeFor, 500 ms).
	NoLoadPeriod time.Duration
	ProbeGap     time.Duration
	ProbeFor     time.Duration
	// Ceiling, when set, also shrinks the limit when a window's average latency passes it: an
	// operator's bound on the answer time (ADMISSION_LATENCY_CEILING), not needed for capacity.
	Ceiling time.Duration
	Now     func() time.Time
}

func (c *Config) defaults() {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.InitialLimit, 100)
	def(&c.MinLimit, 8)
	def(&c.MaxLimit, 1000)
	def(&c.Tolerance, 2)
	def(&c.Backoff, 0.9)
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if c.Quiet <= 0 {
		c.Quiet = max(2, runtime.GOMAXPROCS(0))
	}
	defDur(&c.Window, 100*time.Millisecond)
	if c.MinSamples <= 0 {
		c.MinSamples = 10
	}
	defDur(&c.QueueTarget, 5*time.Millisecond)
	defDur(&c.QueueInterval, 100*time.Millisecond)
	for p, d := range map[Priority][2]time.Duration{High: {time.Second, 100 * time.Millisecond},
		Normal: {500 * time.Millisecond, 20 * time.Millisecond}, Low: {300 * time.Millisecond, 10 * time.Millisecond}} {
		defDur(&c.Patience[p], d[0])
		defDur(&c.StandingPatience[p], d[1])
	}
	defDur(&c.NoLoadPeriod, 30*time.Second)
	defDur(&c.ProbeGap, 5*time.Second)
	defDur(&c.ProbeFor, 500*time.Millisecond)
	if c.Now == nil {
		c.Now = time.Now
	}
}

// maxKinds bounds the kinds tracked; later ones share one entry (paths are normalized by the
// caller, so this is only a guard against a caller that does not).
const maxKinds = 512

// kind is the no-load latency of one kind of request.
type kind struct {
	cur, prev time.Duration // shortest quiet sample in the current and previous period (0: none)
	lastQuiet time.Time
}

// noLoad is the kind's no-load latency, 0 when none was measured.
func (k *kind) noLoad() time.Duration {
	switch {
	case k.cur == 0:
		return k.prev
	case k.prev == 0:
		return k.cur
	}
	return min(k.cur, k.prev)
}

// waiter is a request waiting for a place.
type waiter struct {
	p        Priority
	kind     *kind
	enqueued time.Time
	fixed    bool        // AcquireWithin: waits its whole patience even when the queue stands
	answer   chan Ticket // a counted Ticket: admitted; a zero one: refused
	elem     *list.Element
}

// Limiter is an adaptive concurrency limit with a priority queue. Safe for concurrent use.
type Limiter struct {
	cfg Config

	mu       sync.Mutex
	limit    float64
	inflight int
	queues   [numPriorities]*list.List
	waiting  int
	kinds    map[string]*kind
	other    *kind
	period   time.Time // start of the no-load period
	// the queue's state (CoDel)
	firstAbove time.Time // when waits above the target started to count, zero: the last was under
	standing   bool
	// the probe: while probing, only Quiet requests run
	probeUntil  time.Time
	probeQuiet  int       // quiet samples taken during the probe
	nextProbe   time.Time // no probe before
	settleUntil time.Time // the waits of the backlog a probe leaves are not the queue standing
	// the current window
	windowStart    time.Time
	samples        int
	sumLatency     time.Duration // all samples
	sumKnown       time.Duration // samples of kinds with a no-load latency
	sumNoLoad      time.Duration // their no-load latencies
	stale          int           // samples of kinds with no recent quiet sample
	maxInflight    int
	queuedInWindow bool
	slowRun        int // consecutive busy windows past tolerance
	shed           [numPriorities]uint64
}

// New makes a Limiter.
func New(cfg Config) *Limiter {
	cfg.defaults()
	now := cfg.Now()
	l := &Limiter{cfg: cfg, limit: cfg.InitialLimit, windowStart: now, period: now,
		kinds: map[string]*kind{}, other: &kind{}}
	for p := range l.queues {
		l.queues[p] = list.New()
	}
	return l
}

// Ticket is an admitted request; give it back with Done (or Ignore) when it is answered.
type Ticket struct {
	start   time.Time
	kind    *kind
	quiet   bool // admitted with no more than Quiet in progress
	counted bool
}

// Started is when the request was admitted (zero for an exempt request).
func (t Ticket) Started() time.Time { return t.start }

// Acquire admits a request of priority p and kind (its route: the same kind costs about the same),
// at once when there is room, else after waiting in the queue; it refuses the request (ok false)
// when no place frees up within its patience. A refused request has done nothing yet and must do
// nothing.
func (l *Limiter) Acquire(p Priority, kind string) (Ticket, bool) { return l.acquire(p, kind, 0) }

// AcquireWithin is Acquire with a patience of wait, kept even when the queue stands. Only for
// moments known to be passing, when a short wait serves a person better than a refusal: the
// backlog a Postgres switchover leaves (package api).
func (l *Limiter) AcquireWithin(p Priority, kind string, wait time.Duration) (Ticket, bool) {
	return l.acquire(p, kind, max(wait, time.Nanosecond))
}

func (l *Limiter) acquire(p Priority, kindName string, fixed time.Duration) (Ticket, bool) {
	if p == Exempt {
		return Ticket{}, true
	}
	now := l.cfg.Now()
	l.mu.Lock()
	k := l.kindOf(kindName)
	l.endProbe(now)
	if l.inflight < l.effectiveLimit() && l.waiting == 0 {
		l.queueWait(0, now)
		t := l.admit(now, k)
		l.mu.Unlock()
		return t, true
	}
	patience := fixed
	if patience == 0 {
		patience = l.patience(p)
	}
	w := &waiter{p: p, kind: k, enqueued: now, fixed: fixed > 0, answer: make(chan Ticket, 1)}
	w.elem = l.queues[p].PushBack(w)
	l.waiting++
	l.queuedInWindow = true
	l.mu.Unlock()

	timer := time.NewTimer(patience)
	defer timer.Stop()
	select {
	case t := <-w.answer:
		return t, t.counted
	case <-timer.C:
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case t := <-w.answer: // answered as the timer fired
		return t, t.counted
	default:
	}
	l.queues[p].Remove(w.elem)
	l.waiting--
	l.shed[p]++
	now = l.cfg.Now()
	l.queueWait(now.Sub(w.enqueued), now)
	return Ticket{}, false
}

func (l *Limiter) kindOf(name string) *kind {
	k := l.kinds[name]
	if k == nil {
		if len(l.kinds) >= maxKinds {
			return l.other
		}
		k = &kind{}
		l.kinds[name] = k
	}
	return k
}

// patience is how long a request of priority p may wait, given the queue's state (l.mu held).
func (l *Limiter) patience(p Priority) time.Duration {
	if l.standing {
		return l.cfg.StandingPatience[p]
	}
	return l.cfg.Patience[p]
}

func (l *Limiter) probing() bool { return !l.probeUntil.IsZero() }

func (l *Limiter) effectiveLimit() int {
	if l.probing() {
		return min(l.cfg.Quiet, max(1, int(l.limit)))
	}
	return max(1, int(l.limit))
}

func (l *Limiter) admit(now time.Time, k *kind) Ticket {
	l.inflight++
	l.maxInflight = max(l.maxInflight, l.inflight)
	return Ticket{start: now, kind: k, quiet: l.inflight <= l.cfg.Quiet, counted: true}
}

// queueWait feeds CoDel one request's wait for a place (l.mu held). A probe's waits are the
// probe's doing, not a standing queue.
func (l *Limiter) queueWait(wait time.Duration, now time.Time) {
	switch {
	case l.probing() || now.Before(l.settleUntil):
	case wait < l.cfg.QueueTarget:
		l.firstAbove, l.standing = time.Time{}, false
	case l.firstAbove.IsZero():
		l.firstAbove = now.Add(l.cfg.QueueInterval)
	case !now.Before(l.firstAbove):
		l.standing = true
	}
}

// grant gives free places to the waiters, High first; while the queue stands, a waiter that has
// already waited past its standing patience is refused instead (CoDel drops at the head).
func (l *Limiter) grant(now time.Time) {
	for l.inflight < l.effectiveLimit() && l.waiting > 0 {
		var w *waiter
		for p := High; p < numPriorities; p++ {
			if e := l.queues[p].Front(); e != nil {
				w = l.queues[p].Remove(e).(*waiter)
				break
			}
		}
		l.waiting--
		wait := now.Sub(w.enqueued)
		l.queueWait(wait, now)
		if l.standing && !w.fixed && wait > l.cfg.StandingPatience[w.p] {
			l.shed[w.p]++
			w.answer <- Ticket{}
			continue
		}
		w.answer <- l.admit(now, w.kind)
	}
}

// Done gives an admitted request's place back and takes its time as a latency sample.
func (l *Limiter) Done(t Ticket) {
	if !t.counted {
		return
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	quiet := t.quiet && l.inflight <= l.cfg.Quiet
	l.inflight--
	l.sample(t, now.Sub(t.start), quiet, now)
	l.endProbe(now)
	l.grant(now)
}

// Ignore gives an admitted request's place back without taking its time as a latency sample:
// for requests that mostly wait on purpose (a short wait for a provider page, a file download).
func (l *Limiter) Ignore(t Ticket) {
	if !t.counted {
		return
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	l.endProbe(now)
	l.grant(now)
}

// sample records one answered request (l.mu held).
func (l *Limiter) sample(t Ticket, latency time.Duration, quiet bool, now time.Time) {
	if now.Sub(l.period) >= l.cfg.NoLoadPeriod {
		// A new period: each kind's last period becomes its previous one. A kind with no quiet
		// sample in it keeps what it had, so a long busy spell does not erase what was learnt.
		for _, k := range l.kinds {
			if k.cur > 0 {
				k.prev, k.cur = k.cur, 0
			}
		}
		l.period = now
	}
	k := t.kind
	if quiet && latency > 0 {
		if k.cur == 0 || latency < k.cur {
			k.cur = latency
		}
		k.lastQuiet = now
		if l.probing() {
			l.probeQuiet++
		}
	}
	l.samples++
	l.sumLatency += latency
	if nl := k.noLoad(); nl > 0 {
		l.sumKnown += latency
		l.sumNoLoad += nl
	}
	if k.lastQuiet.IsZero() || now.Sub(k.lastQuiet) >= l.cfg.NoLoadPeriod {
		l.stale++
	}
	if l.samples >= l.cfg.MinSamples && now.Sub(l.windowStart) >= l.cfg.Window {
		l.update(now)
		l.windowStart, l.samples, l.sumLatency, l.sumKnown, l.sumNoLoad, l.stale = now, 0, 0, 0, 0, 0
		l.maxInflight, l.queuedInWindow = l.inflight, l.waiting > 0
	}
}

// update moves the limit at the end of a window (l.mu held).
func (l *Limiter) update(now time.Time) {
	if l.probing() {
		return
	}
	busy := l.queuedInWindow || float64(l.maxInflight) >= 0.9*l.limit
	if busy && l.stale*2 >= l.samples && !now.Before(l.nextProbe) {
		// Most requests are of kinds that have not run quietly for a period: the machine has been
		// busy all along and their no-load latency is unknown or old. Measure it now.
		l.probeUntil, l.probeQuiet = now.Add(l.cfg.ProbeFor), 0
		l.firstAbove, l.standing = time.Time{}, false
		return
	}
	over := l.cfg.Ceiling > 0 && l.sumLatency/time.Duration(l.samples) > l.cfg.Ceiling
	known := l.sumNoLoad > 0
	ratio := 0.0
	if known {
		ratio = float64(l.sumKnown) / float64(l.sumNoLoad)
		over = over || ratio > l.cfg.Tolerance
	}
	if !known && !over {
		return // nothing to judge by yet
	}
	switch {
	case float64(l.maxInflight) < l.limit/2:
		// Little in progress says nothing about the limit. But prompt answers bring a limit cut in
		// a moment of trouble (a Postgres switchover) back to where it started, a tenth at a time;
		// without this it stayed low and refused the start of the next busy moment.
		l.slowRun = 0
		if !over && l.limit < l.cfg.InitialLimit {
			l.limit = math.Min(l.cfg.InitialLimit, l.limit+math.Max(1, l.limit/10))
		}
	case !over:
		l.slowRun = 0
		if busy {
			step := 1.0
			if ratio < l.cfg.Tolerance/2 {
				step = math.Max(1, l.limit/10) // far from queueing: climb faster
			}
			l.limit = math.Min(l.cfg.MaxLimit, l.limit+step)
		}
	default:
		// One slow window alone is not enough: a garbage collection or another process taking the
		// CPU for a moment slows one window without anything queueing here.
		if l.slowRun++; l.slowRun >= 2 {
			l.limit = math.Max(l.cfg.MinLimit, l.limit*l.cfg.Backoff)
		}
	}
}

// endProbe ends a probe that has its samples or its time (l.mu held), and lets the queue in.
func (l *Limiter) endProbe(now time.Time) {
	if !l.probing() || (l.probeQuiet < l.cfg.MinSamples && now.Before(l.probeUntil)) {
		return
	}
	l.probeUntil = time.Time{}
	l.nextProbe = now.Add(l.cfg.ProbeGap)
	l.settleUntil = now.Add(2 * l.cfg.QueueInterval)
	l.grant(now)
}

// Stats is a snapshot for metrics.
type Stats struct {
	Limit    float64
	Inflight int
	Waiting  int                   // requests waiting for a place
	Standing bool                  // the queue stands: the machine is past capacity
	Probing  bool                  // measuring the no-load latency
	Shed     [numPriorities]uint64 // refused requests, by priority, since the start
}

// Stats reads the current limit, work in progress, queue and refusals.
func (l *Limiter) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Stats{Limit: l.limit, Inflight: l.inflight, Waiting: l.waiting, Standing: l.standing,
		Probing: l.probing(), Shed: l.shed}
}

// NoLoad is the no-load latency learnt for a kind of request, 0 when none yet.
func (l *Limiter) NoLoad(kind string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := l.kinds[kind]; k != nil {
		return k.noLoad()
	}
	return 0
}

// Priorities lists the priorities that can be refused, for metrics.
func Priorities() []Priority { return []Priority{High, Normal, Low} }
