// Package worker runs the background jobs: an asynq server, its mux and the handlers that do the work.
package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/amlscreen"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/tracing"
)

// Deps is everything the handlers need; nil providers disable their jobs.
type Deps struct {
	DB       *sqlx.DB
	Enqueuer jobs.Enqueuer // follow-up jobs (e.g. pass build after level 3)
	Logger   *slog.Logger
	WhatsApp perfilseguro.WhatsAppSender
	SMS      perfilseguro.SMSSender
	Email    perfilseguro.EmailSender
	// TestInbox delivers the messages of a partner's test people (testmode.go): the development
	// inbox, even in production. Nil: their messages fail for good rather than reach a provider.
	TestInbox func(partnerID int64) TestInbox
	// Sealer opens the codes sealed in job payloads.
	Sealer secure.Sealer
	// Documents seals identity documents' data and the personal part of stored provider answers
	// (DOCUMENT_DATA_KEY); zero: that part is dropped and the redaction job refuses to run.
	Documents secure.DocumentKey
	// LogSecrets allows codes in logs (never in production).
	LogSecrets bool
	// PublicBaseURL builds absolute links in messages.
	PublicBaseURL string
	Redis         redis.UniversalClient // partner usage counters
	HTTPClient    *http.Client          // outbound partner webhooks (nil: a default with timeout)
	Levels        LevelsDeps            // levels.go
	Passes        PassesDeps            // passes.go
	Credentials   CredentialDeps        // credentials.go
	Payments      PaymentDeps           // payments.go
	Now           func() time.Time      // the clock of lifecycle jobs (nil: time.Now)
	Origins       OriginDeps            // origin_proof.go: partners proving their origins
}

// Worker is one worker process.
type Worker struct {
	servers []*asynq.Server
	mux     *asynq.ServeMux
	deps    Deps
	marks   *deliveredMarks // codes the provider accepted, written in batches (otp_marks.go)
	// amlIndex is the process's one screening index, rebuilt when a list changes (aml_screening.go).
	amlIndex amlscreen.IndexCache
}

// slotsPerFetcher: an asynq server takes one task at a time from Redis, a round trip and a
// hand-off to its heartbeat goroutine each. When the machine is busy, that serial loop, not the
// handlers, bounds how fast codes go out (measured in bench/load: under a sign-in burst one
// server started ~300 jobs/s with its slots idle). So the worker runs one asynq server per
// three slots of its concurrency, all on the same queues and handlers.
const slotsPerFetcher = 3

// fetcher is one asynq server of the worker: how many jobs it runs at once, and whether it
// always takes the highest-priority queue first.
type fetcher struct {
	Slots  int
	Strict bool
}

// fetcherPlan splits the concurrency among the fetchers. The first one picks queues at random by
// their weights, so that e-mails and housekeeping go on while codes keep coming. The others
// always look at the critical queue first: with weights, a third of their fetches first tried an
// empty queue (a wasted Redis round trip each, measured in bench/load as ~60 ms more on the
// provider p99 of a sign-in burst), and a person is waiting for every critical job.
func fetcherPlan(concurrency int) []fetcher {
	concurrency = max(concurrency, 1)
	n := (concurrency + slotsPerFetcher - 1) / slotsPerFetcher
	plan := make([]fetcher, n)
	for i := range plan {
		plan[i].Slots = concurrency / n
		if i < concurrency%n {
			plan[i].Slots++
		}
		plan[i].Strict = i > 0
	}
	return plan
}

// New builds a worker on Redis with the given concurrency; shutdown waits up to grace for running jobs.
func New(redis asynq.RedisConnOpt, concurrency int, grace time.Duration, deps Deps) *Worker {
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.HTTPClient == nil {
		deps.HTTPClient = outbound.Client(15 * time.Second)
	}
	deps.HTTPClient = outbound.Traced("partner-webhook", deps.HTTPClient)
	w := &Worker{deps: deps, mux: asynq.NewServeMux(), marks: newDeliveredMarks(&postgres.Store{DB: deps.DB}, deps.Logger)}
	for _, f := range fetcherPlan(concurrency) {
		w.servers = append(w.servers, asynq.NewServer(redis, asynq.Config{
			Concurrency:     f.Slots,
			Queues:          jobs.QueueWeights,
			StrictPriority:  f.Strict,
			ShutdownTimeout: grace,
			Logger:          asynqLogger{deps.Logger},
			LogLevel:        asynq.WarnLevel,
			RetryDelayFunc:  retryDelay,
			IsFailure:       countsAsFailure,
			// An idle worker looks for new tasks this often (asynq's default is 1 s): a person is
			// waiting for their code, so the enqueue-to-provider latency must stay well under a second.
			TaskCheckInterval: 50 * time.Millisecond,
		}))
	}
	w.mux.Use(tracing.Tasks, w.recoverPanics, w.logTasks) // tracing first: the log line names the trace
	w.routes()
	return w
}

func (w *Worker) routes() {
	w.mux.HandleFunc(jobs.TypeHeartbeat, w.handleHeartbeat)
	w.mux.HandleFunc(jobs.TypeSendOTP, decoded("otp", func(p jobs.SendOTPPayload) bool { return p.CodeID != 0 && p.Destination != "" }, w.handleSendOTP))
	w.routesLevels()
	w.routesPasses()
	w.routesInvitations()
	w.routesAdmin()
	w.routesAccountChanges()
	w.routesDocumentBound()
	w.routesPartners()
	w.routesOrigins()
	w.routesLifecycle()
	w.routesReminders()
	w.routesCredentials()
	w.routesPayments()
	w.routesPrivacy()
	w.routesDocuments()
	w.routesScreening()
	w.routesAML()
	w.routesAMLAvisos()
}

// Handler exposes the mux (tests call handlers through it, exactly as the server would).
func (w *Worker) Handler() asynq.Handler { return w.mux }

// Run processes jobs until ctx is cancelled, then lets in-flight jobs finish (graceful shutdown).
func (w *Worker) Run(ctx context.Context) error {
	for i, srv := range w.servers {
		if err := srv.Start(w.mux); err != nil {
			w.shutdown(w.servers[:i])
			return fmt.Errorf("start worker: %w", err)
		}
	}
	<-ctx.Done()
	w.deps.Logger.Info("worker stopping: waiting for in-flight jobs")
	w.shutdown(w.servers)
	w.marks.flush() // the last codes sent are marked before the process ends
	return nil
}

// shutdown stops the servers together, each waiting up to the grace period for its jobs.
func (w *Worker) shutdown(servers []*asynq.Server) {
	var wg sync.WaitGroup
	for _, srv := range servers {
		wg.Go(srv.Shutdown)
	}
	wg.Wait()
}

// retryDelay backs off exponentially from 2 s up to 5 minutes, so short provider outages are
// ridden out within an OTP's 10-minute lifetime. A job that failed because Postgres was
// unavailable runs again in 1–2 s (jittered, so a backlog does not hit the new primary at once):
// a failover is over in seconds, and a code or a webhook waiting behind it has a person waiting.
func retryDelay(n int, err error, _ *asynq.Task) time.Duration {
	if postgres.IsUnavailable(err) {
		return time.Second + rand.N(time.Second)
	}
	if errors.Is(err, errClaimHeld) {
		return postgres.ClaimWindow + time.Second // the claim has run out by then
	}
	d := 2 * time.Second << min(n, 8)
	return min(d, 5*time.Minute)
}

// countsAsFailure: a job that failed only because Postgres was unavailable (a failover) keeps its
// retries. The window is seconds long, and a job allowed 3 retries, retried every 1–2 s, would
// otherwise be archived within it. While Postgres stays down such jobs keep coming back every
// 1–2 s (each a cheap refused connection), until it answers again.
// A code whose claim is held is not a failure either: its job waits for the claim to run out
// (errClaimHeld), bounded by the code's expiry.
func countsAsFailure(err error) bool {
	return !postgres.IsUnavailable(err) && !errors.Is(err, errClaimHeld)
}

func (w *Worker) logTasks(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		start := time.Now()
		id, _ := asynq.GetTaskID(ctx)
		retry, _ := asynq.GetRetryCount(ctx)
		err := next.ProcessTask(ctx, t)
		attrs := []any{"type", t.Type(), "task_id", id, "retry", retry, "duration", time.Since(start)}
		if trace := tracing.TraceID(ctx); trace != "" {
			attrs = append(attrs, "trace_id", trace)
		}
		if err != nil {
			w.deps.Logger.Warn("job failed", append(attrs, "error", err)...)
		} else {
			w.deps.Logger.Info("job done", attrs...)
		}
		return err
	})
}

func (w *Worker) recoverPanics(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) (err error) {
		defer func() {
			if r := recover(); r != nil {
				w.deps.Logger.Error("job panicked", "type", t.Type(), "panic", r, "stack", string(debug.Stack()))
				err = fmt.Errorf("panic in %s: %v", t.Type(), r)
			}
		}()
		return next.ProcessTask(ctx, t)
	})
}

// gone sorts the error of reading the row a job is about: the row is gone (notFound), which ends
// the job with nothing left to do (stop, no error), or the read failed (stop with the error).
func gone(err, notFound error) (stop bool, _ error) {
	if errors.Is(err, notFound) {
		return true, nil
	}
	return err != nil, err
}

// unreadableSession is a job's error when the provider could not give a session's state (what
// names it): a session it does not know (ErrPermanent) never will be read, so the webhook that
// named it, when webhookID is set, is marked processed with why (markWebhook) and the job ends;
// any other failure is retried.
func unreadableSession(err error, what string, webhookID int64, markWebhook func(id int64, note string) error) error {
	if !errors.Is(err, perfilseguro.ErrPermanent) {
		return fmt.Errorf("%s: %w", what, err)
	}
	if webhookID != 0 {
		_ = markWebhook(webhookID, "el proveedor no reconoce la sesión: "+err.Error())
	}
	return fmt.Errorf("%s: %w: %w", what, err, asynq.SkipRetry)
}

// lastAttempt reports whether asynq will not retry the running task after this attempt.
func lastAttempt(ctx context.Context) bool {
	retried, ok1 := asynq.GetRetryCount(ctx)
	maxRetry, ok2 := asynq.GetMaxRetry(ctx)
	return ok1 && ok2 && retried >= maxRetry
}

// userOrGone reads a person for a job; ok is false, with no error, when the account is gone
// (nobody is left to tell or to build for), and false with the error when the read failed.
func userOrGone(ctx context.Context, store postgres.Store, id int64) (perfilseguro.User, bool, error) {
	u, err := store.UserByID(ctx, id)
	stop, err := gone(err, postgres.ErrUserNotFound)
	return u, !stop, err
}

// enqueueEach queues the task build makes of each id and goes on past a failed enqueue (the
// sweep's next tick queues it again); it returns every enqueue's error, for errors.Join.
func enqueueEach[ID any](ctx context.Context, q jobs.Enqueuer, ids []ID, build func(ID) (*asynq.Task, error)) []error {
	errs := make([]error, 0, len(ids))
	for _, id := range ids {
		task, err := build(id)
		errs = append(errs, jobs.Enqueue(ctx, q, task, err))
	}
	return errs
}

// asynqLogger routes asynq's own messages to slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }
