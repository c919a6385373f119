package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/amlscreen"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Screening the people of operations (issue 53 item 3): amlscreen decides, postgres records,
// these handlers run it and tell the business.

const (
	amlRescreenBatch = 200              // people per re-screening batch (one transaction and progress write each)
	amlSweepBatch    = 200              // operations queued per sweep
	amlSweepGrace    = 2 * time.Minute  // the recording's own job goes first
	amlIndexWait     = 30 * time.Second // the longest a screening waits for the index to load
	// amlRescreenLookback: a list version whose re-screen was never queued (lost with Redis) is
	// queued by the sweep if imported within this long.
	amlRescreenLookback = 7 * 24 * time.Hour
)

func (w *Worker) routesAML() {
	w.mux.HandleFunc(jobs.TypeAMLScreenOperation, decoded("aml screen operation",
		func(p jobs.AMLScreenOperationPayload) bool { return p.OperationID != "" }, w.handleAMLScreenOperation))
	w.mux.HandleFunc(jobs.TypeAMLRescreen, decoded("aml rescreen",
		func(p jobs.AMLRescreenPayload) bool { return strings.TrimSpace(p.Reason) != "" }, w.handleAMLRescreen))
	w.mux.HandleFunc(jobs.TypeAMLSweep, w.handleAMLSweep)
	w.mux.HandleFunc(jobs.TypeAMLNotifyHits, decoded("aml notify hits",
		func(p jobs.AMLNotifyHitsPayload) bool { return p.PartnerID > 0 }, w.handleAMLNotifyHits))
}

func (w *Worker) amlStore() *postgres.Store {
	return &postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
}

// handleAMLScreenOperation screens the people of one operation and their beneficiaries. An
// operation not visible yet is retried (its recording may not have committed); one never
// recorded ends the job on its last attempt.
func (w *Worker) handleAMLScreenOperation(ctx context.Context, p jobs.AMLScreenOperationPayload) error {
	store := w.amlStore()
	people, err := store.AMLOperationToScreen(ctx, p.OperationID)
	if errors.Is(err, postgres.ErrOperationNotFound) && lastAttempt(ctx) {
		return nil
	}
	if err != nil {
		return err
	}
	added, err := w.screenAMLPeople(ctx, store, people)
	if err != nil {
		return err
	}
	if added > 0 {
		return w.queueAMLNotices(ctx, store)
	}
	return nil
}

// screenAMLPeople screens people and records them in one transaction; it returns the hits added.
func (w *Worker) screenAMLPeople(ctx context.Context, store *postgres.Store, people []amlscreen.Person) (int, error) {
	if len(people) == 0 {
		return 0, nil
	}
	loadCtx, cancel := context.WithTimeout(ctx, amlIndexWait)
	ix, err := w.amlIndex.Get(loadCtx, store)
	cancel()
	if err != nil {
		return 0, err
	}
	batch := make([]postgres.AMLPersonScreenings, len(people))
	for i, p := range people {
		batch[i] = postgres.AMLPersonScreenings{PersonRowID: p.RowID, Records: amlscreen.Screen(ix, p)}
	}
	return store.RecordAMLScreeningsBatch(ctx, batch)
}

// handleAMLRescreen re-screens every person whose file is still kept, in batches, resuming after
// the last batch done when the run is retried; only list versions a subject was not screened
// against are consulted, so people already screened against the new version cost one read.
func (w *Worker) handleAMLRescreen(ctx context.Context, p jobs.AMLRescreenPayload) error {
	store := w.amlStore()
	run, err := store.StartAMLRescreen(ctx, p.Reason)
	if err != nil {
		return err
	}
	if run.FinishedAt != nil {
		return nil
	}
	day := amlscreen.Today(w.now())
	after, total, totalHits, start := run.After, 0, 0, time.Now()
	for {
		people, err := store.AMLPeopleToRescreen(ctx, day, after, amlRescreenBatch)
		if err != nil {
			return err
		}
		added, err := w.screenAMLPeople(ctx, store, people)
		if err != nil {
			return err
		}
		done := len(people) < amlRescreenBatch
		if len(people) > 0 {
			after = people[len(people)-1].RowID
		}
		if err := store.AdvanceAMLRescreen(ctx, p.Reason, after, len(people), added, done); err != nil {
			return err
		}
		total, totalHits = total+len(people), totalHits+added
		if done {
			break
		}
	}
	w.deps.Logger.InfoContext(ctx, "aml rescreen done", "reason", p.Reason, "people", total, "new_hits", totalHits,
		"duration", time.Since(start))
	return w.queueAMLNotices(ctx, store)
}

// queueAMLNotices queues a notice for every business with possible hits it was not told about.
func (w *Worker) queueAMLNotices(ctx context.Context, store *postgres.Store) error {
	targets, err := store.AMLUnnotifiedTargets(ctx)
	if err != nil {
		return err
	}
	return errors.Join(enqueueEach(ctx, w.deps.Enqueuer, targets, func(t postgres.AMLNotifyTarget) (*asynq.Task, error) {
		return jobs.NewAMLNotifyHitsTask(t.PartnerID, t.TestMode)
	})...)
}

// handleAMLSweep queues the screening of operations recorded while Redis was down, the
// re-screens and the notices a failed enqueue left behind.
func (w *Worker) handleAMLSweep(ctx context.Context, _ *asynq.Task) error {
	store := w.amlStore()
	ids, err := store.UnscreenedAMLOperations(ctx, w.now().Add(-amlSweepGrace), amlSweepBatch)
	if err != nil {
		return err
	}
	errs := enqueueEach(ctx, w.deps.Enqueuer, ids, jobs.NewAMLScreenOperationTask)
	versions, err := store.ScreeningVersionsNotRescreened(ctx, w.now().Add(-amlRescreenLookback))
	if err != nil {
		return err
	}
	errs = append(errs, enqueueEach(ctx, w.deps.Enqueuer, versions, func(v int64) (*asynq.Task, error) {
		return jobs.NewAMLRescreenTask(jobs.AMLRescreenReason(v))
	})...)
	if len(ids)+len(versions) > 0 {
		w.deps.Logger.InfoContext(ctx, "aml sweep", "operations_queued", len(ids), "rescreens_queued", len(versions))
	}
	return errors.Join(append(errs, w.queueAMLNotices(ctx, store))...)
}

// AMLHitsNoticeSubject is the subject of the e-mail that tells a business of new possible hits.
const AMLHitsNoticeSubject = "Coincidencias nuevas en listas por revisar"

// handleAMLNotifyHits tells a business's cumplimiento and propietario users how many new
// possible hits they have to review, then marks those hits notified, so they are told once.
// The e-mail names no person and no list entry: only the count and the console's address. A
// test-mode notice goes to the partner's test inbox.
func (w *Worker) handleAMLNotifyHits(ctx context.Context, p jobs.AMLNotifyHitsPayload) error {
	store := w.amlStore()
	n, err := store.AMLHitsNotice(ctx, p.PartnerID, p.TestMode)
	if err != nil {
		return err
	}
	if len(n.HitIDs) == 0 {
		return nil
	}
	send := w.sendersFor(perfilseguro.Live)
	if p.TestMode {
		send = w.sendersFor(p.PartnerID)
	}
	link := strings.TrimRight(w.deps.PublicBaseURL, "/") + "/socios"
	var errs []error
	for _, to := range n.Recipients {
		if err := send.email.SendEmail(ctx, amlHitsEmail(to, n.PartnerName, len(n.HitIDs), p.TestMode, link)); err != nil {
			errs = append(errs, fmt.Errorf("aml hits notice to partner %d: %w", p.PartnerID, err))
		}
	}
	if len(n.Recipients) == 0 {
		w.deps.Logger.WarnContext(ctx, "aml hits notice without recipients", "partner_id", p.PartnerID)
	}
	if err := errors.Join(errs...); err != nil && len(errs) == len(n.Recipients) {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		return err // nobody was told: try again
	}
	return store.MarkAMLHitsNotified(ctx, n.HitIDs, w.now())
}

// amlHitsEmail is the notice: how many possible hits, and where to review them.
func amlHitsEmail(to, partner string, count int, testMode bool, link string) perfilseguro.Email {
	what := fmt.Sprintf("%d coincidencias nuevas por revisar", count)
	if count == 1 {
		what = "1 coincidencia nueva por revisar"
	}
	mode := ""
	if testMode {
		mode = " (modo de prueba)"
	}
	n := notice{
		Subject: AMLHitsNoticeSubject + mode,
		Paragraphs: []string{
			fmt.Sprintf("%s tiene %s en las listas de personas bloqueadas%s.", partner, what, mode),
			"La revisión de las listas de tus expedientes encontró posibles coincidencias. Revísalas en la consola " +
				"de Perfil Seguro (Operaciones) y márcalas como descartadas o confirmadas con su motivo.",
		},
		Link: link, LinkText: "Revisar coincidencias",
	}
	return n.email(to, "equipo de cumplimiento")
}
