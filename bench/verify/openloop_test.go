package verify_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/bench/benchdata"
)

// The open-loop half of `make bench-verify` (issue 27): closed-loop rounds compare the servers at
// whatever load each sustains, so their p99s are taken at different loads. Here vegeta (its own
// process, constant rate whatever the answers take) offers both servers the same rate: 50 %, 90 %
// and 150 % of the bare program's closed-loop requests/s, alternating servers at each rate, three
// rounds each (BENCH_OPEN_ROUNDS): a single 10 s window per server let one moment of the shared
// machine decide the comparison (the bare program's p99 at 50 % was 9.4, 68.9 and 161.5 ms in
// three records). The targets compare the median of each server's p99s.

// openFractions of the bare program's measured capacity.
var openFractions = []float64{0.5, 0.9, 1.5}

type openRound struct {
	fraction float64
	rate     int
	target   string
	bare     bool // the bare program's round, not the API's
	requests int
	success  float64 // share of 2xx answers
	answered float64 // share of 2xx answers and of 404s (the made-up IDs): the lookups answered as they should be
	p50, p99 time.Duration
	max      time.Duration
	refused  int // 503 answers (the API's admission control)
}

// vegetaReport is the part of `vegeta report -type=json` read here.
type vegetaReport struct {
	Requests  int `json:"requests"`
	Latencies struct {
		P50 time.Duration `json:"50th"`
		P99 time.Duration `json:"99th"`
		Max time.Duration `json:"max"`
	} `json:"latencies"`
	Success     float64        `json:"success"`
	StatusCodes map[string]int `json:"status_codes"`
}

// vegetaPath finds vegeta on PATH or where `go install` put it (scripts/ensure-tools.sh --bench).
func vegetaPath(t *testing.T) string {
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

func openLoop(t *testing.T, dir, idsFile string, bare, api struct{ name, url string }, bareRPS float64) []openRound {
	vegeta := vegetaPath(t)
	secs := benchdata.EnvInt("BENCH_OPEN_SECONDS", 10)
	rounds := benchdata.EnvInt("BENCH_OPEN_ROUNDS", 3)
	ids := strings.Fields(readFile(t, idsFile))
	rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	targetsFile := func(base string) string {
		var sb strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&sb, "GET %s/api/verify/%s\n", base, id)
		}
		f := filepath.Join(dir, "targets-"+strconv.Itoa(len(base))+"-"+strconv.Itoa(rand.IntN(1<<30)))
		require.NoError(t, os.WriteFile(f, []byte(sb.String()), 0o644))
		return f
	}
	files := map[string]string{bare.name: targetsFile(bare.url), api.name: targetsFile(api.url)}
	var out []openRound
	for _, frac := range openFractions {
		rate := int(frac * bareRPS)
		for i := range 2 * rounds {
			tg := []struct{ name, url string }{bare, api}[i%2]
			// The results go to a file and are read after the attack: a report decoding them while
			// the attack runs would take CPU from both servers on these shared cores.
			results := filepath.Join(dir, fmt.Sprintf("vegeta-%d-%d.bin", rate, len(out)))
			attack := exec.Command(vegeta, "attack", "-rate", fmt.Sprintf("%d/s", rate), "-duration", fmt.Sprintf("%ds", secs),
				"-targets", files[tg.name], "-timeout", "10s", "-keepalive=true", "-max-workers", "2000", "-output", results)
			out1, err := attack.CombinedOutput()
			require.NoError(t, err, "%s", out1)
			stdout, err := exec.Command(vegeta, "report", "-type", "json", results).Output()
			require.NoError(t, err)
			os.Remove(results)
			var r vegetaReport
			require.NoError(t, json.Unmarshal(stdout, &r), "%s", stdout)
			o := openRound{fraction: frac, rate: rate, target: tg.name, bare: i%2 == 0, requests: r.Requests, success: r.Success,
				p50: r.Latencies.P50, p99: r.Latencies.P99, max: r.Latencies.Max, refused: r.StatusCodes["503"]}
			if r.Requests > 0 {
				o.answered = r.Success + float64(r.StatusCodes["404"])/float64(r.Requests)
			}
			t.Logf("open loop %3.0f%% (%d/s) %-42s p50 %-9v p99 %-9v max %-9v success %.4f 503 %d", frac*100, rate, tg.name,
				o.p50, o.p99, o.max, o.success, o.refused)
			out = append(out, o)
		}
	}
	return out
}

func writeOpenLoop(sb *strings.Builder, rounds []openRound) {
	if len(rounds) == 0 {
		return
	}
	sb.WriteString("\nOpen loop (vegeta in its own process, constant rate, keep-alive, same run, servers alternating at each rate, rounds in the order run; " +
		"rates are fractions of the bare program's mean closed-loop requests/s above):\n\n")
	sb.WriteString("| Rate | Target | Requests | 2xx | Answered (2xx, or 404 for a made-up ID) | p50 | p99 | max | 503 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rounds {
		fmt.Fprintf(sb, "| %.0f %% (%d/s) | %s | %d | %.2f %% | %.3f %% | %v | %v | %v | %d |\n", r.fraction*100, r.rate, r.target, r.requests,
			r.success*100, r.answered*100, r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), r.max.Round(10*time.Microsecond), r.refused)
	}
	verdict, admitted := "met", "met"
	for _, frac := range openFractions {
		var bareP99, apiP99 []time.Duration
		answered := 1.0
		for _, r := range rounds {
			switch {
			case r.fraction != frac:
			case r.bare:
				bareP99 = append(bareP99, r.p99)
			default:
				apiP99 = append(apiP99, r.p99)
				answered = min(answered, r.answered)
			}
		}
		if len(bareP99) == 0 || len(apiP99) == 0 {
			continue
		}
		bareMid, apiMid := median(bareP99), median(apiP99)
		fmt.Fprintf(sb, "\nAt %.0f %%: median p99 %v (API) against %v (bare), over %d rounds each.", frac*100,
			apiMid.Round(10*time.Microsecond), bareMid.Round(10*time.Microsecond), len(apiP99))
		if apiMid > bareMid {
			verdict = fmt.Sprintf("**not met** at %.0f %%", frac*100)
		}
		if frac < 1 && (answered < 0.999 || apiMid > bareMid) {
			admitted = fmt.Sprintf("**not met** at %.0f %% (%.3f %% answered in the worst round, median p99 %v against %v)", frac*100,
				answered*100, apiMid.Round(10*time.Microsecond), bareMid.Round(10*time.Microsecond))
		}
	}
	sb.WriteString("\n")
	fmt.Fprintf(sb, "\nTarget (the API's open-loop median p99 at no rate above the bare program's): %s.\n", verdict)
	fmt.Fprintf(sb, "Target (issue 37: at 50 %% and 90 %%, at least 99.9 %% of the lookups answered in every round and the median p99 at or below the bare program's): %s.\n", admitted)
}

func readFile(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
