package scale

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

// The Stripe stand-in of the Postgres scenarios: the app runs with STRIPE_BASE_URL pointing here
// and its real Stripe client (provider/stripe, stripe-go) creates and reads Checkout Sessions;
// when a payer "pays" a session, the stand-in delivers a signed checkout.session.completed event
// to POST /api/webhooks/payments as Stripe does, and redelivers it after any non-2xx answer or
// connection error (every second here, Stripe's retry schedule compressed) until one is 2xx.

const (
	stripeSecretKey     = "sk_test_scale"
	stripeWebhookSecret = "whsec_scale"
)

type stripeSession struct {
	id, url, ref string
	meta         map[string]string
	amount       int64
	expiresAt    int64
	paid         bool
	expired      bool
}

// webhookDelivery is one delivery attempt of an event: its answer is judged like any other.
type webhookDelivery struct {
	session   string
	at, done  time.Time
	status    int
	message   string
	err       error
	delivered bool // 2xx: Stripe stops here
}

type fakeStripe struct {
	mu         sync.Mutex
	sessions   map[string]*stripeSession
	byKey      map[string]string // Idempotency-Key → session id
	byURL      map[string]string
	n          int
	url        string
	apis       []string // where events go (in turn, as through a load balancer)
	deliveries []webhookDelivery
	acked      map[string]time.Time // session → first 2xx answer to its event
	paidAt     map[string]time.Time
	stop       chan struct{}
	wg         sync.WaitGroup
	client     *http.Client
}

func newFakeStripe(t *testing.T) *fakeStripe {
	f := &fakeStripe{sessions: map[string]*stripeSession{}, byKey: map[string]string{}, byURL: map[string]string{},
		acked: map[string]time.Time{}, paidAt: map[string]time.Time{}, stop: make(chan struct{}),
		client: &http.Client{Timeout: 6 * time.Second}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f.url = "http://" + l.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(f.serve)}
	go srv.Serve(l)
	t.Cleanup(func() {
		close(f.stop)
		f.wg.Wait()
		srv.Close()
	})
	return f
}

func (f *fakeStripe) env() map[string]string {
	return map[string]string{"PAYMENTS": "on", "STRIPE_BASE_URL": f.url, "STRIPE_SECRET_KEY": stripeSecretKey,
		"STRIPE_WEBHOOK_SECRET": stripeWebhookSecret}
}

func stripeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"type": typ, "message": msg}})
}

func (f *fakeStripe) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+stripeSecretKey {
		stripeError(w, http.StatusUnauthorized, "invalid_request_error", "Invalid API Key provided")
		return
	}
	const prefix = "/v1/checkout/sessions"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	switch {
	case ok && rest == "" && r.Method == http.MethodPost:
		f.create(w, r)
	case ok && strings.HasSuffix(rest, "/expire") && r.Method == http.MethodPost:
		f.mu.Lock()
		s := f.sessions[strings.TrimSuffix(strings.TrimPrefix(rest, "/"), "/expire")]
		if s != nil && !s.paid {
			s.expired = true
		}
		f.mu.Unlock()
		if s == nil {
			stripeError(w, http.StatusNotFound, "invalid_request_error", "No such checkout.session")
			return
		}
		f.write(w, s, false)
	case ok && strings.Count(rest, "/") == 1 && r.Method == http.MethodGet:
		f.mu.Lock()
		s := f.sessions[strings.TrimPrefix(rest, "/")]
		f.mu.Unlock()
		if s == nil {
			stripeError(w, http.StatusNotFound, "invalid_request_error", "No such checkout.session")
			return
		}
		f.write(w, s, strings.Contains(r.URL.RawQuery, "payment_intent"))
	default:
		stripeError(w, http.StatusNotFound, "invalid_request_error", "Unrecognized request URL")
	}
}

// create answers POST /v1/checkout/sessions; the same Idempotency-Key gets the same session.
func (f *fakeStripe) create(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	f.mu.Lock()
	key := r.Header.Get("Idempotency-Key")
	s := f.sessions[f.byKey[key]]
	if s == nil || key == "" {
		f.n++
		id := fmt.Sprintf("cs_test_scale%06d", f.n)
		amount, _ := strconv.ParseInt(r.Form.Get("line_items[0][price_data][unit_amount]"), 10, 64)
		expires, _ := strconv.ParseInt(r.Form.Get("expires_at"), 10, 64)
		if expires == 0 {
			expires = time.Now().Add(24 * time.Hour).Unix()
		}
		s = &stripeSession{id: id, url: "https://checkout.stripe.test/c/pay/" + id, ref: r.Form.Get("client_reference_id"),
			meta: map[string]string{"payment_id": r.Form.Get("metadata[payment_id]"), "user_id": r.Form.Get("metadata[user_id]"),
				"plan": r.Form.Get("metadata[plan]")},
			amount: amount, expiresAt: expires}
		f.sessions[id], f.byURL[s.url] = s, id
		if key != "" {
			f.byKey[key] = id
		}
	}
	f.mu.Unlock()
	f.write(w, s, false)
}

// sessionJSON is a Checkout Session as Stripe returns it; expand fills payment_intent with the
// intent and its payment method (expand[]=payment_intent.payment_method).
func (f *fakeStripe) sessionJSON(s *stripeSession, expand bool) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	status, payStatus := "open", "unpaid"
	var intent any
	switch {
	case s.paid:
		status, payStatus = "complete", "paid"
		intent = "pi_" + s.id[3:]
		if expand {
			intent = map[string]any{"id": "pi_" + s.id[3:], "object": "payment_intent", "status": "succeeded",
				"amount": s.amount, "currency": "mxn",
				"payment_method": map[string]any{"id": "pm_" + s.id[3:], "object": "payment_method", "type": "card"}}
		}
	case s.expired:
		status = "expired"
	}
	b, _ := json.Marshal(map[string]any{"id": s.id, "object": "checkout.session", "url": s.url, "mode": "payment",
		"status": status, "payment_status": payStatus, "client_reference_id": s.ref, "metadata": s.meta,
		"amount_total": s.amount, "currency": "mxn", "expires_at": s.expiresAt, "livemode": false,
		"payment_intent": intent, "created": time.Now().Unix()})
	return b
}

func (f *fakeStripe) write(w http.ResponseWriter, s *stripeSession, expand bool) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_scale")
	w.Write(f.sessionJSON(s, expand))
}

// sessionOf returns the session behind a checkout page URL ("" when unknown).
func (f *fakeStripe) sessionOf(url string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.byURL[url]
}

// pay is the person paying on the checkout page: the session completes and its event is
// delivered until the app acknowledges it.
func (f *fakeStripe) pay(id string) {
	f.mu.Lock()
	s := f.sessions[id]
	if s == nil || s.paid {
		f.mu.Unlock()
		return
	}
	s.paid = true
	f.paidAt[id] = time.Now()
	f.mu.Unlock()
	body := stripe.EventJSON("evt_"+id[3:], "checkout.session.completed", time.Now(), f.sessionJSON(s, false))
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for try := 0; ; try++ {
			d := f.deliver(id, f.apis[try%len(f.apis)], body)
			f.mu.Lock()
			f.deliveries = append(f.deliveries, d)
			if d.delivered {
				f.acked[id] = d.done
			}
			f.mu.Unlock()
			if d.delivered {
				return
			}
			select {
			case <-f.stop:
				return
			case <-time.After(time.Second):
			}
		}
	}()
}

func (f *fakeStripe) deliver(session, api string, body []byte) webhookDelivery {
	d := webhookDelivery{session: session, at: time.Now()}
	req, _ := http.NewRequest(http.MethodPost, api+"/api/webhooks/payments", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
	req.Header.Set(stripe.SignatureHeader, stripe.SignWebhook(stripeWebhookSecret, body, time.Now()))
	res, err := f.client.Do(req)
	d.done = time.Now()
	if err != nil {
		d.err = err
		return d
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	d.status = res.StatusCode
	if res.StatusCode/100 != 2 {
		var e struct {
			Message string `json:"message"`
		}
		json.Unmarshal(raw, &e)
		d.message = e.Message
	}
	d.delivered = res.StatusCode/100 == 2
	return d
}

// waitAcked waits until every paid session's event was acknowledged, at most limit.
func (f *fakeStripe) waitAcked(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		done := len(f.acked) == len(f.paidAt)
		f.mu.Unlock()
		if done {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}
