// Package admission decides, before a request does any work, whether the API takes it now, lets
// it wait a moment for a place, or refuses it. Past capacity a server that takes everything
// answers nobody in time: every request waits behind the others until its client gives up. A
// concurrency limit keeps the work in progress at what the machine answers promptly; what does not
// fit waits in a short queue, and is refused only when that queue stands.
//
// Nothing here is tuned to a machine (issue 37). The first version shrank its limit whenever the
// average answer passed a fixed 10 ms; on a machine where an unloaded sign-up already took 35 ms
// it refused 44 % of what the machine could serve. Now:
//
//   - The queue measures queueing itself (CoDel, as in Facebook's adaptive LIFO/CoDel servers): a
//     request that finds the limit full waits for a place, High priority first. While the shortest
//     wait of the last 100 ms stays under 5 ms the queue is a burst being absorbed and requests may
//     wait long (Patience); once it stays above, the queue stands: the machine is past capacity,
//     and the patience is shorter (StandingPatience). Either way a newcomer that would outwait
//     half its patience behind the queue (at the rate places are given back to its priority:
//     those the higher priorities keep taking are not its) is refused on arrival, and a waiter
//     keeps the patience it came with: nearly every refusal is made at once, and nearly
//     everything that waits is served.
//   - The limit lets requests take, on average, up to the larger of twice their no-load latency
//     (Tolerance) and their no-load latency plus 50 ms (Budget); past both, the extra work in
//     progress only waits inside the process and the limit goes down a tenth, otherwise up a tenth.
//     The no-load latency is learnt continuously per kind (a sign-up costs a hundred status
//     polls): the shortest time of the requests that ran with no more than Quiet others in
//     progress, over two rotating 30 s periods, re-probed as Envoy's adaptive concurrency filter
//     does when the machine was busy for a whole period (for a moment only Quiet requests run,
//     until each stale kind has a quiet sample; the others wait in the queue). The relative bound
//     alone (twice the no-load time) kept the limit near 36 where a sign-up takes 4 ms unloaded
//     and the throughput still grows with the work in progress (Postgres commits in groups; the
//     round trips overlap): the machine served 64-78 % of its capacity at 4x. With the budget it
//     served 81-94 % at 2x and 4x in the record; where requests are slow unloaded (Postgres 5 ms
//     away) the relative bound still decides. 50 ms is small beside the 1 s an admitted person
//     may wait; 200 ms let the limit reach 370 and the admitted p99 2 s (make bench-overload,
//     BENCHMARKS.md).
//   - Paired trials measure the throughput, both ways. A busy limiter cycles through four
//     phases of about 300 ms: the limit tried a quarter higher, the limit, tried a fifth lower,
//     the limit; each trial compares a tried limit with the limit in the phase right after it,
//     so that the machine's own drift cancels (BBR's gain cycling, judged as PCC judges its
//     rates: Dong et al., NSDI 2015). Where the trials near the limit clearly say one way
//     serves more, the limit goes that way whatever the latency; where they say the budget's
//     way serves less, it holds. Both ways matter: the best limit was 128 in progress on one
//     machine and 32 on another, where more in progress served less.
//   - An optional Ceiling bounds the average answer where that costs no throughput.
//
// What was read or tried and not taken. Netflix's Gradient2 and Vegas compare the latency with one
// minimum or long-term average for all requests: with mixed requests that is set by the cheap
// ones, and on this CPU-bound machine any latency gradient drove the limit to its floor, because
// the latency grows with the work in progress long before the throughput stops growing. Envoy
// refuses the requests that arrive while it samples minRTT; here they wait. A fixed latency
// target (the first version) fits one machine. A map from limit to throughput that picked the
// smallest limit serving 95 % of the best (tried for a day) followed the ±40 % noise of a shared
// two-core machine and refused sign-ins in the scale rig's rolling restart. A climb that compared
// each epoch with the best of the last 30 s followed the noise upward (the best of a hundred
// noisy epochs is high) and never came down towards a lower limit that served more.
//
// What it cannot do on two cores shared with the load generator: serve 90 % of the capacity at
// four times it, or refuse within 50 ms while serving what it can. A refusal there costs the
// machine what a bare net/http server's 503 costs it (0.7-1 ms of CPU: the generator's new
// connection, the kernel's handshake, the answer), so at 4x the refusals alone take about half
// the cores, and at the closed-loop cost of a sign-up the cores could serve 59 % of the capacity
// beside them; the limiter served 56 % there, and 91 % at 2x where 90 % fit (make
// bench-overload's "Most the cores could serve"). More in progress makes a sign-up cheaper (in
// one process it served 95 % at 4x with a limit near 43), but on a starved machine the answers
// are slow at any limit and the budget keeps it low. While the cores serve what they can, a
// refusal waits its turn for the CPU: 40-420 ms at p99, against 4-10 ms for the bare server
// alone; with the limit held at 1 (serving half the capacity) the same flood was refused in 8 ms.
// Serving what the machine can was chosen over that. Budgets from 50 to 200 ms or a limit fixed
// at 64 or 128 made no difference larger than the machine's own drift from one run to the next
// (BENCHMARKS.md). With the generator on a core of its own (make bench-overload-split: the server
// on the other core) the same limiter refused in 2.6-6.2 ms at p99 at 2x and 4x, answered the
// admitted sign-ups within 1 s at p99, and served 85-132 % of a capacity that itself moved by a
// fifth during a record.
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
	// Tolerance (2) and Budget (50 ms): requests that take, on average, more than Tolerance times
	// their no-load latency and more than Budget beyond it mean the work in progress only queues
	// inside the process: the limit goes down. Below either, more in progress costs the people
	// little, and the limit may go up. The budget is a share of the time an admitted person is
	// promised (an answer within 1 s, its wait for a place included), not a property of the
	// machine.
	Tolerance float64
	Budget    time.Duration
	// Quiet (GOMAXPROCS, at least 2): a request that ran with no more than this many in progress
	// ran as on an idle machine; its time is a no-load sample. Also the limit while probing.
	Quiet      int
	Window     time.Duration // 100 ms: how long latency samples are gathered before the limit moves
	MinSamples int           // 10: a window closes only with this many samples
	// The queue: CoDel's target (5 ms) and interval (100 ms). Waits that stay above the target for
	// an interval mean the queue stands.
	QueueTarget   time.Duration
	QueueInterval time.Duration
	// How long a request may wait for a place, by priority: while the queue is a passing burst
	// (Patience: High 2 s, Normal and Low 1 s) and while it stands (StandingPatience: High 1 s,
	// Normal and Low 250 ms). A newcomer that would wait longer than half of it is refused on
	// arrival. The standing patience is the buffer that lets a machine at its capacity
	// serve nearly everything: 10 ms refused a quarter of the sign-ups offered at exactly the
	// capacity, 500 ms let admitted sign-ups wait close to a second (make bench-overload).
	Patience         [numPriorities]time.Duration
	StandingPatience [numPriorities]time.Duration
	// NoLoadPeriod (30 s): a kind's no-load latency is the shortest quiet sample of the current
	// and the previous period; a kind with no quiet sample for a period is stale and the limiter
	// probes (at most every ProbeGap, 5 s, for at most ProbeFor, 500 ms).
	NoLoadPeriod time.Duration
	ProbeGap     time.Duration
	ProbeFor     time.Duration
	// Ceiling, when set, also lowers the limit when a window's average latency passes it, where
	// that costs no throughput: an operator's bound on the answer time (ADMISSION_LATENCY_CEILING),
	// not needed for capacity. Off by default: an absolute time is the first version's mistake
	// again where requests are slow unloaded. With 100 ms and Postgres 5 ms away (a sign-up
	// takes 93 ms unloaded) the machine served 82 % of its capacity at 1x; without, 93-100 %
	// (make bench-overload).
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
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if c.Quiet <= 0 {
		c.Quiet = max(2, runtime.GOMAXPROCS(0))
	}
	defDur(&c.Budget, 50*time.Millisecond)
	defDur(&c.Window, 100*time.Millisecond)
	if c.MinSamples <= 0 {
		c.MinSamples = 10
	}
	defDur(&c.QueueTarget, 5*time.Millisecond)
	defDur(&c.QueueInterval, 100*time.Millisecond)
	for p, d := range map[Priority][2]time.Duration{High: {2 * time.Second, time.Second},
		Normal: {time.Second, 250 * time.Millisecond}, Low: {time.Second, 250 * time.Millisecond}} {
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
	staleAt   time.Time // when it was last answered with no recent quiet sample
	wanted    int       // the probe that waits for its quiet sample (Limiter.probeGen)
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
	patience time.Duration // how long it may wait (AcquireWithin's whole wait, even while the queue stands)
	answer   chan Ticket   // a counted Ticket: admitted; a zero one: refused
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
	// each priority's queue state (CoDel): one queue for all would never stand, since High
	// requests go first and barely wait while sign-ups pile up behind them
	firstAbove [numPriorities]time.Time // when waits above the target started to count, zero: the last was under
	standing   [numPriorities]bool
	lastWait   [numPriorities]time.Duration // the last wait of each priority's queue
	// the probe: while probing, only Quiet requests run
	probeUntil  time.Time
	probeQuiet  int       // quiet samples taken during the probe
	probeGen    int       // which probe this is
	probeWant   int       // stale kinds the probe waits for: each needs one quiet sample
	nextProbe   time.Time // no probe before
	settleUntil time.Time // the waits of the backlog a probe leaves are not the queue standing
	// the current window
	windowStart    time.Time
	samples        int
	sumLatency     time.Duration // all samples
	sumKnown       time.Duration // samples of kinds with a no-load latency
	sumNoLoad      time.Duration // their no-load latencies
	known          int           // how many samples those are
	stale          int           // samples of kinds with no recent quiet sample
	maxInflight    int
	queuedInWindow bool
	// the throughput trials (see update): the phase of the cycle, its measured part so far, and
	// the gains the last trials measured
	phase        int
	phaseWindows int       // windows of the phase so far, the unmeasured first one included
	phaseBegan   time.Time // when the phase's limit came into force
	phaseStart   time.Time // when its measured part began
	phaseFreed   int
	probeServed  float64    // what the last probe phase served a second
	slowWindows  int        // cruise windows since the last move whose answers were past their budget
	cruiseCount  int        // cruise windows since the last move
	trials       [2][]trial // by direction (up, down), the last trialsKept
	shed         [numPriorities]uint64
	// the rate at which places are given back (an average over windows), to tell at once whether
	// a newcomer would get one within its patience
	freedBy          [numPriorities]int // this window's places given back, by priority
	freedPerSec      float64
	freedPerSecBy    [numPriorities]float64 // the rate of each priority's (an average over windows)
	refusedOnArrival uint64
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
	p       Priority
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
		for q := High; q < numPriorities; q++ { // no queue at all: none stands
			l.queueWait(q, 0, now)
		}
		t := l.admit(now, k, p)
		l.mu.Unlock()
		return t, true
	}
	patience := fixed
	if patience == 0 {
		patience = l.cfg.Patience[p]
		if l.standing[p] {
			patience = l.cfg.StandingPatience[p]
		}
		// Places are given back at the rate the machine serves: a newcomer that would outwait
		// half its patience behind the queue is refused now, so that a refusal is fast and the
		// queue holds only what will be served. While the queue stands the last wait says the
		// same. A waiter keeps the patience it came with: dropping the ones that came in a burst
		// once the queue stood refused a fifth of the sign-ups at 4x only after 250 ms or more.
		if l.expectedWait(p) > patience/2 || (l.standing[p] && l.lastWait[p] > patience/2) {
			l.shed[p]++
			l.refusedOnArrival++
			l.mu.Unlock()
			return Ticket{}, false
		}
	}
	w := &waiter{p: p, kind: k, enqueued: now, patience: patience, answer: make(chan Ticket, 1)}
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
	l.queueWait(p, now.Sub(w.enqueued), now)
	return Ticket{}, false
}

// expectedWait is how long a newcomer of priority p would wait for a place: the waiters that go
// before it, at the rate places are given back to its priority (0 while that rate is unknown).
// The places the higher priorities keep taking as they come are not given to it: counting them,
// public lookups at 100/s beside sign-ups at 156/s made a sign-up's wait look 1.6 times shorter
// than it was, and some that joined the queue were refused after waiting their whole patience
// (make bench-overload-split). The last wait of its priority (lastWait) is the other estimate: in
// a FIFO queue the newcomer waits about as long as the one just served did. l.mu held.
func (l *Limiter) expectedWait(p Priority) time.Duration {
	if l.freedPerSec <= 0 {
		return 0
	}
	ahead, rate := 0, l.freedPerSec
	for q := High; q <= p; q++ {
		ahead += l.queues[q].Len()
		if q < p {
			rate -= l.freedPerSecBy[q]
		}
	}
	// never below a tenth of the whole rate: the averages lag, and a priority that gets no place
	// at all is refused by the queue's own wait (lastWait) soon enough
	rate = max(rate, l.freedPerSec/10)
	return time.Duration(float64(ahead+1) / rate * float64(time.Second))
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

func (l *Limiter) probing() bool { return !l.probeUntil.IsZero() }

// effectiveLimit is the limit in force: the limit, tried a quarter higher or a fifth lower
// during the throughput trials, and at most Quiet while probing the no-load latency.
func (l *Limiter) effectiveLimit() int {
	if l.probing() {
		return min(l.cfg.Quiet, max(1, int(l.limit)))
	}
	return max(1, int(l.trialLimit()))
}

func (l *Limiter) trialLimit() float64 {
	switch l.phase {
	case phaseUp:
		return math.Min(l.cfg.MaxLimit, l.limit*trialGain)
	case phaseDown:
		return math.Max(l.cfg.MinLimit, l.limit/trialGain)
	}
	return l.limit
}

func (l *Limiter) admit(now time.Time, k *kind, p Priority) Ticket {
	l.inflight++
	l.maxInflight = max(l.maxInflight, l.inflight)
	return Ticket{start: now, kind: k, p: p, quiet: l.inflight <= l.cfg.Quiet, counted: true}
}

// queueWait feeds CoDel the wait of a request of priority p for a place (l.mu held). A probe's
// waits are the probe's doing, not a standing queue.
func (l *Limiter) queueWait(p Priority, wait time.Duration, now time.Time) {
	l.lastWait[p] = wait
	switch {
	case l.probing() || now.Before(l.settleUntil):
	case wait < l.cfg.QueueTarget:
		// No hold after a standing queue empties: one (1 s) was tried, and at exactly the capacity
		// it refused a tenth of the sign-ups instead of a twentieth (make bench-overload).
		l.firstAbove[p], l.standing[p] = time.Time{}, false
	case l.firstAbove[p].IsZero():
		l.firstAbove[p] = now.Add(l.cfg.QueueInterval)
	case !now.Before(l.firstAbove[p]):
		l.standing[p] = true
	}
}

// grant gives free places to the waiters, High first; a waiter that has already waited past its
// patience (its timer about to fire) is refused instead.
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
		l.queueWait(w.p, wait, now)
		if wait >= w.patience {
			l.shed[w.p]++
			w.answer <- Ticket{}
			continue
		}
		w.answer <- l.admit(now, w.kind, w.p)
	}
}

// Done gives an admitted request's place back and takes its time as a latency sample.
func (l *Limiter) Done(t Ticket) { l.release(t, true) }

// Ignore gives an admitted request's place back without taking its time as a latency sample:
// for requests that mostly wait on purpose (a short wait for a provider page, a file download).
func (l *Limiter) Ignore(t Ticket) { l.release(t, false) }

func (l *Limiter) release(t Ticket, sampled bool) {
	if !t.counted {
		return
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	quiet := t.quiet && l.inflight <= l.cfg.Quiet
	l.inflight--
	l.freedBy[t.p]++
	if sampled {
		l.sample(t, now.Sub(t.start), quiet, now)
	}
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
			if k.wanted == l.probeGen {
				k.wanted = 0
				l.probeWant--
			}
		}
	}
	l.samples++
	l.sumLatency += latency
	if nl := k.noLoad(); nl > 0 {
		l.sumKnown += latency
		l.sumNoLoad += nl
		l.known++
	}
	if k.lastQuiet.IsZero() || now.Sub(k.lastQuiet) >= l.cfg.NoLoadPeriod {
		l.stale++
		k.staleAt = now
	}
	if l.samples >= l.cfg.MinSamples && now.Sub(l.windowStart) >= l.cfg.Window {
		secs, freed := now.Sub(l.windowStart).Seconds(), 0
		for p, n := range l.freedBy {
			freed += n
			l.freedPerSecBy[p] += 0.3 * (float64(n)/secs - l.freedPerSecBy[p])
		}
		if l.freedPerSec == 0 {
			l.freedPerSec = float64(freed) / secs
		} else {
			l.freedPerSec += 0.3 * (float64(freed)/secs - l.freedPerSec)
		}
		l.update(now, freed)
		l.freedBy = [numPriorities]int{}
		l.windowStart, l.samples, l.sumLatency, l.sumKnown, l.sumNoLoad, l.known, l.stale = now, 0, 0, 0, 0, 0, 0
		l.maxInflight, l.queuedInWindow = l.inflight, l.waiting > 0
	}
}

// The throughput trials. A busy limiter cycles through four phases of phaseWindows windows
// each: the limit tried a quarter higher, the limit itself, the limit tried a fifth lower, the
// limit itself. A trial compares what a tried limit served (its windows after the first, when the
// work in progress has reached it) with what the limit itself served in the phase right after:
// the same load, a moment apart, so that the machine's own drift (its capacity moved by half
// within the hour here) mostly cancels, where comparing limits a minute apart did not. This is
// BBR's gain cycling (probing a quarter above the bottleneck bandwidth), judged as PCC judges its
// rates, by paired trials (Dong et al., NSDI 2015), with a test on the mean of the last ones.
const (
	phaseUp = iota
	phaseCruiseAfterUp
	phaseDown
	phaseCruiseAfterDown
	numPhases
	phaseWindows = 3    // windows per phase; the first one (and those within an answer's time) is not measured
	trialGain    = 1.25 // how much higher (and lower, 1/1.25) a trial sets the limit
	trialsKept   = 6    // the last trials of each direction are the evidence
	trialsNeeded = 4
	clearGain    = 0.03 // a tried limit must serve this much more, on average, to be followed
)

// trial is what a tried limit served more than the limit (0.1: a tenth more), at that limit.
type trial struct{ gain, limit float64 }

// nearby are the gains of the trials made at a limit within trialGain of the current one: what
// trials said about a limit far from here says nothing about the limits near it (kept for the
// last trialsKept trials, they carried the limit from 9 to 28 past a knee at 16 and back).
func (l *Limiter) nearby(trials []trial) []float64 {
	var gains []float64
	for _, t := range trials {
		if t.limit <= l.limit*trialGain && t.limit >= l.limit/trialGain {
			gains = append(gains, t.gain)
		}
	}
	return gains
}

// clearly tells whether the trials of one direction say that the tried limit serves more (sign
// +1) or less (sign -1) than the limit: at least trialsNeeded of them, off by clearGain on
// average, and by at least twice the standard error of that average: on a noisy machine clear
// evidence takes more agreement. (The climb this replaced raised a limit that served less than
// 90 % of the best epoch of the last 30 s; the best of a hundred noisy epochs is high, so it
// followed the noise upward.)
func clearly(sign float64, gains []float64) bool {
	n := float64(len(gains))
	if len(gains) < trialsNeeded {
		return false
	}
	m, sq := mean(gains), 0.0
	for _, g := range gains {
		sq += (g - m) * (g - m)
	}
	stderr := math.Sqrt(sq/(n-1)) / math.Sqrt(n)
	return sign*m > clearGain && sign*m > 2*stderr
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// update moves the limit at the end of a window that freed `freed` places (l.mu held).
//
// Busy windows (requests waiting, or the limit in force nearly full) run the throughput trials.
// After each trial the limit moves a tenth: towards the tried limit when the trials of one
// direction clearly say it serves more, whatever the latency (a slow machine is served as fully
// as it can be: with the ceiling first, a machine where every answer took a second sank to the
// floor and served 8 a second; with the budget first, everything in one process, where the
// worker's jobs slow the answers, served half its capacity). Otherwise down when most answers of
// the limit's own phases took more than both their Tolerance and their Budget, or the ceiling:
// that extra work in progress only waits inside the process (on a CPU-bound machine it also
// delays every refusal); otherwise up: more in progress costs little and may serve more.
//
// Both directions matter: on one machine a limit of 128 served most sign-ups, on another 32
// served 8-19 % more than the 41-86 the old climb kept (BENCHMARKS.md), because the throughput
// fell as more was in progress, and only the way up was ever judged by what it served.
func (l *Limiter) update(now time.Time, freed int) {
	if l.probing() {
		return
	}
	busy := l.queuedInWindow || float64(l.maxInflight) >= 0.9*float64(min(max(1, int(l.limit)), l.effectiveLimit()))
	if busy && l.stale*2 >= l.samples && !now.Before(l.nextProbe) {
		// Most requests are of kinds that have not run quietly for a period: the machine has been
		// busy all along and their no-load latency is unknown or old. Measure it now.
		l.startProbe(now)
		return
	}
	overCeiling := l.cfg.Ceiling > 0 && l.sumLatency/time.Duration(l.samples) > l.cfg.Ceiling
	queueing := l.known == 0 || (float64(l.sumKnown) > l.cfg.Tolerance*float64(l.sumNoLoad) &&
		l.sumKnown-l.sumNoLoad > time.Duration(l.known)*l.cfg.Budget)
	if !busy {
		// Nothing to learn about the limit, and the trials start again. But a limit cut in a
		// moment of trouble (a Postgres switchover) goes back to where it started while answers
		// are prompt, a tenth at a time; without this it stayed low and made the start of the
		// next busy moment wait.
		l.phase, l.phaseWindows, l.slowWindows, l.cruiseCount = phaseUp, 0, 0, 0
		l.trials = [2][]trial{}
		if !overCeiling && !queueing && l.limit < l.cfg.InitialLimit {
			l.limit = math.Min(l.cfg.InitialLimit, l.limit+math.Max(1, l.limit/10))
		}
		return
	}
	l.phaseWindows++
	if l.phaseWindows == 1 {
		l.phaseBegan = l.windowStart
	}
	if l.phaseWindows == 1 || now.Sub(l.phaseBegan) < l.sumLatency/time.Duration(l.samples) {
		// The work in progress is still moving to this phase's limit: it takes about one answer's
		// time (slow requests take longer than a window).
		l.phaseWindows, l.phaseStart, l.phaseFreed = 1, now, 0
		return
	}
	l.phaseFreed += freed
	cruise := l.phase == phaseCruiseAfterUp || l.phase == phaseCruiseAfterDown
	if cruise {
		l.cruiseCount++
		if queueing || overCeiling {
			l.slowWindows++
		}
	}
	if l.phaseWindows < phaseWindows {
		return
	}
	served := float64(l.phaseFreed) / now.Sub(l.phaseStart).Seconds()
	phase := l.phase
	l.phase, l.phaseWindows = (l.phase+1)%numPhases, 0
	if !cruise {
		l.probeServed = served
		l.grant(now) // the next phase's limit may be higher
		return
	}
	dir := 0 // the trial just ended: up
	if phase == phaseCruiseAfterDown {
		dir = 1
	}
	if served > 0 {
		l.trials[dir] = append(l.trials[dir], trial{gain: l.probeServed/served - 1, limit: l.limit})
		if len(l.trials[dir]) > trialsKept {
			l.trials[dir] = l.trials[dir][1:]
		}
	}
	direction := l.judge(l.slowWindows*2 > l.cruiseCount)
	l.slowWindows, l.cruiseCount = 0, 0
	l.limit = math.Max(l.cfg.MinLimit, math.Min(l.cfg.MaxLimit, l.limit+direction*math.Max(1, 0.1*l.limit)))
	l.grant(now)
}

// judge says, after a trial, which way the limit goes (+1 up, -1 down, 0 hold), from the trials
// near it and whether the answers of its own phases were mostly past their budget (l.mu held).
func (l *Limiter) judge(pastBudget bool) float64 {
	up, down := l.nearby(l.trials[0]), l.nearby(l.trials[1])
	budgetWay := up // where the budget would take the limit
	if pastBudget {
		budgetWay = down
	}
	direction := 1.0 // answers within their budget: more in progress costs little, and may serve more
	switch {
	case clearly(+1, up):
		direction = 1 // the higher limit serves more: up, whatever the latency
	case clearly(+1, down):
		direction = -1 // the lower limit serves more: down, whatever the latency
	case len(budgetWay) >= 2 && mean(budgetWay) < -clearGain:
		// The trials so far say that the budget's way serves less: hold. The budget moves the
		// limit at every trial, while the trials near it take four to be clear; without this the
		// budget carried the limit away from a knee faster than the trials could say it should
		// stay. Holding costs little, so it takes less evidence than a move: asking the same
		// (twice the standard error) served 52-88 % of a thrashing machine's best instead of
		// 76-89 %, with its throughput jumping by ±30 % every 100 ms (8 seeds, limiter_test.go).
		direction = 0
	case pastBudget:
		direction = -1 // the extra work in progress only waits inside the process
	}
	return direction
}

// startProbe starts measuring the no-load latency (l.mu held): for a moment only Quiet requests
// run. The probe lasts until each stale kind of this window has a quiet sample (the cheap kinds
// alone ended it before a sign-up with Postgres 5 ms away, 93 ms, had finished one: the
// sign-ups' no-load time was never learnt and the limit followed the lookups alone), or ProbeFor
// after the work in progress has drained.
func (l *Limiter) startProbe(now time.Time) {
	l.probeGen++
	l.probeWant = 0
	for _, k := range l.kinds {
		if !k.staleAt.Before(l.windowStart) {
			k.wanted = l.probeGen
			l.probeWant++
		}
	}
	drain := 2 * l.sumLatency / time.Duration(l.samples)
	l.probeUntil, l.probeQuiet = now.Add(l.cfg.ProbeFor+drain), 0
	l.firstAbove, l.standing = [numPriorities]time.Time{}, [numPriorities]bool{}
	l.phase, l.phaseWindows = phaseUp, 0
}

// endProbe ends a probe that has its samples or its time (l.mu held), and lets the queue in.
func (l *Limiter) endProbe(now time.Time) {
	if !l.probing() || ((l.probeQuiet < l.cfg.MinSamples || l.probeWant > 0) && now.Before(l.probeUntil)) {
		return
	}
	l.probeUntil = time.Time{}
	l.nextProbe = now.Add(l.cfg.ProbeGap)
	l.settleUntil = now.Add(2 * l.cfg.QueueInterval)
	l.grant(now)
}

// Stats is a snapshot for metrics.
type Stats struct {
	Limit float64 // the limit learnt
	// InForce is how many may be in progress now: the limit as tried (a quarter above it or a
	// fifth below during the throughput trials, and a quarter above while idle, so that a burst
	// finds room), or Quiet while probing the no-load latency.
	InForce  int
	Inflight int
	Waiting  int                   // requests waiting for a place
	Standing bool                  // a queue stands (sign-ups' first): the machine is past capacity
	Probing  bool                  // measuring the no-load latency
	Shed     [numPriorities]uint64 // refused requests, by priority, since the start
	// RefusedOnArrival counts the refusals (among Shed) made on arrival, without waiting, because
	// the standing queue ahead would have outlasted the request's patience.
	RefusedOnArrival uint64
}

// Stats reads the current limit, work in progress, queue and refusals.
func (l *Limiter) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Stats{Limit: l.limit, InForce: l.effectiveLimit(), Inflight: l.inflight, Waiting: l.waiting, Standing: l.standing[High] || l.standing[Normal] || l.standing[Low],
		Probing: l.probing(), Shed: l.shed, RefusedOnArrival: l.refusedOnArrival}
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
