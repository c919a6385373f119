package api

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// The metrics the alerts of deploy/prometheus/alerts.yml need beyond the requests' (issue 39).
// The worker and the scheduler serve no /metrics: what they do is read here, on every scrape,
// from what they leave in Postgres and Redis, so the API is the only scrape target. A scrape runs
// one Postgres query (postgres.OperationalState), one HGETALL, a ping of each, and lists the
// tasks waiting for a retry.

var (
	readyDesc = prometheus.NewDesc("perfilseguro_ready",
		"1 when this API reaches the dependency (postgres, redis) at the scrape, as /readyz checks it.", []string{"check"}, nil)
	schedulerTickDesc = prometheus.NewDesc("perfilseguro_scheduler_last_tick_timestamp_seconds",
		"Unix time of the last tick a scheduler enqueued, by entry of its table (Redis: jobs.SchedulerTicksKey).", []string{"entry"}, nil)
	heartbeatDesc = prometheus.NewDesc("perfilseguro_heartbeat_last_run_timestamp_seconds",
		"Unix time of the last scheduler heartbeat a worker recorded in Postgres (0: never): scheduler, Redis, worker and Postgres all work.", nil, nil)
	webhookDesc = prometheus.NewDesc("perfilseguro_webhook_last_received_timestamp_seconds",
		"Unix time of the last webhook received from a provider (biometric, payments; 0: never).", []string{"webhook"}, nil)
	arcoDesc = prometheus.NewDesc("perfilseguro_arco_requests_open",
		"Open ARCO requests by their legal deadline: overdue, due within 3 days (due_soon), later.", []string{"due"}, nil)
	signupsDesc = prometheus.NewDesc("perfilseguro_signups_last_hour",
		"People registered in the last hour (test people not counted).", nil, nil)
	validationsDesc = prometheus.NewDesc("perfilseguro_validations_last_hour",
		"Biometric validations granted in the last hour (test people not counted).", nil, nil)
	paymentsDesc = prometheus.NewDesc("perfilseguro_payments_last_hour",
		"Live payments in the last hour by stage: started (checkout asked for), paid.", []string{"stage"}, nil)
	retryingDesc = prometheus.NewDesc("perfilseguro_jobs_retrying",
		"Jobs waiting for a retry after a failure, by queue and task type (a provider failing shows here first).", []string{"queue", "type"}, nil)
	certificateDesc = prometheus.NewDesc("perfilseguro_certificate_expiry_timestamp_seconds",
		"Unix time at which a configured certificate (its chain's first to expire) stops being valid.", []string{"certificate"}, nil)
)

// retryListLimit bounds the tasks read per queue for perfilseguro_jobs_retrying: past it the
// count stops growing, which is alarm enough.
const retryListLimit = 1000

// stateCollector reads the state metrics on every scrape.
type stateCollector struct {
	s    *Server
	insp *asynq.Inspector // nil: no job queues
}

// registerStateMetrics adds the state and certificate metrics to the API's registry.
func (s *Server) registerStateMetrics(redisOpt asynq.RedisConnOpt) {
	c := &stateCollector{s: s}
	if redisOpt != nil {
		c.insp = asynq.NewInspector(redisOpt)
		s.closers = append(s.closers, func() { c.insp.Close() })
	}
	s.metrics.registry.MustRegister(c, certificateCollector(certificateExpiries(s.cfg)))
}

// Describe sends the collector's metric descriptions.
func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{readyDesc, schedulerTickDesc, heartbeatDesc, webhookDesc, arcoDesc,
		signupsDesc, validationsDesc, paymentsDesc, retryingDesc} {
		ch <- d
	}
}

// Collect reads what it can: a dependency that does not answer leaves its metrics out (its
// perfilseguro_ready says 0), and what is absent is what the alerts look for.
func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	pgOK, redisOK := c.s.readiness(ctx)
	gauge(readyDesc, boolValue(pgOK), "postgres")
	gauge(readyDesc, boolValue(redisOK), "redis")
	if pgOK {
		if st, err := c.s.store.OperationalState(ctx); err != nil {
			c.s.logger.Warn("metrics: operational state not read", "error", err)
		} else {
			gauge(signupsDesc, float64(st.SignupsLastHour))
			gauge(validationsDesc, float64(st.ValidationsLastHour))
			gauge(paymentsDesc, float64(st.CheckoutsLastHour), "started")
			gauge(paymentsDesc, float64(st.PaidLastHour), "paid")
			gauge(heartbeatDesc, unixOrZero(st.LastHeartbeat))
			gauge(webhookDesc, unixOrZero(st.LastBiometricWebhook), "biometric")
			gauge(webhookDesc, unixOrZero(st.LastPaymentWebhook), "payments")
			gauge(arcoDesc, float64(st.ARCOOverdue), "overdue")
			gauge(arcoDesc, float64(st.ARCODueSoon), "due_soon")
			gauge(arcoDesc, float64(st.ARCOLater), "later")
		}
	}
	if redisOK {
		ticks, err := c.s.redis.HGetAll(ctx, jobs.SchedulerTicksKey).Result()
		if err != nil {
			c.s.logger.Warn("metrics: scheduler ticks not read", "error", err)
		}
		for entry, at := range ticks {
			if sec, err := strconv.ParseInt(at, 10, 64); err == nil {
				gauge(schedulerTickDesc, float64(sec), entry)
			}
		}
	}
	if c.insp != nil && redisOK {
		c.collectRetrying(gauge)
	}
}

// collectRetrying counts the tasks in each queue's retry set by type.
func (c *stateCollector) collectRetrying(gauge func(*prometheus.Desc, float64, ...string)) {
	queues, err := c.insp.Queues()
	if err != nil {
		return
	}
	for _, q := range queues {
		tasks, err := c.insp.ListRetryTasks(q, asynq.PageSize(retryListLimit))
		if err != nil {
			continue
		}
		byType := map[string]int{}
		for _, t := range tasks {
			byType[t.Type]++
		}
		for typ, n := range byType {
			gauge(retryingDesc, float64(n), q, typ)
		}
	}
}

// certificateExpiries reads when each configured certificate expires: the Apple pass signing
// certificate, Apple's WWDR intermediate and the verifier's chain (OpenID4VP). Unset ones (the
// development certificates) are not reported.
func certificateExpiries(cfg config.Config) map[string]time.Time {
	out := map[string]time.Time{}
	for name, p := range map[string]string{"apple_pass": cfg.Apple.CertPEM, "apple_wwdr": cfg.Apple.WWDRPEM,
		"verifier": cfg.Verifier.CertPEM} {
		if at, ok := firstExpiry([]byte(p)); ok {
			out[name] = at
		}
	}
	return out
}

// firstExpiry is the earliest NotAfter among the certificates of a PEM bundle.
func firstExpiry(bundle []byte) (time.Time, bool) {
	var first time.Time
	for {
		var block *pem.Block
		block, bundle = pem.Decode(bundle)
		if block == nil {
			return first, !first.IsZero()
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if cert, err := x509.ParseCertificate(block.Bytes); err == nil && (first.IsZero() || cert.NotAfter.Before(first)) {
			first = cert.NotAfter
		}
	}
}

// certificateCollector serves the expiry times read at start, by certificate name.
type certificateCollector map[string]time.Time

// Describe sends the collector's metric description.
func (c certificateCollector) Describe(ch chan<- *prometheus.Desc) { ch <- certificateDesc }

// Collect sends one expiry time per configured certificate.
func (c certificateCollector) Collect(ch chan<- prometheus.Metric) {
	for name, at := range c {
		ch <- prometheus.MustNewConstMetric(certificateDesc, prometheus.GaugeValue, float64(at.Unix()), name)
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixOrZero(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.Unix())
}
