package screening_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/bench/benchdata"
	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/screening"
)

// TestRescreenBesideTheAPI is the second half of `make bench-screening` (issue 53): the real
// binaries as the Procfile starts them (`perfilseguro api` and `perfilseguro worker`, production
// mode), a generated list of 100,000 entries stored as the UN list's new version, and 100,000
// files (operation people) to re-screen. vegeta loads the API's public lookup (GET
// /api/verify/{profileId}) in rounds before the re-screen, while the worker runs it (aml:rescreen
// on the low queue) and after it, at a constant rate, so the p99 with and without it are read in the same run. It
// reports the re-screen's duration (from its own run row) and the worker's memory before and
// after it loaded the lists.
func TestRescreenBesideTheAPI(t *testing.T) {
	if os.Getenv("BENCH_SCREENING") != "1" {
		t.Skip("set BENCH_SCREENING=1 (make bench-screening)")
	}
	files := benchdata.EnvInt("BENCH_RESCREEN_FILES", 100_000)
	users := benchdata.EnvInt("BENCH_USERS", 20_000)
	secs := benchdata.EnvInt("BENCH_SECONDS", 10)
	rate := benchdata.EnvInt("BENCH_RATE", 300) // public lookups per second
	ctx := context.Background()

	db, dsn := pgtest.New(t)
	benchdata.Seed(t, db, users)
	dir := t.TempDir()

	// The list: 100,000 generated entries as the live UN list's new version.
	g := newGenerator(53)
	entries := make([]screening.Entry, listSize)
	for i := range entries {
		entries[i] = g.entry(i)
	}
	store := &postgres.Store{DB: db}
	res, err := store.ImportScreeningList(ctx, 0, false, screening.List{Name: screening.UNListName, Kind: screening.KindUN,
		Source: "generated", SHA256: fmt.Sprintf("%064d", 1), Entries: entries})
	require.NoError(t, err)

	// The files: one operation per person, screened before (against an earlier version), people
	// drawn as the in-process benchmark's probes (half listed people written differently).
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_bench', 'CasaLista', 'casalista.mx') RETURNING id`))
	seedFiles(t, db, partner, files, entries)

	opt, _ := redistest.New(t)
	env := procEnv(dsn, redistest.URL(opt))
	apiAddr := bintest.FreeAddr(t)
	startProc(t, "api", append(env, "HTTP_ADDR="+apiAddr, "METRICS_ADDR="+bintest.FreeAddr(t)), filepath.Join(dir, "api.log"))
	// The worker in development mode: production's would refuse the made-up wallet certificates
	// at start, and nothing the re-screen does depends on the mode.
	worker := startProc(t, "worker", []string{"DATABASE_URL=" + dsn, "REDIS_URL=" + redistest.URL(opt), "DATA_DIR=" + dir,
		"SECRET_KEY=bench-secret-0123456789abcdef0123456789abcdef", "DOCUMENT_DATA_KEY=bench-document-key-0123456789abcdef012345",
		"METRICS_ADDR=" + bintest.FreeAddr(t)}, filepath.Join(dir, "worker.log"))
	waitUp(t, "http://"+apiAddr+"/readyz")

	// Constant-rate load (vegeta, open loop): a closed loop saturating the API's cores would leave
	// a background job none, and the p99s would be taken at different loads.
	vegeta := vegetaBin(t)
	var targets strings.Builder
	for _, id := range benchdata.ProfileIDs(t, db) {
		fmt.Fprintf(&targets, "GET http://%s/api/verify/%s\n", apiAddr, id)
	}
	targetsFile := filepath.Join(dir, "targets.txt")
	require.NoError(t, os.WriteFile(targetsFile, []byte(targets.String()), 0o644))
	round := func(label string, d int) loadRound {
		results := filepath.Join(dir, "results.bin")
		out, err := exec.Command(vegeta, "attack", "-rate", fmt.Sprintf("%d/s", rate), "-duration", fmt.Sprintf("%ds", d),
			"-targets", targetsFile, "-timeout", "10s", "-keepalive=true", "-max-workers", "2000", "-output", results).CombinedOutput()
		require.NoError(t, err, "%s", out)
		rep, err := exec.Command(vegeta, "report", "-type", "json", results).Output()
		require.NoError(t, err)
		var v struct {
			Requests   int     `json:"requests"`
			Throughput float64 `json:"throughput"`
			Latencies  struct {
				P50 time.Duration `json:"50th"`
				P99 time.Duration `json:"99th"`
			} `json:"latencies"`
		}
		require.NoError(t, json.Unmarshal(rep, &v), "%s", rep)
		r := loadRound{label: label, rps: v.Throughput, p50: v.Latencies.P50, p99: v.Latencies.P99}
		t.Logf("%-28s %7.0f req/s p50 %-9v p99 %v", label, r.rps, r.p50, r.p99)
		return r
	}
	round("warm-up", secs)
	loadBefore, busy := loadavg(), othersBusy()
	var rounds []loadRound
	for range 2 {
		rounds = append(rounds, round("without re-screen (before)", secs))
	}
	rssBefore := procMemory(worker.Process.Pid, "VmRSS")

	client := asynq.NewClient(opt)
	defer client.Close()
	task, err := jobs.NewAMLRescreenTask(jobs.AMLRescreenReason(res.VersionID))
	require.NoError(t, jobs.Enqueue(ctx, client, task, err))
	reason := jobs.AMLRescreenReason(res.VersionID)
	finished := func() bool {
		var n int
		require.NoError(t, db.Get(&n, `SELECT count(*) FROM aml_rescreens WHERE reason = $1 AND finished_at IS NOT NULL`, reason))
		return n == 1
	}
	deadline := time.Now().Add(30 * time.Minute)
	for !finished() {
		require.True(t, time.Now().Before(deadline), "the re-screen did not finish in 30 minutes")
		require.NotEqual(t, "Z", procState(worker.Process.Pid), "the worker is gone (worker.log)")
		rounds = append(rounds, round("during the re-screen", secs))
	}
	rssAfter, hwm := procMemory(worker.Process.Pid, "VmRSS"), procMemory(worker.Process.Pid, "VmHWM")
	for range 2 {
		rounds = append(rounds, round("without re-screen (after)", secs))
	}
	var run struct {
		People  int       `db:"people"`
		NewHits int       `db:"new_hits"`
		Started time.Time `db:"started_at"`
		Ended   time.Time `db:"finished_at"`
	}
	require.NoError(t, db.Get(&run, `SELECT people, new_hits, started_at, finished_at FROM aml_rescreens WHERE reason = $1`, reason))
	took := run.Ended.Sub(run.Started)
	var screenings int
	require.NoError(t, db.Get(&screenings, `SELECT count(*) FROM aml_screenings`))

	var sb strings.Builder
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	fmt.Fprintf(&sb, "\n## Re-screening %d files in the worker beside the API's public lookup, %s, commit %s\n\n",
		files, time.Now().UTC().Format("2006-01-02"), strings.TrimSpace(string(commit)))
	fmt.Fprintf(&sb, "`make bench-screening` (bench/screening, TestRescreenBesideTheAPI): `perfilseguro api` and `perfilseguro worker` "+
		"as the Procfile starts them, local Postgres and Redis; a generated list of %d entries stored as the "+
		"UN list's new version; %d files (one person per operation, half listed people written differently) re-screened by "+
		"`aml:rescreen` on the worker's low queue (the worker in development mode, the API in production) while vegeta "+
		"(its own process, open loop) asks GET /api/verify/{profileId} at a constant %d/s over %d users in rounds of %d s. %d cores (%s); load average before the rounds %s; other "+
		"processes using the CPU (top): %s — other engineers were building and testing on this machine.\n\n",
		listSize, files, rate, users, secs, runtime.NumCPU(), cpuModel(), loadBefore, busy)
	sb.WriteString("| round | requests/s | p50 | p99 |\n|---|---:|---:|---:|\n")
	var without, with []time.Duration
	for _, r := range rounds {
		fmt.Fprintf(&sb, "| %s | %.0f | %v | %v |\n", r.label, r.rps, r.p50, r.p99)
		if strings.HasPrefix(r.label, "during") {
			with = append(with, r.p99)
		} else {
			without = append(without, r.p99)
		}
	}
	fmt.Fprintf(&sb, "\nRe-screen: **%v** for %d people (%.0f people/s; target ≤ 10 min), %d screenings recorded, %d possible hits "+
		"(the generated list is built to crowd names with namesakes: most people have some). Public lookup p99, median of "+
		"the rounds: **%v without** the re-screen, **%v during** it. Worker memory (VmRSS): %.0f MB before, %.0f MB after "+
		"loading the lists and re-screening (peak %.0f MB); the lists' entries and index alone are measured in the table "+
		"above (heap after GC). Load average after the run: %s.\n",
		took.Round(time.Second), run.People, float64(run.People)/took.Seconds(), screenings, run.NewHits,
		medianOf(without), medianOf(with), rssBefore/1024, rssAfter/1024, hwm/1024, loadavg())
	t.Log(sb.String())
	appendReport(t, sb.String())
}

// seedFiles writes files operations with one person each, copied from a document (name, birth
// date) and screened before; their names drawn as the in-process benchmark's probes.
func seedFiles(t *testing.T, db *sqlx.DB, partner int64, files int, entries []screening.Entry) {
	t.Helper()
	start := time.Now()
	_, err := db.Exec(`INSERT INTO aml_operations (id, partner_id, test_mode, kind, amount_centavos, operation_date,
		property_reference, business_role, created_by_label, retention_until)
		SELECT 'op_' || lpad(g::text, 24, '0'), $1, false, 'compraventa', 500000000, current_date - (g % 3000),
		       'Inmueble ' || g, 'intermediario', 'bench', (current_date - (g % 3000) + interval '10 years')::date
		FROM generate_series(1, $2) g`, partner, files)
	require.NoError(t, err)
	tx, err := db.Begin()
	require.NoError(t, err)
	stmt, err := tx.Prepare(pq.CopyIn("aml_operation_people", "operation_id", "role", "screened_name", "name_source", "birth_date", "screened_at"))
	require.NoError(t, err)
	g := newGenerator(11)
	now := time.Now()
	for i := 1; i <= files; i++ {
		p := g.probe(entries)
		name := p.Name
		if name == "" {
			name = p.GivenNames + " " + p.Surnames
		}
		var birth any
		if !p.BirthDate.IsZero() {
			birth = p.BirthDate.Format(time.DateOnly)
		}
		_, err = stmt.Exec(fmt.Sprintf("op_%024d", i), "comprador", name, "document", birth, now)
		require.NoError(t, err)
	}
	_, err = stmt.Exec()
	require.NoError(t, err)
	require.NoError(t, stmt.Close())
	require.NoError(t, tx.Commit())
	_, err = db.Exec(`ANALYZE aml_operations; ANALYZE aml_operation_people`)
	require.NoError(t, err)
	t.Logf("seeded %d files in %v", files, time.Since(start).Round(time.Millisecond))
}

// procEnv is the production environment of the Procfile's processes, with made-up provider
// settings (nothing here calls a provider) and the public-lookup limits out of the way (all of
// the load generator's requests come from one address).
func procEnv(dsn, redisURL string) []string {
	return []string{"APP_ENV=production", "DATABASE_URL=" + dsn, "REDIS_URL=" + redisURL, "PUBLIC_BASE_URL=https://perfilseguro.bench",
		"SECRET_KEY=bench-secret-0123456789abcdef0123456789abcdef", "DOCUMENT_DATA_KEY=bench-document-key-0123456789abcdef012345",
		"WHATSAPP_ACCESS_TOKEN=bench", "WHATSAPP_PHONE_NUMBER_ID=1", "TWILIO_ACCOUNT_SID=bench", "TWILIO_AUTH_TOKEN=bench",
		"TWILIO_FROM=+15550000000", "SMTP_HOST=127.0.0.1", "DIDIT_API_KEY=bench", "DIDIT_WORKFLOW_ID=bench", "PAYMENTS=off",
		"DIDIT_WEBHOOK_SECRET=bench", "APPLE_PASS_CERT_PEM=bench", "APPLE_PASS_KEY_PEM=bench", "APPLE_WWDR_PEM=bench",
		"APNS_KEY_ID=bench", "APNS_PRIVATE_KEY_PEM=bench", "GOOGLE_WALLET_SERVICE_ACCOUNT_JSON={}",
		"PUBLIC_MISSES_PER_MINUTE=100000000", "PUBLIC_HITS_PER_MINUTE=100000000", "PUBLIC_MISS_BURST=100000", "PUBLIC_HIT_BURST=100000",
		"SHUTDOWN_GRACE=2s", "CREDENTIAL_ISSUER_KEYS_PEM=" + issuerKey()}
}

func issuerKey() string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// startProc runs `perfilseguro <sub>` with env, logging to logFile, stopped with SIGTERM at the end.
func startProc(t *testing.T, sub string, env []string, logFile string) *exec.Cmd {
	t.Helper()
	f, err := os.Create(logFile)
	require.NoError(t, err)
	cmd := exec.Command(bintest.Path(t), sub)
	cmd.Env, cmd.Stdout, cmd.Stderr = append(os.Environ(), env...), f, f
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		f.Close()
	})
	return cmd
}

func waitUp(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		require.True(t, time.Now().Before(deadline), "%s never became ready", url)
		time.Sleep(100 * time.Millisecond)
	}
}

type loadRound struct {
	label    string
	rps      float64
	p50, p99 time.Duration
}

// vegetaBin finds vegeta on PATH or where `go install` put it (scripts/ensure-tools.sh --bench).
func vegetaBin(t *testing.T) string {
	if p, err := exec.LookPath("vegeta"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	require.NoError(t, err)
	p := filepath.Join(strings.TrimSpace(string(out)), "bin", "vegeta")
	_, err = os.Stat(p)
	require.NoError(t, err, "vegeta is missing: scripts/ensure-tools.sh --bench installs it")
	return p
}

func medianOf(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

// procState is a process's state letter (Z: it exited and waits to be reaped).
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "Z"
	}
	if i := strings.LastIndexByte(string(b), ')'); i > 0 && len(b) > i+2 {
		return string(b[i+2])
	}
	return ""
}

// procMemory reads a /proc/<pid>/status field in kB (VmRSS, VmHWM).
func procMemory(pid int, field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// othersBusy names the processes using the CPU besides this benchmark's, Postgres and Redis.
func othersBusy() string {
	out, err := exec.Command("top", "-b", "-n", "2", "-d", "1", "-w", "200").Output()
	if err != nil {
		return "unknown"
	}
	samples := strings.Split(string(out), "\ntop - ")
	ours := map[string]bool{"perfilseguro": true, "postgres": true, "redis-server": true, "top": true, "screening.test": true, "vegeta": true}
	var busy []string
	header := false
	for _, line := range strings.Split(samples[len(samples)-1], "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "PID" {
			header = true
			continue
		}
		if !header || len(f) < 12 || f[8] == "0.0" || ours[f[11]] || len(busy) == 6 {
			continue
		}
		busy = append(busy, f[11]+" "+f[8]+"%")
	}
	if len(busy) == 0 {
		return "nothing above 0.0% CPU"
	}
	return strings.Join(busy, ", ")
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "model name") {
			return strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
		}
	}
	return "unknown CPU"
}

func appendReport(t *testing.T, text string) {
	t.Helper()
	path := os.Getenv("BENCH_OUT")
	if path == "" {
		path = "../../BENCHMARKS.md"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString(text)
	require.NoError(t, err)
	t.Logf("results appended to %s", path)
}
