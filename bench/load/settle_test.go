package load

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"
)

// settledTimeWait is how many TCP connections in TIME_WAIT a measurement may start with.
const settledTimeWait = 10_000

// settleConnections waits (at most 75 s) until the connections the last flood closed have left
// TIME_WAIT, which Linux keeps for 60 s. Every sign-up of the generator is a new connection, so a
// flood at 4x leaves up to the kernel's maximum (131,072 here), and a measurement that started
// among them served a fifth to a third less: 63 % of the capacity at 1x against 88 % right after
// (BENCHMARKS.md). Each row then starts with only the connections of its own flood.
func settleConnections(t *testing.T) {
	start := time.Now()
	n := timeWaitConnections()
	for n > settledTimeWait && time.Since(start) < 75*time.Second {
		time.Sleep(time.Second)
		n = timeWaitConnections()
	}
	if waited := time.Since(start); waited > time.Second {
		t.Logf("waited %v for connections to leave TIME_WAIT (%d left)", waited.Round(time.Second), n)
	}
}

// timeWaitConnections counts the TCP connections in TIME_WAIT (state 06 in /proc/net/tcp and
// tcp6); -1 where /proc is not there.
func timeWaitConnections() int {
	n := -1
	for _, path := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		n = max(n, 0)
		s := bufio.NewScanner(f)
		for s.Scan() {
			if fields := strings.Fields(s.Text()); len(fields) > 3 && fields[3] == "06" {
				n++
			}
		}
		f.Close()
	}
	return n
}
