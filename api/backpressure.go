package api

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// Backpressure from the job pipeline (issue 27): a code is valid 10 minutes, but a person waits
// for it about a minute. When the oldest code job still waiting in the critical queue is older
// than the bound (OTP_QUEUE_LATENCY_BOUND, 30 s by default: half of that minute, leaving the other
// half for the delivery itself and WhatsApp's SMS fallback), a new code would most likely arrive
// after its person gave up: new sign-ups and code sends answer 503 at once, before anything is
// written, instead of queueing more. The latency is read from Redis in the background, never on
// the request path; when it cannot be read the API admits (the queue's own enqueue then decides).

// DefaultOTPQueueBound is the bound when none is configured.
const DefaultOTPQueueBound = 30 * time.Second

// queueLatencyEvery is how often the critical queue's latency is read (by the request that
// finds the last reading older; the others use it as it is).
const queueLatencyEvery = 250 * time.Millisecond

// otpBackpressure knows the critical queue's latency and refuses code sends past the bound.
type otpBackpressure struct {
	bound      time.Duration
	read       func(context.Context) (time.Duration, error)
	now        func() time.Time
	latency    atomic.Int64 // nanoseconds; -1: unknown (Redis unreachable, or not read yet)
	readAt     atomic.Int64 // unix nanoseconds of the last reading
	refreshing atomic.Bool
}

func newOTPBackpressure(bound time.Duration, now func() time.Time, read func(context.Context) (time.Duration, error)) *otpBackpressure {
	if bound <= 0 {
		bound = DefaultOTPQueueBound
	}
	b := &otpBackpressure{bound: bound, read: read, now: now}
	b.latency.Store(-1)
	return b
}

// criticalQueueLatency reads the age of the oldest pending task of the critical queue.
func criticalQueueLatency(insp *asynq.Inspector) func(context.Context) (time.Duration, error) {
	return func(context.Context) (time.Duration, error) {
		info, err := insp.GetQueueInfo(jobs.QueueCritical)
		if err != nil {
			return 0, err
		}
		return info.Latency, nil
	}
}

// refreshIfStale reads the latency again when the last reading is older than queueLatencyEvery;
// one request at a time does it, the others go on with the last reading.
func (b *otpBackpressure) refreshIfStale(ctx context.Context) {
	now := b.now()
	if now.UnixNano()-b.readAt.Load() < int64(queueLatencyEvery) || !b.refreshing.CompareAndSwap(false, true) {
		return
	}
	defer b.refreshing.Store(false)
	ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if d, err := b.read(ctx); err != nil {
		b.latency.Store(-1)
	} else {
		b.latency.Store(int64(d))
	}
	b.readAt.Store(now.UnixNano())
}

// current is the last latency read (negative: unknown).
func (b *otpBackpressure) current() time.Duration { return time.Duration(b.latency.Load()) }

// admit refuses a new code while the codes already queued wait longer than the bound.
func (b *otpBackpressure) admit(ctx context.Context) error {
	if b == nil {
		return nil
	}
	b.refreshIfStale(ctx)
	if d := b.current(); d > b.bound {
		return &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 30, Body: ErrorBody{
			Message: "Hay mucha demanda en este momento y tu código tardaría en llegar. Intenta nuevamente en un minuto."}}
	}
	return nil
}
