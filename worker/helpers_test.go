package worker_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// secret is the key of the test workers' codes and sealed values.
const secret = "test-secret"

// sealer seals and opens values as the test workers do.
var sealer = secure.NewSealer(secret)

// newTestWorker returns a worker of one slot and a 1 s grace, on a Redis of its own, over deps.
func newTestWorker(t testing.TB, deps worker.Deps) *worker.Worker {
	t.Helper()
	opt, _ := redistest.New(t)
	return worker.New(opt, 1, time.Second, deps)
}

// fixture is a test's database and a worker over it that records the e-mails and WhatsApp
// messages it sends, and queues its tasks in queue for the test to run by hand.
type fixture struct {
	db    *sqlx.DB
	w     *worker.Worker
	mail  *recorder
	wa    *recorder
	queue *lvQueue
}

// newFixture builds a fixture whose worker has deps besides those (the database, queue, e-mail,
// WhatsApp, the sealer and https://perfilseguro.mx as its address).
func newFixture(t *testing.T, deps worker.Deps) *fixture {
	t.Helper()
	db, _ := pgtest.New(t)
	f := &fixture{db: db, mail: &recorder{}, wa: &recorder{}, queue: &lvQueue{}}
	deps.DB, deps.Enqueuer, deps.Email, deps.WhatsApp = db, f.queue, f.mail, f.wa
	deps.PublicBaseURL, deps.Sealer = "https://perfilseguro.mx", sealer
	f.w = newTestWorker(t, deps)
	return f
}

// newQueue returns a Redis of its own and a client that queues tasks on it, closed when the test ends.
func newQueue(t testing.TB) (asynq.RedisClientOpt, *asynq.Client) {
	t.Helper()
	opt, _ := redistest.New(t)
	client := asynq.NewClient(opt)
	t.Cleanup(func() { client.Close() })
	return opt, client
}

// recorder is a fake provider that records what it was asked to send.
type recorder struct {
	mu   sync.Mutex
	sent []string
	err  error
}

func (r *recorder) record(s string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	r.sent = append(r.sent, s)
	return nil
}
func (r *recorder) SendOTP(_ context.Context, to, code string) error {
	return r.record(to + "|" + code)
}
func (r *recorder) SendInvitation(_ context.Context, to string, _ perfilseguro.InvitationMessage) error {
	return r.record(to)
}
func (r *recorder) SendRenewalReminder(_ context.Context, to string, m perfilseguro.RenewalReminder) error {
	return r.record(fmt.Sprintf("%s|%s|%d|%s", to, m.ProfileID, m.DaysLeft, m.Link))
}
func (r *recorder) SendPaymentNotice(_ context.Context, to string, n perfilseguro.PaymentNotice) error {
	return r.record(fmt.Sprintf("%s|%s|%t|%s", to, n.Amount, n.Expired, n.Link))
}
func (r *recorder) SendSMS(_ context.Context, to, body string) error {
	return r.record(to + "|" + body)
}
func (r *recorder) SendEmail(_ context.Context, m perfilseguro.Email) error {
	return r.record(m.To + "|" + m.Subject + "|" + m.Text)
}
func (r *recorder) count() int { r.mu.Lock(); defer r.mu.Unlock(); return len(r.sent) }

// lvQueue is a fake Enqueuer that records task types, or fails.
type lvQueue struct {
	mu    sync.Mutex
	tasks []*asynq.Task
	err   error
}

func (q *lvQueue) EnqueueContext(_ context.Context, t *asynq.Task, _ ...asynq.Option) (*asynq.TaskInfo, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return nil, q.err
	}
	q.tasks = append(q.tasks, t)
	return &asynq.TaskInfo{}, nil
}

func (q *lvQueue) types() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []string
	for _, t := range q.tasks {
		out = append(out, t.Type())
	}
	return out
}

// mailbox records e-mails in full (the shared recorder keeps only a summary).
type mailbox struct {
	recorder
	mails []perfilseguro.Email
}

func (m *mailbox) SendEmail(ctx context.Context, e perfilseguro.Email) error {
	if err := m.record(e.To); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mails = append(m.mails, e)
	return nil
}
