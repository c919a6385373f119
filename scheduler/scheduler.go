// Package scheduler holds the periodic table: what is enqueued when. No business logic lives here.
package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/tracing"
)

// Entry is one periodic task: every Interval, Build makes the task for that tick.
// The tick (scheduled time rounded to the interval) goes into the TaskID, so several
// scheduler replicas enqueue each tick once.
type Entry struct {
	Name     string
	Interval time.Duration
	Build    func(tick string) (*asynq.Task, error)
	// AtStart also fires the entry once when the scheduler starts: work whose first run should
	// not wait for the first aligned tick (the UN list: a fresh install screens against it at once).
	AtStart bool
}

// Table is the production schedule; heartbeat is how often the pipeline proves itself
// (SCHEDULER_HEARTBEAT_INTERVAL, a minute by default; the scale rig counts its ticks);
// unList is where the UN consolidated list is imported from ("": no import).
func Table(heartbeat time.Duration, unList string) []Entry {
	entries := []Entry{
		{Name: "heartbeat", Interval: heartbeat, Build: func(tick string) (*asynq.Task, error) {
			return jobs.NewHeartbeatTask(tick, "scheduler")
		}},
		// Nothing lost: unprocessed biometric webhooks are queued again, stuck sessions are checked.
		{Name: "biometric-reconcile", Interval: time.Minute, Build: jobs.NewReconcileBiometricTask},
		// Nothing lost: unprocessed payment events are queued again, unsettled payments are checked.
		{Name: "payment-reconcile", Interval: time.Minute, Build: jobs.NewReconcilePaymentsTask},
		{Name: "invitation-expire", Interval: time.Minute, Build: func(tick string) (*asynq.Task, error) {
			return jobs.NewExpireInvitationsTask(tick)
		}},
		// Validity ends by the calendar; the expiry is recorded once, within a minute of it.
		{Name: "profile-expire", Interval: time.Minute, Build: jobs.NewExpireProfilesTask},
		// Renewal reminders 30 and 7 days ahead; each run also re-queues any whose enqueue was lost.
		{Name: "profile-remind", Interval: 10 * time.Minute, Build: jobs.NewRecordRemindersTask},
		// Wallet work lost with Redis: deleted accounts' passes to void, passes to rebuild.
		// What the privacy notice keeps for a limited time is deleted; lost export jobs re-queued.
		{Name: "privacy-retention", Interval: 5 * time.Minute, Build: jobs.NewApplyRetentionTask},
		{Name: "wallet-sweep", Interval: 5 * time.Minute, Build: jobs.NewSweepWalletTask},
		// The credential status list is re-signed before its token expires, and after lost enqueues.
		{Name: "credential-status-list", Interval: 10 * time.Minute, Build: func(tick string) (*asynq.Task, error) {
			return jobs.NewBuildStatusListTask(1, tick)
		}},
		{Name: "partner-dispatch", Interval: 10 * time.Second, Build: jobs.NewPartnerDispatchTask},
		{Name: "partner-flush-usage", Interval: time.Minute, Build: jobs.NewPartnerFlushUsageTask},
		// Operations recorded while Redis was down are screened; lost re-screens and notices re-queued.
		{Name: "aml-screen-sweep", Interval: 5 * time.Minute, Build: jobs.NewAMLSweepTask},
		// The avisos every business owes (umbral, sin_operaciones) are written daily; idempotent.
		{Name: "aml-avisos", Interval: 24 * time.Hour, Build: jobs.NewSyncAMLAvisosTask},
	}
	if unList != "" {
		// The UN list changes a few times a month; an unchanged file adds no version.
		entries = append(entries, Entry{Name: "screening-un-list", Interval: 6 * time.Hour, AtStart: true,
			Build: func(string) (*asynq.Task, error) { return jobs.NewImportUNListTask(unList) }})
	}
	return entries
}

// Scheduler enqueues the entries of a table on time.
type Scheduler struct {
	cron    *cron.Cron
	q       jobs.Enqueuer
	entries []Entry
	logger  *slog.Logger
	ticks   redis.Cmdable // where enqueued ticks are noted (RecordTicks); nil: nowhere
}

// New builds a scheduler for entries that enqueues through q.
func New(q jobs.Enqueuer, entries []Entry, logger *slog.Logger) (*Scheduler, error) {
	if logger == nil {
		logger = slog.Default()
	}
	s := &Scheduler{cron: cron.New(cron.WithSeconds()), q: q, entries: entries, logger: logger}
	for _, e := range entries {
		e := e
		if _, err := s.cron.AddFunc(alignedSpec(e.Interval), func() { s.fire(e, time.Now()) }); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// RecordTicks makes the scheduler note the time of each enqueued tick in Redis, per entry
// (jobs.SchedulerTicksKey), for the API's /metrics: an alert there tells when ticks stop.
func (s *Scheduler) RecordTicks(rdb redis.Cmdable) { s.ticks = rdb }

// alignedSpec fires on wall-clock multiples of the interval (not "every N from start"),
// so replicas started at different moments fire together and compute the same tick.
func alignedSpec(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("*/%d * * * * *", max(int(d/time.Second), 1))
	case d < time.Hour:
		return fmt.Sprintf("0 */%d * * * *", int(d/time.Minute))
	default:
		return fmt.Sprintf("0 0 */%d * * *", max(int(d/time.Hour), 1))
	}
}

// Tick names the scheduled moment: now rounded to the interval, so replicas with slightly
// different clocks or start times agree on it.
func Tick(name string, now time.Time, interval time.Duration) string {
	return name + ":" + now.UTC().Round(interval).Format(time.RFC3339)
}

// fire enqueues one tick, trying again while Redis is unavailable (a Sentinel failover takes a
// few seconds) until the next tick is due: a tick is lost only when Redis is down longer than
// its interval. The TaskID makes a retry of an enqueue that did land a no-op.
func (s *Scheduler) fire(e Entry, now time.Time) {
	tick := Tick(e.Name, now, e.Interval)
	ctx, cancel := context.WithTimeout(context.Background(), max(e.Interval-time.Second, 5*time.Second))
	defer cancel()
	ctx, end := tracing.Tick(ctx, e.Name) // each tick is the root of a trace
	var err error
	defer func() { end(err) }()
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		var task *asynq.Task
		task, err = e.Build(tick)
		err = jobs.Enqueue(ctx, s.q, task, err)
		if err == nil {
			s.logger.Debug("scheduled", "entry", e.Name, "tick", tick)
			s.noteTick(ctx, e.Name)
			return
		}
		select {
		case <-ctx.Done():
			s.logger.Warn("scheduler enqueue failed", "entry", e.Name, "tick", tick, "error", err)
			return
		case <-time.After(wait):
		}
	}
}

// noteTick records that entry enqueued a tick now; a failure only costs the metric a tick.
func (s *Scheduler) noteTick(ctx context.Context, entry string) {
	if s.ticks == nil {
		return
	}
	if err := s.ticks.HSet(ctx, jobs.SchedulerTicksKey, entry, time.Now().Unix()).Err(); err != nil {
		s.logger.Warn("scheduler tick not recorded", "entry", entry, "error", err)
	}
}

// Run enqueues on schedule until ctx is cancelled, then waits for a running enqueue to finish.
func (s *Scheduler) Run(ctx context.Context) error {
	for _, e := range s.entries {
		if e.AtStart {
			s.fire(e, time.Now())
		}
	}
	s.cron.Start()
	<-ctx.Done()
	<-s.cron.Stop().Done()
	return nil
}
