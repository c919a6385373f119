package verify_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/jobs/redistest"
)

// What the closed-loop benchmarks of this package share: the two servers started beside each
// other, wrk run against each in turn, the table of rounds, and the report appended to BENCHMARKS.md.

// benchTarget is one server under load; metrics is the API's /metrics and /debug/pprof listener.
type benchTarget struct{ name, url, metrics string }

// startBareAndAPI starts the bare baseline and `perfilseguro api` as the Procfile runs it, on the
// same database, and waits until both are ready.
func startBareAndAPI(t *testing.T, dsn, bareName string) (bare, api benchTarget) {
	t.Helper()
	dir := t.TempDir()
	opt, _ := redistest.New(t)
	bin := buildBare(t, dir)
	bareAddr, apiAddr, metricsAddr := bintest.FreeAddr(t), bintest.FreeAddr(t), bintest.FreeAddr(t)
	start(t, bin, []string{"DATABASE_URL=" + dsn, "ADDR=" + bareAddr}, filepath.Join(dir, "bare.log"))
	start(t, bintest.Path(t), apiEnv(dsn, redistest.URL(opt), apiAddr, metricsAddr), filepath.Join(dir, "api.log"))
	bare = benchTarget{bareName, "http://" + bareAddr, ""}
	api = benchTarget{"perfilseguro api (Procfile, production)", "http://" + apiAddr, "http://" + metricsAddr}
	waitReady(t, bare.url+"/readyz")
	waitReady(t, api.url+"/readyz")
	return bare, api
}

// buildBare builds the bare baseline server (./bare) into dir and returns its path.
func buildBare(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bare")
	out, err := exec.Command("go", "build", "-o", bin, "./bare").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// wrkRun runs wrk with a Lua script against url for secs seconds and parses its answer.
func wrkRun(t *testing.T, conns int, script, url string, secs int, args ...string) round {
	t.Helper()
	wrk, err := exec.LookPath("wrk")
	require.NoError(t, err, "wrk is missing: scripts/ensure-tools.sh --bench installs it")
	cmd := append([]string{"-t", "2", "-c", strconv.Itoa(conns), "-d", fmt.Sprintf("%ds", secs), "--latency", "-s", script, url, "--"}, args...)
	out, err := exec.Command(wrk, cmd...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return parseWrk(t, string(out))
}

// alternate warms each target up, then runs rounds of secs seconds on each in turn (no target
// always runs on a warmer or colder machine); a non-2xx answer fails the benchmark.
func alternate(t *testing.T, targets []benchTarget, rounds, secs int, run func(url string, secs int) round) [][]round {
	t.Helper()
	for _, tg := range targets {
		run(tg.url, 3)
	}
	results := make([][]round, len(targets))
	for range rounds {
		for i, tg := range targets {
			r := run(tg.url, secs)
			require.Zero(t, r.non2xx, "%s answered non-2xx", tg.name)
			results[i] = append(results[i], r)
			t.Logf("%-48s %8.0f req/s  p50 %-9v p99 %-9v max %v", tg.name, r.rps, r.p50, r.p99, r.max)
		}
	}
	return results
}

// roundsTable writes the rounds of each target as a Markdown table.
func roundsTable(sb *strings.Builder, targets []benchTarget, results [][]round) {
	sb.WriteString("| Target | Round | Requests/s | p50 | p99 | max |\n|---|---:|---:|---:|---:|---:|\n")
	for r := range results[0] {
		for i, tg := range targets {
			x := results[i][r]
			fmt.Fprintf(sb, "| %s | %d | %.0f | %v | %v | %v |\n", tg.name, r+1, x.rps, x.p50, x.p99, x.max)
		}
	}
}

// benchHeading is a report's heading: what was measured, today, at which commit.
func benchHeading(what string) string {
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	return fmt.Sprintf("\n## %s, %s, commit %s\n\n", what, time.Now().UTC().Format("2006-01-02"), strings.TrimSpace(string(commit)))
}

// comparison is the outcome of alternating rounds against the bare server (targets[0]) and the
// API (targets[1]), with the machine as it was before they ran.
type comparison struct {
	results         [][]round
	bareRPS, apiRPS float64
	machine         string // cores, CPU, load average and other busy processes, one sentence
}

// ratio is the API's mean requests/s over the bare server's.
func (c comparison) ratio() float64 { return c.apiRPS / c.bareRPS }

// againstBare notes the machine's state, then runs the alternating rounds.
func againstBare(t *testing.T, targets []benchTarget, rounds, secs int, run func(url string, secs int) round) comparison {
	machine := fmt.Sprintf("%d cores (%s); load average before %s; other processes using the CPU at the start: %s.",
		runtime.NumCPU(), cpuName(), loadAverage(), otherProcesses())
	results := alternate(t, targets, rounds, secs, run)
	return comparison{results: results, bareRPS: meanRPS(results[0]), apiRPS: meanRPS(results[1]), machine: machine}
}
