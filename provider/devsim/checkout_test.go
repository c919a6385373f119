package devsim_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/stripe"
)

const checkoutSecret = "whsec_test_devsim"

// hooks is our webhook endpoint: it verifies each delivery as the API does and keeps the events.
type hooks struct {
	t      *testing.T
	mu     sync.Mutex
	events []perfilseguro.PaymentEvent
	down   bool // answers 503: a failover, a restart
	refuse bool // answers 400: a wrong secret, say
}

func (h *hooks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.down {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	if h.refuse {
		http.Error(w, "refused", http.StatusBadRequest)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		h.t.Errorf("webhook Content-Type = %q", ct)
	}
	ev, err := stripe.VerifyWebhook(checkoutSecret, body, r.Header.Get(stripe.SignatureHeader))
	if err != nil {
		h.t.Errorf("webhook does not verify: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h.events = append(h.events, ev)
	w.WriteHeader(http.StatusOK)
}

func (h *hooks) setDown(down bool) {
	h.mu.Lock()
	h.down = down
	h.mu.Unlock()
}

func (h *hooks) setRefusing(refuse bool) {
	h.mu.Lock()
	h.refuse = refuse
	h.mu.Unlock()
}

// all returns the events received so far.
func (h *hooks) all() []perfilseguro.PaymentEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]perfilseguro.PaymentEvent(nil), h.events...)
}

// last returns the newest event, failing the test when none arrived.
func (h *hooks) last(t *testing.T) perfilseguro.PaymentEvent {
	t.Helper()
	evs := h.all()
	if len(evs) == 0 {
		t.Fatal("no webhook received")
	}
	return evs[len(evs)-1]
}

// clock follows real time (webhook signatures must be fresh) shifted by an offset the test moves.
type clock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

type checkoutEnv struct {
	co    devsim.Checkout
	hooks *hooks
	clock *clock
}

func newCheckoutEnv(t *testing.T) *checkoutEnv {
	t.Helper()
	db, _ := pgtest.New(t)
	h := &hooks{t: t}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := &clock{}
	return &checkoutEnv{hooks: h, clock: c, co: devsim.Checkout{DB: db, BaseURL: "http://localhost:8080/",
		WebhookURL: srv.URL + "/api/webhooks/payment", WebhookSecret: checkoutSecret, HTTP: srv.Client(), Now: c.now,
		Redeliver: []time.Duration{20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond,
			20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond}}}
}

func checkoutRequest(paymentID int64, key string) perfilseguro.CheckoutRequest {
	plan, _ := perfilseguro.PlanByCode(perfilseguro.PlanOneYear)
	return perfilseguro.CheckoutRequest{PaymentID: paymentID, UserID: 42, CustomerEmail: "ana@example.com", Plan: plan,
		SuccessURL: "http://localhost:8080/pago/listo?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:  "http://localhost:8080/pago/cancelado", IdempotencyKey: key}
}

func (e *checkoutEnv) create(t *testing.T) perfilseguro.CheckoutSession {
	t.Helper()
	s, err := e.co.CreateCheckout(context.Background(), checkoutRequest(7, "payment-7-attempt-1"))
	if err != nil {
		t.Fatalf("CreateCheckout: %v", err)
	}
	return s
}

func (e *checkoutEnv) state(t *testing.T, id string) perfilseguro.CheckoutState {
	t.Helper()
	st, err := e.co.GetCheckout(context.Background(), id)
	if err != nil {
		t.Fatalf("GetCheckout: %v", err)
	}
	return st
}

// expectEvent checks the newest webhook's type and session.
func (e *checkoutEnv) expectEvent(t *testing.T, typ, sessionID string) {
	t.Helper()
	ev := e.hooks.last(t)
	if ev.Type != typ || ev.SessionID != sessionID {
		t.Fatalf("webhook = %s for %q, want %s for %q", ev.Type, ev.SessionID, typ, sessionID)
	}
	if !strings.HasPrefix(ev.ID, "evt_test_") {
		t.Errorf("event id = %q", ev.ID)
	}
}

func TestCheckoutCreateIsIdempotent(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	req := checkoutRequest(7, "payment-7-attempt-1")
	req.ExpiresAt = e.clock.now().Add(2 * time.Hour).Truncate(time.Second)
	first, err := e.co.CreateCheckout(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.ID, "cs_test_") || first.URL != "http://localhost:8080"+devsim.CheckoutPath+first.ID {
		t.Fatalf("session = %+v", first)
	}
	if !first.ExpiresAt.Equal(req.ExpiresAt) {
		t.Errorf("ExpiresAt = %v, want %v", first.ExpiresAt, req.ExpiresAt)
	}
	again, err := e.co.CreateCheckout(ctx, req)
	if err != nil || again.ID != first.ID || again.URL != first.URL {
		t.Fatalf("same key: %+v, %v; want %s", again, err, first.ID)
	}
	other, err := e.co.CreateCheckout(ctx, checkoutRequest(7, "payment-7-attempt-2"))
	if err != nil || other.ID == first.ID {
		t.Fatalf("new key: %+v, %v", other, err)
	}
	if d := other.ExpiresAt.Sub(e.clock.now()); d < 23*time.Hour || d > 24*time.Hour {
		t.Errorf("default expiry in %v, want 24h", d)
	}
	if _, err := e.co.CreateCheckout(ctx, checkoutRequest(8, "payment-7-attempt-1")); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Errorf("key reused for another payment: %v, want ErrPermanent", err)
	}

	st := e.state(t, first.ID)
	if st.SessionID != first.ID || st.Status != perfilseguro.CheckoutOpen || st.PaymentStatus != perfilseguro.CheckoutUnpaid ||
		st.PaymentID != 7 || st.AmountTotal != 299_00 || st.Currency != "mxn" || st.PaymentMethod != "" ||
		st.Voucher != nil || st.AsyncFailed || !strings.HasPrefix(st.PaymentIntentID, "pi_test_") || !st.ExpiresAt.Equal(req.ExpiresAt) {
		t.Fatalf("open state = %+v", st)
	}
	s, err := e.co.Session(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.SuccessURL != "http://localhost:8080/pago/listo?session_id="+first.ID || s.ProductName != "Validación 1 año" ||
		s.Email() != "ana@example.com" {
		t.Errorf("stored session = %+v", s)
	}
	var meta map[string]string
	if err := json.Unmarshal([]byte(s.Metadata), &meta); err != nil || meta["payment_id"] != "7" || meta["user_id"] != "42" ||
		meta["plan"] != perfilseguro.PlanOneYear {
		t.Errorf("metadata = %s", s.Metadata)
	}
	if len(e.hooks.all()) != 0 {
		t.Errorf("creating sent webhooks: %+v", e.hooks.all())
	}
}

func TestCheckoutCardPayment(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	cs := e.create(t)
	if _, err := e.co.DeclineCard(ctx, cs.ID); err != nil {
		t.Fatalf("DeclineCard: %v", err)
	}
	if st := e.state(t, cs.ID); st.Status != perfilseguro.CheckoutOpen || len(e.hooks.all()) != 0 {
		t.Fatalf("a decline changed the session: %+v, %d webhooks", st, len(e.hooks.all()))
	}
	if _, err := e.co.PayByCard(ctx, cs.ID); err != nil {
		t.Fatalf("PayByCard: %v", err)
	}
	e.expectEvent(t, perfilseguro.EventCheckoutCompleted, cs.ID)
	st := e.state(t, cs.ID)
	if st.Status != perfilseguro.CheckoutComplete || st.PaymentStatus != perfilseguro.CheckoutPaid || st.PaymentMethod != "card" ||
		st.Voucher != nil || st.AsyncFailed {
		t.Fatalf("paid state = %+v", st)
	}
	for name, act := range map[string]func(context.Context, string) (devsim.CheckoutSession, error){
		"PayByCard": e.co.PayByCard, "ChooseOXXO": e.co.ChooseOXXO, "DeclineCard": e.co.DeclineCard, "PayOXXO": e.co.PayOXXO,
	} {
		if _, err := act(ctx, cs.ID); !errors.Is(err, devsim.ErrCheckoutState) || !errors.Is(err, perfilseguro.ErrPermanent) {
			t.Errorf("%s on a paid session: %v, want ErrCheckoutState", name, err)
		}
	}
	if n := len(e.hooks.all()); n != 1 {
		t.Errorf("%d webhooks, want 1", n)
	}
	if _, err := e.co.PayByCard(ctx, "cs_test_nope"); !errors.Is(err, devsim.ErrUnknownCheckout) {
		t.Errorf("unknown session: %v", err)
	}
}

func TestCheckoutOXXOPaid(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	cs := e.create(t)
	if _, err := e.co.ChooseOXXO(ctx, cs.ID); err != nil {
		t.Fatalf("ChooseOXXO: %v", err)
	}
	e.expectEvent(t, perfilseguro.EventCheckoutCompleted, cs.ID)
	st := e.state(t, cs.ID)
	if st.Status != perfilseguro.CheckoutComplete || st.PaymentStatus != perfilseguro.CheckoutUnpaid || st.PaymentMethod != "oxxo" ||
		st.AsyncFailed || st.Voucher == nil {
		t.Fatalf("pending state = %+v", st)
	}
	if !regexp.MustCompile(`^[0-9]{14,}$`).MatchString(st.Voucher.Number) {
		t.Errorf("voucher number %q", st.Voucher.Number)
	}
	if d := st.Voucher.ExpiresAt.Sub(e.clock.now()); d < 71*time.Hour || d > 72*time.Hour {
		t.Errorf("voucher expires in %v, want 3 days", d)
	}
	if st.Voucher.URL != "http://localhost:8080"+devsim.CheckoutPath+cs.ID+"/voucher" {
		t.Errorf("voucher URL %q", st.Voucher.URL)
	}
	if _, err := e.co.PayOXXO(ctx, cs.ID); err != nil {
		t.Fatalf("PayOXXO: %v", err)
	}
	e.expectEvent(t, perfilseguro.EventAsyncPaymentSucceeded, cs.ID)
	st = e.state(t, cs.ID)
	if st.Status != perfilseguro.CheckoutComplete || st.PaymentStatus != perfilseguro.CheckoutPaid || st.PaymentMethod != "oxxo" ||
		st.Voucher != nil || st.AsyncFailed {
		t.Fatalf("paid state = %+v", st)
	}
	if _, err := e.co.ExpireOXXO(ctx, cs.ID); !errors.Is(err, devsim.ErrCheckoutState) {
		t.Errorf("ExpireOXXO after payment: %v", err)
	}
	// As at Stripe, cash paid at OXXO cannot be refunded: a refusal retrying cannot change.
	if _, err := e.co.Refund(ctx, st.PaymentIntentID, "refund-oxxo"); !errors.Is(err, perfilseguro.ErrPermanent) ||
		!strings.Contains(err.Error(), "OXXO") {
		t.Errorf("Refund of an OXXO payment: %v, want a permanent refusal", err)
	}
}

func TestCheckoutOXXOFailed(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	cs := e.create(t)
	if _, err := e.co.ChooseOXXO(ctx, cs.ID); err != nil {
		t.Fatal(err)
	}
	s, err := e.co.ExpireOXXO(ctx, cs.ID)
	if err != nil {
		t.Fatalf("ExpireOXXO: %v", err)
	}
	if !s.VoucherFailed() || s.VoucherNumber == nil {
		t.Errorf("the expired voucher is not kept for display: %+v", s)
	}
	e.expectEvent(t, perfilseguro.EventAsyncPaymentFailed, cs.ID)
	st := e.state(t, cs.ID)
	if st.Status != perfilseguro.CheckoutComplete || st.PaymentStatus != perfilseguro.CheckoutUnpaid || !st.AsyncFailed ||
		st.PaymentMethod != "oxxo" || st.Voucher != nil {
		t.Fatalf("failed state = %+v", st)
	}
	if _, err := e.co.PayOXXO(ctx, cs.ID); !errors.Is(err, devsim.ErrCheckoutState) {
		t.Errorf("PayOXXO on an expired voucher: %v", err)
	}
}

func TestCheckoutLapsesOnItsOwn(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	open := e.create(t)
	voucher, err := e.co.CreateCheckout(ctx, checkoutRequest(8, "payment-8-attempt-1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.co.ChooseOXXO(ctx, voucher.ID); err != nil {
		t.Fatal(err)
	}
	e.clock.advance(73 * time.Hour) // past the session's 24 hours and the voucher's 3 days
	if st := e.state(t, open.ID); st.Status != perfilseguro.CheckoutExpired || st.PaymentStatus != perfilseguro.CheckoutUnpaid {
		t.Errorf("open session past its expiry = %+v", st)
	}
	if st := e.state(t, voucher.ID); !st.AsyncFailed || st.Voucher != nil {
		t.Errorf("voucher past its deadline = %+v", st)
	}
	if _, err := e.co.PayByCard(ctx, open.ID); !errors.Is(err, devsim.ErrCheckoutState) {
		t.Errorf("paying an expired session: %v", err)
	}
}

func TestCheckoutRefund(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	cs := e.create(t)
	pi := e.state(t, cs.ID).PaymentIntentID
	if _, err := e.co.Refund(ctx, pi, "refund-7"); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Fatalf("refunding an unpaid session: %v, want ErrPermanent", err)
	}
	if _, err := e.co.Refund(ctx, "pi_test_nope", "refund-x"); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Fatalf("refunding an unknown intent: %v, want ErrPermanent", err)
	}
	if _, err := e.co.PayByCard(ctx, cs.ID); err != nil {
		t.Fatal(err)
	}

	// Our endpoint is down: the refund is made, the error makes the job retry.
	e.hooks.setDown(true)
	first, err := e.co.Refund(ctx, pi, "refund-7")
	if err == nil || errors.Is(err, perfilseguro.ErrPermanent) || !errors.Is(err, devsim.ErrWebhookNotDelivered) {
		t.Fatalf("refund with the webhook down: %v, want a retryable error", err)
	}
	e.hooks.setDown(false)
	again, err := e.co.Refund(ctx, pi, "refund-7")
	if err != nil {
		t.Fatalf("retried refund: %v", err)
	}
	if !strings.HasPrefix(again.ID, "re_test_") || again.ID != first.ID {
		t.Fatalf("refunds %q then %q, want one", first.ID, again.ID)
	}
	if _, err := e.co.Refund(ctx, pi, "refund-7"); err != nil {
		t.Fatal(err)
	}
	evs := e.hooks.all()
	if len(evs) != 3 { // checkout.session.completed, then the refund twice
		t.Fatalf("%d webhooks, want 3", len(evs))
	}
	for _, ev := range evs[1:] {
		if ev.Type != perfilseguro.EventChargeRefunded || ev.PaymentIntentID != pi || ev.AmountRefunded != 299_00 || !ev.Refunded {
			t.Fatalf("refund webhook = %+v", ev)
		}
		var env struct {
			Data struct {
				Object struct {
					ID     string `json:"id"`
					Object string `json:"object"`
				} `json:"object"`
			} `json:"data"`
		}
		if err := json.Unmarshal(ev.Raw, &env); err != nil || !strings.HasPrefix(env.Data.Object.ID, "ch_test_") ||
			env.Data.Object.Object != "charge" {
			t.Fatalf("refund data.object = %+v, %v", env.Data.Object, err)
		}
	}
	if evs[1].ID != evs[2].ID {
		t.Errorf("a resent refund webhook is a new event: %s, %s", evs[1].ID, evs[2].ID)
	}
	if _, err := e.co.Refund(ctx, pi, "refund-other"); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Errorf("second refund under another key: %v, want ErrPermanent", err)
	}
	s, err := e.co.Session(ctx, cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.AmountRefunded != 299_00 || !s.Refunded() {
		t.Errorf("refunded session = %+v", s)
	}
	if st := e.state(t, cs.ID); st.PaymentStatus != perfilseguro.CheckoutPaid {
		t.Errorf("refunded session state = %+v", st)
	}
}

func TestCheckoutExpire(t *testing.T) {
	e := newCheckoutEnv(t)
	ctx := context.Background()
	cs := e.create(t)
	if err := e.co.ExpireCheckout(ctx, cs.ID); err != nil {
		t.Fatalf("ExpireCheckout: %v", err)
	}
	e.expectEvent(t, perfilseguro.EventCheckoutExpired, cs.ID)
	if st := e.state(t, cs.ID); st.Status != perfilseguro.CheckoutExpired || st.PaymentStatus != perfilseguro.CheckoutUnpaid {
		t.Fatalf("expired state = %+v", st)
	}
	if err := e.co.ExpireCheckout(ctx, cs.ID); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Errorf("expiring again: %v, want ErrPermanent", err)
	}
	if err := e.co.ExpireCheckout(ctx, "cs_test_nope"); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Errorf("expiring an unknown session: %v, want ErrPermanent", err)
	}
	if _, err := e.co.GetCheckout(ctx, "cs_test_nope"); !errors.Is(err, perfilseguro.ErrPermanent) {
		t.Errorf("reading an unknown session: %v, want ErrPermanent", err)
	}
	if _, err := e.co.PayByCard(ctx, cs.ID); !errors.Is(err, devsim.ErrCheckoutState) {
		t.Errorf("paying an expired session: %v", err)
	}
}

// pageMux mounts the page as the API does.
func (e *checkoutEnv) pageMux() *http.ServeMux {
	p := devsim.CheckoutPage{Checkout: e.co}
	mux := http.NewServeMux()
	mux.Handle("GET "+devsim.CheckoutPath+"{session}", p)
	mux.Handle("POST "+devsim.CheckoutPath+"{session}", p)
	mux.HandleFunc("GET "+devsim.CheckoutPath+"{session}/voucher", p.Voucher)
	mux.HandleFunc("POST "+devsim.CheckoutPath+"{session}/voucher", p.Voucher)
	return mux
}

func serve(mux http.Handler, method, path, action string) *httptest.ResponseRecorder {
	var body io.Reader
	if action != "" {
		body = strings.NewReader(url.Values{"action": {action}}.Encode())
	}
	r := httptest.NewRequest(method, path, body)
	if action != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, r)
	return w
}

func expectPage(t *testing.T, w *httptest.ResponseRecorder, status int, texts ...string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	for _, s := range texts {
		if !strings.Contains(w.Body.String(), s) {
			t.Errorf("page lacks %q:\n%s", s, w.Body)
		}
	}
}

func TestCheckoutPage(t *testing.T) {
	e := newCheckoutEnv(t)
	mux := e.pageMux()
	cs := e.create(t)
	path := devsim.CheckoutPath + cs.ID

	w := serve(mux, http.MethodGet, path, "")
	expectPage(t, w, http.StatusOK, "<title>Pago de prueba (entorno de desarrollo)</title>", "Stripe Checkout", "No se mueve dinero real",
		"Validación 1 año", "$299.00 MXN", "ana@example.com",
		`value="card" type="submit">Pagar con tarjeta</button>`, `value="decline" type="submit">Simular tarjeta rechazada</button>`,
		`value="oxxo" type="submit">Pagar en efectivo en OXXO</button>`, `href="http://localhost:8080/pago/cancelado">Cancelar y volver</a>`)
	if strings.Contains(w.Body.String(), "<script") {
		t.Error("the page has a script (the CSP forbids inline scripts)")
	}

	w = serve(mux, http.MethodPost, path, devsim.ActionDecline)
	expectPage(t, w, http.StatusPaymentRequired, "Tu tarjeta fue rechazada. Intenta con otra tarjeta o paga en OXXO.", "Pagar con tarjeta")

	w = serve(mux, http.MethodPost, path, devsim.ActionCard)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "http://localhost:8080/pago/listo?session_id="+cs.ID {
		t.Fatalf("card: %d to %q", w.Code, w.Header().Get("Location"))
	}
	e.expectEvent(t, perfilseguro.EventCheckoutCompleted, cs.ID)

	w = serve(mux, http.MethodPost, path, devsim.ActionOXXO)
	expectPage(t, w, http.StatusConflict, "Esta sesión de pago ya no admite esa acción.", "Pago completado")
	w = serve(mux, http.MethodGet, path, "")
	expectPage(t, w, http.StatusOK, "Pago completado")
	if strings.Contains(w.Body.String(), "Pagar con tarjeta") {
		t.Error("a paid session still offers to pay")
	}
	w = serve(mux, http.MethodPost, path, "transfer")
	expectPage(t, w, http.StatusBadRequest)

	for _, p := range []string{devsim.CheckoutPath + "cs_test_nope", devsim.CheckoutPath + "cs_test_nope/voucher"} {
		expectPage(t, serve(mux, http.MethodGet, p, ""), http.StatusNotFound, "Esta sesión de pago no existe o ya no está disponible.")
		expectPage(t, serve(mux, http.MethodPost, p, devsim.ActionCard), http.StatusNotFound)
	}
	expectPage(t, serve(mux, http.MethodGet, path+"/voucher", ""), http.StatusNotFound) // paid by card: no voucher

	if _, err := e.co.Refund(context.Background(), e.state(t, cs.ID).PaymentIntentID, "refund-page"); err != nil {
		t.Fatal(err)
	}
	expectPage(t, serve(mux, http.MethodGet, path, ""), http.StatusOK, "Pago reembolsado")
}

func TestCheckoutPageOXXO(t *testing.T) {
	e := newCheckoutEnv(t)
	mux := e.pageMux()
	cs := e.create(t)
	path := devsim.CheckoutPath + cs.ID

	w := serve(mux, http.MethodPost, path, devsim.ActionOXXO)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "http://localhost:8080/pago/listo?session_id="+cs.ID {
		t.Fatalf("oxxo: %d to %q", w.Code, w.Header().Get("Location"))
	}
	e.expectEvent(t, perfilseguro.EventCheckoutCompleted, cs.ID)
	st := e.state(t, cs.ID)
	loc, err := time.LoadLocation("America/Mexico_City")
	if err != nil {
		t.Skip("no tzdata")
	}
	deadline := st.Voucher.ExpiresAt.In(loc).Format("02/01/2006 15:04")
	for _, p := range []string{path, path + "/voucher"} {
		expectPage(t, serve(mux, http.MethodGet, p, ""), http.StatusOK, "Ficha de pago OXXO", st.Voucher.Number, "$299.00 MXN", deadline,
			`value="oxxo_paid" type="submit">Simular pago en tienda</button>`, `value="oxxo_expire" type="submit">Simular ficha vencida</button>`)
	}
	expectPage(t, serve(mux, http.MethodPost, path+"/voucher", devsim.ActionCard), http.StatusConflict, "Esta sesión de pago ya no admite esa acción.")

	w = serve(mux, http.MethodPost, path+"/voucher", devsim.ActionOXXOPaid)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != path+"/voucher" {
		t.Fatalf("oxxo_paid: %d to %q", w.Code, w.Header().Get("Location"))
	}
	e.expectEvent(t, perfilseguro.EventAsyncPaymentSucceeded, cs.ID)
	expectPage(t, serve(mux, http.MethodGet, path+"/voucher", ""), http.StatusOK, "Pago completado", st.Voucher.Number)

	// A second voucher that expires unpaid.
	other, err := e.co.CreateCheckout(context.Background(), checkoutRequest(8, "payment-8-attempt-1"))
	if err != nil {
		t.Fatal(err)
	}
	opath := devsim.CheckoutPath + other.ID
	expectPage(t, serve(mux, http.MethodPost, opath, devsim.ActionOXXO), http.StatusSeeOther)
	expectPage(t, serve(mux, http.MethodPost, opath, devsim.ActionOXXOExpire), http.StatusSeeOther)
	e.expectEvent(t, perfilseguro.EventAsyncPaymentFailed, other.ID)
	expectPage(t, serve(mux, http.MethodGet, opath, ""), http.StatusOK, "Ficha vencida sin pago")
	expectPage(t, serve(mux, http.MethodPost, opath, devsim.ActionOXXOPaid), http.StatusConflict, "Esta sesión de pago ya no admite esa acción.")
}

// Our endpoint answering 503 (a failover): the page goes on as if delivered, and the event is
// delivered again, the same event, until it is taken; it arrives once.
func TestCheckoutPageEventIsDeliveredAgainWhileOurEndpointIsDown(t *testing.T) {
	e := newCheckoutEnv(t)
	mux := e.pageMux()
	cs := e.create(t)
	e.hooks.setDown(true)
	expectPage(t, serve(mux, http.MethodPost, devsim.CheckoutPath+cs.ID, devsim.ActionCard), http.StatusSeeOther)
	time.Sleep(50 * time.Millisecond) // two or so deliveries answered 503
	if n := len(e.hooks.all()); n != 0 {
		t.Fatalf("%d webhooks accepted while down", n)
	}
	e.hooks.setDown(false)
	deadline := time.Now().Add(10 * time.Second)
	for len(e.hooks.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a second delivery would come right behind
	got := e.hooks.all()
	if len(got) != 1 || got[0].Type != perfilseguro.EventCheckoutCompleted {
		t.Fatalf("events after the endpoint came back: %+v, want one %s", got, perfilseguro.EventCheckoutCompleted)
	}
}

// Our endpoint refusing the event for good (a 4xx): the page says so and nothing is retried.
func TestCheckoutPageWebhookRefused(t *testing.T) {
	e := newCheckoutEnv(t)
	mux := e.pageMux()
	cs := e.create(t)
	e.hooks.setRefusing(true)
	w := serve(mux, http.MethodPost, devsim.CheckoutPath+cs.ID, devsim.ActionOXXO)
	expectPage(t, w, http.StatusBadGateway,
		"El pago se registró, pero no se pudo avisar a Perfil Seguro. La conciliación periódica lo aplicará más tarde.", "Ficha de pago OXXO")
	if st := e.state(t, cs.ID); st.Status != perfilseguro.CheckoutComplete || st.Voucher == nil {
		t.Fatalf("the change was not kept: %+v", st)
	}
	if n := len(e.hooks.all()); n != 0 {
		t.Errorf("%d webhooks accepted while down", n)
	}

	other, err := e.co.CreateCheckout(context.Background(), checkoutRequest(8, "payment-8-attempt-1"))
	if err != nil {
		t.Fatal(err)
	}
	expectPage(t, serve(mux, http.MethodPost, devsim.CheckoutPath+other.ID, devsim.ActionCard), http.StatusBadGateway, "Pago completado")
	if st := e.state(t, other.ID); st.PaymentStatus != perfilseguro.CheckoutPaid {
		t.Fatalf("the payment was not kept: %+v", st)
	}
}
