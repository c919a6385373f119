package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/perfilseguro/perfilseguro/tracing"
)

// monitoringPath is where operators watch the queues (asynqmon).
const monitoringPath = "/admin/monitoring"

// metricsPath is where Prometheus scrapes (administrators only; or METRICS_ADDR, unauthenticated).
const metricsPath = "/metrics"

// mountMonitoring serves asynqmon and /metrics, both behind the administrator session in every mode.
func (s *Server) mountMonitoring(redisOpt asynq.RedisConnOpt) {
	s.metrics = newMetrics(redisOpt)
	s.registerStateMetrics(redisOpt) // what the alerts need beyond requests (monitoring_state.go)
	s.metrics.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "perfilseguro_public_record_cache_hits_total",
			Help: "Public verifications answered from the cache of public records."},
			func() float64 { return float64(s.public.hits.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "perfilseguro_public_record_cache_misses_total",
			Help: "Public verifications that read Postgres (not cached, or the cache not proven current)."},
			func() float64 { return float64(s.public.misses.Load()) }))
	if s.otp != nil {
		s.metrics.registry.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_otp_queue_latency_bound_seconds",
				Help: "Past this wait of the oldest queued code job, new sign-ups and code sends answer 503."},
				func() float64 { return s.otp.bound.Seconds() }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "perfilseguro_otp_queue_latency_seconds",
				Help: "The oldest queued code job's wait at the API's last reading (-1: unknown)."},
				func() float64 {
					if d := s.otp.current(); d >= 0 {
						return d.Seconds()
					}
					return -1
				}))
	}
	if s.admission != nil {
		s.metrics.registry.MustRegister(s.admission.collectors()...)
	}
	s.handle("GET "+metricsPath, s.adminOnly(s.metrics.handler()),
		op("Administración", "Métricas Prometheus (sesión de administrador)", nil,
			text("200", "Formato de exposición de Prometheus", "text/plain"), errorAnswer("401", "Sin sesión de administrador")))
	if redisOpt == nil {
		return
	}
	mon := asynqmon.New(asynqmon.Options{RootPath: monitoringPath, RedisConnOpt: redisOpt})
	s.handle(monitoringPath+"/", s.adminOnly(mon), nil)
	s.handle(monitoringPath, http.RedirectHandler(monitoringPath+"/", http.StatusMovedPermanently), nil)
}

// adminOnly lets only a live session of an administrador through (soporte and finanzas get 403): a browser asking for a page is sent to
// /admin-login, anything else (the dashboard's XHR calls, scrapers, curl) gets the JSON 401/403.
func (s *Server) adminOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := s.requireRole(r, rolesManage...) // the dashboard can delete and retry jobs
		if err == nil {
			w.Header().Set("Cache-Control", "no-store")
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") &&
			toAPIError(err).Status == http.StatusUnauthorized {
			http.Redirect(w, r, "/admin-login", http.StatusSeeOther)
			return
		}
		writeError(w, r, err)
	})
}

// metrics are the Prometheus instruments of one API server (its own registry, so tests can build many).
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(redisOpt asynq.RedisConnOpt) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "perfilseguro_http_requests_total", Help: "HTTP requests by method, route pattern and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "perfilseguro_http_request_duration_seconds", Help: "HTTP request latency by method and route pattern.",
			// Fine steps up to 50 ms, the API's latency target, so its p99 can be read off the histogram.
			Buckets: []float64{.001, .0025, .005, .01, .02, .03, .04, .05, .075, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	m.registry.MustRegister(m.requests, m.duration,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if redisOpt != nil {
		m.registry.MustRegister(&queueCollector{redisOpt: redisOpt})
	}
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Timeout: 10 * time.Second})
}

// withMetrics counts and times every request, labelled by the ServeMux pattern that served it (a
// bounded set), which the mux records on the same *http.Request this middleware passed down.
func (s *Server) withMetrics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := serveRecorded(next, w, r)
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		tracing.Route(r.Context(), r.Pattern, rec.status) // the span is named by the route, not the path
		s.metrics.requests.WithLabelValues(r.Method, route, strconv.Itoa(rec.status)).Inc()
		s.metrics.duration.WithLabelValues(r.Method, route).Observe(time.Since(start).Seconds())
	})
}

// ServeMetrics serves /metrics and /debug/pprof/ without a session on a separate listener
// (METRICS_ADDR), meant for a private network only, until ctx is cancelled.
func (s *Server) ServeMetrics(ctx context.Context, addr string) error {
	mux := http.NewServeMux()
	mux.Handle("GET "+metricsPath, s.metrics.handler())
	// Profiles for operators on the same private listener (never on the public one).
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	s.logger.Info("metrics listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// queueCollector reads asynq queue sizes from Redis on every scrape.
type queueCollector struct{ redisOpt asynq.RedisConnOpt }

var (
	queueSizeDesc = prometheus.NewDesc("asynq_queue_size", "Tasks in the queue (all states).", []string{"queue"}, nil)
	queueTaskDesc = prometheus.NewDesc("asynq_tasks", "Tasks in the queue by state.", []string{"queue", "state"}, nil)
	queueLatency  = prometheus.NewDesc("asynq_queue_latency_seconds", "Age of the oldest pending task.", []string{"queue"}, nil)
	queuePaused   = prometheus.NewDesc("asynq_queue_paused", "1 when the queue is paused.", []string{"queue"}, nil)
	queueUp       = prometheus.NewDesc("asynq_up", "1 when the queue statistics could be read from Redis.", nil, nil)
)

// Describe sends the collector's metric descriptions.
func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{queueSizeDesc, queueTaskDesc, queueLatency, queuePaused, queueUp} {
		ch <- d
	}
}

// Collect reads every queue's statistics through a short-lived inspector.
func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	insp := asynq.NewInspector(c.redisOpt)
	defer insp.Close()
	queues, err := insp.Queues()
	if err != nil {
		ch <- prometheus.MustNewConstMetric(queueUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(queueUp, prometheus.GaugeValue, 1)
	for _, q := range queues {
		info, err := insp.GetQueueInfo(q)
		if err != nil {
			continue
		}
		ch <- prometheus.MustNewConstMetric(queueSizeDesc, prometheus.GaugeValue, float64(info.Size), q)
		for state, n := range map[string]int{"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled,
			"retry": info.Retry, "archived": info.Archived, "completed": info.Completed, "aggregating": info.Aggregating} {
			ch <- prometheus.MustNewConstMetric(queueTaskDesc, prometheus.GaugeValue, float64(n), q, state)
		}
		ch <- prometheus.MustNewConstMetric(queueLatency, prometheus.GaugeValue, info.Latency.Seconds(), q)
		paused := 0.0
		if info.Paused {
			paused = 1
		}
		ch <- prometheus.MustNewConstMetric(queuePaused, prometheus.GaugeValue, paused, q)
	}
}

// startMetricsListener serves /metrics on METRICS_ADDR in the background when it is set.
func (s *Server) startMetricsListener(ctx context.Context) {
	if s.cfg.MetricsAddr == "" {
		return
	}
	go func() {
		if err := s.ServeMetrics(ctx, s.cfg.MetricsAddr); err != nil {
			s.logger.Error("metrics listener failed", "addr", s.cfg.MetricsAddr, "error", err)
		}
	}()
}
