// Command openloop is the open-loop load generator of `make bench-overload`: it sends sign-ups
// (POST /api/register, each for a new person) at a constant rate whatever the answers take, each
// request on its own connection from its own loopback source address (127.1.0.0 onward), so that
// no per-address limit applies and the server sees what many people signing up at once look like.
// Latency is measured from the moment each request was due, not from when it went out, so a slow
// server cannot hide its queue (coordinated omission).
//
//	openloop -url http://127.0.0.1:8080 -rate 500 -duration 20s -first 1000000 -admitted ok.txt
//
// With -closed N it instead keeps N requests going back to back for -duration and reports the
// throughput of 2xx answers: the server's capacity. It prints one JSON object on stdout.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Result is what one run printed.
type Result struct {
	Rate        float64        `json:"rate"` // requests sent per second (open loop: as asked)
	Sent        int            `json:"sent"`
	Status      map[string]int `json:"status"`   // answers by status code
	Timeouts    int            `json:"timeouts"` // the client gave up (-timeout)
	Errors      int            `json:"errors"`   // connection refused, reset…
	AdmittedP50 float64        `json:"admitted_p50_ms"`
	AdmittedP99 float64        `json:"admitted_p99_ms"`
	AdmittedMax float64        `json:"admitted_max_ms"`
	ShedP50     float64        `json:"shed_p50_ms"`
	ShedP99     float64        `json:"shed_p99_ms"`
	Throughput  float64        `json:"throughput_2xx_per_s"`
}

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "the API's base URL")
	rate := flag.Float64("rate", 100, "sign-ups per second (open loop)")
	closed := flag.Int("closed", 0, "closed loop: keep this many requests going instead of a rate")
	duration := flag.Duration("duration", 20*time.Second, "how long to send")
	timeout := flag.Duration("timeout", 10*time.Second, "how long a person waits for an answer")
	first := flag.Int("first", 0, "the first person's number (phones and e-mails derive from it)")
	admittedFile := flag.String("admitted", "", "write the phone of every sign-up answered 2xx here")
	shedFile := flag.String("shed", "", "write the phone of every sign-up answered 503 here")
	flag.Parse()

	g := newGenerator(*url, *timeout, *first)
	start := time.Now()
	if *closed > 0 {
		g.closedLoop(*closed, *duration)
	} else {
		g.openLoop(*rate, *duration)
	}
	elapsed := time.Since(start)
	res := g.result(elapsed)
	if *closed == 0 {
		res.Rate = *rate
	}
	for file, phones := range map[string][]string{*admittedFile: g.admitted, *shedFile: g.shed} {
		if file != "" {
			if err := os.WriteFile(file, []byte(strings.Join(phones, "\n")), 0o644); err != nil {
				fail(err)
			}
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "openloop:", err)
	os.Exit(1)
}

type generator struct {
	url    string
	client *http.Client
	next   atomic.Int64 // the next person's number
	source atomic.Uint32

	mu          sync.Mutex
	status      map[string]int
	timeouts    int
	errors      int
	admittedLat []time.Duration
	shedLat     []time.Duration
	admitted    []string
	shed        []string
	sent        int
}

func newGenerator(url string, timeout time.Duration, first int) *generator {
	g := &generator{url: url, status: map[string]int{}}
	g.next.Store(int64(first))
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		// Each connection from the next loopback address: 127.1.0.0, 127.1.0.1, …
		n := g.source.Add(1)
		ip := net.IPv4(127, byte(1+n>>16), byte(n>>8), byte(n))
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: timeout}
		return d.DialContext(ctx, network, addr)
	}
	g.client = &http.Client{Timeout: timeout, Transport: &http.Transport{
		DialContext: dial, DisableKeepAlives: true, MaxIdleConnsPerHost: -1}}
	return g
}

// signUp sends one sign-up due at `due` and records its answer.
func (g *generator) signUp(due time.Time) {
	n := g.next.Add(1)
	phone := fmt.Sprintf("55%08d", n%100_000_000)
	body := fmt.Sprintf(`{"fullName":"Persona Carga %d","email":"carga%d@example.com","phoneNumber":"%s"}`, n, n, phone)
	req, _ := http.NewRequest(http.MethodPost, g.url+"/api/register", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", g.url)
	res, err := g.client.Do(req)
	lat := time.Since(due)
	if res != nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sent++
	switch {
	case err != nil && isTimeout(err):
		g.timeouts++
	case err != nil:
		g.errors++
	default:
		g.status[fmt.Sprint(res.StatusCode)]++
		if res.StatusCode/100 == 2 {
			g.admittedLat = append(g.admittedLat, lat)
			g.admitted = append(g.admitted, "+52"+phone)
		} else if res.StatusCode == http.StatusServiceUnavailable {
			g.shedLat = append(g.shedLat, lat)
			g.shed = append(g.shed, "+52"+phone)
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return (errors.As(err, &ne) && ne.Timeout()) || strings.Contains(err.Error(), "Client.Timeout")
}

// openLoop starts a request every 1/rate seconds for duration, then waits for the last answers.
func (g *generator) openLoop(rate float64, duration time.Duration) {
	interval := time.Duration(float64(time.Second) / rate)
	start := time.Now()
	total := int(rate * duration.Seconds())
	var wg sync.WaitGroup
	for i := range total {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		wg.Add(1)
		go func() { defer wg.Done(); g.signUp(due) }()
	}
	wg.Wait()
}

// closedLoop keeps `workers` requests going back to back.
func (g *generator) closedLoop(workers int, duration time.Duration) {
	stop := time.Now().Add(duration)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				g.signUp(time.Now())
			}
		}()
	}
	wg.Wait()
}

func (g *generator) result(elapsed time.Duration) Result {
	g.mu.Lock()
	defer g.mu.Unlock()
	slices.Sort(g.admittedLat)
	slices.Sort(g.shedLat)
	return Result{Rate: float64(g.sent) / elapsed.Seconds(), Sent: g.sent, Status: g.status, Timeouts: g.timeouts, Errors: g.errors,
		AdmittedP50: pct(g.admittedLat, 0.50), AdmittedP99: pct(g.admittedLat, 0.99), AdmittedMax: pct(g.admittedLat, 1),
		ShedP50: pct(g.shedLat, 0.50), ShedP99: pct(g.shedLat, 0.99), Throughput: float64(len(g.admitted)) / elapsed.Seconds()}
}

// pct is the p-quantile of sorted latencies, in milliseconds.
func pct(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[int(float64(len(sorted)-1)*p)].Microseconds()) / 1000
}
