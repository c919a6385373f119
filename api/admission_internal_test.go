package api

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/admission"
)

func TestRequestPriorities(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         admission.Priority
	}{
		{"GET", "/healthz", admission.Exempt},
		{"GET", "/readyz", admission.Exempt},
		{"POST", "/api/register", admission.Low},
		{"POST", "/api/login", admission.Low},
		{"POST", "/api/widget/login", admission.Low},
		{"POST", "/api/invitations/accept", admission.Low},
		{"POST", "/api/send-email-verification-link", admission.Low},
		{"POST", "/api/users/12/contact-change", admission.Low},
		{"POST", "/api/users/12/confirmation-code", admission.Low},
		{"POST", "/api/users/12/credential-offers", admission.Low},
		{"GET", "/api/widget/presentations/7f1c", admission.High},
		{"POST", "/api/widget/presentations", admission.Normal},
		{"GET", "/api/verify/PS-1234-5678-90", admission.High},
		{"GET", "/api/qr/PS-1234-5678-90.png", admission.High},
		{"GET", "/api/widget/verify", admission.High},
		{"GET", "/api/users/12/verification-status", admission.High},
		{"GET", "/api/start-verification/abc", admission.High},
		{"GET", "/api/payments/status", admission.High},
		{"GET", "/api/auth/status", admission.High},
		{"GET", "/api/credentials/status/1", admission.High},
		{"POST", "/api/webhooks/biometric", admission.High},
		{"POST", "/api/webhooks/payments", admission.High},
		{"GET", passkitPrefix + "/passes/pass.mx.perfilseguro/abc", admission.High},
		{"POST", passkitPrefix + "/log", admission.High},
		{"POST", "/api/verify-code", admission.Normal},
		{"GET", "/api/users/12", admission.Normal},
		{"POST", "/api/users/12/contact-change/verify", admission.Normal},
		{"GET", "/", admission.Normal},
		{"GET", "/assets/index.js", admission.Normal},
		{"POST", "/api/verify/PS-1234-5678-90", admission.Normal},
	} {
		r := httptest.NewRequest(c.method, c.path, nil)
		assert.Equal(t, c.want, requestPriority(r), "%s %s", c.method, c.path)
	}
}

func TestRequestKindsCollapseIdentifiers(t *testing.T) {
	for path, want := range map[string]string{
		"/api/users/12/verification-status":                  "GET api/users/{}/verification-status",
		"/api/users/13/verification-status":                  "GET api/users/{}/verification-status",
		"/api/verify/PS-1234-5678-90":                        "GET api/verify/{}",
		"/api/start-verification/6f0e2c1abbbbbbbbbbbbbbbbbb": "GET api/start-verification/{}",
		"/api/widget/verify":                                 "GET api/widget/verify",
		"/":                                                  "GET ",
		"/a/b/c/d/e/f/g/h":                                   "GET a/b/c/d/e/f/…",
	} {
		assert.Equal(t, want, requestKind(httptest.NewRequest("GET", path, nil)), path)
	}
	assert.Equal(t, "POST api/register", requestKind(httptest.NewRequest("POST", "/api/register", nil)))
}

// A request that waits on purpose is admitted only with room but holds no place while it waits.
func TestRequestsThatWaitOnPurposeHoldNoPlace(t *testing.T) {
	limiter := admission.New(admission.Config{InitialLimit: 1, MinLimit: 1, MaxLimit: 1,
		Patience: [4]time.Duration{admission.Normal: 20 * time.Millisecond}})
	g := &admissionGate{limiter: limiter, logger: slog.New(slog.DiscardHandler)}
	inside, release := make(chan struct{}), make(chan struct{})
	h := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inside <- struct{}{}
		<-release
	}))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/data-export?token=x", nil))
	<-inside
	assert.Zero(t, limiter.Stats().Inflight, "the download holds no place")
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/users/1", nil))
	<-inside
	assert.Equal(t, 1, limiter.Stats().Inflight, "an ordinary request does")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/data-export?token=x", nil))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code, "but it is admitted only with room")
	close(release)
}

func TestRequestsThatWaitOnPurposeAreNoLatencySample(t *testing.T) {
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/start-verification", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/payments/checkout", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("POST", oid4vciCredentialPath, nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("GET", "/api/data-export?token=x", nil)))
	assert.True(t, waitsOnPurpose(httptest.NewRequest("GET", monitoringPath+"/api/queues", nil)))
	assert.False(t, waitsOnPurpose(httptest.NewRequest("GET", "/api/start-verification/abc", nil)))
	assert.False(t, waitsOnPurpose(httptest.NewRequest("POST", "/api/register", nil)))
}

// fakePrimary is a leader pool that last waited for a primary at missed (zero: never).
type fakePrimary struct{ missed atomic.Int64 }

func (f *fakePrimary) MissedSince(t time.Time) bool {
	m := f.missed.Load()
	return m != 0 && m >= t.UnixNano()
}

// The requests of a switchover's gap are neither limited nor counted; before it and once it is
// over the limit applies.
func TestRequestsOfASwitchoverAreNotLimited(t *testing.T) {
	limiter := admission.New(admission.Config{InitialLimit: 1, MinLimit: 1, MaxLimit: 1,
		Patience: [4]time.Duration{admission.Low: 50 * time.Millisecond}})
	primary := &fakePrimary{}
	g := &admissionGate{limiter: limiter, logger: slog.New(slog.DiscardHandler), primary: primary}
	release, started := make(chan struct{}), make(chan struct{}, 4)
	h := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-release
	}))
	serve := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/login", nil))
		return rec
	}
	var wg sync.WaitGroup
	wg.Go(func() { serve() })
	<-started
	require.Equal(t, 1, limiter.Stats().Inflight)
	require.Equal(t, http.StatusServiceUnavailable, serve().Code, "the limit of 1 is full")

	primary.missed.Store(time.Now().UnixNano()) // the pool waited for a primary just now
	wg.Go(func() { serve() })
	<-started
	assert.Equal(t, 1, limiter.Stats().Inflight, "admitted without being counted")

	primary.missed.Store(time.Now().Add(-primaryGap - time.Second).UnixNano()) // the gap is over
	start := time.Now()
	assert.Equal(t, http.StatusServiceUnavailable, serve().Code, "limited again once a primary answers")
	assert.GreaterOrEqual(t, time.Since(start), backlogWait, "refused after waiting for a place, in the seconds after the gap")

	// In those seconds a request that finds the limit full waits and is served once a place is free.
	served := make(chan int, 1)
	go func() { served <- serve().Code }()
	time.Sleep(100 * time.Millisecond)
	close(release) // the requests holding the limit finish
	<-started
	assert.Equal(t, http.StatusOK, <-served)

	primary.missed.Store(time.Now().Add(-primarySettle - time.Second).UnixNano()) // long ago
	start = time.Now()
	release2 := make(chan struct{})
	h2 := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release2 }))
	go h2.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/login", nil))
	require.Eventually(t, func() bool { return limiter.Stats().Inflight == 1 }, time.Second, time.Millisecond)
	rec := httptest.NewRecorder()
	h2.ServeHTTP(rec, httptest.NewRequest("POST", "/api/login", nil))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Less(t, time.Since(start), backlogWait/2, "refused after its usual patience when no failover is near")
	close(release2)
	wg.Wait()
	assert.Eventually(t, func() bool { return limiter.Stats().Inflight == 0 }, time.Second, time.Millisecond)
}

// A counted request during which the pool waited for a primary, or that started in the seconds
// after, is no latency sample: its time says nothing about this process's capacity.
func TestRequestsThatWaitedForAPrimaryAreNoLatencySample(t *testing.T) {
	for name, c := range map[string]struct {
		missed bool
		ago    time.Duration
	}{
		"control":                    {},
		"waited for a primary":       {missed: true},
		"started just after the gap": {ago: primaryGap + time.Second},
		"started long after the gap": {ago: primarySettle + time.Second},
	} {
		t.Run(name, func(t *testing.T) {
			clock := time.Now() // advanced by a millisecond a reading; comparable with the wall clock of missed
			var mu sync.Mutex
			now := func() time.Time {
				mu.Lock()
				defer mu.Unlock()
				clock = clock.Add(time.Millisecond)
				return clock
			}
			limiter := admission.New(admission.Config{InitialLimit: 2, MaxLimit: 10, MinSamples: 1, Window: time.Nanosecond, Now: now})
			primary := &fakePrimary{}
			g := &admissionGate{limiter: limiter, logger: slog.New(slog.DiscardHandler), primary: primary}
			if c.ago > 0 {
				primary.missed.Store(time.Now().Add(-c.ago).UnixNano())
			}
			h := g.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if c.missed {
					primary.missed.Store(now().UnixNano())
				}
			}))
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/api/login", nil))
			if c.missed || (c.ago > 0 && c.ago < primarySettle) {
				assert.Zero(t, limiter.NoLoad("POST api/login"), "no sample: nothing learnt")
			} else {
				assert.Positive(t, limiter.NoLoad("POST api/login"), "a quiet sample: its no-load time learnt")
			}
		})
	}
}
