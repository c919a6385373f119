package redisconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/sony/gobreaker/v2"
)

// ErrUnreachable is what every command returns at once while the breaker is open: a command
// failed for lack of a connection, and the background probe has not reached Redis since.
var ErrUnreachable = fmt.Errorf("redis unreachable (waiting for the probe to reach it again): %w", gobreaker.ErrOpenState)

// ProbeEvery is how often the background probe pings Redis while the breaker is open, and so
// about how long after Redis returns the processes use it again.
const ProbeEvery = 250 * time.Millisecond

// probeTimeout bounds one probe: a Redis that cannot answer a PING in this time is not back.
const probeTimeout = time.Second

// Breaker fails fast while Redis cannot be reached (issue 54 item 20). Without it each command
// to a stopped Redis spends go-redis's retries (3) on dials that are themselves retried (5 times,
// 100 ms apart): about 1.7 s a command, 3.4 s for a sign-up that reads the queue's latency and
// then its rate limits, held before its 503. Once one command has failed for lack of a
// connection the breaker opens and every command of this process — go-redis's and asynq's alike
// — fails in microseconds with ErrUnreachable, until a background probe (a PING every
// ProbeEvery) gets an answer; then it closes and commands go to Redis again. A reply from Redis,
// an error reply included, is a connection that works: only network errors, a lost connection
// and an exhausted pool open it. sony/gobreaker keeps the states: its half-open turn lets only
// the probe's PING through, as the hook refuses every other command until the state is closed.
type Breaker struct {
	cb     *gobreaker.CircuitBreaker[struct{}]
	ping   func(context.Context) error // the probe's PING, through a guarded client
	wake   chan struct{}               // the breaker opened: the probe runs until it closes
	done   chan struct{}
	stop   sync.Once
	logger *slog.Logger
}

// newBreaker returns a closed breaker whose probe pings through ping once started (start).
func newBreaker() *Breaker {
	b := &Breaker{wake: make(chan struct{}, 1), done: make(chan struct{}), logger: slog.Default()}
	b.cb = gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        "redis",
		MaxRequests: 1,              // half-open: the probe's PING alone
		Timeout:     ProbeEvery / 2, // open → half-open before the probe's next turn
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 },
		IsSuccessful: func(err error) bool {
			return !lostConnection(err)
		},
		// A caller that gave up, or whose own time ran out, says nothing about Redis.
		IsExcluded:    func(err error) bool { return errors.As(err, new(callerGaveUp)) },
		OnStateChange: b.changed,
	})
	return b
}

// start runs the probe in the background with ping; Close stops it.
func (b *Breaker) start(ping func(context.Context) error) {
	b.ping = ping
	go b.probe()
}

// Close stops the probe.
func (b *Breaker) Close() {
	if b != nil {
		b.stop.Do(func() { close(b.done) })
	}
}

// Open reports whether commands are being refused (the probe has not reached Redis yet).
func (b *Breaker) Open() bool {
	return b != nil && b.cb.State() != gobreaker.StateClosed
}

func (b *Breaker) changed(_ string, from, to gobreaker.State) {
	switch {
	case from == gobreaker.StateClosed && to == gobreaker.StateOpen:
		b.logger.Warn("redis unreachable: commands fail at once until the probe reaches it", "probe_every", ProbeEvery)
		select {
		case b.wake <- struct{}{}:
		default: // the probe is already awake
		}
	case to == gobreaker.StateClosed:
		b.logger.Info("redis reachable again: commands go to it")
	}
}

// probe waits for the breaker to open, then pings every ProbeEvery until one PING is answered
// and the breaker closes. The wake channel is buffered, so an opening that comes while the
// probe is deciding to sleep is not missed.
func (b *Breaker) probe() {
	tick := time.NewTicker(ProbeEvery)
	defer tick.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-b.wake:
		}
		for b.Open() {
			select {
			case <-b.done:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(probing(context.Background()), probeTimeout)
			_, _ = b.cb.Execute(func() (struct{}, error) { return struct{}{}, b.ping(ctx) })
			cancel()
		}
	}
}

// lostConnection tells a command that never reached Redis, or lost it, from an answer.
func lostConnection(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, redis.ErrPoolTimeout)
}

// callerGaveUp is a command's error once its caller's context ended (cancelled, or past its own
// deadline): the breaker leaves it out of its counts.
type callerGaveUp struct{ err error }

func (e callerGaveUp) Error() string { return e.err.Error() }
func (e callerGaveUp) Unwrap() error { return e.err }

// probeKey marks the probe's context: its PING passes the hook while the breaker is not closed.
type probeKey struct{}

func probing(ctx context.Context) context.Context { return context.WithValue(ctx, probeKey{}, true) }

func isProbe(ctx context.Context) bool { return ctx.Value(probeKey{}) != nil }

// guard runs one command (or pipeline) through the breaker.
func (b *Breaker) guard(ctx context.Context, run func() error) error {
	if isProbe(ctx) {
		return run() // the probe's own PING: Execute already wraps it
	}
	if b.Open() {
		return ErrUnreachable
	}
	_, err := b.cb.Execute(func() (struct{}, error) {
		err := run()
		if err != nil && ctx.Err() != nil {
			return struct{}{}, callerGaveUp{err}
		}
		return struct{}{}, err
	})
	if gave := (callerGaveUp{}); errors.As(err, &gave) {
		return gave.err
	}
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return ErrUnreachable // it opened between the check and the call
	}
	return err
}

// hook puts a go-redis client's commands and pipelines behind the breaker.
type hook struct{ b *Breaker }

func (h hook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := h.b.guard(ctx, func() error { return next(ctx, cmd) })
		if errors.Is(err, ErrUnreachable) {
			cmd.SetErr(err)
		}
		return err
	}
}

func (h hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := h.b.guard(ctx, func() error { return next(ctx, cmds) })
		if errors.Is(err, ErrUnreachable) {
			for _, cmd := range cmds {
				cmd.SetErr(err)
			}
		}
		return err
	}
}

// GuardedOpt gives asynq (client, servers, scheduler, inspector, asynqmon) clients behind the
// same breaker as the go-redis client of the Conn.
type GuardedOpt struct {
	asynq.RedisConnOpt
	breaker *Breaker
}

// MakeRedisClient makes the wrapped option's client and hooks the breaker into it.
func (o GuardedOpt) MakeRedisClient() interface{} {
	c := o.RedisConnOpt.MakeRedisClient()
	if u, ok := c.(redis.UniversalClient); ok {
		u.AddHook(hook{o.breaker})
	}
	return c
}
