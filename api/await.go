package api

import (
	"context"
	"net/http"
	"time"
)

// awaitJob waits briefly for a job the request queued (a provider page being created): it calls
// check every `every` until check reports done, or fails, or wait passes; then pending is true
// and the caller answers 202 (answerAccepted) for the browser to poll. An error while the wait is
// ending is taken as the wait passing.
func awaitJob(ctx context.Context, wait, every time.Duration, check func(context.Context) (done bool, err error)) (pending bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		done, err := check(ctx)
		if err != nil && ctx.Err() == nil {
			return false, err
		}
		if done && err == nil {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return true, nil
		case <-tick.C:
		}
	}
}

// jobAnswer is the part of a handler's context that an answer waiting on a job uses.
type jobAnswer interface {
	Request() *http.Request
	Response() http.ResponseWriter
	SetStatus(int)
}

// awaitPage waits (awaitJob) for a queued job to store a provider page: read reports the page's
// URL once it is stored, or that the job failed for good. It returns the URL (200), failedErr,
// or pending after answering 202 on c.
func awaitPage(c jobAnswer, wait, every time.Duration, failedErr error,
	read func(context.Context) (url *string, failed bool, err error)) (url string, pending bool, err error) {
	failed := false
	pending, err = awaitJob(c.Request().Context(), wait, every, func(ctx context.Context) (bool, error) {
		u, f, err := read(ctx)
		if err != nil {
			return false, err
		}
		if u != nil {
			url = *u
			return true, nil
		}
		failed = f
		return failed, nil
	})
	switch {
	case err != nil:
		return "", false, err
	case pending:
		answerAccepted(c)
		return "", true, nil
	case failed:
		return "", false, failedErr
	}
	return url, false, nil
}

// answerAccepted makes the answer a 202 "still being prepared, ask again" that no cache keeps.
func answerAccepted(c interface {
	Response() http.ResponseWriter
	SetStatus(int)
}) {
	// SetStatus writes the header at once: set the content type first.
	c.Response().Header().Set("Content-Type", "application/json; charset=utf-8")
	c.Response().Header().Set("Cache-Control", "no-store")
	c.SetStatus(http.StatusAccepted)
}
