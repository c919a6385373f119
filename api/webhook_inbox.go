package api

import (
	"context"
	"net/http"
	"time"

	"github.com/hibiken/asynq"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// The providers' webhooks (the biometric provider's, Stripe's) go through one inbox: each
// handler checks the signature and stores the raw event once (deduplicated in Postgres,
// postgres/webhook_inbox.go), then acknowledgeWebhook answers and queues the processing. The
// provider's retry is the only delivery guarantee we lean on before the row is stored; after it,
// the reconciler picks up what a lost enqueue left behind.

// acknowledgeWebhook answers a provider for an event it just stored (500 when storing failed:
// the provider retries), then queues the event's processing unless a replay was already
// applied. A failed enqueue is only logged: the stored row waits for the periodic reconciler.
func (s *Server) acknowledgeWebhook(w http.ResponseWriter, r *http.Request, kind string, id int64, processed bool, stored error,
	build func(int64) (*asynq.Task, error)) {
	if stored != nil {
		writeError(w, r, stored)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"received": true})
	if processed {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 3*time.Second)
	defer cancel()
	task, err := build(id)
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		s.logger.WarnContext(r.Context(), kind+" webhook stored, processing left to the reconciler",
			"webhook_id", id, "error", err, "request_id", requestID(r.Context()))
	}
}
