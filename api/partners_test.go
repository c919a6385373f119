package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// addPartner registers a partner directly, with keyID as its live publishable key (the admin API has its own tests).
func (e *env) addPartner(t *testing.T, keyID, domain string, active bool, permissions string) {
	t.Helper()
	_, err := e.db.Exec(`WITH p AS (INSERT INTO api_keys (key_id, partner_name, domain, is_active, permissions)
			VALUES ($1, 'Socio de prueba', $2, $3, string_to_array($4, ',')) RETURNING id)
		INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint) SELECT id, 'publishable', true, encode(sha256(convert_to($1, 'UTF8')), 'hex'), $1 FROM p`,
		keyID, domain, active, permissions)
	require.NoError(t, err)
}

// secretKey mints a secret key of the mode for the partner whose live publishable key is pk.
func (e *env) secretKey(t *testing.T, pk string, live bool) string {
	t.Helper()
	id := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	k, err := (&postgres.Store{DB: e.db}).InsertPartnerKey(t.Context(), e.db, id, perfilseguro.KeySecret, live, "prueba")
	require.NoError(t, err)
	return k.Key
}

// grant records that a person shared claims with the partner whose live publishable key is pk.
func (e *env) grant(t *testing.T, pk string, userID int64, live bool, claims ...string) {
	t.Helper()
	_, err := e.db.Exec(`INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via)
		SELECT id, $2, $3, $4, 'session' FROM api_keys WHERE key_id = $1`, pk, userID, live, pq.StringArray(claims))
	require.NoError(t, err)
}

// cross sends a request as a browser on origin would.
func (e *env) cross(t *testing.T, method, path, origin string, header map[string]string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	out := map[string]any{}
	json.NewDecoder(res.Body).Decode(&out)
	return res, out
}

func TestWidgetCORSMatrix(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.addPartner(t, "pk_live_0000000000000000000000a1", "https://casalista.example", true, "widget_auth")
	e.addPartner(t, "pk_live_0000000000000000000000a2", "https://inactivo.example", false, "widget_auth")
	e.addPartner(t, "pk_live_0000000000000000000000a3", "https://sinpermiso.example", true, "reports")

	// Preflight from an active partner: granted with credentials.
	res, _ := e.cross(t, "OPTIONS", "/api/widget/login", "https://casalista.example",
		map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}, nil)
	require.Equal(t, http.StatusNoContent, res.StatusCode)
	require.Equal(t, "https://casalista.example", res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, "true", res.Header.Get("Access-Control-Allow-Credentials"))
	require.Contains(t, res.Header.Get("Access-Control-Allow-Methods"), "POST")
	require.Contains(t, strings.ToLower(res.Header.Get("Access-Control-Allow-Headers")), "content-type")
	require.Contains(t, res.Header.Values("Vary"), "Origin")

	// Actual request from the partner, with its publishable key, works and is granted.
	p := newPerson()
	pk := map[string]string{"X-Partner-Key": "pk_live_0000000000000000000000a1"}
	res, out := e.cross(t, "POST", "/api/widget/login", "https://casalista.example", pk, map[string]string{"email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, "https://casalista.example", res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, true, out["isNewUser"])

	// Refused: unknown, inactive, without permission; no CORS grant in the answer.
	for _, origin := range []string{"https://evil.example", "https://inactivo.example", "https://sinpermiso.example"} {
		for _, method := range []string{"OPTIONS", "POST"} {
			hdr := map[string]string{"Access-Control-Request-Method": "POST"}
			res, out := e.cross(t, method, "/api/widget/login", origin, hdr, map[string]string{"email": "x@example.com"})
			require.Equal(t, http.StatusForbidden, res.StatusCode, origin+" "+method)
			require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), origin)
			require.NotEmpty(t, out["message"])
		}
	}

	// The status lookup names nobody without a secret key: a publishable key or a bare Origin is
	// no credential (DECISIONS.md, "Partners"); it is a server's route, and no browser gets CORS.
	res, out = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "", map[string]string{"X-Partner-Key": "pk_live_0000000000000000000000a1"}, nil)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode, out)
	require.Contains(t, out["message"], "Llave secreta no válida")
	res, out = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "https://casalista.example", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "", out["name"])
	require.Equal(t, "", out["profileId"])
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), "a secret-key route never answers with CORS")
	res, out = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "", nil, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "", out["name"])
	res, _ = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "", map[string]string{"X-Partner-Key": "pk_live_0000000000000000000000a2"}, nil)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	// A well-formed key nobody issued, and a secret key sent by a browser: 401, nothing done.
	res, _ = e.cross(t, "POST", "/api/widget/login", "", map[string]string{"X-Partner-Key": "pk_live_0123456789abcdef01234567"}, map[string]string{"email": "y@example.com"})
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	sk := e.secretKey(t, "pk_live_0000000000000000000000a1", true)
	res, out = e.cross(t, "POST", "/api/widget/login", "https://casalista.example", map[string]string{"Authorization": "Bearer " + sk}, map[string]string{"email": "y@example.com"})
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Contains(t, out["message"], "llave secreta en el navegador")
	// A publishable key from another partner's origin: refused.
	res, _ = e.cross(t, "POST", "/api/widget/login", "https://evil.example", map[string]string{"X-Partner-Key": "pk_live_0000000000000000000000a1"}, map[string]string{"email": "y@example.com"})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users WHERE email = 'y@example.com'`), "a refused call writes nothing")
	// The framework's own refusal (a required query parameter missing) is a 400 in Spanish, not a 500.
	res, out = e.cross(t, "GET", "/api/widget/verify", "", map[string]string{"Authorization": "Bearer " + sk}, nil)
	require.Equal(t, http.StatusBadRequest, res.StatusCode, out)
	require.Equal(t, "La solicitud no es válida: falta un dato o tiene un formato incorrecto.", out["message"])
}

// widgetPerson is a server with an active partner whose widget (widget_auth) runs at origin, and
// a new person to sign in there.
func widgetPerson(t *testing.T, keyID, origin string) (*env, person) {
	t.Helper()
	e := setup(t)
	e.addPartner(t, keyID, origin, true, "widget_auth")
	return e, newPerson()
}

// widgetLogin asks the widget at origin, with the partner's publishable key, for p's sign-in code.
func (e *env) widgetLogin(t *testing.T, origin, key string, p person) (*http.Response, map[string]any) {
	t.Helper()
	return e.cross(t, "POST", "/api/widget/login", origin, map[string]string{"X-Partner-Key": key}, map[string]string{"phoneNumber": p.Phone})
}

func TestWidgetFlowShapesAndNextSteps(t *testing.T) {
	t.Parallel()
	origin := "https://ventadirecta.example"
	pk := "pk_live_0000000000000000000000a4"
	e, p := widgetPerson(t, pk, origin)
	key := map[string]string{"X-Partner-Key": pk}

	res, login := e.widgetLogin(t, origin, pk, p)
	require.Equal(t, http.StatusOK, res.StatusCode, login)
	for _, k := range []string{"success", "message", "codeRequested", "verified", "userId", "sessionToken", "data", "isNewUser", "nextStep"} {
		require.Contains(t, login, k)
	}
	require.Equal(t, "verify_code", login["nextStep"])
	require.Equal(t, false, login["verified"])
	attempt := login["userId"]
	uid := dbGet[int64](t, e.db, `SELECT id FROM users WHERE phone_number = $1`, "+52"+p.Phone)
	require.NotEqual(t, float64(uid), attempt, "the attempt's id, never the person's")

	// The user is attributed to the partner.
	partnerKey := dbGet[string](t, e.db, `SELECT k.key_id FROM users u JOIN api_keys k ON k.id = u.partner_id WHERE u.id = $1`, uid)
	require.Equal(t, pk, partnerKey)

	code := e.lastCode(t, uid)
	res, out := e.cross(t, "POST", "/api/widget/verify-code", origin, key, map[string]any{"userId": attempt, "code": "000000"})
	if code == "000000" {
		t.Skip("drew the one code we use as wrong")
	}
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	res, out = e.cross(t, "POST", "/api/widget/verify-code", origin, key, map[string]any{"userId": attempt, "code": code})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, attempt, out["userId"])
	data := out["data"].(map[string]any)
	require.Equal(t, attempt, data["userId"])
	require.Equal(t, float64(1), data["verification_level"])
	require.Equal(t, "phone", data["verificationType"])
	require.Equal(t, "biometric_verification", data["nextStep"])

	// Status by e-mail: only to the partner's secret key, and only once the person shared with it.
	_, err := e.db.Exec(`UPDATE users SET email = $2, nombre = 'Lucía Pérez' WHERE id = $1`, uid, p.Email)
	require.NoError(t, err)
	sk := e.secretKey(t, "pk_live_0000000000000000000000a4", true)
	bearer := map[string]string{"Authorization": "Bearer " + sk}
	res, st := e.cross(t, "GET", "/api/widget/verify?email="+strings.ToUpper(p.Email), "", bearer, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, nobody := e.cross(t, "GET", "/api/widget/verify?email=nadie@example.com", "", bearer, nil)
	require.Equal(t, nobody, st, "not shared: the same answer as for an e-mail nobody has")
	require.Equal(t, "", st["name"])
	require.Equal(t, false, st["valid"])

	e.grant(t, "pk_live_0000000000000000000000a4", uid, true, "name", "profileId")
	res, st = e.cross(t, "GET", "/api/widget/verify?email="+strings.ToUpper(p.Email), "", bearer, nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, true, st["valid"])
	require.Equal(t, false, st["verified"])
	require.Equal(t, "Lucía Pérez", st["name"])
	require.Regexp(t, `^PS-`, st["profileId"])
	require.Nil(t, st["vigencia"])
	// The test key reads test grants only: live data never reaches it.
	_, st = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "", map[string]string{"Authorization": "Bearer " + e.secretKey(t, "pk_live_0000000000000000000000a4", false)}, nil)
	require.Equal(t, "", st["name"])

	_, err = e.db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = now(), vigencia = 5 WHERE id = $1`, uid)
	require.NoError(t, err)
	_, st = e.cross(t, "GET", "/api/widget/verify?email="+p.Email, "", bearer, nil)
	require.Equal(t, true, st["verified"])
	require.Nil(t, st["vigencia"], "validUntil was not shared")
	res, _ = e.cross(t, "GET", "/api/widget/verify?email=no-es-correo", "", bearer, nil)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)

	// Each answer that named the person goes to their "Consultas a tu perfil", with the partner.
	var logged []jobs.VerifyLogEntry
	require.Eventually(t, func() bool {
		logged = nil
		for _, task := range e.pendingTasks(t, jobs.QueueLow) {
			var p jobs.VerifyLogPayload
			require.NoError(t, json.Unmarshal(task.Payload, &p))
			logged = append(logged, p.Entries...)
		}
		return len(logged) == 2
	}, 5*time.Second, 20*time.Millisecond)
	for _, l := range logged {
		require.Equal(t, uid, *l.UserID)
		require.Equal(t, jobs.AccessPartnerAPI, l.AccessType)
		require.NotNil(t, l.PartnerID)
	}
}

func TestWidgetRequestsAreCountedInRedisNotPostgres(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.addPartner(t, "pk_live_0000000000000000000000a5", "https://valorcasa.example", true, "widget_auth")
	sk := e.secretKey(t, "pk_live_0000000000000000000000a5", true)
	for range 3 {
		res, _ := e.cross(t, "GET", "/api/widget/verify?email=a@example.com", "", map[string]string{"Authorization": "Bearer " + sk}, nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	pid := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000000a5'`)
	// Counted in the process, then added to Redis within a second (one pipeline for all partners).
	require.Eventually(t, func() bool {
		n, _ := e.redis.HGet(t.Context(), jobs.PartnerUsageKey, fmt.Sprint(pid)).Int()
		return n == 3
	}, 5*time.Second, 50*time.Millisecond)
	require.Zero(t, countOf(t, e.db, `SELECT requests_count FROM api_keys WHERE id = $1`, pid), "no database write on the request path")
}

func TestWidgetLoginIsRateLimited(t *testing.T) {
	t.Parallel()
	origin := "https://limites.example"
	e, p := widgetPerson(t, "pk_live_0000000000000000000000a6", origin)
	res, _ := e.widgetLogin(t, origin, "pk_live_0000000000000000000000a6", p)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, out := e.widgetLogin(t, origin, "pk_live_0000000000000000000000a6", p)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, "60 s cooldown for the same user")
	require.Contains(t, out["message"], "Podrás solicitar uno nuevo")
	require.NotEmpty(t, res.Header.Get("Retry-After"))
}

func TestAdminSetsAPartnerWebhookAndGetsItsSecretOnce(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.addPartner(t, "pk_live_0000000000000000000000a7", "https://casalista.example", true, "widget_auth")
	pid := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000000a7'`)
	path := fmt.Sprintf("/api/admin/partners/%d/webhook", pid)

	r := e.send(t, anonymous(), "PUT", path, map[string]string{"webhookUrl": "https://casalista.example/hooks"})
	require.Equal(t, http.StatusUnauthorized, r.Status)

	admin := e.adminClient(t)
	r = e.send(t, admin, "PUT", path, map[string]string{"webhookUrl": "ftp://casalista.example"})
	require.Equal(t, http.StatusBadRequest, r.Status)
	r = e.send(t, admin, "PUT", path, map[string]string{"webhookUrl": "https://casalista.example/hooks"})
	require.Equal(t, http.StatusOK, r.Status)
	out := r.JSON(t)
	require.Regexp(t, `^whsec_[0-9a-f]{48}$`, out["webhookSecret"])
	stored := dbGet[string](t, e.db, `SELECT webhook_secret FROM api_keys WHERE id = $1`, pid)
	require.Equal(t, out["webhookSecret"], stored)

	// A new secret replaces it; the old one keeps signing beside it for a day (rotation overlap).
	r = e.send(t, admin, "PUT", path, map[string]string{"webhookUrl": "https://casalista.example/hooks"})
	require.Equal(t, http.StatusOK, r.Status)
	var previous string
	var overlap time.Duration
	require.NoError(t, e.db.QueryRow(`SELECT webhook_secret_previous, EXTRACT(EPOCH FROM webhook_secret_previous_until - now())::bigint * 1000000000
		FROM api_keys WHERE id = $1`, pid).Scan(&previous, &overlap))
	require.Equal(t, stored, previous)
	require.InDelta(t, (24 * time.Hour).Seconds(), overlap.Seconds(), 60)

	r = e.send(t, admin, "PUT", "/api/admin/partners/999999/webhook", map[string]string{"webhookUrl": ""})
	require.Equal(t, http.StatusNotFound, r.Status)
}
