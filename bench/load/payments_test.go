package load

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/cmd/perfilseguro/bintest"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

// devWebhookSecret is the development default of STRIPE_WEBHOOK_SECRET (config), which the
// process rig's API verifies with.
const devWebhookSecret = "whsec_dev_only_checkout_stand_in"

// BenchmarkPaymentWebhookBurst: a burst of Stripe "checkout.session.completed" events, as after a
// busy evening of OXXO payments: 800 distinct events plus 200 re-deliveries of some of them (Stripe
// retries), shuffled, at concurrency 50, signed as Stripe signs them. The load generator is this
// process; the API and the worker are the real binary as the Procfile starts them (the worker's
// payment provider is the checkout stand-in, which answers from Postgres). Beside it, in the same
// run, the bare baseline (./barehook: net/http, stripe-go's signature check and one INSERT) takes
// the same burst. Reported: requests/s of both and their ratio, both p99s, and the time from an
// event's first delivery to its payment recorded as paid (p50/p99). Every run also proves that each
// payment was applied once and its receipt sent once.
func BenchmarkPaymentWebhookBurst(b *testing.B) {
	const unique, retries, concurrency, warmup = 800, 200, 50, 100
	r := newProcessRig(b, 20)
	bareURL := startBareHook(b, r.dsn)
	total := unique*b.N + warmup
	seedPaidCheckouts(b, r, total)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}
	burst(b, client, r.url, 0, warmup, 0, concurrency)
	burst(b, client, bareURL, 0, warmup, 0, concurrency)
	waitPaid(b, r, warmup)

	var apiLat, bareLat, applied []time.Duration
	var apiBusy, bareBusy time.Duration
	b.ResetTimer()
	for iter := range b.N {
		first := warmup + iter*unique
		lat, sent, busy := burst(b, client, r.url, first, unique, retries, concurrency)
		apiLat, apiBusy = append(apiLat, lat...), apiBusy+busy
		lat, _, busy = burst(b, client, bareURL, first, unique, retries, concurrency)
		bareLat, bareBusy = append(bareLat, lat...), bareBusy+busy
		applied = append(applied, appliedLatencies(b, r, first, unique, sent)...)
	}
	b.StopTimer()
	apiLat, bareLat, applied = sortDurations(apiLat), sortDurations(bareLat), sortDurations(applied)
	apiRPS, bareRPS := float64(len(apiLat))/apiBusy.Seconds(), float64(len(bareLat))/bareBusy.Seconds()
	b.ReportMetric(apiRPS, "api-req/s")
	b.ReportMetric(bareRPS, "bare-req/s")
	b.ReportMetric(apiRPS/bareRPS, "api/bare")
	b.ReportMetric(ms(percentile(apiLat, 0.99)), "api-p99-ms")
	b.ReportMetric(ms(percentile(bareLat, 0.99)), "bare-p99-ms")
	b.ReportMetric(ms(percentile(applied, 0.50)), "paid-p50-ms")
	b.ReportMetric(ms(percentile(applied, 0.99)), "paid-p99-ms")

	// Exactly once: one stored event per id, one paid payment and one receipt per checkout.
	var events, paid, receipts int
	require.NoError(b, r.db.Get(&events, `SELECT count(*) FROM payment_webhooks`))
	require.NoError(b, r.db.Get(&paid, `SELECT count(*) FROM payments WHERE status = 'paid'`))
	require.Equal(b, total, events)
	require.Equal(b, total, paid)
	require.Eventually(b, func() bool {
		require.NoError(b, r.db.Get(&receipts, `SELECT count(*) FROM dev_messages WHERE channel = 'email' AND subject = 'Recibo de pago de Perfil Seguro'`))
		return receipts >= total
	}, time.Minute, 100*time.Millisecond)
	require.Equal(b, total, receipts)
}

// startBareHook builds and starts the baseline receiver on the rig's database.
func startBareHook(b *testing.B, dsn string) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "barehook")
	out, err := exec.Command("go", "build", "-o", bin, "./barehook").CombinedOutput()
	require.NoError(b, err, "%s", out)
	addr := bintest.FreeAddr(b)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "ADDR="+addr, "SECRET="+devWebhookSecret)
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := "http://" + addr
	require.Eventually(b, func() bool {
		res, err := http.Get(url + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, 20*time.Second, 50*time.Millisecond)
	return url
}

// seedPaidCheckouts gives n people an open payment whose checkout session (cs_bench_i, in the
// stand-in's table) has been paid by card: the state GetCheckout will report.
func seedPaidCheckouts(b *testing.B, r *rig, n int) {
	b.Helper()
	ids, _, _ := r.seedUsers(b, n)
	_, err := r.db.Exec(`UPDATE users SET verification_level = 1, biometric_verified = false, fecha_validacion = NULL`)
	require.NoError(b, err)
	_, err = r.db.Exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key,
			checkout_session_id, checkout_url, checkout_expires_at)
		SELECT u.id, 'one_year', 1, 29900, 'devsim', 'open', 'bench-' || u.ord, 'cs_bench_' || u.ord,
		       'http://example.invalid', now() + interval '2 hours'
		FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, ord)`, pq.Array(ids))
	require.NoError(b, err)
	_, err = r.db.Exec(`INSERT INTO dev_checkout_sessions (session_id, idempotency_key, client_reference_id, product_name,
			amount_total, success_url, cancel_url, status, payment_status, payment_method, payment_intent_id, pi_status, expires_at)
		SELECT 'cs_bench_' || ord, 'bench-' || ord, p.id::text, 'Validación 1 año', 29900, 'http://x', 'http://x',
		       'complete', 'paid', 'card', 'pi_bench_' || ord, 'succeeded', now() + interval '2 hours'
		FROM (SELECT id, row_number() OVER (ORDER BY id) AS ord FROM payments) p`)
	require.NoError(b, err)
}

// burst sends events first..first+n-1 (plus retries re-deliveries of random ones among them),
// shuffled, at the given concurrency; it returns each request's latency, when each event was
// first sent, and how long the burst took. Any answer but 200 fails the benchmark.
func burst(b *testing.B, client *http.Client, base string, first, n, retries, concurrency int) ([]time.Duration, map[int]time.Time, time.Duration) {
	b.Helper()
	order := make([]int, 0, n+retries)
	for i := range n {
		order = append(order, first+i)
	}
	for range retries {
		order = append(order, first+rand.IntN(n))
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var mu sync.Mutex
	lat := make([]time.Duration, 0, len(order))
	sent := make(map[int]time.Time, n)
	failures := 0
	elapsed := fanOut(order, concurrency, func(i int) {
		body := stripe.EventJSON(fmt.Sprintf("evt_bench_%d", i), "checkout.session.completed", time.Now(),
			[]byte(fmt.Sprintf(`{"id":"cs_bench_%d","object":"checkout.session"}`, i+1)))
		req, _ := http.NewRequest(http.MethodPost, base+"/api/webhooks/payments", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(stripe.SignatureHeader, stripe.SignWebhook(devWebhookSecret, body, time.Now()))
		t0 := time.Now()
		res, err := client.Do(req)
		d := time.Since(t0)
		ok := err == nil && res.StatusCode == http.StatusOK
		if err == nil {
			res.Body.Close()
		}
		mu.Lock()
		lat = append(lat, d)
		if _, seen := sent[i]; !seen {
			sent[i] = t0
		}
		if !ok {
			failures++
		}
		mu.Unlock()
	})
	require.Zero(b, failures, "every delivery to %s is answered 200", base)
	return lat, sent, elapsed
}

// waitPaid waits until n payments are recorded as paid.
func waitPaid(b *testing.B, r *rig, n int) {
	b.Helper()
	require.Eventually(b, func() bool {
		var paid int
		require.NoError(b, r.db.Get(&paid, `SELECT count(*) FROM payments WHERE status = 'paid'`))
		return paid >= n
	}, 2*time.Minute, 50*time.Millisecond)
}

// appliedLatencies waits for events first..first+n-1 to be applied and returns, for each, the
// time from its first delivery to its payment's paid_at.
func appliedLatencies(b *testing.B, r *rig, first, n int, sent map[int]time.Time) []time.Duration {
	b.Helper()
	waitPaid(b, r, first+n)
	var rows []struct {
		Ord    int       `db:"ord"`
		PaidAt time.Time `db:"paid_at"`
	}
	require.NoError(b, r.db.Select(&rows, `SELECT substr(checkout_session_id, 10)::int - 1 AS ord, paid_at FROM payments
		WHERE substr(checkout_session_id, 10)::int - 1 >= $1 AND substr(checkout_session_id, 10)::int - 1 < $2`, first, first+n))
	out := make([]time.Duration, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.PaidAt.Sub(sent[row.Ord]))
	}
	return out
}
