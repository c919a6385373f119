package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/trace"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/tracing/tracingtest"
)

// Issue 54, "Strangers with curl": what a caller with no key, or with the wrong key in the wrong
// place, can make the widget routes do.

// Item 5: distinct Origin headers never grow the server's memory. Malformed and over-long ones
// are refused before any lookup; unknown ones are looked up and not remembered; registered ones
// are remembered up to a bound.
func TestDistinctOriginsNeverGrowTheOriginCache(t *testing.T) {
	t.Parallel()
	e := setup(t)
	const registered = 1100 // more than the cache holds
	_, err := e.db.Exec(`INSERT INTO api_keys (key_id, partner_name, domain, permissions)
		SELECT 'pk_live_' || lpad(to_hex(n), 24, '0'), 'Socio ' || n, 'https://socio' || n || '.example', ARRAY['widget_auth']
		FROM generate_series(1, $1) n`, registered)
	require.NoError(t, err)
	preflight := func(origin string) int {
		req, err := http.NewRequest("OPTIONS", e.srv.URL+"/api/widget/login", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		res, err := e.srv.Client().Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}

	// 256 KiB and malformed origins: 400, nothing looked up or kept.
	for i, origin := range []string{"https://" + strings.Repeat("a", 256<<10) + ".example", "https://a.example/ruta",
		"javascript:alert(1)", "https://usuario@a.example", "https://a.example?x=1", "https://a b.example", "ftp://a.example",
		"https://" + strings.Repeat("b", 300) + ".example"} {
		req, err := http.NewRequest("POST", e.srv.URL+"/api/widget/login", strings.NewReader(`{"email":"x@example.com"}`))
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Content-Type", "application/json")
		res, err := e.srv.Client().Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, "origin %d", i)
		require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	}
	require.Zero(t, e.api.OriginCacheLen())

	// Thousands of distinct, well-formed origins nobody registered: refused, none remembered.
	for i := range 3000 {
		require.Equal(t, http.StatusForbidden, preflight(fmt.Sprintf("https://desconocido%d.example", i)))
	}
	require.Zero(t, e.api.OriginCacheLen(), "an unknown origin is never kept")

	// Every registered origin: granted, and the cache stays within its bound.
	for i := 1; i <= registered; i++ {
		require.Equal(t, http.StatusNoContent, preflight(fmt.Sprintf("https://socio%d.example", i)))
	}
	require.Equal(t, 1024, e.api.OriginCacheLen(), "bounded: the least recently used went first")
}

// Item 6: an active partner's registered Origin without its key acts for nobody: refused with
// the deprecation headers, no code sent, no person or request made, nothing counted or charged.
func TestOriginAloneActsForNoPartner(t *testing.T) {
	t.Parallel()
	e := setup(t)
	origin, pk := "https://heredado.example", "pk_live_0000000000000000000000c1"
	e.addPartner(t, pk, origin, true, "widget_auth")
	pid := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	p := newPerson()
	calls := []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/widget/login", map[string]string{"email": p.Email, "phoneNumber": p.Phone}},
		{"POST", "/api/widget/verify-code", map[string]any{"userId": 1, "code": "123456"}},
		{"POST", "/api/widget/presentations", map[string]any{"claims": []string{"name"}}},
		{"GET", "/api/widget/presentations/8d6e3a52-0c1b-4f1e-9a57-5b1f2c3d4e5f", nil},
	}
	for _, c := range calls {
		res, out := e.cross(t, c.method, c.path, origin, nil, c.body)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, c.path)
		require.Contains(t, out["message"], "llave publicable de tu plataforma en el encabezado X-Partner-Key", c.path)
		require.Equal(t, "@1767225600", res.Header.Get("Deprecation"), c.path)
		require.Equal(t, "Wed, 31 Mar 2027 00:00:00 GMT", res.Header.Get("Sunset"), c.path)
		require.Equal(t, `</integration#llamadas-heredadas>; rel="deprecation"`, res.Header.Get("Link"), c.path)
		// The partner's page may read why (CORS), but nothing was done for it.
		require.Equal(t, origin, res.Header.Get("Access-Control-Allow-Origin"))
		require.Contains(t, res.Header.Get("Access-Control-Expose-Headers"), "Deprecation")
	}
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users`), "no person made")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM presentation_requests`), "no request made")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_codes`)+countOf(t, e.db, `SELECT count(*) FROM email_verification_codes`), "no code sent")
	charged, err := e.redis.Keys(t.Context(), "rate:{rl}:widget*").Result()
	require.NoError(t, err)
	require.Empty(t, charged, "nothing charged to the partner's budgets")

	// Its key, from the same origin, does act for it, and only that call is counted.
	res, out := e.cross(t, "POST", "/api/widget/login", origin, map[string]string{"X-Partner-Key": pk}, map[string]string{"email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Empty(t, res.Header.Get("Deprecation"))
	require.Equal(t, pid, dbGet[int64](t, e.db, `SELECT partner_id FROM users WHERE email = $1`, p.Email))
	charged, err = e.redis.Keys(t.Context(), "rate:{rl}:widget*").Result()
	require.NoError(t, err)
	require.NotEmpty(t, charged, "the keyed call is charged")
	usage := func() int {
		n, _ := e.redis.HGet(t.Context(), jobs.PartnerUsageKey, fmt.Sprint(pid)).Int()
		return n
	}
	require.Eventually(t, func() bool { return usage() == 1 }, 5*time.Second, 50*time.Millisecond)
	time.Sleep(1200 * time.Millisecond) // one more flush: still only the keyed call
	require.Equal(t, 1, usage())

	// No key and no Origin, or an origin nobody registered: refused as before, without the headers.
	res, _ = e.cross(t, "POST", "/api/widget/login", "", nil, map[string]string{"email": "a@example.com"})
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Empty(t, res.Header.Get("Deprecation"))
	res, _ = e.cross(t, "POST", "/api/widget/login", "https://otro.example", nil, map[string]string{"email": "a@example.com"})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Empty(t, res.Header.Get("Deprecation"))
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
}

// Item 7: the widget login's userId is an attempt's opaque id, never the person's: only the
// widget's verify-code accepts it, through the same caller, once.
func TestWidgetLoginUserIDIsAnOpaqueAttempt(t *testing.T) {
	t.Parallel()
	e := setup(t)
	origin, pk := "https://intento.example", "pk_live_0000000000000000000000c2"
	e.addPartner(t, pk, origin, true, "widget_auth")
	e.addPartner(t, "pk_live_0000000000000000000000c3", "https://otro-socio.example", true, "widget_auth")
	key := map[string]string{"X-Partner-Key": pk}
	p := newPerson()
	id := e.browser(t).signUp(p)
	sessions := countOf(t, e.db, `SELECT count(*) FROM user_sessions WHERE user_id = $1`, id)

	res, login := e.cross(t, "POST", "/api/widget/login", origin, key, map[string]string{"phoneNumber": p.Phone})
	require.Equal(t, http.StatusOK, res.StatusCode, login)
	attempt := login["userId"].(float64)
	require.NotEqual(t, float64(id), attempt)
	require.GreaterOrEqual(t, attempt, 1e15)
	require.Less(t, attempt, float64(1<<53), "exact in a JavaScript number")
	require.Equal(t, attempt, login["data"].(map[string]any)["userId"])
	code := e.lastCode(t, id)

	// The person's internal id, the attempt through another partner's key or our own app, and the
	// attempt on the app's own verify-code: none is accepted.
	res, out := e.cross(t, "POST", "/api/widget/verify-code", origin, key, map[string]any{"userId": id, "code": code})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, out["errors"].(map[string]any)["userId"], "Solicita un nuevo código")
	res, _ = e.cross(t, "POST", "/api/widget/verify-code", "https://otro-socio.example",
		map[string]string{"X-Partner-Key": "pk_live_0000000000000000000000c3"}, map[string]any{"userId": attempt, "code": code})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	res, _ = e.cross(t, "POST", "/api/widget/verify-code", e.srv.URL, nil, map[string]any{"userId": attempt, "code": code})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	for _, body := range []map[string]any{{"userId": attempt, "code": code}, {"sessionToken": fmt.Sprintf("%.0f", attempt), "code": code}} {
		res, _ = e.cross(t, "POST", "/api/verify-code", e.srv.URL, nil, body)
		require.GreaterOrEqual(t, res.StatusCode, 400, body)
	}
	require.Equal(t, sessions, countOf(t, e.db, `SELECT count(*) FROM user_sessions WHERE user_id = $1`, id), "nobody signed in")

	// The attempt, through the key that made it: signed in, the answer names the attempt.
	res, out = e.cross(t, "POST", "/api/widget/verify-code", origin, key, map[string]any{"userId": fmt.Sprintf("%.0f", attempt), "code": code})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, attempt, out["userId"])
	require.Equal(t, attempt, out["data"].(map[string]any)["userId"])
	require.NotContains(t, fmt.Sprint(out), fmt.Sprintf(" %d ", id))
	// Used once.
	res, _ = e.cross(t, "POST", "/api/widget/verify-code", origin, key, map[string]any{"userId": attempt, "code": code})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
}

// Item 7: what the login's existence answer (isNewUser) can be asked is bounded per publishable
// key (its partner and mode), per destination and per source address, each with 429 and
// Retry-After.
func TestWidgetLoginIsLimitedPerKeyDestinationAndAddress(t *testing.T) {
	t.Parallel()
	refused := func(t *testing.T, res *http.Response, out map[string]any) {
		t.Helper()
		require.Equal(t, http.StatusTooManyRequests, res.StatusCode, out)
		require.Contains(t, out["message"], "Demasiadas solicitudes")
		require.NotEmpty(t, res.Header.Get("Retry-After"))
	}
	login := func(e *env, key, email string) (*http.Response, map[string]any) {
		return e.cross(t, "POST", "/api/widget/login", "", map[string]string{"X-Partner-Key": key}, map[string]string{"email": email})
	}
	t.Run("per key", func(t *testing.T) {
		e := setup(t, withLimits(func(l *api.Limits) { l.WidgetSendPerPartner = 2 }))
		e.addPartner(t, "pk_live_0000000000000000000000c4", "https://k.example", true, "widget_auth")
		e.addPartner(t, "pk_live_0000000000000000000000c5", "https://k2.example", true, "widget_auth")
		for range 2 {
			res, out := login(e, "pk_live_0000000000000000000000c4", newPerson().Email)
			require.Equal(t, http.StatusOK, res.StatusCode, out)
		}
		res, out := login(e, "pk_live_0000000000000000000000c4", newPerson().Email)
		refused(t, res, out)
		res, out = login(e, "pk_live_0000000000000000000000c5", newPerson().Email)
		require.Equal(t, http.StatusOK, res.StatusCode, out, "another key has its own budget")
	})
	t.Run("per destination", func(t *testing.T) {
		e := setup(t, withLimits(func(l *api.Limits) { l.WidgetSendPerDestination = 1 }))
		e.addPartner(t, "pk_live_0000000000000000000000c6", "https://d.example", true, "widget_auth")
		email := newPerson().Email
		res, out := login(e, "pk_live_0000000000000000000000c6", email)
		require.Equal(t, http.StatusOK, res.StatusCode, out)
		res, out = login(e, "pk_live_0000000000000000000000c6", email)
		require.Equal(t, http.StatusTooManyRequests, res.StatusCode, out)
		require.NotEmpty(t, res.Header.Get("Retry-After"))
	})
	t.Run("per source address", func(t *testing.T) {
		e := setup(t, withLimits(func(l *api.Limits) { l.SendPerIP = 2 }))
		e.addPartner(t, "pk_live_0000000000000000000000c7", "https://a.example", true, "widget_auth")
		for range 2 {
			res, out := login(e, "pk_live_0000000000000000000000c7", newPerson().Email)
			require.Equal(t, http.StatusOK, res.StatusCode, out)
		}
		res, out := login(e, "pk_live_0000000000000000000000c7", newPerson().Email)
		refused(t, res, out)
	})
}

// Item 8: a secret key's status lookup does the same work for an e-mail nobody has and for an
// account that never shared with the partner (the same statements, by tracing), and each secret
// key has a lookup budget with 429 and Retry-After. Not parallel: tracing is process-wide.
func TestSecretKeyLookupsDoTheSameWorkAndAreLimited(t *testing.T) {
	rec := tracingtest.Record(t)
	e := setup(t, withLimits(func(l *api.Limits) { l.WidgetLookupsPerMinute, l.WidgetLookupBurst = 6, 4 }))
	pk := "pk_live_0000000000000000000000c8"
	e.addPartner(t, pk, "https://consulta.example", true, "widget_auth")
	sk := e.secretKey(t, pk, true)
	p := newPerson()
	e.browser(t).signUp(p)
	lookup := func(email string) (*http.Response, map[string]any) {
		return e.cross(t, "GET", "/api/widget/verify?email="+url.QueryEscape(email), "", map[string]string{"Authorization": "Bearer " + sk}, nil)
	}
	statements := func(res *http.Response) []string {
		traceID := res.Header.Get("X-Request-Id")
		var out []string
		for _, s := range rec.Ended() {
			if s.SpanContext().TraceID().String() != traceID {
				continue
			}
			out = append(out, dbStatement(s)...)
		}
		return out
	}
	res, _ := lookup("calentar@example.com") // the key's lookup is cached from here on
	require.Equal(t, http.StatusOK, res.StatusCode)
	resKnown, known := lookup(p.Email)
	resUnknown, unknown := lookup("nadie." + p.Email)
	require.Equal(t, known, unknown, "the same answer")
	require.NotEmpty(t, statements(resKnown))
	require.Equal(t, statements(resUnknown), statements(resKnown), "the same statements, whether or not the e-mail has an account")

	// Burst 4, 6 a minute: the fourth call of the key was allowed, the fifth is refused.
	res, _ = lookup("otra@example.com")
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, out := lookup("una.mas@example.com")
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, out)
	require.Contains(t, out["message"], "6 consultas por minuto")
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	// Another secret key has its own budget.
	res, _ = e.cross(t, "GET", "/api/widget/verify?email=otra@example.com", "", map[string]string{"Authorization": "Bearer " + e.secretKey(t, pk, true)}, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
}

// dbStatement is the SQL text a database span carries (none for other spans).
func dbStatement(s trace.ReadOnlySpan) []string {
	var out []string
	for _, a := range s.Attributes() {
		if k := string(a.Key); k == "db.statement" || k == "db.query.text" {
			out = append(out, a.Value.AsString())
		}
	}
	return out
}

// Item 9: a secret key with an Origin header (a browser) is refused on every route, with a
// message that says to call from the server, and no CORS grant; the secret-key lookup answers no
// browser's preflight.
func TestASecretKeyFromABrowserIsRefusedWithoutCORS(t *testing.T) {
	t.Parallel()
	e := setup(t)
	origin, pk := "https://navegador.example", "pk_live_0000000000000000000000c9"
	e.addPartner(t, pk, origin, true, "widget_auth")
	bearer := map[string]string{"Authorization": "Bearer " + e.secretKey(t, pk, true)}
	for _, c := range []struct{ method, path, origin string }{
		{"GET", "/api/widget/verify?email=a@example.com", origin},
		{"GET", "/api/widget/verify?email=a@example.com", e.srv.URL},
		{"POST", "/api/widget/login", origin},
		{"GET", "/api/widget/presentations/8d6e3a52-0c1b-4f1e-9a57-5b1f2c3d4e5f", origin},
		{"GET", "/api/partner/v1/verification-sessions", origin},
		{"GET", "/api/partner/v1/verification-sessions", e.srv.URL},
	} {
		var body any
		if c.method == "POST" {
			body = map[string]string{"email": "a@example.com"}
		}
		res, out := e.cross(t, c.method, c.path, c.origin, bearer, body)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, c)
		require.Contains(t, out["message"], "llama a esta API desde tu servidor", c)
		require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), c)
		require.Empty(t, res.Header.Get("Access-Control-Allow-Credentials"), c)
	}
	// A publishable key from a browser on the lookup: the secret-key refusal, no CORS.
	res, out := e.cross(t, "GET", "/api/widget/verify?email=a@example.com", origin, map[string]string{"X-Partner-Key": pk}, nil)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Contains(t, out["message"], "Llave secreta no válida")
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	res, _ = e.cross(t, "OPTIONS", "/api/widget/verify?email=a@example.com", origin,
		map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization"}, nil)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
	// From the server (no Origin) the same key works, and gets no CORS either.
	res, out = e.cross(t, "GET", "/api/widget/verify?email=a@example.com", "", bearer, nil)
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
}
