package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// lookupRecorder queues verify:log tasks off the response path. One goroutine queues tasks one
// after the other; lookups that arrive while a task is being queued ride together in the next
// one, so under load Redis sees one write for many lookups and when idle each lookup is queued
// at once. Lookups still in memory when the process dies are lost (a few milliseconds' worth);
// a failed enqueue is written to the log with the lookups.
type lookupRecorder struct {
	queue  jobs.Enqueuer
	logger *slog.Logger
	ch     chan jobs.VerifyLogEntry
	done   chan struct{}
}

// lookupBuffer is how many lookups may wait for the recorder before callers queue their own.
const lookupBuffer = 8192

func newLookupRecorder(queue jobs.Enqueuer, logger *slog.Logger) *lookupRecorder {
	r := &lookupRecorder{queue: queue, logger: logger, ch: make(chan jobs.VerifyLogEntry, lookupBuffer), done: make(chan struct{})}
	go r.run()
	return r
}

// record hands a lookup to the recorder; when it is saturated the caller queues the lookup itself.
func (r *lookupRecorder) record(e jobs.VerifyLogEntry) {
	select {
	case r.ch <- e:
	default:
		r.enqueue([]jobs.VerifyLogEntry{e})
	}
}

// close queues what is still buffered; called on graceful shutdown after the last request.
func (r *lookupRecorder) close() {
	close(r.ch)
	<-r.done
}

func (r *lookupRecorder) run() {
	defer close(r.done)
	for e := range r.ch {
		batch := []jobs.VerifyLogEntry{e}
	gather:
		for len(batch) < jobs.MaxVerifyLogBatch {
			select {
			case e := <-r.ch:
				batch = append(batch, e)
			default:
				break gather
			}
		}
		r.enqueue(batch)
	}
}

func (r *lookupRecorder) enqueue(batch []jobs.VerifyLogEntry) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	task, err := jobs.NewVerifyLogTask(batch...)
	if err := jobs.Enqueue(ctx, r.queue, task, err); err != nil {
		for _, e := range batch {
			r.logger.Warn("verification lookup not queued for verification_logs", "error", err,
				"lookup_id", e.RequestID, "id_validado", e.IDValidado, "granted", e.Granted, "reason", e.Reason,
				"ip", e.IP, "scanned_at", e.ScannedAt)
		}
	}
}
