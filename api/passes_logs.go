package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// lookupRecorder queues verify:log tasks off the response path. One goroutine queues tasks one
// after the other; a task takes the lookups that arrive within lookupLinger of its first (up to
// a full batch), so under load Redis sees one write for many lookups, and an idle lookup is
// queued lookupLinger late. Lookups still in memory when the process dies are lost (a few
// milliseconds' worth); a failed enqueue is written to the log with the lookups.
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

// lookupLinger is how long a task waits for more lookups after its first. Without it, batches
// held only what arrived during the previous enqueue (about 6 lookups at 50,000 a second), and
// queueing them cost an eighth of the API's CPU in make bench-verify (issue 27); a person's "who
// looked me up" list is written by the worker later anyway.
const lookupLinger = 5 * time.Millisecond

func (r *lookupRecorder) run() {
	defer close(r.done)
	linger := time.NewTimer(lookupLinger)
	linger.Stop()
	for e := range r.ch {
		batch := []jobs.VerifyLogEntry{e}
		linger.Reset(lookupLinger)
	gather:
		for len(batch) < jobs.MaxVerifyLogBatch {
			select {
			case e, ok := <-r.ch:
				if !ok { // closing: queue what was gathered
					break gather
				}
				batch = append(batch, e)
			case <-linger.C:
				break gather
			}
		}
		linger.Stop()
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
