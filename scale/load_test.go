package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// attempt is one sign-in of the open-loop load: scheduled at a fixed moment whatever happened
// to the earlier ones, its latency counted from that moment (no coordinated omission).
type attempt struct {
	phone   string // what the person typed: 10 digits
	at      time.Time
	done    time.Time
	status  int    // 0: no HTTP answer
	message string // the {message} of an error answer
	err     error
	api     int // which API answered
}

func (a attempt) latency() time.Duration { return a.done.Sub(a.at) }

// loadGen sends sign-ins to the APIs in turn, as a load balancer would: an API that refuses the
// connection (it is down) is skipped for the other; a request cut in flight is not retried (a
// sign-in is not idempotent).
type loadGen struct {
	apis   []string
	client *http.Client
	ready  []atomic.Bool // what the balancer's health checks (/readyz every 100 ms) last said
}

// watch polls every API's /readyz until ctx ends, as a load balancer's health check does.
func (g *loadGen) watch(ctx context.Context) {
	check := &http.Client{Timeout: time.Second}
	for ctx.Err() == nil {
		for i, api := range g.apis {
			res, err := check.Get(api + "/readyz")
			ok := err == nil && res.StatusCode == http.StatusOK
			if err == nil {
				res.Body.Close()
			}
			g.ready[i].Store(ok)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pick returns the first API from first on that the health checks call ready (first if none is).
func (g *loadGen) pick(first int) int {
	for try := 0; try < len(g.apis); try++ {
		if i := (first + try) % len(g.apis); g.ready[i].Load() {
			return i
		}
	}
	return first
}

func newLoadGen(apis []string, keepAlive bool) *loadGen {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// Without keep-alive every request opens its own connection: an API that is shutting down
	// refuses it and the balancer goes to the other, instead of racing a closing connection.
	tr.DisableKeepAlives = !keepAlive
	tr.MaxIdleConnsPerHost = 256
	tr.MaxConnsPerHost = 0
	// A request that hangs past 5 s is a failure of the rig's assertions, not a wait.
	g := &loadGen{apis: apis, client: &http.Client{Transport: tr, Timeout: 6 * time.Second}, ready: make([]atomic.Bool, len(apis))}
	for i := range g.ready {
		g.ready[i].Store(true)
	}
	return g
}

// run sends rate sign-ins per second for d, each to phones[i]; it returns every attempt once
// all have ended.
func (g *loadGen) run(ctx context.Context, rate int, d time.Duration, phones []string) []attempt {
	return g.open(ctx, rate, d, func(i int, at time.Time) attempt {
		return g.signIn(phones[i], g.pick(i%len(g.apis)), at)
	})
}

// open runs send(i, at) rate times per second for d, each at its scheduled moment whatever
// happened to the earlier ones, while watching the APIs' health; it returns every attempt once
// all have ended.
func (g *loadGen) open(ctx context.Context, rate int, d time.Duration, send func(i int, at time.Time) attempt) []attempt {
	watchCtx, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	go g.watch(watchCtx)
	n := int(d.Seconds() * float64(rate))
	out := make([]attempt, n)
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		at := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(at))
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = send(i, at)
		}(i)
	}
	wg.Wait()
	return out
}

func (g *loadGen) signIn(phone string, first int, at time.Time) attempt {
	body, _ := json.Marshal(map[string]string{"phoneNumber": phone})
	a, _ := g.post("/api/login", body, "", first, at)
	a.phone = phone
	return a
}

// post sends one JSON request as the balancer would (an API that refuses the connection is
// skipped for the other), with the session cookie when one is given, and returns the attempt
// and the answer's body.
func (g *loadGen) post(path string, body []byte, session string, first int, at time.Time) (attempt, []byte) {
	a := attempt{at: at}
	var raw []byte
	for try := 0; try < len(g.apis); try++ {
		a.api = (first + try) % len(g.apis)
		req, _ := http.NewRequest(http.MethodPost, g.apis[a.api]+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", g.apis[a.api])
		if session != "" {
			req.AddCookie(&http.Cookie{Name: "ps_session", Value: session})
		}
		res, err := g.client.Do(req)
		if err != nil {
			a.err = err
			if errors.Is(err, syscall.ECONNREFUSED) {
				continue // that API is down: the balancer sends the request to the other
			}
			break
		}
		a.status, a.err = res.StatusCode, nil
		raw, _ = io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			var e struct {
				Message string `json:"message"`
			}
			json.Unmarshal(raw, &e)
			a.message = e.Message
		}
		res.Body.Close()
		break
	}
	a.done = time.Now()
	return a, raw
}

// p99 of the latencies of the attempts that pass keep.
func p99(as []attempt, keep func(attempt) bool) time.Duration {
	var ds []time.Duration
	for _, a := range as {
		if keep(a) {
			ds = append(ds, a.latency())
		}
	}
	return quantile(ds, 0.99)
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
