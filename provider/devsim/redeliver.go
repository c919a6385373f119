package devsim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// The stand-ins deliver a webhook again, as their providers do, when our endpoint could not take
// it for now: no answer, 5xx or 429 (a Postgres failover, a restart). Each delivery carries the
// same body with a fresh signature, so our endpoint stores it once however often it arrives.

// redeliverySchedule spreads the deliveries over about 10 minutes: the first ones cover a
// failover or a restart (seconds), the last ones a longer outage; what is still missing after
// that is the periodic reconciliation's (it asks the provider).
var redeliverySchedule = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
	15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 2 * time.Minute, 2 * time.Minute}

// retryable is a delivery that may succeed later.
type retryable struct{ error }

func (e retryable) Unwrap() error { return e.error }

// isRetryable reports whether a delivery that failed with err is worth making again.
func isRetryable(err error) bool {
	var r retryable
	return errors.As(err, &r)
}

// retryableStatus: the answers after which a provider delivers again.
func retryableStatus(code int) bool {
	return code >= 500 || code == http.StatusTooManyRequests
}

// postWebhook POSTs a JSON webhook body to url, with the headers sign sets, and answers nil for a
// 2xx. No answer, 5xx and 429 are retryable; the answer's start is kept in the error.
func postWebhook(ctx context.Context, hc *http.Client, url string, body []byte, sign func(http.Header)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	sign(req.Header)
	if hc == nil {
		hc = outbound.Client(10 * time.Second)
	}
	res, err := hc.Do(req)
	if err != nil {
		return retryable{fmt.Errorf("post webhook: %w", err)}
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	switch {
	case res.StatusCode/100 == 2:
		return nil
	case retryableStatus(res.StatusCode):
		return retryable{errors.New("webhook answered " + res.Status + ": " + string(msg))}
	}
	return errors.New("webhook answered " + res.Status + ": " + string(msg))
}

// deliverOrLater makes deliver once; when it failed but may succeed later, it goes on in the
// background on the schedule (redeliver) and the caller carries on as if delivered, as with a
// provider. Any other failure is returned.
func deliverOrLater(ctx context.Context, schedule []time.Duration, logger *slog.Logger, deliver func(context.Context) error, attrs ...any) error {
	err := deliver(ctx)
	if !isRetryable(err) {
		return err
	}
	logger.Warn("devsim webhook not taken; delivering it again in the background", append(attrs, "error", err)...)
	go redeliver(schedule, logger, deliver, attrs...)
	return nil
}

// redeliver makes deliver again on the schedule (nil: redeliverySchedule) until it succeeds,
// fails for good (a 4xx other than 429: retrying cannot change it) or the schedule runs out.
func redeliver(schedule []time.Duration, logger *slog.Logger, deliver func(context.Context) error, attrs ...any) {
	if schedule == nil {
		schedule = redeliverySchedule
	}
	for i, wait := range schedule {
		time.Sleep(wait)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := deliver(ctx)
		cancel()
		if err == nil {
			logger.Info("devsim webhook delivered again", append(attrs, "delivery", i+2)...)
			return
		}
		if !isRetryable(err) {
			logger.Error("devsim webhook refused; not delivering it again", append(attrs, "error", err)...)
			return
		}
	}
	logger.Error("devsim webhook never taken; the periodic reconciliation will apply it", attrs...)
}
