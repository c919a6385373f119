package scale

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// rate is the open-loop load: sign-ins per second, spread over both APIs.
const rate = 200

// heartbeatEvery is the schedulers' heartbeat interval in the rig: its ticks are counted.
const heartbeatEvery = 2 * time.Second

// scenario skips the test unless SCALE_SCENARIOS (a comma list; empty: all) names it. The names:
// sentinel, cluster, rolling-restart, postgres-kill, postgres-host, postgres-switchover,
// postgres-sync-cost.
func scenario(t *testing.T, name string) {
	list := strings.TrimSpace(os.Getenv("SCALE_SCENARIOS"))
	if list == "" {
		return
	}
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == name {
			return
		}
	}
	t.Skipf("SCALE_SCENARIOS=%s leaves out %s", list, name)
}

// duration is SCALE_SECONDS (60 for make scale, 20 in make test); unset skips the rig.
func duration(t *testing.T) time.Duration {
	v := os.Getenv("SCALE_SECONDS")
	if v == "" {
		t.Skip("the scale rig runs with SCALE_SECONDS set (make scale; make test sets 20)")
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "SCALE_SECONDS")
	require.GreaterOrEqual(t, n, 12, "SCALE_SECONDS: at least 12 s, so every phase has room")
	return time.Duration(n) * time.Second
}

// rig is the processes of a deployment on several machines, on loopback.
type rig struct {
	t          *testing.T
	db         *sqlx.DB
	wa         *fakeWhatsApp
	apis       []*proc
	workers    []*proc
	schedulers []*proc
	phones     []string
}

func newRig(t *testing.T, topo *topology, people int) *rig {
	t.Helper()
	db, dsn := pgtest.New(t)
	return newRigOn(t, topo, db, dsn, people, nil)
}

// newRigOn starts the processes against the database at dsn (db reaches it too), with extra
// variables for every process.
func newRigOn(t *testing.T, topo *topology, db *sqlx.DB, dsn string, people int, extra map[string]string) *rig {
	t.Helper()
	r := &rig{t: t, db: db, wa: newFakeWhatsApp(t)}
	// People who can sign in with their WhatsApp number, one per sign-in of the run.
	if people > 0 {
		_, err := db.Exec(`INSERT INTO users (nombre, phone_number, id_validado, verification_level, is_phone_verified)
		SELECT 'Persona ' || i, '+5255' || lpad(i::text, 8, '0'),
		       'PS-' || to_char(i / 1000000, 'FM0000') || '-' || to_char((i / 100) % 10000, 'FM0000') || '-' || to_char(i % 100, 'FM00'),
		       1, true
		FROM generate_series(1, $1) AS i`, people)
		require.NoError(t, err)
	}
	for i := 1; i <= people; i++ {
		r.phones = append(r.phones, fmt.Sprintf("55%08d", i))
	}
	env := map[string]string{"DATABASE_URL": dsn, "RATE_LIMIT_SEND_PER_IP": "100000000", "SHUTDOWN_DRAIN": "1s",
		"SCHEDULER_HEARTBEAT_INTERVAL": heartbeatEvery.String(), "WORKER_CONCURRENCY": "10", "DATA_DIR": t.TempDir()}
	for k, v := range topo.env {
		env[k] = v
	}
	for k, v := range r.wa.env() {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	for i := 0; i < 2; i++ {
		port := freePort(t)
		apiEnv := map[string]string{"HTTP_ADDR": fmt.Sprintf("127.0.0.1:%d", port),
			"PUBLIC_BASE_URL": fmt.Sprintf("http://127.0.0.1:%d", port)}
		for k, v := range env {
			apiEnv[k] = v
		}
		r.apis = append(r.apis, startProc(t, "api", apiEnv))
	}
	for i := 0; i < 3; i++ {
		r.workers = append(r.workers, startProc(t, "worker", env))
	}
	for i := 0; i < 2; i++ {
		r.schedulers = append(r.schedulers, startProc(t, "scheduler", env))
	}
	return r
}

func (r *rig) apiURLs() []string {
	var out []string
	for _, a := range r.apis {
		out = append(out, fmt.Sprintf("http://127.0.0.1:%d", a.port))
	}
	return out
}

// recipient is how the fake WhatsApp API sees a Mexican mobile (521 and ten digits).
func recipient(phone string) string { return "521" + phone }

// outcome is what a run proved, for the assertions and the report.
type outcome struct {
	name             string
	sent, delivered  int // sign-ins answered 2xx; of those, with their code delivered
	lost, duplicated int
	// resent counts codes sent again by the job asynq handed out after the SIGKILLed worker's
	// lease ran out: the worker died between WhatsApp's acceptance and the delivery mark (a
	// millisecond window no provider without idempotency keys can close; at-least-once).
	resent                   int
	unavailable              int // answered 503 with the Spanish message
	refused                  int // refused at once by admission control (503, "mucha demanda") while requests waited on Redis
	cut                      int // in flight to the API that was killed
	bad                      []string
	window                   time.Duration // from the Redis kill to the last 503
	p99Before, p99After      time.Duration
	providerP99              time.Duration
	lostTicks, repeatedTicks []string
}

func (o outcome) summary() string {
	return fmt.Sprintf("scale: sent %d, delivered %d, lost %d, duplicated %d, failover window %.1f s",
		o.sent, o.delivered, o.lost, o.duplicated, o.window.Seconds())
}

// resentAfterKill reports whether a code's second delivery is the recovered job of the killed
// worker: its first delivery happened before the kill, the second after the lease (30 s) and the
// claim window (20 s) ran out. Any other repeat is a duplicate.
func resentAfterKill(got []delivery, code string, killed time.Time) bool {
	if killed.IsZero() {
		return false
	}
	var times []time.Time
	for _, d := range got {
		if d.code == code {
			times = append(times, d.at)
		}
	}
	return len(times) == 2 && times[0].Before(killed.Add(100*time.Millisecond)) && times[1].After(killed.Add(15*time.Second))
}

// drain waits until every sign-in answered 2xx has its code delivered (a killed worker's jobs
// come back when asynq's lease on them runs out), at most limit.
func (r *rig) drain(attempts []attempt, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		missing := 0
		for _, a := range attempts {
			if a.status/100 == 2 && len(r.wa.codesTo(recipient(a.phone))) == 0 {
				missing++
			}
		}
		if missing == 0 {
			time.Sleep(3 * time.Second) // late duplicates would show now
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// judge counts deliveries by code and classifies every answer.
func (r *rig) judge(name string, attempts []attempt, redisKilled, procsKilled time.Time, loadStart, loadEnd time.Time) outcome {
	o := outcome{name: name}
	var lastUnavailable time.Time
	var provider []time.Duration
	for _, a := range attempts {
		if a.at.IsZero() {
			continue
		}
		switch {
		case a.status/100 == 2:
			o.sent++
			got := r.wa.codesTo(recipient(a.phone))
			seen := map[string]int{}
			for _, d := range got {
				seen[d.code]++
			}
			if len(got) == 0 {
				o.lost++
			} else {
				o.delivered++
				provider = append(provider, got[0].at.Sub(a.at))
			}
			for code, n := range seen {
				if n < 2 {
					continue
				}
				if resentAfterKill(got, code, procsKilled) {
					o.resent += n - 1
				} else {
					o.duplicated += n - 1
				}
			}
			if len(seen) > 1 {
				o.bad = append(o.bad, fmt.Sprintf("%s got %d different codes for one sign-in", a.phone, len(seen)))
			}
		case spanish503(a.status, a.message):
			if down(a.status, a.message) {
				o.unavailable++
			} else {
				o.refused++ // requests waiting on the failed Redis slowed the API: it refused the rest at once
			}
			if a.done.After(lastUnavailable) {
				lastUnavailable = a.done
			}
		case a.status == 0 && !procsKilled.IsZero() && a.at.Before(procsKilled.Add(time.Second)) && a.done.After(procsKilled.Add(-100*time.Millisecond)):
			o.cut++ // in flight to the API that was killed: the connection died with it
		default:
			o.bad = append(o.bad, fmt.Sprintf("%s at +%.2fs: status %d %q error %v", a.phone, a.at.Sub(loadStart).Seconds(), a.status, a.message, a.err))
		}
		if a.latency() > 5*time.Second {
			o.bad = append(o.bad, fmt.Sprintf("%s took %s", a.phone, a.latency()))
		}
	}
	if !redisKilled.IsZero() && lastUnavailable.After(redisKilled) {
		o.window = lastUnavailable.Sub(redisKilled)
	}
	recovered := loadStart
	if !redisKilled.IsZero() {
		recovered = redisKilled.Add(o.window + time.Second)
	}
	o.p99Before = p99(attempts, func(a attempt) bool {
		return a.status/100 == 2 && (redisKilled.IsZero() || a.at.Before(redisKilled))
	})
	o.p99After = p99(attempts, func(a attempt) bool {
		return a.status/100 == 2 && !redisKilled.IsZero() && a.at.After(recovered) &&
			(procsKilled.IsZero() || a.at.Before(procsKilled) || a.at.After(procsKilled.Add(time.Second)))
	})
	o.providerP99 = quantile(provider, 0.99)
	o.lostTicks, o.repeatedTicks = r.ticks(loadStart, loadEnd)
	return o
}

// ticks lists the scheduler heartbeat ticks of the run that never ran, and those that ran twice.
func (r *rig) ticks(from, to time.Time) (lost, repeated []string) {
	var rows []struct {
		Tick string `db:"tick"`
		Runs int    `db:"runs"`
	}
	require.NoError(r.t, r.db.Select(&rows, `SELECT tick, runs FROM job_heartbeats WHERE source = 'scheduler'`))
	ran := map[string]int{}
	for _, row := range rows {
		ran[row.Tick] = row.Runs
		if row.Runs > 1 {
			repeated = append(repeated, row.Tick)
		}
	}
	// Ticks fire on multiples of the interval; the first and last seconds are left out.
	for ts := from.Add(3 * time.Second).Truncate(heartbeatEvery).Add(heartbeatEvery); ts.Before(to.Add(-3 * time.Second)); ts = ts.Add(heartbeatEvery) {
		tick := "heartbeat:" + ts.UTC().Format(time.RFC3339)
		if ran[tick] == 0 {
			lost = append(lost, tick)
		}
	}
	return lost, repeated
}

func (r *rig) report(o outcome, extra string) {
	latency := fmt.Sprintf("API p99 before the kill %s, after recovery %s; provider p99 (scheduled → WhatsApp) %s",
		ms(o.p99Before), ms(o.p99After), ms(o.providerP99))
	if o.p99After == 0 {
		latency = fmt.Sprintf("API p99 %s; provider p99 (scheduled → WhatsApp) %s", ms(o.p99Before), ms(o.providerP99))
	}
	lines := []string{
		fmt.Sprintf("%s: %d sign-ins at %d/s over 2 APIs, 3 workers, 2 schedulers%s", o.name, o.sent+o.unavailable+o.refused+o.cut+len(o.bad), rate, extra),
		fmt.Sprintf("answers: %d ok, %d 503 with the Spanish message, %d refused at once past capacity (503), %d cut with the killed API, %d other",
			o.sent, o.unavailable, o.refused, o.cut, len(o.bad)),
		latency,
		fmt.Sprintf("scheduler ticks: %d lost, %d enqueued twice", len(o.lostTicks), len(o.repeatedTicks)),
		fmt.Sprintf("resent by the job recovered from the SIGKILLed worker (sent, then killed before the delivery mark): %d", o.resent),
		o.summary(),
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	if os.Getenv("SCALE_RECORD") == "1" {
		f, err := os.OpenFile(filepath.Join("..", "BENCHMARKS.md"), os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(r.t, err)
		defer f.Close()
		fmt.Fprintf(f, "\n### make scale — %s (%s, %s)\n\n```\n%s\n```\n", o.name, time.Now().UTC().Format("2006-01-02 15:04 UTC"),
			machine(), strings.Join(lines, "\n"))
	}
}

func machine() string {
	out, _ := os.ReadFile("/proc/cpuinfo")
	return fmt.Sprintf("%d CPUs shared by Postgres, the Redis processes, the 7 perfilseguro processes and the load generator, all on loopback",
		strings.Count(string(out), "processor\t:"))
}

func (r *rig) assertClean(o outcome) {
	t := r.t
	require.Empty(t, o.bad, "every answer is 2xx, a Spanish 503 or a request cut by the killed API")
	require.Zero(t, o.lost, "every sign-in answered 2xx has its code delivered")
	require.Zero(t, o.duplicated, "and only once")
	require.LessOrEqual(t, o.resent, 10, "at most the killed worker's jobs in flight are sent again")
	require.Empty(t, o.lostTicks, "no scheduler tick lost")
	require.Empty(t, o.repeatedTicks, "no scheduler tick enqueued twice")
	require.Positive(t, o.sent)
}

// failover runs the load while the primary holding the sign-in queue is killed at a third of the
// run, and a worker and an API at two thirds.
func failover(t *testing.T, topo *topology) {
	d := duration(t)
	r := newRig(t, topo, rate*int(d.Seconds()))
	gen := newLoadGen(r.apiURLs(), true)
	var redisKilled, procsKilled time.Time
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(d / 3)
		redisKilled = time.Now()
		topo.victim.kill()
		time.Sleep(d / 3)
		procsKilled = time.Now()
		r.workers[0].signal(syscall.SIGKILL)
		r.apis[0].signal(syscall.SIGKILL)
	}()
	loadStart := time.Now()
	attempts := gen.run(context.Background(), rate, d, r.phones)
	loadEnd := time.Now()
	<-done
	r.drain(attempts, 150*time.Second)
	o := r.judge(topo.name+" failover", attempts, redisKilled, procsKilled, loadStart, loadEnd)
	r.report(o, fmt.Sprintf("; Redis primary SIGKILLed at +%.0fs, a worker and an API at +%.0fs", redisKilled.Sub(loadStart).Seconds(), procsKilled.Sub(loadStart).Seconds()))
	r.assertClean(o)
	require.Less(t, o.window, 15*time.Second, "the topology recovered")
}

func TestSentinelFailoverUnderLoad(t *testing.T) {
	scenario(t, "sentinel")
	failover(t, startSentinel(t))
}

func TestClusterFailoverUnderLoad(t *testing.T) {
	scenario(t, "cluster")
	failover(t, startCluster(t))
}

// A deploy: every API and worker restarted one at a time with SIGTERM while the load runs. Not
// one request fails and not one job is lost.
func TestRollingRestartUnderLoad(t *testing.T) {
	scenario(t, "rolling-restart")
	d := duration(t)
	r := newRig(t, startSentinel(t), rate*int(d.Seconds()))
	gen := newLoadGen(r.apiURLs(), false)
	order := append(append([]*proc{}, r.apis...), r.workers...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		step := d / time.Duration(len(order)+1)
		for _, p := range order {
			time.Sleep(step)
			p.restart()
		}
	}()
	loadStart := time.Now()
	attempts := gen.run(context.Background(), rate, d, r.phones)
	loadEnd := time.Now()
	<-done
	r.drain(attempts, 60*time.Second)
	o := r.judge("rolling restart", attempts, time.Time{}, time.Time{}, loadStart, loadEnd)
	r.report(o, "; each API and worker restarted in turn with SIGTERM")
	r.assertClean(o)
	require.Zero(t, o.unavailable+o.refused, "a rolling restart fails no request")
}
