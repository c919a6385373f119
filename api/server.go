package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/perfilseguro/perfilseguro/admission"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/passkey"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Deps is what the API needs from the outside world.
type Deps struct {
	Config     config.Config
	DB         *sqlx.DB
	Redis      redis.UniversalClient // readiness, rate limits
	AsynqRedis asynq.RedisConnOpt    // for the operators' dashboard
	Queue      jobs.Enqueuer         // background work
	Web        fs.FS                 // built single-page app (web.DistFS())
	Logger     *slog.Logger
	Now        func() time.Time // injectable clock for tests
	Limits     *Limits          // nil: DefaultLimits
	Public     PublicLimits     // limits of public lookups; zero fields: DefaultPublicLimits
	Levels     LevelsDeps       // e-mail link and biometric verification (levels.go)
	Passes     PassesDeps       // QR, public verification and wallet passes (passes.go)
	Admin      AdminDeps        // administration (admin.go)
	Payments   PaymentsDeps     // plans and payment (payments.go)
	// OTPQueueLatency reads how long the oldest waiting code job has waited (backpressure.go);
	// nil: the critical queue's latency through AsynqRedis.
	OTPQueueLatency func(context.Context) (time.Duration, error)
	// Credentials issues verifiable credentials (credentials.go); nil: no credential routes.
	Credentials *credential.Issuer
	// Verifier names this service to wallets in presentation requests (oid4vp.go):
	// VERIFIER_CERT_PEM/VERIFIER_KEY_PEM; nil: the development certificate made on first use,
	// or 503 from the presentation routes in production.
	Verifier *credential.Verifier
	// Admission is the adaptive concurrency limit (admission.go); nil: a default one when
	// Config.AdmissionControl is on, none when it is off.
	Admission *admission.Limiter
	// ReplicaDB (DATABASE_REPLICA_URL, postgres.OpenReplica) serves the reads listed in
	// postgres/replica.go; nil: every read on DB.
	ReplicaDB *sqlx.DB
	// Documents seals the personal part of the provider's webhooks before they are stored
	// (DOCUMENT_DATA_KEY); zero: that part is dropped, never stored in clear.
	Documents secure.DocumentKey
}

// Server is the HTTP API.
type Server struct {
	draining atomic.Bool  // SIGTERM received: /readyz says 503 while requests are still served
	plain    []plainRoute // routes outside fuego, with their OpenAPI description (routes_doc.go)
	cfg      config.Config
	db       *sqlx.DB
	redis    redis.UniversalClient
	queue    jobs.Enqueuer
	logger   *slog.Logger
	now      func() time.Time
	f        *fuego.Server
	handler  http.Handler
	spec     []byte
	store    *postgres.Store
	limits   Limits
	coder    secure.Coder
	sealer   secure.Sealer
	inbox    devsim.Inbox
	metrics  *metrics // Prometheus instruments (monitoring.go)
	// origins caches the partners of registered browser origins, bounded (origincache.go)
	origins *originCache
	// issuer signs verification sessions' proofs (partner_sessions.go); nil: no proof
	issuer *credential.Issuer
	// usage counts partner requests, written to Redis in batches (partner_usage.go)
	usage *usageCounter
	// keys caches partner key lookups and spaces their last-use writes (partner_keys.go)
	keys keyCache
	// public caches public records for GET /api/verify (publiccache.go)
	public *publicCache
	// pay decides whether a biometric check may start (payments.go)
	pay *payments
	// lookups limits public lookups per client address (publiclimits.go)
	lookups *publicLimiter
	// lookupLog records lookups of profiles in verification_logs, off the response path
	// (passes_logs.go; set by mountPasses, used by the public page and the partner API)
	lookupLog *lookupRecorder
	// passkeys runs WebAuthn ceremonies (passkeys.go); nil when PUBLIC_BASE_URL cannot be a
	// relying party (an IP address)
	passkeys *passkey.Service
	// otp refuses new codes while the queued ones wait too long (backpressure.go); nil: never
	otp *otpBackpressure
	// admission refuses requests at once past capacity (admission.go); nil: never
	admission *admissionGate
	// asynqRedis reaches the job queues for the dashboard and for purges (purge.go)
	asynqRedis asynq.RedisConnOpt
	// closers run on graceful shutdown, after the last request finished (Close).
	closers   []func()
	closeOnce sync.Once
}

// New wires every route and middleware.
func New(d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Limits == nil {
		d.Limits = &DefaultLimits
	}
	s := &Server{cfg: d.Config, db: d.DB, redis: d.Redis, queue: d.Queue, logger: d.Logger, now: d.Now,
		store: &postgres.Store{DB: d.DB, Replica: postgres.NewReplica(d.ReplicaDB), Documents: d.Documents}, limits: *d.Limits,
		coder: secure.NewCoder(d.Config.SecretKey), sealer: secure.NewSealer(d.Config.SecretKey),
		inbox: devsim.Inbox{DB: d.DB}, public: newPublicCache(),
		lookups: newPublicLimiter(d.Public, d.Redis), asynqRedis: d.AsynqRedis,
		origins: newOriginCache(originCacheSize, partnerCacheTTL),
		keys:    keyCache{byHash: ttlCache[*postgres.KeyedPartner]{ttl: keyCacheTTL, bound: 10_000}}}
	if read := d.OTPQueueLatency; read != nil || d.AsynqRedis != nil {
		if read == nil {
			insp := asynq.NewInspector(d.AsynqRedis)
			s.closers = append(s.closers, func() { insp.Close() })
			read = criticalQueueLatency(insp)
		}
		s.otp = newOTPBackpressure(d.Config.OTPQueueBound, d.Now, read)
	}
	if d.Admission == nil && d.Config.AdmissionControl {
		d.Admission = admission.New(admission.Config{Ceiling: d.Config.AdmissionCeiling})
	}
	if d.Admission != nil {
		s.admission = &admissionGate{limiter: d.Admission, logger: d.Logger}
		if d.DB != nil {
			if w, ok := postgres.WatchPrimary(d.DB.DB); ok {
				s.admission.primary = w
			}
		}
	}
	s.f = fuego.NewServer(
		// Our own middleware logs each request with its id (middleware.go). Not WithoutLogger:
		// that replaces the process-wide slog default with a discarding one.
		fuego.WithLoggingMiddleware(fuego.LoggingConfig{DisableRequest: true, DisableResponse: true}),
		fuego.WithoutStartupMessages(),
		fuego.WithErrorSerializer(writeError),
		fuego.WithEngineOptions(
			fuego.WithErrorHandler(func(_ context.Context, err error) error { return err }),
			fuego.WithOpenAPIGeneratorSchemaCustomizer(requiredFields),
			fuego.WithOpenAPIConfig(fuego.OpenAPIConfig{
				DisableLocalSave: true, DisableSwaggerUI: true, DisableMessages: true, DisableDefaultServer: true,
				Info: &openapi3.Info{Title: "Perfil Seguro API", Version: "1.0.0",
					Description: "API de validación de identidad de Perfil Seguro. Los errores tienen la forma {message, errors}."},
			}),
		),
	)
	s.issuer = d.Credentials
	s.usage = newUsageCounter(d.Redis, d.Logger)
	s.closers = append(s.closers, s.usage.close)
	s.routes(d)

	// The OpenAPI document is computed once, after every route is registered.
	doc := s.f.OutputOpenAPISpec()
	s.documentPlainRoutes(doc)
	finishOpenAPI(doc, s.cfg.PublicBaseURL, s.cfg.SupportEmail)
	spec, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	s.spec = spec
	s.handle("GET /api/openapi.json", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(s.spec)
	}), nil)

	var h http.Handler = s.f.Mux
	h = withoutFrameworkHeaders(h)
	h = s.withMetrics(h)    // it reads the pattern the mux sets on the request
	h = withRequestBound(h) // outside withMetrics: a request copied with a deadline hides that pattern
	h = s.sameOrigin(h)
	h = s.widgetAccess(h)
	h = withBodyLimit(h)
	h = withRecovery(h)
	h = withSecurityHeaders(s.cfg.Production(), contentSecurityPolicy(d.Web))(h)
	h = withLogging(s.logger)(h)
	h = withClientIP(s.cfg.TrustedProxies)(h)
	h = withRequestID(h)
	if s.admission != nil {
		h = s.admission.middleware(h) // first: a refused request does nothing else
	}
	s.handler = h
	return s, nil
}

func (s *Server) routes(d Deps) {
	s.handle("GET /healthz", http.HandlerFunc(s.handleHealthz), nil)
	s.handle("GET /readyz", http.HandlerFunc(s.handleReadyz), nil)
	s.handle("GET /robots.txt", http.HandlerFunc(handleRobots), nil)
	s.handle("GET /api/docs", http.HandlerFunc(handleDocs), nil)
	s.mountMonitoring(d.AsynqRedis)
	s.mountAuth()
	s.mountPasskeys()
	s.mountUsers()
	s.mountLegal()
	s.mountPrivacy()
	s.mountAccountChanges()
	s.mountDevInbox()
	s.mountLevels(d.Levels)
	s.mountIdentityOutcome()
	s.mountAMLDeclaration()
	s.mountPayments(d.Payments)
	s.mountPasses(d.Passes)
	s.mountPassKit()
	s.mountAdmin(d.Admin)
	s.mountInvitations()
	s.mountPartners()
	s.mountPartnerSessions()
	s.mountPartnerOperations()
	s.mountHosted()
	s.mountPartnerAccess()
	s.mountPartnerConsole()
	s.mountAMLExpediente()
	s.mountAMLAvisos()
	s.mountCredentials(d.Credentials)
	s.mountOID4VCI(d.Credentials)
	s.mountOID4VP(d.Credentials, d.Verifier)
	s.handle("/", spaHandlerWith(d.Web, s.cfg.OnboardingURL, s.embeddedPublicRecord), nil)
}

// enqueue queues task (built with err); a queue that cannot take it is errUnavailable: the
// caller answers 503, and a transaction it runs in rolls back.
func (s *Server) enqueue(ctx context.Context, task *asynq.Task, err error) error {
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		return fmt.Errorf("%v: %w", err, errUnavailable)
	}
	return nil
}

// OpenAPISpec is the served OpenAPI document (GET /api/openapi.json).
func (s *Server) OpenAPISpec() []byte { return s.spec }

// Handler is the complete HTTP handler (tests use it with httptest).
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops what the server runs beside its requests (the partner usage counter's flushes, the
// queue inspector) once no request is in flight; Serve calls it on shutdown, a caller of Handler
// when it is done. Calling it again does nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		for _, c := range s.closers {
			c()
		}
	})
}

// Run serves on addr until ctx is cancelled, then lets in-flight requests finish within grace.
func (s *Server) Run(ctx context.Context, addr string, grace time.Duration) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", addr, err)
	}
	s.startMetricsListener(ctx)
	return s.Serve(ctx, ln, grace)
}

// Serve is Run on an existing listener.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.logger.Info("api listening", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if s.cfg.ShutdownDrain > 0 {
		// Still serving, but not ready: the load balancer takes this replica out before the
		// listener closes (connections waiting in a closed listener's backlog are reset).
		s.draining.Store(true)
		s.logger.Info("api draining: /readyz answers 503", "for", s.cfg.ShutdownDrain.String())
		time.Sleep(s.cfg.ShutdownDrain)
	}
	s.logger.Info("api stopping: waiting for in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	s.Close()
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
