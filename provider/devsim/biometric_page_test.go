package devsim_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

const biometricSecret = "whsec-devsim-biometric-test"

// webhookEndpoint plays our POST /api/webhooks/biometric: it answers the statuses it is given,
// one per delivery (then 200), and keeps what each delivery carried.
type webhookEndpoint struct {
	t       *testing.T
	mu      sync.Mutex
	answers []int
	bodies  []string
}

func (e *webhookEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if err := didit.VerifyWebhook(biometricSecret, body, r.Header.Get(didit.SignatureHeader), r.Header.Get(didit.TimestampHeader), time.Now()); err != nil {
		e.t.Errorf("a delivery that does not verify: %v", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.bodies = append(e.bodies, string(body))
	status := http.StatusOK
	if len(e.answers) > 0 {
		status, e.answers = e.answers[0], e.answers[1:]
	}
	w.WriteHeader(status)
}

func (e *webhookEndpoint) deliveries() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.bodies...)
}

// decide opens a session and presses a decision on the simulator's page.
func decide(t *testing.T, answers ...int) (*webhookEndpoint, *http.Response) {
	t.Helper()
	db, _ := pgtest.New(t)
	end := &webhookEndpoint{t: t, answers: answers}
	hook := httptest.NewServer(end)
	t.Cleanup(hook.Close)
	sim := devsim.Biometric{DB: db, BaseURL: "http://localhost:8080"}
	page := devsim.BiometricPage{Sim: sim, WebhookURL: hook.URL, WebhookSecret: biometricSecret, HTTP: hook.Client(),
		Redeliver: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond}}
	mux := http.NewServeMux()
	mux.Handle(devsim.BiometricPath+"{session}", page)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	s, err := sim.CreateSession(context.Background(), perfilseguro.BiometricSessionRequest{UserID: 42, CallbackURL: "http://localhost:8080/return"})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(srv.URL+devsim.BiometricPath+s.SessionID, url.Values{"decision": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return end, res
}

// A webhook our endpoint could not take (a failover: 503) is delivered again, the same body each
// time, until it is answered 2xx; the popup returns at once meanwhile.
func TestBiometricWebhookIsDeliveredAgainUntilTaken(t *testing.T) {
	end, res := decide(t, http.StatusServiceUnavailable, http.StatusServiceUnavailable)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "http://localhost:8080/return") {
		t.Fatalf("the popup returns to the callback: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(end.deliveries()) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a fourth delivery would come right behind
	got := end.deliveries()
	if len(got) != 3 {
		t.Fatalf("deliveries: %d, want 3 (two answered 503, then taken)", len(got))
	}
	for _, b := range got[1:] {
		if b != got[0] {
			t.Fatalf("a redelivery changed the body:\n%s\n%s", got[0], b)
		}
	}
	if !strings.Contains(got[0], `"status":"Approved"`) {
		t.Fatalf("the decision: %s", got[0])
	}
}

// A webhook refused for good (a 4xx: a wrong secret, say) is not delivered again; the page says so.
func TestBiometricWebhookRefusedForGoodIsNotDeliveredAgain(t *testing.T) {
	end, res := decide(t, http.StatusUnauthorized)
	if res.StatusCode != http.StatusBadGateway {
		t.Fatalf("the page shows the failure: %d", res.StatusCode)
	}
	time.Sleep(200 * time.Millisecond) // the whole (test) schedule would have run
	if n := len(end.deliveries()); n != 1 {
		t.Fatalf("deliveries: %d, want 1", n)
	}
}

// Redelivery stops when the schedule runs out; the periodic reconciliation takes it from there.
func TestBiometricWebhookRedeliveryStopsAfterItsSchedule(t *testing.T) {
	end, res := decide(t, 503, 503, 503, 503, 503, 503)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the popup returns: %d", res.StatusCode)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(end.deliveries()) < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(end.deliveries()); n != 4 {
		t.Fatalf("deliveries: %d, want 4 (the first and the schedule's three)", n)
	}
}
