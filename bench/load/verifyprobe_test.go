package load

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// verifyProbeRate is the public lookups per second sent beside the sign-ups of make
// bench-overload: a QR code being scanned while sign-ups flood in (issue 27 asks that public
// verification keeps its p99 under 100 ms meanwhile).
const verifyProbeRate = 100

// verifyProbeEnv lifts the per-address public-lookup limits: every probe comes from 127.0.0.1.
var verifyProbeEnv = []string{"PUBLIC_MISSES_PER_MINUTE=100000000", "PUBLIC_HITS_PER_MINUTE=100000000",
	"PUBLIC_MISS_BURST=100000", "PUBLIC_HIT_BURST=100000"}

// seedProfiles inserts n validated people whose public records the probe looks up (phones
// +5259…, apart from the sign-ups').
func (r *rig) seedProfiles(t *testing.T, n int) []string {
	var ids []string
	require.NoError(t, r.db.Select(&ids, `INSERT INTO users (nombre, phone_number, id_validado, verification_level, is_phone_verified)
		SELECT 'Persona consultada ' || i, '+5259' || lpad(i::text, 8, '0'),
		       'PS-7' || to_char(i / 1000000, 'FM000') || '-' || to_char((i / 100) % 10000, 'FM0000') || '-' || to_char(i % 100, 'FM00'),
		       1, true
		FROM generate_series(1, $1) AS i RETURNING id_validado`, n))
	return ids
}

// verifyProbe is what the probe saw during one rate.
type verifyProbe struct {
	sent, ok, refused, other int // other: time-outs and any other status
	p99                      time.Duration
}

// probeVerify sends GET /api/verify/{id} at verifyProbeRate, open loop (each lookup at its due
// time, latency counted from then), until stop is closed; it returns once every lookup has ended.
func (r *rig) probeVerify(ids []string, stop <-chan struct{}) verifyProbe {
	client := &http.Client{Timeout: 10 * time.Second}
	var mu sync.Mutex
	var p verifyProbe
	var latencies []time.Duration
	var wg sync.WaitGroup
	interval := time.Second / verifyProbeRate
	start := time.Now()
	for i := 0; ; i++ {
		due := start.Add(time.Duration(i) * interval)
		select {
		case <-stop:
			wg.Wait()
			sort.Slice(latencies, func(a, b int) bool { return latencies[a] < latencies[b] })
			if len(latencies) > 0 {
				p.p99 = latencies[min(len(latencies)-1, len(latencies)*99/100)]
			}
			return p
		case <-time.After(time.Until(due)):
		}
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			res, err := client.Get(fmt.Sprintf("%s/api/verify/%s", r.url, id))
			status := 0
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				status = res.StatusCode
			}
			took := time.Since(due)
			mu.Lock()
			defer mu.Unlock()
			p.sent++
			switch {
			case status == http.StatusOK:
				p.ok++
				latencies = append(latencies, took)
			case status == http.StatusServiceUnavailable:
				p.refused++
			default:
				p.other++
			}
		}(ids[i%len(ids)])
	}
}
