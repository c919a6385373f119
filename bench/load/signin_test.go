package load

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkSignInPipeline: 1,000 sign-ins at concurrency 50, each a POST /api/login whose code
// goes through Redis and the worker to the (fake) WhatsApp API. Reports requests/s, the API's
// p99 as the load generator sees it (api-p99-ms) and as the API's own request-duration histogram
// records it (api-server-p99-ms, interpolated inside its bucket), and the enqueue-to-provider
// latency p50/p99. Targets: API p99 < 50 ms, provider p99 < 250 ms.
//
// "processes" runs the binary as the Procfile does (`perfilseguro api` and `perfilseguro
// worker`, each its own process, logging to /dev/null); "one-process" runs the API and the
// worker inside this test process (one Go scheduler for them and the load generator).
func BenchmarkSignInPipeline(b *testing.B) {
	b.Run("processes", func(b *testing.B) { signInPipeline(b, newProcessRig(b, 20)) })
	b.Run("one-process", func(b *testing.B) { signInPipeline(b, newRig(b)) })
}

func signInPipeline(b *testing.B, r *rig) {
	const total, concurrency, warmup = 1000, 50, 200
	_, _, _ = r.seedUsers(b, total*b.N+warmup) // every sign-in is for a fresh user (the 60 s cooldown)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}
	// A warm-up batch first: connections, prepared statements and caches, as on a running service.
	signInBatch(b, r, client, total*b.N, warmup, concurrency)
	// Figures are over every measured sign-in together (-benchtime 3x reports 3,000).
	var allAPI, allDeliver []time.Duration
	var busy time.Duration
	histBefore := loginHistogram(b, r.metrics)
	b.ResetTimer()
	for iter := range b.N {
		apiLat, deliver, elapsed := signInBatch(b, r, client, iter*total, total, concurrency)
		allAPI, allDeliver, busy = append(allAPI, apiLat...), append(allDeliver, deliver...), busy+elapsed
	}
	b.StopTimer()
	allAPI, allDeliver = sortDurations(allAPI), sortDurations(allDeliver)
	b.ReportMetric(float64(len(allAPI))/busy.Seconds(), "req/s")
	b.ReportMetric(ms(percentile(allAPI, 0.99)), "api-p99-ms")
	b.ReportMetric(histogramQuantile(0.99, histBefore, loginHistogram(b, r.metrics))*1000, "api-server-p99-ms")
	b.ReportMetric(ms(percentile(allDeliver, 0.50)), "provider-p50-ms")
	b.ReportMetric(ms(percentile(allDeliver, 0.99)), "provider-p99-ms")
}

// signInBatch signs in users first..first+n-1 (phones +5230 and the index) at the given
// concurrency, waits until every code reached the provider, and returns each request's latency,
// each code's latency from the API's answer to the provider, and how long the requests took.
func signInBatch(b *testing.B, r *rig, client *http.Client, first, n, concurrency int) (apiLat, deliver []time.Duration, elapsed time.Duration) {
	var mu sync.Mutex
	sentAt := make(map[string]time.Time, n)
	errors := 0
	users := make([]int, n)
	for k := range users {
		users[k] = first + k
	}
	elapsed = fanOut(users, concurrency, func(i int) {
		phone := fmt.Sprintf("+5230%08d", i)
		body := fmt.Sprintf(`{"phoneNumber":"%s"}`, phone)
		req, _ := http.NewRequest("POST", r.url+"/api/login", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", r.url)
		t0 := time.Now()
		res, err := client.Do(req)
		d := time.Since(t0)
		mu.Lock()
		if err != nil || res.StatusCode != http.StatusOK {
			errors++
		} else {
			apiLat = append(apiLat, d)
			sentAt["521"+strings.TrimPrefix(phone, "+52")] = t0.Add(d)
		}
		mu.Unlock()
		if res != nil {
			io.Copy(io.Discard, res.Body) // read to the end, or the connection is not reused
			res.Body.Close()
		}
	})
	require.Zero(b, errors, "every sign-in succeeds")

	// Wait until every message reached the provider.
	deadline := time.Now().Add(60 * time.Second)
	for {
		deliver = deliver[:0]
		for to, at := range sentAt {
			if v, ok := r.received.Load(to); ok {
				deliver = append(deliver, v.(time.Time).Sub(at))
			}
		}
		if len(deliver) == len(sentAt) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Len(b, deliver, len(sentAt), "every code reached the provider")
	return apiLat, deliver, elapsed
}
