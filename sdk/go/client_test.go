package perfilseguro

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk_test_0123456789abcdef"

// fakeAPI answers like Perfil Seguro's partner API, for one secret key, and records what it got.
type fakeAPI struct {
	t        *testing.T
	key      string
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
	sessions map[string]map[string]any
}

func newFakeAPI(t *testing.T) (*fakeAPI, *httptest.Server) {
	t.Helper()
	f := &fakeAPI{t: t, key: testKey, sessions: map[string]map[string]any{
		"vs_done": {
			"id": "vs_done", "status": "completed", "reference": "pedido-7", "livemode": false,
			"requiredLevel": 3, "claims": []string{"name", "validUntil"},
			"shared":    map[string]any{"name": "Ana López", "validUntil": "2027-01-31"},
			"proof":     "eyJhbGciOiJFUzI1NiJ9.e30.sig",
			"createdAt": "2026-01-01T10:00:00Z", "expiresAt": "2026-01-02T10:00:00Z", "endedAt": "2026-01-01T10:05:00Z",
		},
		"vs_open": {
			"id": "vs_open", "status": "created", "reference": "pedido-8", "livemode": false,
			"requiredLevel": 2, "claims": []string{"name"},
			"createdAt": "2026-01-01T11:00:00Z", "expiresAt": "2026-01-02T11:00:00Z",
		},
	}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		f.t.Error(err)
	}
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, string(body))
	f.mu.Unlock()

	if r.Header.Get("Authorization") != "Bearer "+f.key {
		f.reply(w, http.StatusUnauthorized, map[string]any{"message": "Llave secreta no válida, revocada o de otro modo."})
		return
	}
	const prefix = "/api/partner/v1/verification-sessions"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok {
		f.reply(w, http.StatusNotFound, map[string]any{"message": "No encontrado"})
		return
	}
	switch {
	case rest == "" && r.Method == http.MethodPost:
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			f.reply(w, http.StatusUnsupportedMediaType, map[string]any{"message": "Tipo de contenido no compatible: envíe JSON"})
			return
		}
		var in map[string]any
		if err := json.Unmarshal(body, &in); err != nil {
			f.reply(w, http.StatusBadRequest, map[string]any{"message": "JSON no válido"})
			return
		}
		if lvl, _ := in["requiredLevel"].(float64); lvl != 2 && lvl != 3 {
			f.reply(w, http.StatusBadRequest, map[string]any{"message": "Revise los datos.",
				"errors": map[string]any{"requiredLevel": "Debe ser 2 o 3.", "returnUrl": nil}})
			return
		}
		f.reply(w, http.StatusCreated, map[string]any{
			"id": "vs_new", "clientSecret": "vs_new_secret_abc", "url": "https://perfilseguro.mx/verificar?s=vs_new_secret_abc",
			"expiresAt": "2026-01-02T10:00:00Z", "livemode": false,
		})
	case rest == "" && r.Method == http.MethodGet:
		f.reply(w, http.StatusOK, map[string]any{"data": []any{f.sessions["vs_open"], f.sessions["vs_done"]}, "hasMore": true})
	case strings.HasSuffix(rest, "/cancel") && r.Method == http.MethodPost:
		id := strings.TrimSuffix(strings.TrimPrefix(rest, "/"), "/cancel")
		s, ok := f.sessions[id]
		switch {
		case !ok:
			f.reply(w, http.StatusNotFound, map[string]any{"message": "No encontrado"})
		case s["status"] != "created":
			f.reply(w, http.StatusConflict, map[string]any{"message": "La sesión ya terminó"})
		default:
			s["status"] = "canceled"
			s["endedAt"] = "2026-01-01T11:30:00Z"
			f.reply(w, http.StatusOK, s)
		}
	case r.Method == http.MethodGet:
		s, ok := f.sessions[strings.TrimPrefix(rest, "/")]
		if !ok {
			f.reply(w, http.StatusNotFound, map[string]any{"message": "No encontrado"})
			return
		}
		f.reply(w, http.StatusOK, s)
	default:
		f.reply(w, http.StatusMethodNotAllowed, map[string]any{"message": "Método no permitido"})
	}
}

func (f *fakeAPI) last(t *testing.T) (*http.Request, string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("the server got no request")
	}
	return f.requests[len(f.requests)-1], f.bodies[len(f.bodies)-1]
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func newTestClient(t *testing.T, baseURL string, opts ...Option) *Client {
	t.Helper()
	c, err := New(baseURL, testKey, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewRefusesWhatIsNotASecretKey(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"", "falta la llave secreta"},
		{"pk_live_abcdef", "llave publicable"},
		{"pk_test_abcdef", "llave publicable"},
		{"rk_live_abcdef", "debe empezar con sk_live_ o sk_test_"},
		{"SK_LIVE_ABCDEF", "debe empezar con sk_live_ o sk_test_"},
		{"sk_live_", "incompleta"},
		{"sk_test_abc def", "espacios"},
		{"sk_test_abc\n", "espacios"},
	} {
		c, err := New("https://perfilseguro.mx", tc.key)
		if err == nil || c != nil {
			t.Errorf("New(%q) = %v, %v; want an error", tc.key, c, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): %q does not say %q", tc.key, err, tc.want)
		}
		if len(tc.key) > len("sk_live_") && strings.Contains(err.Error(), tc.key) {
			t.Errorf("New(%q): the error repeats the key: %q", tc.key, err)
		}
	}
}

func TestNewChecksTheBaseURL(t *testing.T) {
	c, err := New("", "sk_live_abc")
	if err != nil || c.BaseURL() != DefaultBaseURL || !c.Livemode() {
		t.Fatalf(`New("", live) = %v, %v`, c, err)
	}
	c, err = New("https://staging.perfilseguro.mx/", testKey)
	if err != nil || c.BaseURL() != "https://staging.perfilseguro.mx" || c.Livemode() {
		t.Fatalf("trailing slash: %v, %v", c, err)
	}
	for _, bad := range []string{"perfilseguro.mx", "ftp://perfilseguro.mx", "https://", "https://perfilseguro.mx/?x=1", "https://user:pw@perfilseguro.mx"} {
		if _, err := New(bad, testKey); err == nil {
			t.Errorf("New(%q) accepted the base URL", bad)
		}
	}
	if _, err := New("http://perfilseguro.mx", "sk_live_abc"); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("a live key over plain http: %v", err)
	}
	if _, err := New("http://127.0.0.1:8080", "sk_live_abc"); err != nil {
		t.Errorf("a live key to this machine: %v", err)
	}
	if _, err := New("http://perfilseguro.test", testKey); err != nil {
		t.Errorf("a test key over http: %v", err)
	}
	if _, err := New(DefaultBaseURL, testKey, WithTimeout(0)); err == nil {
		t.Error("WithTimeout(0) accepted")
	}
	if _, err := New(DefaultBaseURL, testKey, WithHTTP(nil)); err == nil {
		t.Error("WithHTTP(nil) accepted")
	}
}

func TestCreateSessionSendsTheKeyAndTheBody(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL, WithUserAgent("casalista/2.1"))
	ret := "https://casalista.example/listo"
	got, err := c.CreateSession(context.Background(), NewSession{
		Reference: "pedido-123", RequiredLevel: LevelBiometric,
		Claims: []NewSessionClaims{ClaimName, ClaimValidUntil}, ReturnURL: &ret,
	})
	if err != nil {
		t.Fatal(err)
	}
	req, body := f.last(t)
	if req.Method != http.MethodPost || req.URL.Path != "/api/partner/v1/verification-sessions" {
		t.Errorf("sent %s %s", req.Method, req.URL.Path)
	}
	if a := req.Header.Get("Authorization"); a != "Bearer "+testKey {
		t.Errorf("Authorization = %q", a)
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if ua := req.Header.Get("User-Agent"); ua != "casalista/2.1 perfilseguro-go/"+Version {
		t.Errorf("User-Agent = %q", ua)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(body), &sent); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	want := map[string]any{"reference": "pedido-123", "requiredLevel": float64(3),
		"claims": []any{"name", "validUntil"}, "returnUrl": ret}
	if len(sent) != len(want) {
		t.Errorf("body = %v, want %v", sent, want)
	}
	for k, v := range want {
		if gotV, _ := json.Marshal(sent[k]); string(gotV) != mustJSON(t, v) {
			t.Errorf("body[%q] = %s, want %s", k, gotV, mustJSON(t, v))
		}
	}
	if got.ID != "vs_new" || got.ClientSecret != "vs_new_secret_abc" || got.Livemode ||
		!got.ExpiresAt.Equal(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)) || !strings.HasPrefix(got.URL, "https://perfilseguro.mx/") {
		t.Errorf("SessionCreated = %+v", got)
	}
}

func TestCreateSessionSendsAnEmptyListRatherThanNull(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	_, _ = c.CreateSession(context.Background(), NewSession{Reference: "x", RequiredLevel: 2})
	_, body := f.last(t)
	if !strings.Contains(body, `"claims":[]`) || strings.Contains(body, "returnUrl") {
		t.Errorf("body = %s", body)
	}
}

func TestValidationErrorsComeBackAsAPIError(t *testing.T) {
	_, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	_, err := c.CreateSession(context.Background(), NewSession{Reference: "x", RequiredLevel: 7, Claims: []NewSessionClaims{ClaimName}})
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v (%T), want *APIError", err, err)
	}
	if apiErr.Status != http.StatusBadRequest || apiErr.Message != "Revise los datos." || apiErr.Error() != "Revise los datos." {
		t.Errorf("APIError = %+v", apiErr)
	}
	if apiErr.Errors["requiredLevel"] != "Debe ser 2 o 3." {
		t.Errorf("Errors = %v", apiErr.Errors)
	}
	if v, ok := apiErr.Errors["returnUrl"]; !ok || v != "" {
		t.Errorf("a null field error: %q, %v", v, ok)
	}
}

func TestAWrongKeyIs401WithTheSpanishMessage(t *testing.T) {
	_, srv := newFakeAPI(t)
	c, err := New(srv.URL, "sk_test_revocada")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	calls := map[string]func() error{
		"create": func() error { _, err := c.CreateSession(ctx, NewSession{Reference: "x", RequiredLevel: 2}); return err },
		"get":    func() error { _, err := c.GetSession(ctx, "vs_done"); return err },
		"cancel": func() error { _, err := c.CancelSession(ctx, "vs_open"); return err },
		"list":   func() error { _, err := c.ListSessions(ctx, 0, ""); return err },
	}
	for name, call := range calls {
		err := call()
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Errorf("%s: err = %v, want *APIError", name, err)
			continue
		}
		if apiErr.Status != http.StatusUnauthorized || apiErr.Error() != "Llave secreta no válida, revocada o de otro modo." {
			t.Errorf("%s: %d %q", name, apiErr.Status, apiErr.Error())
		}
	}
}

func TestGetSessionReadsACompletedSession(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	s, err := c.GetSession(context.Background(), "vs_done")
	if err != nil {
		t.Fatal(err)
	}
	req, body := f.last(t)
	if req.Method != http.MethodGet || req.URL.Path != "/api/partner/v1/verification-sessions/vs_done" || body != "" {
		t.Errorf("sent %s %s %q", req.Method, req.URL.Path, body)
	}
	if req.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("Authorization = %q", req.Header.Get("Authorization"))
	}
	if s.Status != SessionViewStatusCompleted || s.Reference != "pedido-7" || s.RequiredLevel != 3 {
		t.Errorf("session = %+v", s)
	}
	if s.Shared["name"] != "Ana López" || s.Proof == nil || *s.Proof != "eyJhbGciOiJFUzI1NiJ9.e30.sig" {
		t.Errorf("shared = %v, proof = %v", s.Shared, s.Proof)
	}
	if s.EndedAt == nil || !s.EndedAt.Equal(time.Date(2026, 1, 1, 10, 5, 0, 0, time.UTC)) || s.ReturnURL != nil {
		t.Errorf("endedAt = %v, returnUrl = %v", s.EndedAt, s.ReturnURL)
	}
}

func TestNotFoundAndConflict(t *testing.T) {
	_, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	_, err := c.GetSession(context.Background(), "vs_nadie")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound || apiErr.Message != "No encontrado" {
		t.Errorf("get of a missing session: %v", err)
	}
	_, err = c.CancelSession(context.Background(), "vs_done")
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict || apiErr.Message != "La sesión ya terminó" {
		t.Errorf("cancel of an ended session: %v", err)
	}
}

func TestCancelSession(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	s, err := c.CancelSession(context.Background(), "vs_open")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := f.last(t)
	if req.Method != http.MethodPost || req.URL.Path != "/api/partner/v1/verification-sessions/vs_open/cancel" {
		t.Errorf("sent %s %s", req.Method, req.URL.Path)
	}
	if s.Status != SessionViewStatusCanceled || s.EndedAt == nil {
		t.Errorf("session = %+v", s)
	}
}

func TestAnEmptyIDIsRefusedBeforeSending(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	if _, err := c.GetSession(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "falta el id") {
		t.Errorf("GetSession(\"\") = %v", err)
	}
	if _, err := c.CancelSession(context.Background(), " "); err == nil {
		t.Error("CancelSession(\" \") sent")
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

func TestListSessionsPaginates(t *testing.T) {
	f, srv := newFakeAPI(t)
	c := newTestClient(t, srv.URL)
	page, err := c.ListSessions(context.Background(), 5, "vs_prev")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := f.last(t)
	if req.Method != http.MethodGet || req.URL.Path != "/api/partner/v1/verification-sessions" {
		t.Errorf("sent %s %s", req.Method, req.URL.Path)
	}
	if q := req.URL.Query(); q.Get("limit") != "5" || q.Get("startingAfter") != "vs_prev" {
		t.Errorf("query = %v", q)
	}
	if len(page.Data) != 2 || page.Data[0].ID != "vs_open" || page.Data[1].Status != SessionViewStatusCompleted || !page.HasMore {
		t.Errorf("page = %+v", page)
	}

	if _, err := c.ListSessions(context.Background(), 0, ""); err != nil {
		t.Fatal(err)
	}
	req, _ = f.last(t)
	if req.URL.RawQuery != "" {
		t.Errorf("defaults sent a query: %q", req.URL.RawQuery)
	}
	if _, err := c.ListSessions(context.Background(), -1, ""); err == nil {
		t.Error("a negative limit was sent")
	}
}

func TestAnErrorThatIsNotJSONStillGivesTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "<html>mantenimiento</html>")
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	_, err := c.GetSession(context.Background(), "vs_x")
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	if apiErr.Status != 503 || apiErr.Message != "Perfil Seguro respondió 503 Service Unavailable" || apiErr.RetryAfter != 30*time.Second {
		t.Errorf("APIError = %+v", apiErr)
	}
}

func TestAGarbled2xxIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id": 42`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL)
	_, err := c.GetSession(context.Background(), "vs_x")
	var apiErr *APIError
	if err == nil || errors.As(err, &apiErr) || !strings.Contains(err.Error(), "respuesta no válida") {
		t.Errorf("err = %v", err)
	}
}

func TestTheTimeoutApplies(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newTestClient(t, srv.URL, WithTimeout(50*time.Millisecond))
	start := time.Now()
	_, err := c.GetSession(context.Background(), "vs_x")
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("err = %v after %s", err, time.Since(start))
	}
}

func TestWithHTTPDoesNotChangeTheCallersClient(t *testing.T) {
	mine := &http.Client{Timeout: time.Hour}
	c := newTestClient(t, "https://perfilseguro.mx", WithHTTP(mine), WithTimeout(time.Second))
	if mine.Timeout != time.Hour || c.http == mine || c.http.Timeout != time.Second {
		t.Errorf("caller's timeout %s, client's %s", mine.Timeout, c.http.Timeout)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
