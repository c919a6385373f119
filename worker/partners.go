package worker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesPartners() {
	w.mux.HandleFunc(jobs.TypePartnerNotify, decoded("partner notify",
		func(p jobs.PartnerNotifyPayload) bool { return p.DeliveryID != 0 }, w.handlePartnerNotify))
	w.mux.HandleFunc(jobs.TypePartnerDispatch, w.handlePartnerDispatch)
	w.mux.HandleFunc(jobs.TypePartnerFlushUsage, w.handlePartnerFlushUsage)
}

// partnerBackoff spaces delivery attempts: 10 s, 40 s, 90 s, … up to an hour.
func partnerBackoff(attempts int) time.Duration {
	return min(time.Duration(attempts*attempts)*10*time.Second, time.Hour)
}

// handlePartnerDispatch expires the verification sessions whose time ran out (their notifications
// join the outbox), then enqueues every due notification (the outbox makes this safe to repeat).
func (w *Worker) handlePartnerDispatch(ctx context.Context, _ *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	if _, err := store.ExpireSessions(ctx, time.Now(), 500); err != nil {
		return err
	}
	ids, err := store.DueDeliveries(ctx, 500)
	if err != nil {
		return err
	}
	for _, id := range ids {
		d, err := store.DeliveryByID(ctx, id)
		if err != nil || d == nil {
			continue
		}
		task, err := jobs.NewPartnerNotifyTask(id, d.Attempts+1)
		if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
			return err
		}
	}
	return nil
}

// handlePartnerNotify POSTs one notification, signed, and logs the attempt.
func (w *Worker) handlePartnerNotify(ctx context.Context, p jobs.PartnerNotifyPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	d, err := store.DeliveryByID(ctx, p.DeliveryID)
	if err != nil {
		return err
	}
	if d == nil || d.Delivered != nil || !d.PartnerAct || d.URL == nil || *d.URL == "" {
		return nil
	}
	if d.Objected { // the person switched partner notifications off: nothing about them is sent
		return store.DropDelivery(ctx, d.ID)
	}
	secret := ""
	if d.Secret != nil {
		secret = *d.Secret
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, *d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return store.RecordDelivery(ctx, d.ID, 0, "invalid URL: "+err.Error(), false, partnerBackoff(d.Attempts+1))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "PerfilSeguro-Webhooks/1")
	req.Header.Set("X-PerfilSeguro-Event", d.Event)
	req.Header.Set("X-PerfilSeguro-Delivery", strconv.FormatInt(d.ID, 10))
	// During a secret rotation's overlap the replaced secret signs too (a second v1= entry), so
	// the partner accepts the notification whichever secret its servers hold.
	now := time.Now()
	previous, err := store.WebhookPreviousSecret(ctx, d.PartnerID, now)
	if err != nil {
		return err
	}
	req.Header.Set(perfilseguro.PartnerSignatureHeader, perfilseguro.SignPartnerWebhook(secret, now, d.Payload, previous))
	res, err := w.deps.HTTPClient.Do(req)
	if err != nil {
		return store.RecordDelivery(ctx, d.ID, 0, deliveryFailure(err), false, partnerBackoff(d.Attempts+1))
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	ok := res.StatusCode >= 200 && res.StatusCode < 300
	errText := ""
	if !ok {
		errText = "HTTP " + res.Status
	}
	return store.RecordDelivery(ctx, d.ID, res.StatusCode, errText, ok, partnerBackoff(d.Attempts+1))
}

// deliveryFailure is the partner-visible text of a failed attempt. A refusal by the public-only
// dialer would name the private address twice (the dial and our check), so it becomes the note;
// a DNS failure would name our resolver's address, so it keeps only the name and the reason.
func deliveryFailure(err error) string {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, perfilseguro.ErrAddressNotPublic):
		return perfilseguro.AddressNotPublicNote
	case errors.As(err, &dnsErr):
		return "lookup " + dnsErr.Name + ": " + dnsErr.Err
	}
	return err.Error()
}

// handlePartnerFlushUsage moves the request counts batched in Redis to api_keys in one write per partner.
func (w *Worker) handlePartnerFlushUsage(ctx context.Context, _ *asynq.Task) error {
	if w.deps.Redis == nil {
		return nil
	}
	store := postgres.Store{DB: w.deps.DB}
	// Counts move to a private key first so that requests counted meanwhile are not lost.
	flushing := jobs.PartnerUsageKey + ":flushing"
	if n, _ := w.deps.Redis.Exists(ctx, flushing).Result(); n == 0 {
		if err := w.deps.Redis.Rename(ctx, jobs.PartnerUsageKey, flushing).Err(); err != nil {
			if err.Error() == "ERR no such key" {
				return nil
			}
			return err
		}
	}
	counts, err := w.deps.Redis.HGetAll(ctx, flushing).Result()
	if err != nil {
		return err
	}
	for field, v := range counts {
		id, err1 := strconv.ParseInt(field, 10, 64)
		n, err2 := strconv.ParseInt(v, 10, 64)
		if err1 != nil || err2 != nil || n <= 0 {
			continue
		}
		if err := store.AddPartnerUsage(ctx, id, n, time.Now()); err != nil {
			return err
		}
		// Remove each flushed field at once so a retry after a failure never counts it twice.
		w.deps.Redis.HDel(ctx, flushing, field)
	}
	return nil
}
