package worker_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/didit"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

const lvSecret = "levels-test-secret"

// lvProvider is a fake biometric provider: decisions are Didit decision bodies per session,
// read through didit.ParseDecision as the real client does.
type lvProvider struct {
	mu        sync.Mutex
	bodies    map[string]string
	created   []perfilseguro.BiometricSessionRequest
	createErr error
}

func (p *lvProvider) CreateSession(_ context.Context, req perfilseguro.BiometricSessionRequest) (perfilseguro.BiometricSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.createErr != nil {
		return perfilseguro.BiometricSession{}, p.createErr
	}
	p.created = append(p.created, req)
	id := fmt.Sprintf("sess-%d", len(p.created))
	return perfilseguro.BiometricSession{SessionID: id, URL: "https://verify.example/" + id,
		Raw: json.RawMessage(`{"session_id":"` + id + `"}`)}, nil
}

func (p *lvProvider) GetDecision(_ context.Context, id string) (perfilseguro.BiometricDecision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	body, ok := p.bodies[id]
	if !ok {
		return perfilseguro.BiometricDecision{}, fmt.Errorf("unknown session: %w", perfilseguro.ErrPermanent)
	}
	return didit.ParseDecision([]byte(body))
}

// decide sets what the provider says about a session now (Didit's spelling of the status).
func (p *lvProvider) decide(id, diditStatus, vendor string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bodies == nil {
		p.bodies = map[string]string{}
	}
	p.bodies[id] = `{"session_id":"` + id + `","status":"` + diditStatus + `","vendor_data":"` + vendor + `",
		"face_matches":[{"status":"Approved","score":91.5}],"liveness_checks":[{"status":"Approved","score":97}],
		"id_verifications":[` + lvDocumentReport(vendor) + `]}`
}

// lvName is the name every lvFixture user registers with.
const lvName = "Sofía Ruiz"

// lvDocumentReport is Didit's document report of the INE an lvFixture user holds: their
// registered name, born on a day that depends on their id (so no two share a CURP).
func lvDocumentReport(vendor string) string {
	n, _ := strconv.Atoi(vendor)
	d := identity.SampleDocument(lvName, time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n%10000))
	b, _ := json.Marshal(map[string]any{"status": "Approved", "document_type": "Identity Card",
		"issuing_state": d.IssuingCountry, "document_number": d.DocumentNumber, "personal_number": d.PersonalNumber,
		"first_name": d.GivenNames, "last_name": strings.TrimSpace(d.FirstSurname + " " + d.SecondSurname),
		"date_of_birth": d.DateOfBirth.Format(time.DateOnly), "expiration_date": d.ExpiryDate.Format(time.DateOnly),
		"date_of_issue": d.IssueDate.Format(time.DateOnly), "gender": d.Sex, "nationality": d.Nationality})
	return string(b)
}

// lvFixture is one test's database, fakes and worker.
type lvFixture struct {
	db       *sqlx.DB
	store    *postgres.Store
	mail     *mailbox
	provider *lvProvider
	queue    *lvQueue
	w        *worker.Worker
}

func lvSetup(t *testing.T) *lvFixture {
	t.Helper()
	db, _ := pgtest.New(t)
	f := &lvFixture{db: db, store: &postgres.Store{DB: db, Documents: docKey}, mail: &mailbox{}, provider: &lvProvider{}, queue: &lvQueue{}}
	f.w = newTestWorker(t, worker.Deps{DB: db, Enqueuer: f.queue, Email: f.mail, Documents: docKey,
		Sealer: secure.NewSealer(lvSecret), PublicBaseURL: "https://perfilseguro.test",
		Levels: worker.LevelsDeps{Biometric: f.provider, WebhookGrace: time.Nanosecond}})
	return f
}

// user creates a user at level.
func (f *lvFixture) user(t *testing.T, level int) int64 {
	t.Helper()
	ctx := context.Background()
	n := rand.IntN(90_000_000) + 10_000_000
	email, phone := fmt.Sprintf("wk%d@example.com", n), fmt.Sprintf("+5255%d", n)
	var id int64
	require.NoError(t, f.store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		id, _, err = f.store.InsertUser(ctx, tx, postgres.NewUser{Nombre: lvName, Email: &email, Phone: &phone})
		return err
	}))
	_, err := f.db.Exec(`UPDATE users SET verification_level = $2 WHERE id = $1`, id, level)
	require.NoError(t, err)
	return id
}

// session records a started verification attempt with provider session sid for userID.
func (f *lvFixture) session(t *testing.T, userID int64, sid string) int64 {
	t.Helper()
	ctx := context.Background()
	var vid int64
	require.NoError(t, f.store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = f.store.InsertVerificationSession(ctx, tx, userID, "didit", "test")
		return err
	}))
	_, err := f.store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: sid, URL: "https://verify.example/" + sid})
	require.NoError(t, err)
	return vid
}

func (f *lvFixture) run(t *testing.T, task *asynq.Task) error {
	t.Helper()
	return f.w.Handler().ProcessTask(context.Background(), task)
}

// lvTask unwraps a task constructor's result.
func lvTask(task *asynq.Task, err error) *asynq.Task {
	if err != nil {
		panic(err)
	}
	return task
}

// webhook stores a raw webhook body for sid and returns its row id.
func (f *lvFixture) webhook(t *testing.T, sid, body string) int64 {
	t.Helper()
	sum := sha256.Sum256([]byte(body))
	id, _, err := f.store.InsertWebhook(context.Background(), "didit", hex.EncodeToString(sum[:]), &sid, []byte(body))
	require.NoError(t, err)
	return id
}

func (f *lvFixture) level(t *testing.T, userID int64) (int, bool) {
	t.Helper()
	u, err := f.store.UserByID(context.Background(), userID)
	require.NoError(t, err)
	return u.VerificationLevel, u.BiometricVerified
}

func TestEmailVerificationJobSendsTheLinkOnce(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	uid := f.user(t, 1)
	token := secure.NewToken(32)
	expires := time.Now().Add(24 * time.Hour)
	var tokenID int64
	require.NoError(t, f.store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		tokenID, err = f.store.InsertEmailToken(ctx, tx, uid, secure.HashToken(token), expires, true)
		return err
	}))
	payload := jobs.SendEmailVerificationPayload{TokenID: tokenID, SealedToken: secure.NewSealer(lvSecret).Seal(token), ExpiresAt: expires}

	require.NoError(t, f.run(t, lvTask(jobs.NewSendEmailVerificationTask(payload))))
	require.Len(t, f.mail.mails, 1)
	msg := f.mail.mails[0]
	u, _ := f.store.UserByID(ctx, uid)
	require.Equal(t, *u.Email, msg.To)
	require.Equal(t, "Verifica tu correo electrónico · Perfil Seguro", msg.Subject)
	link := "https://perfilseguro.test/api/verify-email?token=" + token
	require.Contains(t, msg.Text, link)
	require.Contains(t, msg.Text, "24 horas")
	require.Contains(t, msg.HTML, `href="`+link+`"`)
	require.Contains(t, msg.HTML, "Sofía Ruiz")

	// Once followed, a retried or late job sends nothing.
	_, err := f.db.Exec(`UPDATE email_verification_tokens SET is_used = true WHERE id = $1`, tokenID)
	require.NoError(t, err)
	require.NoError(t, f.run(t, lvTask(jobs.NewSendEmailVerificationTask(payload))))
	require.Len(t, f.mail.mails, 1)

	// An expired link is never sent; a row not yet committed is retried.
	expired := payload
	expired.ExpiresAt = time.Now().Add(-time.Second)
	require.ErrorIs(t, f.run(t, lvTask(jobs.NewSendEmailVerificationTask(expired))), asynq.SkipRetry)
	missing := payload
	missing.TokenID = tokenID + 1000
	err = f.run(t, lvTask(jobs.NewSendEmailVerificationTask(missing)))
	require.Error(t, err)
	require.NotErrorIs(t, err, asynq.SkipRetry)
}

func TestStartSessionJobStoresTheProviderSessionOnce(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	uid := f.user(t, 2)
	var vid int64
	require.NoError(t, f.store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = f.store.InsertVerificationSession(ctx, tx, uid, "didit", "test")
		return err
	}))
	require.NoError(t, f.run(t, lvTask(jobs.NewStartBiometricSessionTask(vid))))
	require.NoError(t, f.run(t, lvTask(jobs.NewStartBiometricSessionTask(vid))), "a duplicate run")
	require.Len(t, f.provider.created, 1)
	require.Equal(t, uid, f.provider.created[0].UserID)
	require.Equal(t, fmt.Sprintf("https://perfilseguro.test/return?userId=%d", uid), f.provider.created[0].CallbackURL)
	v, err := f.store.VerificationSessionByID(ctx, vid)
	require.NoError(t, err)
	require.Equal(t, "sess-1", *v.SessionID)
	require.Equal(t, "https://verify.example/sess-1", *v.VerificationURL)
	require.Equal(t, perfilseguro.BiometricNotStarted, v.Status)
	var raw string
	require.NoError(t, f.db.Get(&raw, `SELECT raw_response::text FROM verification_sessions WHERE id = $1`, vid))
	require.JSONEq(t, `{"session_id":"sess-1"}`, raw)

	// A provider that refuses for good ends the attempt, and the browser stops waiting.
	f.provider.createErr = fmt.Errorf("bad workflow: %w", perfilseguro.ErrPermanent)
	require.NoError(t, f.store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = f.store.InsertVerificationSession(ctx, tx, uid, "didit", "test")
		return err
	}))
	require.ErrorIs(t, f.run(t, lvTask(jobs.NewStartBiometricSessionTask(vid))), asynq.SkipRetry)
	v, _ = f.store.VerificationSessionByID(ctx, vid)
	require.Equal(t, postgres.SessionStartFailed, v.Status)
	require.Contains(t, *v.StartError, "bad workflow")
}

// Every provider status lands on the session as is; only Approved grants level 3 and queues passes.
func TestDecisionMappingForEveryStatus(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	cases := map[string]string{ // Didit's spelling → stored status
		"Not Started": perfilseguro.BiometricNotStarted, "In Progress": perfilseguro.BiometricInProgress,
		"Approved": perfilseguro.BiometricApproved, "Declined": perfilseguro.BiometricDeclined,
		"In Review": perfilseguro.BiometricInReview, "Resubmitted": perfilseguro.BiometricResubmitted,
		"Expired": perfilseguro.BiometricExpired, "Abandoned": perfilseguro.BiometricAbandoned,
		"Awaiting User": perfilseguro.BiometricInProgress, "Kyc Expired": perfilseguro.BiometricExpired,
	}
	for diditStatus, want := range cases {
		uid := f.user(t, 2)
		sid := "map-" + strings.ReplaceAll(diditStatus, " ", "-")
		vid := f.session(t, uid, sid)
		f.provider.decide(sid, diditStatus, fmt.Sprint(uid))
		before := len(f.queue.types())
		require.NoError(t, f.run(t, lvTask(jobs.NewSyncBiometricSessionTask(sid))), diditStatus)

		v, err := f.store.VerificationSessionByID(ctx, vid)
		require.NoError(t, err)
		require.Equal(t, want, v.Status, diditStatus)
		level, bio := f.level(t, uid)
		queued := f.queue.types()[before:]
		if want == perfilseguro.BiometricApproved {
			require.Equal(t, 3, level)
			require.True(t, bio)
			require.ElementsMatch(t, []string{jobs.TypeBuildApplePass, jobs.TypeBuildGooglePass}, queued)
			var face, overall float64
			require.NoError(t, f.db.QueryRow(`SELECT face_match_score, overall_score FROM verification_sessions WHERE id = $1`, vid).Scan(&face, &overall))
			require.Equal(t, 91.5, face)
			require.InDelta(t, (91.5+97+100)/3, overall, 0.01)
		} else {
			require.Equal(t, 2, level, diditStatus)
			require.False(t, bio, diditStatus)
			require.Empty(t, queued, diditStatus)
		}
		require.Equal(t, perfilseguro.BiometricApproved == want || perfilseguro.BiometricDeclined == want ||
			perfilseguro.BiometricExpired == want || perfilseguro.BiometricAbandoned == want, v.CompletedAt != nil, diditStatus)
	}
}

func TestWebhookReplayAndLateEventsChangeNothing(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	ctx := context.Background()
	uid := f.user(t, 2)
	f.session(t, uid, "sess-a")
	f.provider.decide("sess-a", "Approved", fmt.Sprint(uid))
	approved := f.webhook(t, "sess-a", `{"session_id":"sess-a","status":"Approved","webhook_type":"status.updated"}`)

	require.NoError(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(approved))))
	level, bio := f.level(t, uid)
	require.Equal(t, 3, level)
	require.True(t, bio)
	u, _ := f.store.UserByID(ctx, uid)
	validated := *u.FechaValidacion
	require.Len(t, f.queue.types(), 2)
	var processed bool
	require.NoError(t, f.db.Get(&processed, `SELECT processed_at IS NOT NULL FROM provider_webhooks WHERE id = $1`, approved))
	require.True(t, processed)

	// The same task again, and a late In Progress event while the provider now says Declined.
	require.NoError(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(approved))))
	f.provider.decide("sess-a", "Declined", fmt.Sprint(uid))
	late := f.webhook(t, "sess-a", `{"session_id":"sess-a","status":"In Progress","webhook_type":"status.updated"}`)
	require.NoError(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(late))))

	level, bio = f.level(t, uid)
	require.Equal(t, 3, level)
	require.True(t, bio)
	u, _ = f.store.UserByID(ctx, uid)
	require.True(t, validated.Equal(*u.FechaValidacion))
	require.Len(t, f.queue.types(), 2, "passes are queued once")
	var status string
	require.NoError(t, f.db.Get(&status, `SELECT verification_status FROM verification_sessions WHERE session_id = 'sess-a'`))
	require.Equal(t, perfilseguro.BiometricApproved, status)
}

func TestApprovalIsRolledBackWhenPassBuildsCannotBeQueued(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	uid := f.user(t, 2)
	f.session(t, uid, "sess-b")
	f.provider.decide("sess-b", "Approved", fmt.Sprint(uid))
	wh := f.webhook(t, "sess-b", `{"session_id":"sess-b","status":"Approved"}`)

	f.queue.err = errors.New("redis down")
	require.Error(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(wh))))
	level, _ := f.level(t, uid)
	require.Equal(t, 2, level, "no approval without its pass builds")
	var attempts int
	var processed bool
	require.NoError(t, f.db.QueryRow(`SELECT attempts, processed_at IS NOT NULL FROM provider_webhooks WHERE id = $1`, wh).Scan(&attempts, &processed))
	require.Equal(t, 1, attempts)
	require.False(t, processed)

	f.queue.err = nil
	require.NoError(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(wh))))
	level, _ = f.level(t, uid)
	require.Equal(t, 3, level)
	require.Len(t, f.queue.types(), 2)
}

func TestWebhookForAnotherUsersSessionIsRefused(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	uid := f.user(t, 2)
	f.session(t, uid, "sess-c")
	f.provider.decide("sess-c", "Approved", fmt.Sprint(uid+999))
	wh := f.webhook(t, "sess-c", `{"session_id":"sess-c","status":"Approved"}`)
	require.ErrorIs(t, f.run(t, lvTask(jobs.NewProcessBiometricWebhookTask(wh))), asynq.SkipRetry)
	level, bio := f.level(t, uid)
	require.Equal(t, 2, level)
	require.False(t, bio)
}

func TestReconcileQueuesUnprocessedWebhooksAndStuckSessions(t *testing.T) {
	t.Parallel()
	f := lvSetup(t)
	uid := f.user(t, 2)
	f.session(t, uid, "stuck")
	f.session(t, uid, "fresh")
	_, err := f.db.Exec(`UPDATE verification_sessions SET updated_at = now() - interval '20 minutes' WHERE session_id = 'stuck'`)
	require.NoError(t, err)
	wh := f.webhook(t, "fresh", `{"session_id":"fresh","status":"In Progress"}`)
	done := f.webhook(t, "fresh", `{"session_id":"fresh","status":"Not Started"}`)
	require.NoError(t, f.store.MarkWebhookProcessed(context.Background(), f.db, done, ""))

	require.NoError(t, f.run(t, lvTask(jobs.NewReconcileBiometricTask("t1"))))
	var got []string
	for _, task := range f.queue.tasks {
		got = append(got, task.Type()+" "+string(task.Payload()))
	}
	require.ElementsMatch(t, []string{
		jobs.TypeProcessBiometricWebhook + fmt.Sprintf(` {"webhookId":%d}`, wh),
		jobs.TypeSyncBiometricSession + ` {"sessionId":"stuck"}`,
	}, got)
}
