package load

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
)

// serverCPUSeconds is the CPU time the server's cores have spent busy since boot, over every
// process on them (the kernel, the API, the worker, Postgres, Redis and the test process alike,
// and the generator unless it has cores of its own): the busy fields of /proc/stat's line for
// each core this process may run on, in USER_HZ (100 a second on Linux). Without pinning those are
// all the machine's cores; with `make bench-overload-split` the generator's core is left out.
// 0 where /proc is not there.
func serverCPUSeconds() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	return busySeconds(string(b), serverCPUs())
}

// serverCPUs are the cores this process (and the API, worker and Postgres beside it) may run on.
func serverCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for i := range 1024 {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

// busySeconds sums the busy fields of /proc/stat's per-core lines (cpuN) for the given cores.
func busySeconds(stat string, cpus []int) float64 {
	busy := 0.0
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line) // cpuN user nice system idle iowait irq softirq steal …
		if len(f) < 9 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		n, err := strconv.Atoi(f[0][3:])
		if err != nil || !slices.Contains(cpus, n) {
			continue
		}
		for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
			v, _ := strconv.ParseFloat(f[i], 64)
			busy += v
		}
	}
	return busy / 100
}

// generatorCPUs is the core list the generator is pinned to (OVERLOAD_GENERATOR_CPUS, set by
// `make bench-overload-split`), empty when it shares the server's cores.
func generatorCPUs() string { return os.Getenv("OVERLOAD_GENERATOR_CPUS") }

// cpuShare splits a row's machine CPU between the sign-ups it served and the requests it
// refused. A served sign-up costs what one cost in the closed-loop capacity run (perSignUp,
// CPU-seconds of the server's cores, its code's delivery included); what the row spent beyond
// that is the refusals' cost, each costing perRefusal: the generator's connection, the kernel's
// handshake and the API's 503. busyShare is how much of the cores the machine used while the
// generator ran (its last answers or time-outs included): near 1, serving more needed cheaper
// requests, not a higher limit.
type cpuShare struct {
	busyShare  float64
	perRefusal float64 // CPU-seconds; 0 with nothing refused or no capacity run
}

func splitCPU(flood, total, perSignUp float64, served, refused int, cores int, secs float64) cpuShare {
	s := cpuShare{busyShare: flood / (float64(cores) * secs)}
	if refused > 0 && perSignUp > 0 {
		s.perRefusal = max(0, (total-float64(served)*perSignUp)/float64(refused))
	}
	return s
}

// bareRefusals is what refusals cost where they cost the least: bench/load/barerefuser, plain
// net/http answering every request 503, flooded on the same cores with nothing else running.
type bareRefusals struct {
	p99        float64 // ms, from when each request was due
	perRefusal float64 // the server's cores' CPU-seconds per refusal
}

// refuseBare floods the bare refuser at rate for 10 s.
func refuseBare(t *testing.T, refuser, gen string, next *int, rate float64) bareRefusals {
	port := bintest.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(refuser)
	cmd.Env = append(os.Environ(), "ADDR="+addr)
	require.NoError(t, cmd.Start())
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	bintest.WaitTCP(t, port)
	settleConnections(t)
	cpu := serverCPUSeconds()
	res := runOpenloop(t, gen, "http://"+addr, next, "-rate", fmt.Sprintf("%.0f", rate), "-duration", "10s")
	used := serverCPUSeconds() - cpu
	require.Equal(t, res.Sent, res.Status["503"], "the bare refuser answers every request 503")
	return bareRefusals{p99: res.ShedP99, perRefusal: used / float64(res.Sent)}
}

// mostServable is the most sign-ups a second the cores could have served at rate, if each cost
// what one cost in the capacity run and each refusal what the bare refuser's did: the sign-ups
// and the refusals of rate share the cores, x·perSignUp + (rate−x)·perRefusal ≤ cores. 0 where
// a cost is unknown.
func mostServable(rate, perSignUp, perRefusal float64, cores int) float64 {
	if perSignUp <= 0 || perRefusal <= 0 || perSignUp <= perRefusal {
		return 0
	}
	return max(0, min(rate, (float64(cores)-rate*perRefusal)/(perSignUp-perRefusal)))
}

// The bound behind "Most the cores could serve", on the figures of one run (2 cores, 7.03 ms a
// sign-up, 0.76 ms a refusal): at 4x of 281/s the refusals leave room for 182 sign-ups/s; at a
// rate the cores serve whole, the rate itself; where a refusal costs what a sign-up does, nothing
// is known.
func TestMostServable(t *testing.T) {
	require.InDelta(t, 182, mostServable(1124, 0.00703, 0.00076, 2), 1)
	require.Equal(t, 100.0, mostServable(100, 0.00703, 0.00076, 2))
	require.Zero(t, mostServable(1124, 0.00703, 0.00703, 2))
	require.Zero(t, mostServable(1124, 0, 0.00076, 2))
	require.Zero(t, mostServable(100_000, 0.00703, 0.00076, 2), "refusals alone past the cores: nothing servable")
}

// A row's CPU beyond what its served sign-ups cost is its refusals'.
func TestSplitCPU(t *testing.T) {
	s := splitCPU(19, 24, 0.007, 2000, 9000, 2, 10)
	require.InDelta(t, 0.95, s.busyShare, 1e-9)
	require.InDelta(t, (24-2000*0.007)/9000, s.perRefusal, 1e-12)
	require.Zero(t, splitCPU(19, 24, 0.007, 2000, 0, 2, 10).perRefusal, "nothing refused")
	require.Zero(t, splitCPU(19, 10, 0.007, 2000, 10, 2, 10).perRefusal, "never below nothing")
}

// Only the listed cores' lines count; the machine's total line (cpu) never does.
func TestBusySeconds(t *testing.T) {
	stat := "cpu  900 0 300 5000 10 0 40 0 0 0\n" +
		"cpu0 500 0 100 2500 5 0 20 0 0 0\n" +
		"cpu1 400 0 200 2500 5 0 20 0 0 0\n" +
		"intr 12345\n"
	require.InDelta(t, 6.2, busySeconds(stat, []int{0}), 1e-9, "user+system+softirq of cpu0, in seconds")
	require.InDelta(t, 12.4, busySeconds(stat, []int{0, 1}), 1e-9)
	require.Zero(t, busySeconds(stat, nil))
	require.NotEmpty(t, serverCPUs(), "this process runs on some core")
}
