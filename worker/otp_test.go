package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/sms"
	"github.com/perfilseguro/perfilseguro/provider/whatsapp"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// storedCode creates a user and a stored code, and returns the delivery task for it.
func storedCode(t *testing.T, db *sqlx.DB, code string) (*asynq.Task, int64) {
	t.Helper()
	store := postgres.Store{DB: db}
	var codeID int64
	phone := fmt.Sprintf("+5255%08d", time.Now().UnixNano()%100_000_000)
	require.NoError(t, store.InTx(context.Background(), func(tx *sqlx.Tx) error {
		uid, _, err := store.InsertUser(context.Background(), tx, postgres.NewUser{Nombre: "Ana", Phone: &phone})
		if err != nil {
			return err
		}
		codeID, _, err = store.InsertCode(context.Background(), tx, postgres.NewCode{UserID: uid, Channel: postgres.ChannelPhone,
			Destination: phone, Purpose: "login", Hash: secure.NewCoder(secret).Hash(phone, code), ExpiresAt: time.Now().Add(10 * time.Minute)})
		return err
	}))
	task, err := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: codeID, Channel: postgres.ChannelPhone, Via: jobs.ViaWhatsApp,
		Destination: phone, SealedCode: sealer.Seal(code), ExpiresAt: time.Now().Add(10 * time.Minute)})
	require.NoError(t, err)
	return task, codeID
}

func newWorker(t *testing.T, db *sqlx.DB, wa perfilseguro.WhatsAppSender, s perfilseguro.SMSSender) *worker.Worker {
	return newTestWorker(t, worker.Deps{DB: db, WhatsApp: wa, SMS: s, Email: &recorder{}, Sealer: sealer})
}

// otpSetup gives a test a database and a worker whose WhatsApp messages wa records.
func otpSetup(t *testing.T) (*sqlx.DB, *recorder, *worker.Worker) {
	t.Helper()
	db, _ := pgtest.New(t)
	wa := &recorder{}
	return db, wa, newWorker(t, db, wa, &recorder{})
}

func TestOTPGoesByWhatsAppOnceEvenWhenRetried(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	wa, sm := &recorder{}, &recorder{}
	w := newWorker(t, db, wa, sm)
	task, _ := storedCode(t, db, "482913")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	// A duplicate run before the delivered mark is written (marks go in batches within 20 ms)
	// finds the code claimed and asks to come back after the claim window; once the mark is
	// written, a run finds the code delivered and ends. Neither sends.
	if err := w.Handler().ProcessTask(context.Background(), task); err != nil {
		require.ErrorIs(t, err, worker.ErrClaimHeld, "a duplicate run")
	}
	require.Eventually(t, func() bool { return w.Handler().ProcessTask(context.Background(), task) == nil },
		2*time.Second, 10*time.Millisecond, "a duplicate run after the mark")
	require.Equal(t, 1, wa.count())
	require.Contains(t, wa.sent[0], "|482913")
	require.Zero(t, sm.count())
}

func TestRepeatedEnqueueIsDeduplicated(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	opt, client := newQueue(t)
	task, _ := storedCode(t, db, "111222")
	require.NoError(t, jobs.Enqueue(context.Background(), client, task, nil))
	require.NoError(t, jobs.Enqueue(context.Background(), client, task, nil), "conflict counts as enqueued")
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueCritical)
	require.NoError(t, err)
	require.Len(t, tasks, 1)
}

func TestPermanentWhatsAppFailureFallsBackToSMS(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	// The real WhatsApp client against a Graph API that says "not a WhatsApp user".
	graph := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"Message undeliverable","type":"OAuthException","code":131026}}`)
	}))
	defer graph.Close()
	var twilioBody string
	twilio := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		twilioBody = r.PostForm.Get("Body") + "|" + r.PostForm.Get("To")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"sid":"SM1","status":"queued"}`)
	}))
	defer twilio.Close()
	wa := whatsapp.New(whatsapp.Config{BaseURL: graph.URL, APIVersion: "v21.0", PhoneNumberID: "1", AccessToken: "t", OTPTemplate: "codigo"})
	sm := sms.New(sms.Config{BaseURL: twilio.URL, AccountSID: "AC1", AuthToken: "x", From: "+15550001111"})
	w := newWorker(t, db, wa, sm)
	task, _ := storedCode(t, db, "905172")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Contains(t, twilioBody, "905172")
	require.Contains(t, twilioBody, "|+52")
}

func TestTransientProviderFailureIsRetried(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	calls := 0
	graph := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"message":"Service temporarily unavailable","code":2}}`)
			return
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		io.WriteString(w, `{"messages":[{"id":"wamid.1"}]}`)
	}))
	defer graph.Close()
	sm := &recorder{}
	wa := whatsapp.New(whatsapp.Config{BaseURL: graph.URL, APIVersion: "v21.0", PhoneNumberID: "1", AccessToken: "t", OTPTemplate: "codigo"})
	w := newWorker(t, db, wa, sm)
	task, _ := storedCode(t, db, "123987")
	err := w.Handler().ProcessTask(context.Background(), task)
	require.Error(t, err)
	require.False(t, errors.Is(err, asynq.SkipRetry), "5xx is retried")
	require.NotContains(t, err.Error(), "123987", "the code never appears in errors")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task), "the retry delivers")
	require.Equal(t, 2, calls)
	require.Zero(t, sm.count(), "no SMS for a transient failure")
}

func TestUsedOrExpiredCodesAreNotSent(t *testing.T) {
	t.Parallel()
	db, wa, w := otpSetup(t)
	task, codeID := storedCode(t, db, "555111")
	_, err := db.Exec(`UPDATE verification_codes SET is_used = true WHERE id = $1`, codeID)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Zero(t, wa.count())

	expired, _ := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: 1, Channel: "phone", Via: jobs.ViaWhatsApp,
		Destination: "+525512345678", SealedCode: "x", ExpiresAt: time.Now().Add(-time.Second)})
	require.ErrorIs(t, w.Handler().ProcessTask(context.Background(), expired), asynq.SkipRetry)
}

func TestAJobFasterThanItsCommitWaitsForTheCode(t *testing.T) {
	t.Parallel()
	db, wa, w := otpSetup(t)
	store := postgres.Store{DB: db}
	ctx := context.Background()
	phone := fmt.Sprintf("+5256%08d", time.Now().UnixNano()%100_000_000)
	tx, err := db.Beginx()
	require.NoError(t, err)
	defer tx.Rollback()
	uid, _, err := store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Ana", Phone: &phone})
	require.NoError(t, err)
	codeID, _, err := store.InsertCode(ctx, tx, postgres.NewCode{UserID: uid, Channel: postgres.ChannelPhone, Destination: phone,
		Purpose: "register", Hash: "h", ExpiresAt: time.Now().Add(10 * time.Minute)})
	require.NoError(t, err)
	task, err := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: codeID, Channel: postgres.ChannelPhone, Via: jobs.ViaWhatsApp,
		Destination: phone, SealedCode: sealer.Seal("246810"), ExpiresAt: time.Now().Add(10 * time.Minute)})
	require.NoError(t, err)

	// The job starts while the registration's transaction is still open; it commits 100 ms later.
	go func() { time.Sleep(100 * time.Millisecond); tx.Commit() }()
	require.NoError(t, w.Handler().ProcessTask(ctx, task))
	require.Equal(t, 1, wa.count(), "sent in this run, once the code was committed, not on a retry seconds later")

	// A code that never commits: the job gives up after a short wait and asks to be retried.
	orphan, _ := jobs.NewSendOTPTask(jobs.SendOTPPayload{CodeID: codeID + 1000, Channel: postgres.ChannelPhone, Via: jobs.ViaWhatsApp,
		Destination: phone, SealedCode: sealer.Seal("246810"), ExpiresAt: time.Now().Add(10 * time.Minute)})
	err = w.Handler().ProcessTask(ctx, orphan)
	require.Error(t, err)
	require.NotErrorIs(t, err, asynq.SkipRetry)
	require.Equal(t, 1, wa.count())
}

func TestAClaimLeftByADeadWorkerExpiresAndTheRetrySends(t *testing.T) {
	t.Parallel()
	db, wa, w := otpSetup(t)
	task, codeID := storedCode(t, db, "135790")

	// Another run claimed the code a moment ago (it may be sending right now): do not send, but
	// come back once the claim has run out. The claim may be this job's own from an attempt whose
	// answer was lost with the old primary (make scale's postgres-host): ending the job here lost
	// the code.
	_, err := db.Exec(`UPDATE verification_codes SET sent_at = now() - interval '5 seconds' WHERE id = $1`, codeID)
	require.NoError(t, err)
	err = w.Handler().ProcessTask(context.Background(), task)
	require.ErrorIs(t, err, worker.ErrClaimHeld)
	require.NotErrorIs(t, err, asynq.SkipRetry)
	require.Zero(t, wa.count())
	require.GreaterOrEqual(t, worker.RetryDelay(0, err, task), postgres.ClaimWindow, "retried after the claim runs out")
	require.False(t, worker.CountsAsFailure(err), "waiting out a claim does not use up the job's retries")

	// That run's worker died: asynq hands the job out again only after its 30 s lease, by when
	// the claim has expired, so the code goes out.
	_, err = db.Exec(`UPDATE verification_codes SET sent_at = now() - $2::interval WHERE id = $1`, codeID,
		fmt.Sprintf("%d seconds", int(postgres.ClaimWindow.Seconds())+1))
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, wa.count())
	require.Contains(t, wa.sent[0], "|135790")
}

// Every run claims, and a delivered code is marked: a second hand-out of the same job long after
// the claim window (a worker killed before it acknowledged the job, a Redis failover that lost
// the acknowledgement) does not send it again.
func TestADeliveredCodeIsNeverSentAgainByALaterRunOfItsJob(t *testing.T) {
	t.Parallel()
	db, wa, w := otpSetup(t)
	task, codeID := storedCode(t, db, "314159")
	var p jobs.SendOTPPayload
	require.NoError(t, json.Unmarshal(task.Payload(), &p))
	p.CommittedAt = time.Now() // a sign-in code: committed before its job was queued
	task, err := jobs.NewSendOTPTask(p)
	require.NoError(t, err)

	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, wa.count())
	var marks struct {
		SentAt      *time.Time `db:"sent_at"`
		DeliveredAt *time.Time `db:"delivered_at"`
	}
	require.Eventually(t, func() bool { // marks are written in batches, within markEvery
		require.NoError(t, db.Get(&marks, `SELECT sent_at, delivered_at FROM verification_codes WHERE id = $1`, codeID))
		return marks.DeliveredAt != nil
	}, 2*time.Second, 10*time.Millisecond, "marked once the provider accepted it")
	require.NotNil(t, marks.SentAt, "claimed before sending")

	_, err = db.Exec(`UPDATE verification_codes SET sent_at = now() - interval '1 hour' WHERE id = $1`, codeID)
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	require.Equal(t, 1, wa.count(), "delivered once, however late the second run")
}

// Marks of codes sent together are written together, and none is lost when the worker stops:
// twenty codes sent at once are all marked delivered, the last ones by the stop itself.
func TestDeliveredMarksAreWrittenInBatchesAndOnStop(t *testing.T) {
	t.Parallel()
	db, wa, w := otpSetup(t)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.Run(ctx); close(stopped) }()
	var ids []int64
	var wg sync.WaitGroup
	for i := range 20 {
		task, id := storedCode(t, db, fmt.Sprintf("%06d", 100000+i))
		ids = append(ids, id)
		wg.Go(func() { require.NoError(t, w.Handler().ProcessTask(context.Background(), task)) })
	}
	wg.Wait()
	cancel()
	<-stopped
	var marked int
	require.NoError(t, db.Get(&marked, `SELECT count(*) FROM verification_codes WHERE id = ANY($1) AND delivered_at IS NOT NULL`, pq.Array(ids)))
	require.Equal(t, 20, marked, "every code sent is marked by the time the worker has stopped")
	require.Equal(t, 20, wa.count())
}
