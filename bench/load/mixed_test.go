package load

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkMixedLoad500rps sends a fixed rate of 500 requests/s (open loop) for LOAD_SECONDS
// (default 60): 50% public verification, 30% status polling by signed-in users, 20% sign-in
// code requests. It requires zero errors and reports the achieved rate and p50/p99 per kind.
func BenchmarkMixedLoad500rps(b *testing.B) {
	seconds := 60
	if v, err := strconv.Atoi(os.Getenv("LOAD_SECONDS")); err == nil && v > 0 {
		seconds = v
	}
	const rate = 500
	r := newRig(b)
	// Sign-ins: 100/s, each user at most once per run (60 s cooldown) → rate*seconds/5 users.
	users := max(rate*seconds/5, 500) * b.N
	ids, profileIDs, sessions := r.seedUsers(b, users)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 512}}
	var signIn atomic.Int64 // across iterations: a user signs in once per run
	b.ResetTimer()
	for range b.N {
		type sample struct {
			kind string
			d    time.Duration
			ok   bool
		}
		results := make(chan sample, rate*seconds)
		var wg sync.WaitGroup
		start := time.Now()
		for n := 0; n < rate*seconds; n++ {
			// Open loop on an absolute schedule: a late start is caught up, never dropped.
			time.Sleep(time.Until(start.Add(time.Duration(n) * time.Second / rate)))
			wg.Add(1)
			go func(n int) {
				defer wg.Done()
				var req *http.Request
				kind := ""
				switch m := n % 10; {
				case m < 5:
					kind = "public-verify"
					req, _ = http.NewRequest("GET", r.url+"/api/verify/"+profileIDs[n%len(profileIDs)], nil)
				case m < 8:
					kind = "status-poll"
					i := n % len(ids)
					req, _ = http.NewRequest("GET", fmt.Sprintf("%s/api/users/%d/verification-status", r.url, ids[i]), nil)
					req.AddCookie(&http.Cookie{Name: "ps_session", Value: sessions[i]})
				default:
					kind = "sign-in"
					i := int(signIn.Add(1)-1) % users
					req, _ = http.NewRequest("POST", r.url+"/api/login", bytes.NewBufferString(fmt.Sprintf(`{"phoneNumber":"+5230%08d"}`, i)))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Origin", r.url)
				}
				t0 := time.Now()
				res, err := client.Do(req)
				ok := err == nil && res.StatusCode == http.StatusOK
				if res != nil {
					io.Copy(io.Discard, res.Body) // read to the end, or the connection is not reused
					res.Body.Close()
				}
				results <- sample{kind, time.Since(t0), ok}
			}(n)
		}
		sendElapsed := time.Since(start)
		wg.Wait()
		elapsed := time.Since(start)
		close(results)
		byKind := map[string][]time.Duration{}
		var all []time.Duration
		errors := 0
		for s := range results {
			if !s.ok {
				errors++
			}
			byKind[s.kind] = append(byKind[s.kind], s.d)
			all = append(all, s.d)
		}
		b.ReportMetric(float64(len(all))/sendElapsed.Seconds(), "offered-req/s")
		b.ReportMetric(float64(len(all))/elapsed.Seconds(), "completed-req/s")
		b.ReportMetric(float64(errors), "errors")
		all = sortDurations(all)
		b.ReportMetric(ms(percentile(all, 0.50)), "p50-ms")
		b.ReportMetric(ms(percentile(all, 0.99)), "p99-ms")
		for kind, d := range byKind {
			d = sortDurations(d)
			b.ReportMetric(ms(percentile(d, 0.99)), kind+"-p99-ms")
		}
		require.Zero(b, errors, "zero errors at 500 requests/s")
	}
}
