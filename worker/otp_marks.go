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
}

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

// flush writes every pending mark now (also on shutdown).
func (m *deliveredMarks) flush() {
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
		if err := m.store.MarkCodesDelivered(ctx, channel, ids); err != nil {
			// Logged, not retried: the codes are claimed, so no other run sends them within the
			// claim window, and their jobs are done.
			m.logger.Error("mark codes delivered", "channel", channel, "codes", len(ids), "error", err)
		}
		cancel()
	}
}
