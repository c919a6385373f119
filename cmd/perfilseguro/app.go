package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/email"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
	"github.com/perfilseguro/perfilseguro/provider/sms"
	"github.com/perfilseguro/perfilseguro/provider/whatsapp"
	"github.com/perfilseguro/perfilseguro/redisconn"
	"github.com/perfilseguro/perfilseguro/scheduler"
	"github.com/perfilseguro/perfilseguro/screening"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/tracing"
	"github.com/perfilseguro/perfilseguro/web"
	"github.com/perfilseguro/perfilseguro/worker"
)

// app holds the connections every process shares; only this package wires things together.
type app struct {
	cfg      config.Config
	logger   *slog.Logger
	db       *sqlx.DB
	replica  *sqlx.DB // DATABASE_REPLICA_URL; nil: none
	redisOpt asynq.RedisConnOpt
	// serverOpt is redisOpt without the breaker, for the worker's asynq.Server (redisconn.Conn)
	serverOpt asynq.RedisConnOpt
	redis     redis.UniversalClient
	queue     jobs.Enqueuer // fenced: a task is reported enqueued once a replica holds it
}

// withApp opens the connections and runs fn. A long-running process names itself (process:
// api, worker, scheduler, dev) and exports traces when OTEL_EXPORTER_OTLP_ENDPOINT is set; a
// one-off command ("") does not.
func withApp(ctx context.Context, process string, fn func(*app) error) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	logger := newLogger(cfg)
	slog.SetDefault(logger)
	cfg.Log(logger)
	if process != "" {
		// First: the pools opened below are instrumented only if tracing is on when they are made.
		stopTracing, err := tracing.Setup(ctx, process)
		if err != nil {
			return err
		}
		defer stopTracing(context.WithoutCancel(ctx))
		if tracing.Enabled() {
			logger.Info("exporting traces", "service", tracing.ServicePrefix+process)
		}
	}

	db, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var replica *sqlx.DB
	if cfg.DatabaseReplicaURL != "" {
		if replica, err = postgres.OpenReplica(cfg.DatabaseReplicaURL); err != nil {
			return err
		}
		defer replica.Close()
	}
	conn, err := redisconn.Open(cfg.Redis)
	if err != nil {
		return err
	}
	defer conn.Close()
	client := asynq.NewClient(conn.Asynq)
	defer client.Close()
	queue := tracing.Enqueuer(jobs.FencedEnqueuer{Enqueuer: client, Fence: conn.NewFence(redisFenceTimeout)})
	return fn(&app{cfg: cfg, logger: logger, db: db, replica: replica, redisOpt: conn.Asynq, serverOpt: conn.AsynqServer,
		redis: conn.Client, queue: queue})
}

// redisFenceTimeout bounds how long an enqueue waits for a replica (redisconn.Fence): on loopback
// or a LAN a replica answers in well under a millisecond; one that does not answer in this time
// is treated as gone.
const redisFenceTimeout = 250 * time.Millisecond

// logOut is standard output for the process's log, buffered (logwriter.go); main flushes it last.
var logOut = newLogWriter(os.Stdout)

func newLogger(cfg config.Config) *slog.Logger {
	if cfg.Production() {
		return slog.New(slog.NewJSONHandler(logOut, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// migrate runs on a pool of its own, without the query pool's bound on a reply (postgres/dial.go).
func (a *app) migrate(ctx context.Context) error {
	db, err := postgres.OpenForMigrations(ctx, a.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return postgres.Migrate(ctx, db)
}

func (a *app) runAPI(ctx context.Context) error {
	deps := api.Deps{Config: a.cfg, DB: a.db, ReplicaDB: a.replica, Redis: a.redis, AsynqRedis: a.redisOpt,
		Queue: a.queue, Web: web.DistFS(), Logger: a.logger, Limits: apiLimits(a.cfg.RateLimits),
		Public: api.PublicLimits(a.cfg.PublicLimits)}
	if err := a.wireAPI(&deps); err != nil {
		return err
	}
	srv, err := api.New(deps)
	if err != nil {
		return err
	}
	// The cache of public records serves only while this feed proves it current; while the feed
	// cannot listen (it keeps trying, and logs why), lookups read Postgres as before.
	feed := postgres.ProfileChangeFeed{DSN: a.cfg.DatabaseListenURL, DB: a.db, Sink: srv.PublicRecordCache(), Logger: a.logger}
	go feed.Run(ctx)
	return srv.Run(ctx, a.cfg.HTTPAddr, a.cfg.ShutdownGrace)
}

// apiLimits is api.DefaultLimits with the limits set in the environment (RATE_LIMIT_*).
func apiLimits(rl config.RateLimits) *api.Limits {
	l := api.DefaultLimits
	for _, o := range []struct {
		dst *int
		v   int
	}{
		{&l.SendPerIP, rl.SendPerIP}, {&l.SendPerPhone, rl.SendPerPhone}, {&l.SendPerEmail, rl.SendPerEmail},
		{&l.VerifyPerIP, rl.VerifyPerIP}, {&l.VerifyPerUser, rl.VerifyPerUser}, {&l.AdminLoginPerIP, rl.AdminLoginPerIP},
		{&l.PrivacyReadsPerUser, rl.PrivacyReadsPerUser},
	} {
		if o.v > 0 {
			*o.dst = o.v
		}
	}
	return &l
}

func (a *app) runWorker(ctx context.Context) error {
	deps, err := a.workerDeps()
	if err != nil {
		return err
	}
	return worker.New(a.serverOpt, a.cfg.WorkerConc, a.cfg.ShutdownGrace, deps).Run(ctx)
}

func (a *app) runScheduler(ctx context.Context) error {
	s, err := scheduler.New(a.queue, scheduler.Table(a.cfg.HeartbeatInterval, unListSource(a.cfg)), a.logger)
	if err != nil {
		return err
	}
	s.RecordTicks(a.redis) // read back by the API's /metrics
	return s.Run(ctx)
}

// runDev migrates and runs the three processes together; one failing stops the others.
func (a *app) runDev(ctx context.Context) error {
	if err := a.migrate(ctx); err != nil {
		return err
	}
	if err := a.seedDevAdmin(ctx); err != nil {
		return err
	}
	// The worker gets its own connection pool, as its own process has in production: API requests
	// waiting for a connection must not starve the jobs that deliver their codes.
	workerDB, err := postgres.Open(ctx, a.cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer workerDB.Close()
	w := *a
	w.db = workerDB
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.runAPI(ctx) })
	g.Go(func() error { return w.runWorker(ctx) })
	g.Go(func() error { return a.runScheduler(ctx) })
	return g.Wait()
}

func (a *app) workerDeps() (worker.Deps, error) {
	d := worker.Deps{DB: a.db, Enqueuer: a.queue, Logger: a.logger, LogSecrets: !a.cfg.Production(),
		Sealer: secure.NewSealer(a.cfg.SecretKey)}
	inbox := devsim.Inbox{DB: a.db}
	c := a.cfg
	if c.Production() {
		// Partners choose their webhook URLs: in production the worker connects only to public
		// addresses, whatever a name resolves to (development delivers to the demo on 127.0.0.1).
		d.HTTPClient = outbound.PublicOnlyClient(15 * time.Second)
	}
	// Each provider is real when configured, otherwise the development inbox (refused in production by config).
	d.WhatsApp, d.SMS, d.Email = inbox, inbox, inbox
	// A partner's test people are served by the inbox even in production (issue 36).
	d.TestInbox = func(partnerID int64) worker.TestInbox { return devsim.Inbox{DB: a.db, TestPartner: partnerID} }
	if c.WhatsApp.AccessToken != "" {
		d.WhatsApp = whatsapp.New(whatsapp.Config{BaseURL: c.WhatsApp.BaseURL, APIVersion: c.WhatsApp.APIVersion,
			PhoneNumberID: c.WhatsApp.PhoneNumberID, AccessToken: c.WhatsApp.AccessToken, OTPTemplate: c.WhatsApp.OTPTemplate,
			InvitationTemplate: c.WhatsApp.InvitationTemplate, ReminderTemplate: c.WhatsApp.ReminderTemplate,
			PaymentTemplate: c.WhatsApp.PaymentTemplate, VoucherTemplate: c.WhatsApp.VoucherTemplate,
			Language: c.WhatsApp.Language})
	}
	if c.SMS.AccountSID != "" {
		d.SMS = sms.New(sms.Config{BaseURL: c.SMS.BaseURL, AccountSID: c.SMS.AccountSID, AuthToken: c.SMS.AuthToken, From: c.SMS.From})
	}
	if c.SMTP.Host != "" {
		d.Email = email.New(email.Config{Host: c.SMTP.Host, Port: c.SMTP.Port, Username: c.SMTP.Username,
			Password: c.SMTP.Password, From: c.SMTP.From, TLS: c.SMTP.TLS})
	}
	d.PublicBaseURL = c.PublicBaseURL
	d.Redis = a.redis
	return d, a.wireWorker(&d)
}

// unListSource is where the scheduler imports the UN consolidated list from: UN_LIST_SOURCE,
// else the fixture outside production and nothing in production.
func unListSource(cfg config.Config) string {
	if cfg.UNListSource != "" {
		return cfg.UNListSource
	}
	return screening.DefaultUNSource(cfg.Production())
}
