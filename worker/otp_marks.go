package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// deliveredMarks records "the provider accepted this code" for many codes in one statement.
// Every code is claimed before it is sent (one UPDATE, it must be on the way) and marked
// delivered after (so that no later run of its job sends it again, however late). Marking each
// code in its own statement made a sign-up cost one more Postgres commit than in the first
// release, the largest part of the capacity lost since then (issue 27, measured with
// `make bench-overload`); one statement every markEvery for all codes sent meanwhile brings it
// back. A worker killed within those few milliseconds loses its marks, as one killed between the
// send and the single UPDATE did before: the claim then holds other runs off for ClaimWindow,
// and asynq hands the job out again only after its 30 s lease.
type deliveredMarks struct {
	store   *postgres.Store
	logger  *slog.Logger
	mu      sync.Mutex
	pending map[string][]int64 // channel → code ids
	timer   *time.Timer
	retries int // flushes in a row that found Postgres unavailable
	// writing is held for a whole flush, so that the one on shutdown returns only once a flush
	// its timer started has written its batch too (without it the worker could stop, and the
	// process end, with that batch's UPDATE still on its way: 8 of 20 marks missing in a test).
	writing sync.Mutex
}

// markRetries and markRetryEvery: marks that Postgres could not take (a failover) are written
// again every second for up to half a minute, longer than a failover lasts. A lost mark leaves a
// sent code claimed but not delivered; a second hand-out of its job would then send it again
// once the claim runs out.
const (
	markRetries    = 30
	markRetryEvery = time.Second
)

// markEvery is how long a mark may wait for others to share its statement.
const markEvery = 20 * time.Millisecond

func newDeliveredMarks(store *postgres.Store, logger *slog.Logger) *deliveredMarks {
	return &deliveredMarks{store: store, logger: logger, pending: map[string][]int64{}}
}

// add queues a mark; the first one of a batch starts the timer that writes them.
func (m *deliveredMarks) add(channel string, id int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending[channel] = append(m.pending[channel], id)
	if m.timer == nil {
		m.timer = time.AfterFunc(markEvery, m.flush)
	}
}

// flush writes every pending mark now (also on shutdown), after any flush already writing.
func (m *deliveredMarks) flush() {
	m.writing.Lock()
	defer m.writing.Unlock()
	m.mu.Lock()
	batch := m.pending
	m.pending = map[string][]int64{}
	if m.timer != nil {
		m.timer.Stop()
		m.timer = nil
	}
	m.mu.Unlock()
	for channel, ids := range batch {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := m.store.MarkCodesDelivered(ctx, channel, ids)
		cancel()
		switch {
		case err == nil:
			m.mu.Lock()
			m.retries = 0
			m.mu.Unlock()
		case postgres.IsUnavailable(err) && m.again(channel, ids):
			m.logger.Warn("mark codes delivered: Postgres unavailable, trying again", "channel", channel, "codes", len(ids), "error", err)
		default:
			// Logged, not retried: the codes are claimed, so no other run sends them within the
			// claim window, and their jobs are done.
			m.logger.Error("mark codes delivered", "channel", channel, "codes", len(ids), "error", err)
		}
	}
}

// again queues marks that Postgres could not take for another flush in markRetryEvery, unless
// markRetries flushes in a row have failed already.
func (m *deliveredMarks) again(channel string, ids []int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.retries++; m.retries > markRetries {
		return false
	}
	m.pending[channel] = append(m.pending[channel], ids...)
	if m.timer == nil {
		m.timer = time.AfterFunc(markRetryEvery, m.flush)
	}
	return true
}
