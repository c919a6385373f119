package api

import (
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/perfilseguro/perfilseguro/admission"
)

// Admission control (issues 27, 37): past capacity the API refuses at once, with 503 and
// Retry-After, instead of letting every request wait behind the others until its client gives up.
// A request that finds the limit full waits a moment in a queue; it is refused only when the queue
// stands (package admission). The refusal happens before any other middleware: a refused request
// writes no row, queues no job, sends no message and is not logged one by one (a line a second
// says how many were refused).

// overloadedBody is the refusal, in the API's error shape.
const overloadedBody = `{"message":"Hay mucha demanda en este momento. Intenta nuevamente en unos segundos."}` + "\n"

// overloadedRetryAfter is the Retry-After of a refusal, in seconds: a limit adapts within a few
// tenths of a second, so a few seconds later there is room again unless the flood goes on.
const overloadedRetryAfter = "5"

// requestPriority classifies a request by method and path, before routing.
func requestPriority(r *http.Request) admission.Priority {
	p := r.URL.Path
	switch {
	case p == "/healthz" || p == "/readyz":
		return admission.Exempt
	case r.Method == http.MethodPost && lowPriorityPost(p):
		return admission.Low
	case strings.HasPrefix(p, "/api/webhooks/") || strings.HasPrefix(p, passkitPrefix+"/"):
		return admission.High // the provider retries, but late; the wallet update is awaited
	case r.Method == http.MethodGet && highPriorityGet(p):
		return admission.High
	}
	return admission.Normal
}

// lowPriorityPost: new sign-ups and code sends, the requests that queue work for later.
func lowPriorityPost(p string) bool {
	switch p {
	case "/api/register", "/api/login", "/api/widget/login", "/api/invitations/accept", "/api/send-email-verification-link":
		return true
	}
	return strings.HasPrefix(p, "/api/users/") && (strings.HasSuffix(p, "/contact-change") ||
		strings.HasSuffix(p, "/confirmation-code") || strings.HasSuffix(p, "/credential-offers"))
}

// highPriorityGet: public verification and the status polls of people in the middle of a step.
func highPriorityGet(p string) bool {
	switch {
	case strings.HasPrefix(p, "/api/verify/"), strings.HasPrefix(p, "/api/qr/"), p == "/api/widget/verify",
		p == "/api/auth/status", p == "/api/payments/status", strings.HasPrefix(p, "/api/start-verification/"),
		strings.HasPrefix(p, "/api/credentials/status/"), strings.HasPrefix(p, "/.well-known/"),
		strings.HasPrefix(p, "/api/widget/presentations/"):
		return true
	}
	return strings.HasPrefix(p, "/api/users/") && strings.HasSuffix(p, "/verification-status")
}

// waitsOnPurpose: requests whose time is mostly a deliberate wait (a provider page being
// created, a file download, the operators' dashboard). They are admitted only when there is room
// but hold no place: they sleep, and held places would make the machine look busier than it is.
func waitsOnPurpose(r *http.Request) bool {
	p := r.URL.Path
	return (r.Method == http.MethodPost && (p == "/api/start-verification" || p == "/api/payments/checkout" || p == oid4vciCredentialPath)) ||
		p == "/api/data-export" || strings.HasPrefix(p, monitoringPath)
}

// requestKind names the route of a request for the limiter, which learns each kind's no-load
// latency: the method and the path with its identifiers (segments with a digit, long tokens)
// replaced, so /api/users/12/verification-status and /api/users/13/verification-status are one.
func requestKind(r *http.Request) string {
	var b strings.Builder
	b.Grow(len(r.Method) + len(r.URL.Path) + 1)
	b.WriteString(r.Method)
	b.WriteByte(' ')
	for i, seg := range strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		if i >= 6 {
			b.WriteString("…")
			break
		}
		if len(seg) > 24 || strings.ContainsAny(seg, "0123456789") {
			seg = "{}"
		}
		b.WriteString(seg)
	}
	return b.String()
}

// primaryWatch tells when the leader pool last waited for a primary (postgres.PrimaryWatch).
type primaryWatch interface {
	MissedSince(t time.Time) bool
}

// While the leader pool waits for a primary (an attempt failed within primaryGap), requests are
// not counted in the limit: they wait without using the CPU, and counted, the requests arriving
// in a switchover's gap (200 a second in the scale rig) filled the limit within a fraction of a
// second and the rest were refused. Requests that started up to primarySettle after the gap are
// counted but are no latency sample: the gap leaves a backlog that makes answers slow for a few
// seconds, and a limit judging those seconds cut itself and refused people for seconds with the
// database back. Counting them keeps that backlog bounded: leaving them out as well (tried) let
// it grow until answers took 5-6 s, past the load balancer's patience.
//
// In those seconds a request that finds the limit full waits up to backlogWait for a place, even
// while the queue stands (when it would otherwise be refused after a few milliseconds): the
// backlog is passing, and people who arrived just after a
// switchover were otherwise refused ("Hay mucha demanda…") while it was worked off.
const (
	primaryGap    = time.Second
	primarySettle = 5 * time.Second
	backlogWait   = time.Second
)

// admissionGate refuses what does not fit under the limit.
type admissionGate struct {
	limiter *admission.Limiter
	// primary, when known, keeps the requests of a switchover's gap out of the limit and those of
	// the seconds after it out of its samples (primaryGap, primarySettle).
	primary  primaryWatch
	logger   *slog.Logger
	lastLog  atomic.Int64 // unix nanoseconds of the last "refusing" line
	lastShed atomic.Uint64
}

func (g *admissionGate) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, kind := requestPriority(r), requestKind(r)
		var ticket admission.Ticket
		var ok bool
		if now := time.Now(); g.primary != nil && g.primary.MissedSince(now.Add(-primarySettle)) {
			if g.primary.MissedSince(now.Add(-primaryGap)) {
				next.ServeHTTP(w, r) // it waits for the primary (postgres.waitingConnector) or answers 503
				return
			}
			ticket, ok = g.limiter.AcquireWithin(p, kind, backlogWait)
		} else {
			ticket, ok = g.limiter.Acquire(p, kind)
		}
		if !ok {
			g.refuse(w)
			return
		}
		if waitsOnPurpose(r) {
			g.limiter.Ignore(ticket)
			next.ServeHTTP(w, r)
			return
		}
		defer func() {
			if g.primary != nil && g.primary.MissedSince(ticket.Started().Add(-primarySettle)) {
				g.limiter.Ignore(ticket)
			} else {
				g.limiter.Done(ticket)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func (g *admissionGate) refuse(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Retry-After", overloadedRetryAfter)
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write([]byte(overloadedBody))
	g.logRefusals()
}

// logRefusals writes at most one line a second while requests are refused.
func (g *admissionGate) logRefusals() {
	now := time.Now().UnixNano()
	last := g.lastLog.Load()
	if now-last < int64(time.Second) || !g.lastLog.CompareAndSwap(last, now) {
		return
	}
	s := g.limiter.Stats()
	total := s.Shed[admission.High] + s.Shed[admission.Normal] + s.Shed[admission.Low]
	g.logger.Warn("past capacity: refusing requests", "refused_since_last_line", total-g.lastShed.Swap(total),
		"limit", int(s.Limit), "in_progress", s.Inflight, "waiting", s.Waiting)
}

// collectors expose the limit, the work in progress and the refusals on /metrics.
func (g *admissionGate) collectors() []prometheus.Collector {
	cs := []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_admission_limit",
			Help: "Requests the API takes at once before refusing with 503 (adaptive)."},
			func() float64 { return g.limiter.Stats().Limit }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_admission_limit_in_force",
			Help: "Requests the API takes at once right now: the limit as being tried (a quarter above or a fifth below it, and a quarter above while idle), or a few while it measures the no-load latency."},
			func() float64 { return float64(g.limiter.Stats().InForce) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_admission_in_progress",
			Help: "Admitted requests not yet answered (health checks not counted)."},
			func() float64 { return float64(g.limiter.Stats().Inflight) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_admission_waiting",
			Help: "Requests waiting for a place in the admission queue."},
			func() float64 { return float64(g.limiter.Stats().Waiting) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_admission_queue_standing",
			Help: "1 while the admission queue stands (waits above 5 ms for 100 ms): the API is past capacity."},
			func() float64 {
				if g.limiter.Stats().Standing {
					return 1
				}
				return 0
			}),
	}
	cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "perfilseguro_admission_refused_on_arrival_total",
		Help: "Refusals (among perfilseguro_admission_refused_total) made on arrival, without waiting: the standing queue ahead would have outlasted the request's patience."},
		func() float64 { return float64(g.limiter.Stats().RefusedOnArrival) }))
	for _, p := range admission.Priorities() {
		cs = append(cs, prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "perfilseguro_admission_refused_total",
			Help: "Requests refused with 503 at once because the API was past capacity, by priority.", ConstLabels: prometheus.Labels{"priority": p.String()}},
			func() float64 { return float64(g.limiter.Stats().Shed[p]) }))
	}
	return cs
}
