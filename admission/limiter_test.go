package admission

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a hand-moved time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestLimiter(c *clock, initial float64) *Limiter {
	return New(Config{InitialLimit: initial, MinLimit: 2, MaxLimit: 200, Target: 25 * time.Millisecond, Now: c.now, MinSamples: 1, Window: 100 * time.Millisecond})
}

func TestLowPriorityFillsOnlyItsShare(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 10)
	var held []Ticket
	for range 7 {
		tk, ok := l.Acquire(Low)
		require.True(t, ok)
		held = append(held, tk)
	}
	_, ok := l.Acquire(Low)
	assert.False(t, ok, "the 8th sign-up is past 70 % of a limit of 10")
	_, ok = l.Acquire(Normal)
	assert.True(t, ok, "8 in progress: normal requests fit under 90 %")
	_, ok = l.Acquire(Normal)
	assert.True(t, ok, "9th: still under 9")
	_, ok = l.Acquire(Normal)
	assert.False(t, ok, "10th normal: past 90 %")
	_, ok = l.Acquire(High)
	assert.True(t, ok, "public verification takes the last place")
	_, ok = l.Acquire(High)
	assert.False(t, ok, "the limit is full")
	_, ok = l.Acquire(Exempt)
	assert.True(t, ok, "health checks are never refused")
	s := l.Stats()
	assert.Equal(t, 10, s.Inflight, "exempt requests are not counted")
	assert.Equal(t, uint64(1), s.Shed[Low])
	assert.Equal(t, uint64(1), s.Shed[Normal])
	assert.Equal(t, uint64(1), s.Shed[High])

	l.Done(held[0])
	_, ok = l.Acquire(High)
	assert.True(t, ok, "a place given back is taken again")
}

// run plays n windows in which `inflight` requests each take latency d.
func run(l *Limiter, c *clock, windows, inflight int, d time.Duration) {
	for range windows {
		var held []Ticket
		for range inflight {
			if tk, ok := l.Acquire(High); ok {
				held = append(held, tk)
			}
		}
		c.advance(d)
		for _, tk := range held {
			l.Done(tk)
		}
		c.advance(100 * time.Millisecond)
	}
}

func TestLimitShrinksWhenLatencyRisesAndGrowsBack(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 20)
	run(l, c, 30, 20, 5*time.Millisecond) // steady: every place used, 5 ms each
	steady := l.Stats().Limit
	assert.Greater(t, steady, 20.0, "no latency rise with the limit full: it grows")

	run(l, c, 10, 200, 50*time.Millisecond) // ten times slower: overloaded
	overloaded := l.Stats().Limit
	assert.Less(t, overloaded, steady*0.6, "latency ten times the usual shrinks the limit (%.1f → %.1f)", steady, overloaded)
	assert.GreaterOrEqual(t, overloaded, 2.0, "never below the minimum")

	run(l, c, 40, 200, 5*time.Millisecond) // back to normal
	assert.Greater(t, l.Stats().Limit, overloaded*1.5, "the limit comes back once latency does")
}

func TestLimitDoesNotGrowWhenLittleIsInProgress(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 40)
	run(l, c, 50, 3, 5*time.Millisecond)
	assert.Equal(t, 40.0, l.Stats().Limit, "3 requests at a time say nothing about 41")
}

func TestLimitStaysWithinBounds(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := New(Config{InitialLimit: 10, MinLimit: 5, MaxLimit: 12, Now: c.now, MinSamples: 1})
	run(l, c, 100, 12, time.Millisecond)
	assert.LessOrEqual(t, l.Stats().Limit, 12.0)
	run(l, c, 5, 12, 100*time.Millisecond) // settle the long average, then make it far worse
	run(l, c, 100, 12, 5*time.Second)
	assert.GreaterOrEqual(t, l.Stats().Limit, 5.0)
}

func TestWindowNeedsEnoughSamples(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := New(Config{InitialLimit: 10, Now: c.now, MinSamples: 10})
	// Nine slow requests over a long time: one window not yet closed, the limit untouched.
	var held []Ticket
	for range 9 {
		tk, _ := l.Acquire(High)
		held = append(held, tk)
	}
	c.advance(5 * time.Second)
	for _, tk := range held {
		l.Done(tk)
	}
	assert.Equal(t, 10.0, l.Stats().Limit)
	assert.Equal(t, 0, l.Stats().Inflight)
}

func TestConcurrentUseKeepsCountsRight(t *testing.T) {
	l := New(Config{InitialLimit: 50})
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted, refused := 0, 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				tk, ok := l.Acquire(Priority(1 + i%3))
				mu.Lock()
				if ok {
					admitted++
				} else {
					refused++
				}
				mu.Unlock()
				l.Done(tk)
			}
		}()
	}
	wg.Wait()
	s := l.Stats()
	assert.Equal(t, 0, s.Inflight, "every admitted request gave its place back")
	assert.Equal(t, 32000, admitted+refused)
	assert.Equal(t, uint64(refused), s.Shed[High]+s.Shed[Normal]+s.Shed[Low])
}

func TestDoneOfARefusedOrExemptTicketIsHarmless(t *testing.T) {
	l := New(Config{InitialLimit: 8, MinLimit: 1})
	tk, ok := l.Acquire(Exempt)
	require.True(t, ok)
	l.Done(tk)
	l.Done(Ticket{})
	assert.Equal(t, 0, l.Stats().Inflight)
}

func TestIgnoredRequestsFreeTheirPlaceWithoutASample(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 10)
	run(l, c, 20, 10, 5*time.Millisecond)
	before := l.Stats().Limit
	// Ten requests that wait 3 s on purpose (a provider page being created) are not "slow".
	for range 20 {
		var held []Ticket
		for range 10 {
			tk, _ := l.Acquire(Normal)
			held = append(held, tk)
		}
		c.advance(3 * time.Second)
		for _, tk := range held {
			l.Ignore(tk)
		}
	}
	assert.Equal(t, before, l.Stats().Limit)
	assert.Equal(t, 0, l.Stats().Inflight)
}

// A cold start (or a slow moment of a dependency) with little in progress is not queueing: the
// limit stays, and nothing is refused for it.
func TestSlowAnswersWithLittleInProgressDoNotShrinkTheLimit(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 40)
	run(l, c, 30, 5, 300*time.Millisecond) // 5 at a time, each 300 ms: twelve times the target
	assert.Equal(t, 40.0, l.Stats().Limit)
	run(l, c, 5, 40, 300*time.Millisecond) // the limit full and slow: that is queueing
	assert.Less(t, l.Stats().Limit, 40.0*0.9*0.9)
}

func TestOneSlowWindowAloneDoesNotCutTheLimit(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 40)
	run(l, c, 3, 40, 5*time.Millisecond)
	before := l.Stats().Limit
	for range 5 { // a moment of starvation between ordinary windows, five times over
		run(l, c, 1, 40, 300*time.Millisecond)
		assert.GreaterOrEqual(t, l.Stats().Limit, before, "a lone slow window does not cut the limit")
		run(l, c, 1, 40, 5*time.Millisecond)
	}
	assert.Greater(t, l.Stats().Limit, before, "the fast windows between them grew it")
	grown := l.Stats().Limit
	run(l, c, 3, 40, 300*time.Millisecond)
	assert.Less(t, l.Stats().Limit, grown*0.95, "slow windows in a row cut it")
}

func TestACutLimitReturnsToItsStartOnceAnswersArePromptAgain(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := newTestLimiter(c, 40)
	run(l, c, 10, 40, 300*time.Millisecond) // requests held up (a failover): the limit is cut
	cut := l.Stats().Limit
	require.Less(t, cut, 20.0)
	run(l, c, 40, 3, 5*time.Millisecond) // light load, prompt answers again
	assert.Equal(t, 40.0, l.Stats().Limit, "back to where it started (%.1f after the cut)", cut)
	run(l, c, 40, 3, 5*time.Millisecond)
	assert.Equal(t, 40.0, l.Stats().Limit, "and no further on light load")
}

// AcquireWithin waits for a place given back (by Done or Ignore) and refuses only once its wait
// is over; a request admitted after waiting is not counted as refused.
func TestAcquireWithinWaitsForAPlace(t *testing.T) {
	l := New(Config{InitialLimit: 1, MinLimit: 1, MaxLimit: 1})
	for name, giveBack := range map[string]func(Ticket){"done": l.Done, "ignored": l.Ignore} {
		held, ok := l.Acquire(High)
		require.True(t, ok, name)
		go func() {
			time.Sleep(50 * time.Millisecond)
			giveBack(held)
		}()
		start := time.Now()
		tk, ok := l.AcquireWithin(High, 5*time.Second)
		require.True(t, ok, "%s: admitted once the place was given back", name)
		assert.GreaterOrEqual(t, time.Since(start), 40*time.Millisecond, name)
		assert.Equal(t, 1, l.Stats().Inflight, name)
		assert.Zero(t, l.Stats().Shed[High], name)
		l.Done(tk)
	}

	held, _ := l.Acquire(High)
	start := time.Now()
	_, ok := l.AcquireWithin(High, 50*time.Millisecond)
	assert.False(t, ok, "nobody gave a place back")
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
	assert.Equal(t, uint64(1), l.Stats().Shed[High])
	_, ok = l.AcquireWithin(Exempt, 0)
	assert.True(t, ok, "exempt requests never wait")
	l.Done(held)
	assert.Equal(t, 0, l.Stats().Inflight)
}

// Many waiters and fewer places: each admitted one at a time, none over the limit.
func TestAcquireWithinNeverExceedsTheLimit(t *testing.T) {
	l := New(Config{InitialLimit: 3, MinLimit: 3, MaxLimit: 3})
	var mu sync.Mutex
	inflight, most, admitted := 0, 0, 0
	var wg sync.WaitGroup
	for range 30 {
		wg.Go(func() {
			tk, ok := l.AcquireWithin(High, 5*time.Second)
			if !ok {
				return
			}
			mu.Lock()
			inflight++
			admitted++
			most = max(most, inflight)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			inflight--
			mu.Unlock()
			l.Done(tk)
		})
	}
	wg.Wait()
	assert.Equal(t, 30, admitted, "every waiter got a place within its wait")
	assert.LessOrEqual(t, most, 3)
}

// The default target is 10 ms: a full limit answering in 15 ms on average is queueing (on a
// CPU-bound machine that work in progress also delays the refusals), 5 ms is not.
func TestDefaultTargetIsTenMilliseconds(t *testing.T) {
	c := &clock{t: time.Unix(0, 0)}
	l := New(Config{InitialLimit: 20, Now: c.now, MinSamples: 1})
	run(l, c, 10, 20, 5*time.Millisecond)
	grown := l.Stats().Limit
	assert.Greater(t, grown, 20.0, "5 ms with the limit full: it grows")
	run(l, c, 10, 200, 15*time.Millisecond)
	assert.Less(t, l.Stats().Limit, grown*0.8, "15 ms with the limit full: it shrinks")
}
