package scale

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The Postgres scenarios: the app's DATABASE_URL is HAProxy in front of a Patroni cluster
// (patroni_test.go) while 200 sign-ups/s and a few payments/s run; the leader's Postgres is
// killed (postgres-kill), its whole host is lost (postgres-host) or Patroni switches over to the
// synchronous standby (postgres-switchover). Afterwards, on the new leader, no acknowledged
// write may be missing or applied twice. postgres-sync-cost measures what synchronous
// replication adds to a sign-up.

// payRate is the payments per second that run next to the sign-ups.
const payRate = 4

// payTyping is how long a payer spends on the checkout page before paying.
const payTyping = 3 * time.Second

// receiptSubject is the subject of the payment receipt e-mail (the development inbox keeps it).
const receiptSubject = "Recibo de pago de Perfil Seguro"

type payer struct {
	id           int64
	token, email string
}

// pgRun is a Postgres scenario's rig: the cluster, the app's processes, Stripe's stand-in.
type pgRun struct {
	t      *testing.T
	c      *patroniCluster
	r      *rig
	stripe *fakeStripe
	gen    *loadGen
	payGen *loadGen
	payers []payer

	mu        sync.Mutex
	checkouts []attempt // every answer to a payer's POST /api/payments/checkout
	sessions  map[int]string
}

func openDB(t *testing.T, dsn string) *sqlx.DB {
	db, err := sqlx.Open("postgres", dsn)
	require.NoError(t, err)
	db.SetMaxOpenConns(4)
	t.Cleanup(func() { db.Close() })
	return db
}

func startPostgresRig(t *testing.T, payers, people int) *pgRun {
	t.Helper()
	c := startPatroniCluster(t)
	cmd := exec.Command(bintest.Path(t), "migrate")
	cmd.Env = append(os.Environ(), "APP_ENV=test", "DATABASE_URL="+c.dsn())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "perfilseguro migrate: %s", out)
	db := openDB(t, c.dsn())
	p := &pgRun{t: t, c: c, stripe: newFakeStripe(t), sessions: map[int]string{}}
	p.preparePayers(db, payers)
	extra := p.stripe.env()
	extra["DATABASE_REPLICA_URL"] = c.replicaDSN()
	p.r = newRigOn(t, startSentinel(t), db, c.dsn(), people, extra)
	p.stripe.apis = p.r.apiURLs()
	p.gen = newLoadGen(p.r.apiURLs(), true)
	// A checkout waits up to 8 s for its page by design (then answers 202): its own client.
	p.payGen = newLoadGen(p.r.apiURLs(), true)
	p.payGen.client.Timeout = 20 * time.Second
	return p
}

// preparePayers inserts people who are signed in and must pay before their biometric check
// (origin "Otro": not free), with a live session each, as verify-code would leave them.
func (p *pgRun) preparePayers(db *sqlx.DB, n int) {
	if n == 0 {
		return
	}
	var tokens, hashes []string
	for i := 0; i < n; i++ {
		tok := secure.NewToken(32)
		tokens, hashes = append(tokens, tok), append(hashes, secure.HashToken(tok))
	}
	var ids []int64
	require.NoError(p.t, db.Select(&ids, `INSERT INTO users (nombre, email, phone_number, id_validado, verification_level, is_phone_verified)
		SELECT 'Persona que paga ' || i, 'paga' || i || '@scale.test', '+5257' || lpad(i::text, 8, '0'),
		       'PS-9' || to_char(i / 1000000, 'FM000') || '-' || to_char((i / 100) % 10000, 'FM0000') || '-' || to_char(i % 100, 'FM00'),
		       1, true
		FROM generate_series(1, $1) AS i ORDER BY i RETURNING id`, n))
	_, err := db.Exec(`INSERT INTO user_sessions (token_hash, user_id, expires_at, ip_address, user_agent)
		SELECT h, u, now() + interval '1 day', '127.0.0.1', 'scale' FROM unnest($1::text[], $2::bigint[]) AS x(h, u)`,
		pq.Array(hashes), pq.Array(ids))
	require.NoError(p.t, err)
	for i, id := range ids {
		p.payers = append(p.payers, payer{id: id, token: tokens[i], email: fmt.Sprintf("paga%d@scale.test", i+1)})
	}
}

// signUpPhone is what the i-th person signing up types (10 digits).
func signUpPhone(i int) string { return fmt.Sprintf("56%08d", i+1) }

func (p *pgRun) signUp(i int, at time.Time) attempt {
	phone := signUpPhone(i)
	body, _ := json.Marshal(map[string]string{"fullName": fmt.Sprintf("Persona Nueva %d", i+1),
		"email": fmt.Sprintf("alta%d@scale.test", i+1), "phoneNumber": phone})
	a, _ := p.gen.post("/api/register", body, "", p.gen.pick(i%len(p.gen.apis)), at)
	a.phone = phone
	return a
}

// signUpEvery: one request of the failover scenarios' load in signUpEvery is a sign-up, the
// others are sign-ins of people who already have an account: the 200 sign-ins/s, with new
// people a share of them (one in four left less room to work off a switchover's backlog). (200
// sign-ups/s alone, each a transaction of four statements waiting for the synchronous standby,
// fill this rig's 2 cores before any harm: p50 0.8 s with admission control off, half refused
// with it on.)
const signUpEvery = 10

// isSignUp tells the load's sign-ups (phones 56…) from its sign-ins (phones 55…).
func isSignUp(a attempt) bool { return strings.HasPrefix(a.phone, "56") }

// people runs the failover scenarios' open-loop load: rate requests/s over both APIs, sign-ins
// of the rig's people with every signUpEvery-th request a sign-up.
func (p *pgRun) people(d time.Duration) []attempt {
	return p.gen.open(context.Background(), rate, d, func(i int, at time.Time) attempt {
		if i%signUpEvery == signUpEvery-1 {
			return p.signUp(i/signUpEvery, at)
		}
		return p.gen.signIn(p.r.phones[i], p.gen.pick(i%len(p.gen.apis)), at)
	})
}

// pgWarmUp is the load sent before a failover scenario's run, not judged: the rig's first second
// (cold pools, statements prepared on every new connection, the cluster just settled) answers
// slowly enough for admission control to refuse some sign-ins, which says nothing about the
// failover. Its sign-ins are of people after those of the run.
const pgWarmUp = 3 * time.Second

func (p *pgRun) warmUp(runPeople int) {
	p.gen.open(context.Background(), rate, pgWarmUp, func(i int, at time.Time) attempt {
		return p.gen.signIn(p.r.phones[runPeople+i], p.gen.pick(i%len(p.gen.apis)), at)
	})
}

// signUps runs the open-loop sign-ups, numbered from first.
func (p *pgRun) signUps(d time.Duration, first int) []attempt {
	return p.gen.open(context.Background(), rate, d, func(i int, at time.Time) attempt { return p.signUp(first+i, at) })
}

// pay is one payer: POST /api/payments/checkout until the page comes (a 202 or a Spanish 503 is
// clicked again a second later, as a person would), then paying on it, which makes Stripe's
// stand-in deliver the event.
func (p *pgRun) pay(i int, at time.Time) attempt {
	py := p.payers[i]
	deadline := at.Add(45 * time.Second)
	for {
		a, raw := p.payGen.post("/api/payments/checkout", []byte(`{"plan":"one_year"}`), py.token, p.gen.pick(i%len(p.gen.apis)), at)
		a.phone = py.email
		if a.status == 200 {
			var res struct {
				CheckoutURL string `json:"checkoutUrl"`
			}
			json.Unmarshal(raw, &res)
			if s := p.stripe.sessionOf(res.CheckoutURL); s != "" {
				p.mu.Lock()
				p.checkouts = append(p.checkouts, a)
				p.sessions[i] = s
				p.mu.Unlock()
				// The person takes a few seconds to type a card on the page: the events of pages
				// opened just before the harm arrive during it and must be redelivered.
				time.AfterFunc(payTyping, func() { p.stripe.pay(s) })
				return a
			}
			a.status, a.message = 299, "200 without a checkout page of the stand-in: "+string(raw)
		}
		p.mu.Lock()
		p.checkouts = append(p.checkouts, a)
		p.mu.Unlock()
		if !(a.status == 202 || spanish503(a.status, a.message)) || time.Now().After(deadline) {
			return a
		}
		time.Sleep(time.Second)
		at = time.Now()
	}
}

// down is the app's answer that a dependency (Postgres, Redis) is unavailable.
func down(status int, msg string) bool {
	return status == 503 && strings.Contains(msg, "no está disponible")
}

// spanish503 is a 503 with one of the app's Spanish messages: down, or admission control
// shedding load the machine cannot take at that moment ("mucha demanda").
func spanish503(status int, msg string) bool {
	return down(status, msg) || (status == 503 && strings.Contains(msg, "mucha demanda"))
}

// pgOutcome is what a Postgres scenario proved.
type pgOutcome struct {
	signUps                                  outcome // the sign-ins and sign-ups, judged as the Redis scenarios judge sign-ins
	signedUp                                 int     // sign-ups answered 201
	acknowledged                             int     // sign-ins answered 2xx + sign-ups answered 201 + payment events answered 2xx
	paid                                     int     // payment events answered 2xx
	lostUsers, lostCodes, lostPayments       int
	missingReceipts                          int
	duplicated                               int
	dupPhones, dupPayments, dupReceipts      int
	fiveXXOther                              int
	checkoutOK, checkout503, deliveries      int
	webhook503                               int
	busyBefore, busyDuring, busyAfter        int // "mucha demanda" sign-up refusals: before the harm, until a second after the window, after
	bad                                      []string
	undelivered                              []string // 201 sign-ups whose code never reached WhatsApp: their rows
	window                                   time.Duration
	lastDown                                 string // the "no está disponible" answer that closed the window, for a failure's report
	lostTicks, repeatedTicks                 []string
	p50Before, p99Before, p50After, p99After time.Duration
}

// classify judges one answer that is not a sign-up: 2xx, or 503 with the Spanish message.
func (o *pgOutcome) classify(what string, status int, msg string, err error, done, killed time.Time, last *time.Time) bool {
	switch {
	case status/100 == 2:
		return true
	case spanish503(status, msg):
		if down(status, msg) && done.After(*last) {
			*last = done
			o.lastDown = fmt.Sprintf("%s answered at +%.1f s", what, done.Sub(killed).Seconds())
		}
		return false
	case status >= 500 && status != 503:
		o.fiveXXOther++
	}
	o.bad = append(o.bad, fmt.Sprintf("%s: status %d %q error %v", what, status, msg, err))
	return false
}

// settle waits until the work the acknowledged writes queued has run, then judges everything on
// the (new) leader.
func (p *pgRun) settle(name string, load []attempt, killed, loadStart, loadEnd time.Time) pgOutcome {
	t := p.t
	p.c.waitLeader(60 * time.Second)
	time.Sleep(payTyping + time.Second) // the last payers pay
	p.stripe.waitAcked(60 * time.Second)
	p.r.drain(load, 90*time.Second)
	// A fresh pool: the old one may hold connections HAProxy cut at the failover.
	db := openDB(t, p.c.dsn())
	p.r.db = db
	var o pgOutcome
	o.signUps = p.r.judge(name, load, killed, time.Time{}, loadStart, loadEnd)
	last := time.Time{}
	for _, a := range load {
		if a.status >= 500 && a.status != 503 {
			o.fiveXXOther++
		}
		if down(a.status, a.message) && a.done.After(last) {
			last = a.done
			o.lastDown = fmt.Sprintf("sign-in or sign-up sent at +%.1f s answered at +%.1f s", a.at.Sub(killed).Seconds(), a.done.Sub(killed).Seconds())
		}
	}
	p.mu.Lock()
	checkouts := append([]attempt(nil), p.checkouts...)
	p.mu.Unlock()
	for _, a := range checkouts {
		if o.classify("checkout "+a.phone, a.status, a.message, a.err, a.done, killed, &last) {
			o.checkoutOK++
		} else if spanish503(a.status, a.message) {
			o.checkout503++
		}
	}
	p.stripe.mu.Lock()
	deliveries := append([]webhookDelivery(nil), p.stripe.deliveries...)
	acked := map[string]time.Time{}
	for k, v := range p.stripe.acked {
		acked[k] = v
	}
	unacked := len(p.stripe.paidAt) - len(p.stripe.acked)
	p.stripe.mu.Unlock()
	for _, d := range deliveries {
		o.deliveries++
		if !o.classify("payment event of "+d.session, d.status, d.message, d.err, d.done, killed, &last) && spanish503(d.status, d.message) {
			o.webhook503++
		}
	}
	if unacked > 0 {
		o.bad = append(o.bad, fmt.Sprintf("%d paid sessions' events never acknowledged", unacked))
	}
	if !killed.IsZero() && last.After(killed) {
		o.window = last.Sub(killed)
	}
	for _, a := range load {
		if !spanish503(a.status, a.message) || down(a.status, a.message) {
			continue
		}
		switch {
		case killed.IsZero() || a.at.Before(killed):
			o.busyBefore++
		case a.at.Before(killed.Add(o.window + time.Second)):
			o.busyDuring++
		default:
			o.busyAfter++
		}
	}
	o.paid = len(acked)
	o.acknowledged = o.signUps.sent + o.paid

	// Acknowledged sign-ups: each has its users row on the new leader; acknowledged sign-ins: each
	// has its code's row.
	var want, wantCode []string
	for _, a := range load {
		switch {
		case a.status == 201 && isSignUp(a):
			want = append(want, "+52"+a.phone)
		case a.status/100 == 2 && !isSignUp(a):
			wantCode = append(wantCode, "+52"+a.phone)
		}
	}
	o.signedUp = len(want)
	var found int
	require.NoError(t, db.Get(&found, `SELECT count(*) FROM users WHERE phone_number = ANY($1)`, pq.Array(want)))
	o.lostUsers = len(want) - found
	require.NoError(t, db.Get(&found, `SELECT count(DISTINCT u.id) FROM users u JOIN verification_codes c ON c.user_id = u.id
		WHERE c.purpose = 'login' AND u.phone_number = ANY($1)`, pq.Array(wantCode)))
	o.lostCodes = len(wantCode) - found
	// Codes answered 201 but never delivered: what their rows say, for the report.
	var undelivered []string
	for _, a := range load {
		if a.status/100 == 2 && len(p.r.wa.codesTo(recipient(a.phone))) == 0 {
			undelivered = append(undelivered, "+52"+a.phone)
		}
	}
	if len(undelivered) > 0 {
		var rows []struct {
			Phone     string     `db:"phone_number"`
			ID        int64      `db:"id"`
			Created   time.Time  `db:"created_at"`
			Sent      *time.Time `db:"sent_at"`
			Delivered *time.Time `db:"delivered_at"`
		}
		require.NoError(t, db.Select(&rows, `SELECT u.phone_number, c.id, c.created_at, c.sent_at, c.delivered_at
			FROM users u JOIN verification_codes c ON c.user_id = u.id WHERE u.phone_number = ANY($1)`, pq.Array(undelivered)))
		rel := func(ts *time.Time) string {
			if ts == nil {
				return "null"
			}
			return fmt.Sprintf("+%.2fs", ts.Sub(loadStart).Seconds())
		}
		for _, r := range rows {
			o.undelivered = append(o.undelivered, fmt.Sprintf("%s: code %d created %s, claimed (sent_at) %s, delivered_at %s; harm at +%.2fs",
				r.Phone, r.ID, rel(&r.Created), rel(r.Sent), rel(r.Delivered), killed.Sub(loadStart).Seconds()))
		}
	}
	require.NoError(t, db.Get(&o.dupPhones, `SELECT count(*) FROM (SELECT phone_number FROM users
		WHERE phone_number IS NOT NULL GROUP BY 1 HAVING count(*) > 1) AS d`))

	// Acknowledged payments: paid once the worker is done, with one receipt each.
	var sessions []string
	for s := range acked {
		sessions = append(sessions, s)
	}
	type payRow struct {
		Session string `db:"checkout_session_id"`
		Status  string `db:"status"`
		Email   string `db:"email"`
	}
	var rows []payRow
	receipts := map[string]int{}
	deadline := time.Now().Add(90 * time.Second)
	for {
		rows = nil
		require.NoError(t, db.Select(&rows, `SELECT p.checkout_session_id, p.status, u.email FROM payments p JOIN users u ON u.id = p.user_id
			WHERE p.checkout_session_id = ANY($1)`, pq.Array(sessions)))
		var rr []struct {
			Recipient string `db:"recipient"`
			N         int    `db:"n"`
		}
		require.NoError(t, db.Select(&rr, `SELECT recipient, count(*) AS n FROM dev_messages WHERE channel = 'email' AND subject = $1
			GROUP BY recipient`, receiptSubject))
		receipts = map[string]int{}
		for _, r := range rr {
			receipts[r.Recipient] = r.N
		}
		o.lostPayments, o.missingReceipts = len(sessions), 0
		for _, r := range rows {
			if r.Status == "paid" {
				o.lostPayments--
				if receipts[r.Email] == 0 {
					o.missingReceipts++
				}
			}
		}
		if (o.lostPayments == 0 && o.missingReceipts == 0) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	time.Sleep(2 * time.Second) // a second receipt would have come by now
	require.NoError(t, db.Get(&o.dupReceipts, `SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM dev_messages
		WHERE channel = 'email' AND subject = $1 GROUP BY recipient HAVING count(*) > 1) AS d`, receiptSubject))
	require.NoError(t, db.Get(&o.dupPayments, `SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM payments
		WHERE status = 'paid' GROUP BY user_id HAVING count(*) > 1) AS d`))
	o.duplicated = o.dupPhones + o.dupPayments + o.dupReceipts + o.signUps.duplicated

	// Scheduler ticks: a heartbeat job that failed during the failover is retried by asynq; wait
	// for the retries before calling a tick lost.
	deadline = time.Now().Add(60 * time.Second)
	for {
		o.lostTicks, o.repeatedTicks = p.r.ticks(loadStart, loadEnd)
		if len(o.lostTicks) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	recovered := loadStart
	if !killed.IsZero() {
		recovered = killed.Add(o.window + time.Second)
	}
	before := func(a attempt) bool { return a.status/100 == 2 && (killed.IsZero() || a.at.Before(killed)) }
	after := func(a attempt) bool { return a.status/100 == 2 && !killed.IsZero() && a.at.After(recovered) }
	o.p50Before, o.p99Before = quantileOf(load, before, 0.5), quantileOf(load, before, 0.99)
	o.p50After, o.p99After = quantileOf(load, after, 0.5), quantileOf(load, after, 0.99)
	return o
}

func quantileOf(as []attempt, keep func(attempt) bool, q float64) time.Duration {
	var ds []time.Duration
	for _, a := range as {
		if keep(a) {
			ds = append(ds, a.latency())
		}
	}
	return quantile(ds, q)
}

func (o pgOutcome) last(name string) string {
	return fmt.Sprintf("postgres %s: acknowledged %d, lost %d, duplicated %d, failover window %.1f s, 5xx other than 503: %d",
		name, o.acknowledged, o.lostUsers+o.lostCodes+o.lostPayments, o.duplicated, o.window.Seconds(), o.fiveXXOther)
}

func pgMachine() string {
	out, _ := os.ReadFile("/proc/cpuinfo")
	return fmt.Sprintf("%d CPUs shared by 3 Postgres with their Patroni, 3 etcd, HAProxy, the Redis processes, the 7 perfilseguro processes and the load generator, all on loopback",
		strings.Count(string(out), "processor\t:"))
}

// record prints the report's lines and, with SCALE_RECORD=1, appends them to BENCHMARKS.md.
func record(t *testing.T, title string, lines []string) {
	for _, l := range lines {
		fmt.Println(l)
	}
	if os.Getenv("SCALE_RECORD") == "1" {
		f, err := os.OpenFile(filepath.Join("..", "BENCHMARKS.md"), os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		defer f.Close()
		fmt.Fprintf(f, "\n### make scale — %s (%s, %s)\n\n```\n%s\n```\n", title, time.Now().UTC().Format("2006-01-02 15:04 UTC"),
			pgMachine(), strings.Join(lines, "\n"))
	}
}

// postgresFailover runs sign-ins, sign-ups and payments while act (at a third of the run) does the
// scenario's harm to the leader; act returns what it did, for the report.
func postgresFailover(t *testing.T, id string, act func(c *patroniCluster) string) {
	scenario(t, id)
	name := strings.TrimPrefix(id, "postgres-")
	d := duration(t)
	runPeople := rate * int(d.Seconds())
	p := startPostgresRig(t, payRate*int(d.Seconds()), runPeople+rate*int(pgWarmUp.Seconds()))
	leader := p.c.waitLeader(10 * time.Second)
	p.warmUp(runPeople)
	var killed time.Time
	var did string
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(d / 3)
		killed = time.Now()
		did = act(p.c)
	}()
	payDone := make(chan struct{})
	go func() {
		defer close(payDone)
		p.payGen.open(context.Background(), payRate, d, p.pay)
	}()
	loadStart := time.Now()
	load := p.people(d)
	loadEnd := time.Now()
	<-done
	<-payDone
	o := p.settle("postgres "+name, load, killed, loadStart, loadEnd)
	newLeader := p.c.waitLeader(10 * time.Second)
	s := o.signUps
	lines := []string{
		fmt.Sprintf("postgres %s: %d sign-ins and sign-ups at %d/s (one in %d a sign-up) and %d payers at %d/s over 2 APIs, 3 workers, 2 schedulers; Patroni leader %s, %s at +%.0fs; leader afterwards %s",
			name, len(load), rate, signUpEvery, len(p.payers), payRate, leader.name, did, killed.Sub(loadStart).Seconds(), newLeader.name),
		fmt.Sprintf("sign-ins and sign-ups: %d answered 2xx (%d of them sign-ups answered 201), %d 503 \"no está disponible\", %d 503 \"mucha demanda\" (admission control: %d before the failover, %d during it, %d after), %d other; codes by WhatsApp: %d delivered, %d never, %d twice",
			s.sent, o.signedUp, s.unavailable, s.refused, o.busyBefore, o.busyDuring, o.busyAfter, len(s.bad), s.delivered, s.lost, s.duplicated),
		fmt.Sprintf("payments: %d checkout answers 2xx, %d 503; %d events delivered in %d attempts (%d answered 503), %d applied (paid), %d receipts missing, %d extra receipts",
			o.checkoutOK, o.checkout503, o.paid, o.deliveries, o.webhook503, o.paid-o.lostPayments, o.missingReceipts, o.dupReceipts),
		fmt.Sprintf("sign-in and sign-up latency before the failover p50 %s p99 %s; after recovery p50 %s p99 %s",
			ms(o.p50Before), ms(o.p99Before), ms(o.p50After), ms(o.p99After)),
		fmt.Sprintf("scheduler ticks: %d lost, %d ran twice", len(o.lostTicks), len(o.repeatedTicks)),
		o.last(name),
	}
	record(t, "postgres "+name, lines)
	// A long window prints what closed it, second by second, so that a failure in CI names its
	// cause (the rig's logs follow when the test fails).
	if os.Getenv("SCALE_DEBUG") != "" || o.window > 20*time.Second {
		fmt.Printf("the window closed with: %s; the kill at +%.1f s of the load\n", o.lastDown, killed.Sub(loadStart).Seconds())
		timeline(load, loadStart)
	}
	bad := append(append([]string(nil), s.bad...), o.bad...)
	if len(bad) > 20 {
		bad = append(bad[:20], fmt.Sprintf("… and %d more", len(bad)-20))
	}
	require.Empty(t, bad, "every answer is 2xx or a 503 with the Spanish message")
	require.Zero(t, o.fiveXXOther, "no 5xx other than 503")
	require.Zero(t, o.lostUsers, "every sign-up answered 201 has its users row on the new leader")
	require.Zero(t, o.lostCodes, "every sign-in answered 2xx has its code's row on the new leader")
	require.Zero(t, o.lostPayments, "every payment event answered 2xx is applied")
	require.Zero(t, o.missingReceipts, "every applied payment has its receipt")
	require.Zero(t, s.lost, "every sign-in or sign-up answered 2xx has its code delivered: %s", strings.Join(o.undelivered, "; "))
	require.Zero(t, o.duplicated, "nothing applied or delivered twice")
	require.Empty(t, o.lostTicks, "no scheduler tick lost")
	require.Empty(t, o.repeatedTicks, "no scheduler tick ran twice")
	require.Positive(t, s.sent)
	require.Positive(t, o.paid)
	if id == "postgres-switchover" {
		require.Zero(t, s.unavailable+s.refused+o.checkout503+o.webhook503, "a switchover fails no request")
	} else {
		require.Less(t, o.window, 30*time.Second, "the cluster recovered")
	}
}

// postgres-kill: the leader's postmaster SIGKILLed; its Patroni restarts it (crash recovery) or
// hands over, whichever comes first.
func TestPostgresKillUnderLoad(t *testing.T) {
	postgresFailover(t, "postgres-kill", func(c *patroniCluster) string {
		l := c.role("leader")
		c.killPostmaster(l)
		return "its postmaster SIGKILLed"
	})
}

// postgres-host: the leader's host is lost: its Patroni and its Postgres SIGKILLed together and
// never brought back. The synchronous standby takes over once the leader key expires (ttl).
func TestPostgresHostLostUnderLoad(t *testing.T) {
	postgresFailover(t, "postgres-host", func(c *patroniCluster) string {
		l := c.role("leader")
		c.killHost(l)
		return "its Patroni and Postgres SIGKILLed together (host lost)"
	})
}

// postgres-switchover: a planned switchover to the synchronous standby under load.
func TestPostgresSwitchoverUnderLoad(t *testing.T) {
	postgresFailover(t, "postgres-switchover", func(c *patroniCluster) string {
		l, s := c.role("leader"), c.role("sync_standby")
		if out, err := c.patronictl("switchover", "--leader", l.name, "--candidate", s.name, "--force"); err != nil {
			t.Errorf("patronictl switchover: %v\n%s", err, out)
		}
		return "patronictl switchover to the synchronous standby " + s.name
	})
}

// timeline prints, second by second, how the sign-ups were answered (SCALE_DEBUG).
func timeline(as []attempt, start time.Time) {
	type sec struct {
		ok, down, busy, other int
		worst                 time.Duration
	}
	var secs []sec
	for _, a := range as {
		if a.at.IsZero() {
			continue
		}
		i := int(a.at.Sub(start).Seconds())
		for len(secs) <= i {
			secs = append(secs, sec{})
		}
		switch {
		case a.status/100 == 2:
			secs[i].ok++
		case spanish503(a.status, a.message) && strings.Contains(a.message, "mucha demanda"):
			secs[i].busy++
		case spanish503(a.status, a.message):
			secs[i].down++
		default:
			secs[i].other++
		}
		secs[i].worst = max(secs[i].worst, a.latency())
	}
	for i, s := range secs {
		fmt.Printf("  +%2ds: %3d ok, %3d 503 unavailable, %3d 503 busy, %d other, slowest %s\n", i, s.ok, s.down, s.busy, s.other, ms(s.worst))
	}
}

// postgres-sync-cost: what synchronous replication adds to a sign-up. The same open-loop 200
// sign-ups/s for half the run each with synchronous_mode on (a commit waits for the synchronous
// standby's flush) and then off (Patroni empties synchronous_standby_names: asynchronous
// replication), after a few seconds of warm-up. On loopback with fsync off this is the round
// trip to the standby's walreceiver, not a network's or a disk's.
func TestPostgresSyncCost(t *testing.T) {
	scenario(t, "postgres-sync-cost")
	d := duration(t)
	p := startPostgresRig(t, 0, 0)
	const warm = 3 * time.Second
	phase := d / 2
	warmUp := p.signUps(warm, 0)
	n := len(warmUp)
	syncOn := p.signUps(phase, n)
	n += len(syncOn)
	out, err := p.c.patronictl("edit-config", "--set", "synchronous_mode=false", "--force")
	require.NoError(t, err, out)
	// Off once the leader no longer names a synchronous standby (Patroni reloads Postgres).
	require.Eventually(t, func() bool {
		var names string
		if err := p.r.db.Get(&names, `SHOW synchronous_standby_names`); err != nil {
			return false
		}
		return names == "" && p.c.role("sync_standby") == nil
	}, 30*time.Second, 200*time.Millisecond, "synchronous replication never turned off")
	syncOff := p.signUps(phase, n)
	all := append(append(append([]attempt(nil), warmUp...), syncOn...), syncOff...)
	p.r.drain(all, 60*time.Second)
	o := p.r.judge("postgres sync cost", all, time.Time{}, time.Time{}, warmUp[0].at, time.Now())
	ok := func(a attempt) bool { return a.status == 201 }
	count := func(as []attempt) (n, busy int) {
		for _, a := range as {
			if a.status == 201 {
				n++
			} else if spanish503(a.status, a.message) {
				busy++
			}
		}
		return n, busy
	}
	onN, onBusy := count(syncOn)
	offN, offBusy := count(syncOff)
	p50On, p99On := quantileOf(syncOn, ok, 0.5), quantileOf(syncOn, ok, 0.99)
	p50Off, p99Off := quantileOf(syncOff, ok, 0.5), quantileOf(syncOff, ok, 0.99)
	lines := []string{
		fmt.Sprintf("postgres sync cost: sign-ups at %d/s over 2 APIs, 3 workers, 2 schedulers; Patroni cluster of 3, %.0f s with synchronous_mode on, then %.0f s off (after %.0f s of warm-up)",
			rate, phase.Seconds(), phase.Seconds(), warm.Seconds()),
		fmt.Sprintf("synchronous_mode on:  %d answered 201, %d refused 503; sign-up p50 %s, p99 %s", onN, onBusy, ms(p50On), ms(p99On)),
		fmt.Sprintf("synchronous_mode off: %d answered 201, %d refused 503; sign-up p50 %s, p99 %s", offN, offBusy, ms(p50Off), ms(p99Off)),
		fmt.Sprintf("codes by WhatsApp: %d delivered, %d never, %d twice", o.delivered, o.lost, o.duplicated),
		fmt.Sprintf("postgres sync-cost: p50 %+.1f ms, p99 %+.1f ms with synchronous replication",
			float64((p50On-p50Off).Microseconds())/1000, float64((p99On-p99Off).Microseconds())/1000),
	}
	record(t, "postgres sync cost", lines)
	if os.Getenv("SCALE_DEBUG") != "" {
		timeline(all, warmUp[0].at)
	}
	require.Empty(t, o.bad)
	require.Zero(t, o.lost)
	require.Zero(t, o.duplicated)
}
