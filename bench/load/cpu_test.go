package load

import (
	"os"
	"strconv"
	"strings"
)

// machineCPUSeconds is the CPU time the whole machine has spent busy since boot, over all its
// cores and processes (the generator, the kernel, the API, the worker, Postgres, Redis and the
// test process alike): the busy fields of /proc/stat's first line, in USER_HZ (100 a second on
// Linux). 0 where /proc is not there.
func machineCPUSeconds() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal …
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	busy := 0.0
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		v, _ := strconv.ParseFloat(f[i], 64)
		busy += v
	}
	return busy / 100
}

// cpuShare splits a row's machine CPU between the sign-ups it served and the requests it
// refused. A served sign-up costs what one cost in the closed-loop capacity run (perSignUp,
// CPU-seconds of the whole machine, its code's delivery included); what the row spent beyond
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
