package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/perfilseguro/perfilseguro/tracing"
)

type ctxKey int

const requestIDKey ctxKey = 1

// requestID returns the id given to this request by withRequestID.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// withRequestID gives the request its id and echoes it. With tracing on, the request is a
// server span and its id is the trace ID, so that the requestId of an error a person sends in a
// screenshot finds the whole trace; otherwise a sane incoming X-Request-Id is kept or one made.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		var id string
		if tracing.Enabled() {
			var span trace.Span
			ctx, span = tracing.StartServer(r)
			defer span.End()
			id = span.SpanContext().TraceID().String()
		} else if id = r.Header.Get("X-Request-Id"); len(id) < 8 || len(id) > 64 {
			b := make([]byte, 8)
			rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, requestIDKey, id)))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	} else if code == s.status {
		// fuego writes a route's default status after the handler, and handlers that must set
		// Content-Type before it (setStatus) already wrote the same one: not worth net/http's
		// "superfluous WriteHeader" line on every sign-up. A different code still reaches it.
		return
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush keeps streaming handlers (asynqmon) working through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// serveRecorded serves r with next and returns what was answered (status 200 when none was written).
func serveRecorded(next http.Handler, w http.ResponseWriter, r *http.Request) *statusRecorder {
	rec := &statusRecorder{ResponseWriter: w}
	next.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec
}

// withLogging writes one structured line per request (never bodies or query strings: they may hold codes).
func withLogging(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := serveRecorded(next, w, r)
			level := slog.LevelInfo
			if rec.status >= 500 {
				level = slog.LevelError
			} else if quietPath(r) && time.Since(start) < time.Second {
				return
			}
			logger.Log(r.Context(), level, "request", "method", r.Method, "path", r.URL.Path,
				"status", rec.status, "bytes", rec.bytes, "duration", time.Since(start),
				"request_id", requestID(r.Context()))
		})
	}
}

// quietPath: requests answered without a line of their own unless they fail (5xx) or are slow.
// Public lookups name the person looked up in their path; they are recorded where the person can
// see them and their retention is known (verification_logs, "Consultas a tu perfil") and counted
// on /metrics, so a log line each would only copy a profile ID into logs kept who knows how long,
// at a cost (a JSON line and a write per lookup was 8 % of the API's CPU under load, issue 27).
// Health checks are probed every few seconds by load balancers.
func quietPath(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodGet && (strings.HasPrefix(p, "/api/verify/") || strings.HasPrefix(p, "/api/qr/") ||
		p == "/healthz" || p == "/readyz")
}

// withRecovery turns a panic into the JSON 500 instead of a dropped connection.
func withRecovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic", "panic", v, "stack", string(debug.Stack()))
				writeError(w, r, httpError(http.StatusInternalServerError, "Ocurrió un error interno. Intenta nuevamente."))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// maxWebhookBytes allows provider webhooks, which carry whole decisions, to be larger.
const maxWebhookBytes = 1 << 20

// withBodyLimit caps every request body (also for handlers that do not use decodeJSON).
func withBodyLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := int64(maxBodyBytes)
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/webhooks/"):
			limit = maxWebhookBytes
		case strings.HasPrefix(r.URL.Path, "/api/socios/screening-lists"):
			limit = maxListUploadBytes // a business's list, uploaded as a file (partner_console_lists.go)
		}
		if r.ContentLength > limit {
			writeError(w, r, httpError(http.StatusRequestEntityTooLarge, "La solicitud es demasiado grande."))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// withSecurityHeaders sets the headers every response carries. The keys are written already in
// canonical form with value slices made once: Header.Set canonicalizes its key and allocates a
// one-element slice per header per request, which was a visible share of a public lookup's CPU
// (issue 27). Sharing the slices is safe: nothing writes into a header value in place, and an Add
// on a full slice copies it.
func withSecurityHeaders(production bool, csp string) func(http.Handler) http.Handler {
	static := http.Header{
		"X-Content-Type-Options": {"nosniff"},
		"Referrer-Policy":        {"strict-origin-when-cross-origin"},
		"X-Frame-Options":        {"DENY"},
		"Permissions-Policy":     {"camera=(self), microphone=(), geolocation=()"},
	}
	if production {
		static["Strict-Transport-Security"] = []string{"max-age=63072000; includeSubDomains"}
	}
	strict, relaxed := []string{csp}, []string{relaxedPolicy}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for k, v := range static {
				h[k] = v
			}
			if strings.HasPrefix(r.URL.Path, monitoringPath) || strings.HasPrefix(r.URL.Path, "/dev/") {
				h["Content-Security-Policy"] = relaxed
			} else {
				h["Content-Security-Policy"] = strict
			}
			next.ServeHTTP(w, r)
		})
	}
}

// withoutFrameworkHeaders drops what fuego adds to every answer: an X-Powered-By banner (it
// tells an attacker what to look for) and Server-Timing sent as a declared trailer, which forces
// chunked encoding on small JSON answers and breaks ordinary tooling (a validating proxy crashes
// on it).
func withoutFrameworkHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&strippedWriter{ResponseWriter: w}, r)
	})
}

// strippedWriter removes the framework's headers just before the status line goes out; what is
// set after that (fuego's late Server-Timing values) is not sent, since no trailer is declared.
type strippedWriter struct {
	http.ResponseWriter
	done bool
}

func (s *strippedWriter) strip() {
	if !s.done {
		h := s.Header()
		h.Del("X-Powered-By")
		h.Del("Trailer")
		h.Del("Server-Timing")
		s.done = true
	}
}

func (s *strippedWriter) WriteHeader(code int) { s.strip(); s.ResponseWriter.WriteHeader(code) }

func (s *strippedWriter) Write(b []byte) (int, error) { s.strip(); return s.ResponseWriter.Write(b) }

// Flush keeps streaming answers (the operators' dashboard) working through the wrapper.
func (s *strippedWriter) Flush() {
	s.strip()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (s *strippedWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

const clientIPKey ctxKey = 2

// withClientIP decides once per request which address the client has: the TCP peer, or, when the
// peer is one of the trusted proxies (TRUSTED_PROXIES), the rightmost X-Forwarded-For address that
// is not itself a trusted proxy. Entries left of that are written by the client and never trusted.
func withClientIP(trusted []netip.Prefix) func(http.Handler) http.Handler {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(next http.Handler) http.Handler {
		if len(trusted) == 0 {
			return next // clientIP falls back to the TCP peer
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			peer := clientIP(r)
			addr, err := netip.ParseAddr(peer)
			if err == nil && isTrusted(addr.Unmap()) {
				if ip := forwardedFor(r.Header.Values("X-Forwarded-For"), isTrusted); ip != "" {
					r = r.WithContext(context.WithValue(r.Context(), clientIPKey, ip))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// forwardedFor walks X-Forwarded-For from the right, past trusted proxies, to the client; "" when
// an entry is malformed or every entry is a trusted proxy.
func forwardedFor(values []string, isTrusted func(netip.Addr) bool) string {
	var hops []string
	for _, v := range values {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return ""
		}
		if a = a.Unmap(); !isTrusted(a) {
			return a.String()
		}
	}
	return ""
}

// requestBound is the longest a request works before its context ends: database/sql then stops
// waiting for a pooled connection, a connection attempt is abandoned and a running query is
// cancelled, and the answer is 503 with Retry-After (writeError). During a Postgres failover this
// is what turns "no primary" into a prompt refusal instead of a request piling up behind the
// others. 15 s is above every deliberate wait outside waitsOnPurpose (pass builds and credential
// offers wait 4 s, biometric and checkout pages 8 s but those are exempt) and below the client's
// patience and the server's 60 s write timeout. Connection attempts are bounded much tighter by
// postgres.Open (3 s), and a query to a vanished host by TCP_USER_TIMEOUT (10 s).
const requestBound = 15 * time.Second

// withRequestBound puts requestBound on the request's context, except on the requests that wait
// on purpose (admission.go): a provider page being created, a file download, the dashboard.
func withRequestBound(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if waitsOnPurpose(r) {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), requestBound)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
