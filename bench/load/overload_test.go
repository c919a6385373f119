package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/bench/benchdata"
)

// TestOverload is `make bench-overload` (issue 27): sign-ups past capacity, measured from outside.
// The API and the worker run as the Procfile starts them (`perfilseguro api`, `perfilseguro
// worker`); the open-loop generator (bench/openloop) runs in its own process, each request from
// its own loopback address. The capacity is first measured closed-loop (32 sign-ups going at
// once); then the generator sends at 0.5×, 1×, 2× and 4× of it for 20 s each, with admission
// control on, and at 1×, 2× and 4× again with it off (ADMISSION_CONTROL=off) for comparison. After
// each rate it waits for the codes and checks that every admitted sign-up got exactly one and
// every refused one none. Runs only with BENCH_OVERLOAD=1; appends to BENCHMARKS.md.
func TestOverload(t *testing.T) {
	if os.Getenv("BENCH_OVERLOAD") == "" {
		t.Skip("BENCH_OVERLOAD=1 runs it (make bench-overload)")
	}
	secs := 20 * time.Second
	if s := os.Getenv("OVERLOAD_SECONDS"); s != "" {
		d, err := time.ParseDuration(s + "s")
		require.NoError(t, err)
		secs = d
	}
	gen, refuser := filepath.Join(t.TempDir(), "openloop"), filepath.Join(t.TempDir(), "barerefuser")
	for bin, pkg := range map[string]string{gen: "../openloop", refuser: "./barerefuser"} {
		build := exec.Command("go", "build", "-o", bin, pkg)
		build.Stderr = os.Stderr
		require.NoError(t, build.Run())
	}
	// OVERLOAD_SETUPS picks how the binary runs (all three by default: as the Procfile starts it,
	// as `make run` does, and with Postgres 5 ms away); OVERLOAD_CAPACITY skips the measurement
	// (and the runs without admission control); OVERLOAD_FACTORS picks the rates: the last two for
	// trying a change quickly, not for the record.
	setups := []setup{procfileSetup, devSetup, farSetup}
	if s := os.Getenv("OVERLOAD_SETUPS"); s != "" {
		setups = nil
		for _, name := range strings.Split(s, ",") {
			setups = append(setups, setup(strings.TrimSpace(name)))
		}
	}
	for _, how := range setups {
		t.Run(string(how), func(t *testing.T) { overload(t, how, gen, refuser, secs) })
	}
}

// overload is TestOverload for one setup: its capacity, its rates, its table.
func overload(t *testing.T, how setup, gen, refuser string, secs time.Duration) {
	var capacity float64
	load := loadAverage()
	if s := os.Getenv("OVERLOAD_CAPACITY"); s != "" {
		c, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		capacity = c
	}
	onlyFactors := parseFactors(t, os.Getenv("OVERLOAD_FACTORS"))

	var rows []overloadRow
	var perSignUp float64 // the server's cores' CPU-seconds per sign-up in the capacity run
	var bare bareRefusals // the cheapest refusals, at 4x the capacity
	// Without admission control first: the capacity is measured there, where no request is refused
	// (refused requests retried at once would make a closed loop measure the refusals).
	for _, admission := range []string{"off", "on"} {
		if admission == "off" && capacity > 0 {
			continue
		}
		t.Run("admission-"+admission, func(t *testing.T) { // its processes stop at its end
			r := newProcessRigAs(t, how, 20, append([]string{"ADMISSION_CONTROL=" + admission}, verifyProbeEnv...)...)
			profiles := r.seedProfiles(t, 1000)
			next := 0
			r.warmUp(t, gen, &next)
			if admission == "off" {
				capacity, perSignUp = r.closedLoopCapacity(t, gen, &next)
				t.Logf("capacity (closed loop, 32 at once): %.0f sign-ups/s, %.2f ms of CPU each", capacity, 1000*perSignUp)
				require.Greater(t, capacity, 10.0)
				bare = refuseBare(t, refuser, gen, &next, 4*capacity)
				t.Logf("a bare server refusing everything at 4x: p99 %.1f ms, %.2f ms of CPU each", bare.p99, 1000*bare.perRefusal)
			}
			factors := []float64{0.5, 1, 2, 4}
			if admission == "off" {
				factors = []float64{1, 2, 4}
			}
			if onlyFactors != nil {
				factors = onlyFactors
			}
			for _, f := range factors {
				settleConnections(t)
				before := r.messageCount()
				onArrival := gauge(r.metrics, "perfilseguro_admission_refused_on_arrival_total")
				stop, probed, limits := make(chan struct{}), make(chan verifyProbe), make(chan [3]float64)
				go func() { probed <- r.probeVerify(profiles, stop) }()
				go func() { lo, mid, hi := watchLimit(r.metrics, stop); limits <- [3]float64{lo, mid, hi} }()
				cpu, start := serverCPUSeconds(), time.Now()
				res := runOpenloop(t, gen, r.url, &next, "-rate", fmt.Sprintf("%.0f", f*capacity), "-duration", fmt.Sprint(secs))
				flood, elapsed := serverCPUSeconds()-cpu, time.Since(start)
				close(stop)
				row := overloadRow{factor: f, admission: admission, res: res, verify: <-probed, limit: <-limits}
				row.exactlyOne, row.shedWithCode = r.checkCodes(t, res.admitted, res.shed)
				row.cpu = splitCPU(flood, serverCPUSeconds()-cpu, perSignUp,
					len(res.admitted), len(res.shed), runtime.NumCPU(), elapsed.Seconds())
				row.delivered = r.messageCount() - before
				if d := gauge(r.metrics, "perfilseguro_admission_refused_on_arrival_total") - onArrival; !math.IsNaN(d) {
					row.onArrival = int(d) // NaN without admission control
				}
				t.Logf("%g× admission %s: sent %d, status %v, time-outs %d, p99 admitted %.1f ms, p99 refused %.1f ms (%d on arrival), delivered %d; public lookups %d, p99 %v, 503 %d, other %d; limit %v",
					f, admission, res.Sent, res.Status, res.Timeouts, res.AdmittedP99, res.ShedP99, row.onArrival, row.delivered,
					row.verify.sent, row.verify.p99, row.verify.refused, row.verify.other, row.limit)
				rows = append(rows, row)
			}
		})
	}
	// The same machine's capacity moved by a third within an hour (455-709 sign-ups/s, BENCHMARKS.md):
	// measured again after the rates, it shows how far the yardstick moved during them.
	var after float64
	if os.Getenv("OVERLOAD_CAPACITY") == "" {
		t.Run("capacity-after", func(t *testing.T) {
			r := newProcessRigAs(t, how, 20, "ADMISSION_CONTROL=off")
			next := 0
			r.warmUp(t, gen, &next)
			after, _ = r.closedLoopCapacity(t, gen, &next)
			t.Logf("capacity after the rates (closed loop, 32 at once): %.0f sign-ups/s", after)
		})
	}
	report := overloadReport(how, capacity, perSignUp, bare, after, secs, load, rows)
	fmt.Print(report)
	benchdata.AppendReport(t, report)
	for _, row := range rows {
		require.Equal(t, len(row.res.admitted), row.exactlyOne, "every admitted sign-up gets exactly one code (%gx, admission %s)", row.factor, row.admission)
		require.Zero(t, row.shedWithCode, "a refused sign-up sends nothing")
		require.Positive(t, row.verify.ok, "public lookups answered beside the sign-ups (%gx, admission %s)", row.factor, row.admission)
		if row.admission == "on" { // without it lookups time out behind the sign-ups: that is the comparison
			require.Zero(t, row.verify.other, "public lookups answer 200 or, refused, 503 (%gx)", row.factor)
		}
	}
}

// runOpenloop runs bench/openloop against url for people numbered from *next on, and moves *next past them.
func runOpenloop(t *testing.T, gen, url string, next *int, args ...string) openloopResult {
	out := filepath.Join(t.TempDir(), "out")
	argv := append([]string{gen, "-url", url, "-first", fmt.Sprint(*next),
		"-admitted", out + ".ok", "-shed", out + ".shed"}, args...)
	if cpus := generatorCPUs(); cpus != "" {
		argv = append([]string{"taskset", "-c", cpus}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	require.NoError(t, cmd.Run())
	var res openloopResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	res.admitted, res.shed = readLines(t, out+".ok"), readLines(t, out+".shed")
	*next += res.Sent + 1
	return res
}

// warmUp waits for the last flood's connections to leave TIME_WAIT, runs sign-ups closed-loop
// (8 at once, 5 s) to open connections and prepare statements, and waits for their codes, so
// that what is measured next starts on a warm, idle rig.
func (r *rig) warmUp(t *testing.T, gen string, next *int) {
	settleConnections(t)
	warm := runOpenloop(t, gen, r.url, next, "-closed", "8", "-duration", "5s")
	r.checkCodes(t, warm.admitted, nil)
}

// closedLoopCapacity is the sign-ups/s answered 2xx with 32 going at once for 10 s, and the
// CPU-seconds the server's cores (serverCPUSeconds) spent per sign-up, until the last one's code
// was delivered.
func (r *rig) closedLoopCapacity(t *testing.T, gen string, next *int) (perSecond, cpuPerSignUp float64) {
	cpu := serverCPUSeconds()
	res := runOpenloop(t, gen, r.url, next, "-closed", "32", "-duration", "10s")
	r.checkCodes(t, res.admitted, nil)
	if len(res.admitted) > 0 {
		cpuPerSignUp = (serverCPUSeconds() - cpu) / float64(len(res.admitted))
	}
	return res.Throughput, cpuPerSignUp
}

// parseFactors reads OVERLOAD_FACTORS ("2,4"); nil when unset.
func parseFactors(t *testing.T, s string) []float64 {
	if s == "" {
		return nil
	}
	var fs []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		require.NoError(t, err, "OVERLOAD_FACTORS")
		fs = append(fs, v)
	}
	return fs
}

type openloopResult struct {
	Sent        int            `json:"sent"`
	Status      map[string]int `json:"status"`
	Timeouts    int            `json:"timeouts"`
	Errors      int            `json:"errors"`
	AdmittedP50 float64        `json:"admitted_p50_ms"`
	AdmittedP99 float64        `json:"admitted_p99_ms"`
	ShedP99     float64        `json:"shed_p99_ms"`
	Throughput  float64        `json:"throughput_2xx_per_s"`

	admitted, shed []string
}

type overloadRow struct {
	factor       float64
	admission    string
	res          openloopResult
	delivered    int // messages the fake WhatsApp received during and after the rate
	exactlyOne   int // admitted sign-ups whose phone received exactly one message
	shedWithCode int // refused sign-ups whose phone received a message anyway
	verify       verifyProbe
	limit        [3]float64 // the admission limit during the rate: min, median, max
	onArrival    int        // refusals made on arrival (the rest waited their patience first)
	cpu          cpuShare   // the machine's CPU while the generator ran, and per refusal
}

// messageCount is how many messages the fake WhatsApp has received.
func (r *rig) messageCount() int {
	n := 0
	r.messages.Range(func(_, v any) bool { n += int(v.(*atomic.Int32).Load()); return true })
	return n
}

// checkCodes waits (up to a minute) until every admitted phone received its message, then counts
// those with exactly one, and refused phones with any.
func (r *rig) checkCodes(t *testing.T, admitted, shed []string) (exactlyOne, shedWithCode int) {
	count := func(phone string) int32 {
		if v, ok := r.messages.Load(phone[len(phone)-10:]); ok {
			return v.(*atomic.Int32).Load()
		}
		return 0
	}
	deadline := time.Now().Add(time.Minute)
	for {
		missing := 0
		for _, p := range admitted {
			if count(p) == 0 {
				missing++
			}
		}
		if missing == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(time.Second) // a duplicate would come right behind
	for _, p := range admitted {
		if count(p) == 1 {
			exactlyOne++
		}
	}
	for _, p := range shed {
		if count(p) > 0 {
			shedWithCode++
		}
	}
	return
}

var setupText = map[setup]string{
	procfileSetup: "`perfilseguro api` and `perfilseguro worker` (20 job goroutines) as the Procfile starts them",
	devSetup:      "`perfilseguro dev` (API, worker with 20 job goroutines and scheduler in one process, as `make run` starts it)",
	farSetup: "`perfilseguro api` and `perfilseguro worker` (20 job goroutines) as the Procfile starts them, with Postgres " +
		"5 ms of round trip away (a delaying proxy, pgtest.Proxy.SetDelay)",
}

func overloadReport(how setup, capacity, perSignUp float64, bare bareRefusals, after float64, secs time.Duration, load string, rows []overloadRow) string {
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	afterText, afterHeader, afterRule := "", "", ""
	if after > 0 {
		afterText = fmt.Sprintf(" before the rates, **%.0f sign-ups/s** after them (a fresh API and worker, right after the last rate); "+
			"shares are of the first, and of the second in the column beside", after)
		afterHeader, afterRule = " Share of the capacity after |", "---:|"
	}
	var sb strings.Builder
	title, reproduce := string(how), fmt.Sprintf("`make bench-overload` (reproduce: `BENCH_OVERLOAD=1 OVERLOAD_SETUPS=%s go test -count=1 -run TestOverload -timeout 60m -v ./bench/load`)", how)
	if generatorCPUs() != "" {
		title += ", the generator on its own core"
		reproduce = fmt.Sprintf("`make bench-overload-split` (reproduce: `OVERLOAD_SETUPS=%s scripts/bench-overload-split.sh`)", how)
	}
	fmt.Fprintf(&sb, "\n## Sign-ups past capacity (open loop), %s, %s, commit %s\n\n", title, time.Now().UTC().Format("2006-01-02"), strings.TrimSpace(string(commit)))
	fmt.Fprintf(&sb, "%s: "+
		"%s, fresh database, fake WhatsApp API "+
		"in the test process; `bench/openloop` in its own process sends `POST /api/register` for new people at a constant rate for %v, "+
		"each request on its own connection from its own loopback address, latency counted from when each request was due, clients "+
		"give up after 10 s. Capacity measured closed-loop (32 at once, 10 s, admission control off): **%.0f sign-ups/s**%s. %s; load average before the run %s. Beside the sign-ups, the test process looks up "+
		"public records (`GET /api/verify/{id}`, 1,000 people) at %d/s, open loop with keep-alive: their p99 and refusals are the last columns. "+
		"*Machine busy* is the share of %s in use while the generator ran (/proc/stat, every process on them). %s\n\n",
		reproduce, setupText[how], secs, capacity, afterText, coresText(), load, verifyProbeRate, busyCores(), costsText(perSignUp, bare))
	fmt.Fprintf(&sb, "| Admission control | Rate | Sent | 2xx | Served (share of capacity) |%s 503 | Time-outs | Other | p50 admitted | p99 admitted | p99 refused | Refused on arrival | Machine busy | CPU per refusal | Most the cores could serve | Limit (min / median / max) | Codes delivered | Admitted with exactly one code | Refused with a code | Public lookups: p99 | Public lookups refused |\n", afterHeader)
	fmt.Fprintf(&sb, "|---|---|---:|---:|---:|%s---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n", afterRule)
	for _, r := range rows {
		ok, shed, other := 0, r.res.Status["503"], r.res.Errors
		for code, n := range r.res.Status {
			switch {
			case code[0] == '2':
				ok += n
			case code != "503":
				other += n
			}
		}
		limit := "—"
		if r.admission == "on" {
			limit = fmt.Sprintf("%.0f / %.0f / %.0f", r.limit[0], r.limit[1], r.limit[2])
		}
		served := float64(ok) / secs.Seconds()
		afterShare := ""
		if after > 0 {
			afterShare = fmt.Sprintf(" %.0f %% |", 100*served/after)
		}
		perRefusal, servable := "—", "—"
		if r.cpu.perRefusal > 0 {
			perRefusal = fmt.Sprintf("%.2f ms", 1000*r.cpu.perRefusal)
		}
		if most := mostServable(r.factor*capacity, perSignUp, bare.perRefusal, runtime.NumCPU()); r.admission == "on" && most > 0 {
			servable = fmt.Sprintf("%.0f/s (%.0f %%)", most, 100*most/capacity)
		}
		fmt.Fprintf(&sb, "| %s | %g× (%.0f/s) | %d | %d | %.0f/s (%.0f %%) |%s %d | %d | %d | %.1f ms | %.1f ms | %.1f ms | %d | %.0f %% | %s | %s | %s | %d | %d of %d | %d | %.1f ms | %d of %d |\n",
			r.admission, r.factor, r.factor*capacity, r.res.Sent, ok, served, 100*served/capacity, afterShare, shed, r.res.Timeouts, other, r.res.AdmittedP50,
			r.res.AdmittedP99, r.res.ShedP99, r.onArrival, 100*r.cpu.busyShare, perRefusal, servable, limit, r.delivered, r.exactlyOne, len(r.res.admitted), r.shedWithCode,
			float64(r.verify.p99.Microseconds())/1000, r.verify.refused+r.verify.other, r.verify.sent)
	}
	return sb.String()
}

// coresText says which cores the run had: all of them shared, or the server's apart from the generator's.
func coresText() string {
	if g := generatorCPUs(); g != "" {
		return fmt.Sprintf("%d cores for the API, the worker, Postgres, Redis and the test process, the generator alone on CPU %s "+
			"(`make bench-overload-split`; the CPU columns count the server's cores only)", runtime.NumCPU(), g)
	}
	return fmt.Sprintf("%d cores, shared by the generator, the API, the worker, Postgres and Redis", runtime.NumCPU())
}

func busyCores() string {
	if generatorCPUs() != "" {
		return "the server's cores"
	}
	return "all cores"
}

// costsText explains the columns that need the capacity run's costs, or says they were not measured.
func costsText(perSignUp float64, bare bareRefusals) string {
	if perSignUp <= 0 || bare.perRefusal <= 0 {
		return "The capacity was given (`OVERLOAD_CAPACITY`): what a sign-up and a refusal cost was not measured."
	}
	return fmt.Sprintf("*CPU per refusal* is the machine's CPU "+
		"for the row, until the last code was delivered, less what the served sign-ups cost at %.2f ms each (the capacity run's CPU per sign-up), "+
		"divided among the refusals: the generator's connection, the kernel's handshake and the API's 503 together. "+
		"The baseline for refusals, in the same run: `bench/load/barerefuser` (plain net/http answering every request 503) flooded at 4× "+
		"the capacity for 10 s with nothing else running refused in **%.1f ms** at p99 and cost the machine **%.2f ms** of CPU per refusal. "+
		"*Most the cores could serve* is what the cores could have served at each rate if every sign-up cost the capacity run's CPU and "+
		"every refusal the bare refuser's: served x and refused rate−x, x·%.2f ms + (rate−x)·%.2f ms ≤ %d cores.",
		1000*perSignUp, bare.p99, 1000*bare.perRefusal, 1000*perSignUp, 1000*bare.perRefusal, runtime.NumCPU())
}

func readLines(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\n")
}

func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
