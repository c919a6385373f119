package api_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/argon2"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
)

func TestAdminLoginSetsAStrictHttpOnlyCookieForFourHours(t *testing.T) {
	t.Parallel()
	e := setup(t)
	c := anonymous()
	r := e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, true, r.JSON(t)["authenticated"])
	setCookie := r.Header.Get("Set-Cookie")
	require.Contains(t, setCookie, "ps_admin=")
	require.Contains(t, setCookie, "HttpOnly")
	require.Contains(t, setCookie, "SameSite=Strict")
	require.Contains(t, setCookie, "Max-Age=14400")
	require.Contains(t, setCookie, "Path=/")
	require.NotContains(t, setCookie, "Secure", "Secure only in production (tests run over http)")

	stored := countOf(t, e.db, `SELECT count(*) FROM admin_sessions WHERE revoked_at IS NULL`)
	require.Equal(t, 1, stored)
	token := strings.TrimPrefix(strings.Split(setCookie, ";")[0], "ps_admin=")
	stored = countOf(t, e.db, `SELECT count(*) FROM admin_sessions WHERE token_hash = $1`, token)
	require.Zero(t, stored, "the token is stored hashed, never in clear")

	s := e.send(t, c, "GET", "/api/admin/session", nil)
	require.Equal(t, http.StatusOK, s.Status)
	require.Equal(t, true, s.JSON(t)["authenticated"])
	s = e.send(t, anonymous(), "GET", "/api/admin/session", nil)
	require.Equal(t, false, s.JSON(t)["authenticated"])
}

func TestAdminWrongPasswordIsRefusedAndRepeatedFailuresLockTheIPOut(t *testing.T) {
	t.Parallel()
	e := setup(t)
	c := anonymous()
	r := e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": "   "})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "La contraseña es requerida", r.JSON(t)["message"])
	for i := range 5 {
		r := e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": fmt.Sprintf("guess-%d", i)})
		require.Equal(t, http.StatusUnauthorized, r.Status, "attempt %d", i)
		require.Equal(t, "Contraseña incorrecta", r.JSON(t)["message"])
		require.Empty(t, r.Header.Get("Set-Cookie"))
	}
	// Locked out now: even the right password is refused for 15 minutes.
	r = e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusTooManyRequests, r.Status, string(r.Body))
	require.Equal(t, "Demasiados intentos fallidos. Intenta nuevamente en 15 minutos.", r.JSON(t)["message"])
	wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.InDelta(t, 900, wait, 5)

	// When the lock ends the right password works again.
	require.NoError(t, e.redis.Del(t.Context(), "admin:{127.0.0.1}:lock").Err())
	r = e.send(t, c, "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

func TestAdminLoginIsRateLimitedPerIP(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.AdminLoginPerIP = 2 }))
	for range 2 {
		e.adminClient(t)
	}
	r := e.send(t, anonymous(), "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusTooManyRequests, r.Status)
	require.NotEmpty(t, r.Header.Get("Retry-After"))
}

func TestAdminLoginAcceptsAConfiguredBcryptOrArgon2idHash(t *testing.T) {
	t.Parallel()
	hash, err := api.HashAdminPassword("s3creto-del-equipo")
	require.NoError(t, err)
	require.True(t, api.CheckAdminPassword(hash, "s3creto-del-equipo"))
	require.False(t, api.CheckAdminPassword(hash, "otro"))
	// An argon2id PHC string of "password" with small cost parameters (the race detector makes the
	// production-sized ones take minutes): salt "somesalt", m=1024, t=1, p=1.
	key := argon2.IDKey([]byte("password"), []byte("somesalt"), 1, 1024, 1, 32)
	argon := "$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$" + base64.RawStdEncoding.EncodeToString(key)
	require.True(t, api.CheckAdminPassword(argon, "password"))
	require.False(t, api.CheckAdminPassword(argon, "Password"))
	require.False(t, api.CheckAdminPassword("", ""))

	e := setup(t, func(d *api.Deps) { d.Config.AdminPassHash = hash })
	r := e.sendAnswered(t, anonymous(), "POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusUnauthorized, r.Status, "the development password no longer works once a hash is set: %s", r.Body)
	r = e.sendAnswered(t, anonymous(), "POST", "/api/admin/login", map[string]string{"password": "s3creto-del-equipo"})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// sendAnswered is send, asked again (up to 5 times, a second apart) while the answer is a 503: a
// bcrypt check under -race on a loaded machine can outlast a Redis call's timeout, and a 503 then
// says "try again", not what the test asks about.
func (e *env) sendAnswered(t *testing.T, c *http.Client, method, path string, body any) reply {
	t.Helper()
	r := e.send(t, c, method, path, body)
	for try := 1; try < 5 && r.Status == http.StatusServiceUnavailable; try++ {
		t.Logf("503 (try %d): %s", try, r.Body)
		time.Sleep(time.Second)
		r = e.send(t, c, method, path, body)
	}
	return r
}

func TestAdminSessionExpiresAfterFourHours(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := setup(t, withClock(clk))
	c := e.adminClient(t)
	// Used every 20 minutes (sessions also end after 30 idle minutes, admin_roles_test.go).
	for range 11 {
		clk.Advance(20 * time.Minute)
		require.Equal(t, http.StatusOK, e.send(t, c, "GET", "/api/users", nil).Status)
	}
	clk.Advance(19 * time.Minute) // 4 h − 1 min
	require.Equal(t, http.StatusOK, e.send(t, c, "GET", "/api/users", nil).Status)
	clk.Advance(2 * time.Minute)
	r := e.send(t, c, "GET", "/api/users", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	require.Equal(t, false, e.send(t, c, "GET", "/api/admin/session", nil).JSON(t)["authenticated"])
}

func TestAdminLogoutRevokesTheSession(t *testing.T) {
	t.Parallel()
	e := setup(t)
	c := e.adminClient(t)
	var cookie *http.Cookie
	for _, ck := range c.Jar.Cookies(mustURL(t, e.srv.URL)) {
		if ck.Name == "ps_admin" {
			cookie = ck
		}
	}
	require.NotNil(t, cookie)
	r := e.send(t, c, "POST", "/api/admin/logout", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, r.Header.Get("Set-Cookie"), "Max-Age=0")
	// Replaying the old token does not work: the server revoked it.
	replay := e.send(t, anonymous(), "GET", "/api/users", nil, "Cookie", "ps_admin="+cookie.Value)
	require.Equal(t, http.StatusUnauthorized, replay.Status)
}

// TestEveryAdminEndpointIs401Then403ThenWorks checks the matrix: no session, a user's session, an admin's.
func TestEveryAdminEndpointIs401Then403ThenWorks(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	userID, _ := seedUser(t, e.db, seeded{Level: 1})
	user := e.signedIn(t, userID)
	target, _ := seedUser(t, e.db, seeded{})
	partner := e.send(t, admin, "POST", "/api/admin/partners", map[string]any{"partnerName": "CasaLista", "domain": "casalista.mx"})
	require.Equal(t, http.StatusCreated, partner.Status, string(partner.Body))
	pid := int64(partner.JSON(t)["id"].(float64))

	valid := map[string]any{"nombre": "Nueva Persona", "email": "", "origen": "Broker", "vigencia": 5}
	cases := []struct {
		method, path string
		body         any
		works        int
	}{
		{"GET", "/api/users", nil, http.StatusOK},
		{"GET", "/api/users?page=1&pageSize=10&q=a", nil, http.StatusOK},
		{"POST", "/api/users", valid, http.StatusCreated},
		{"GET", fmt.Sprintf("/api/users/%d", target), nil, http.StatusOK},
		{"PUT", fmt.Sprintf("/api/users/%d", target), valid, http.StatusOK},
		{"DELETE", fmt.Sprintf("/api/users/%d", target), nil, http.StatusOK},
		{"GET", "/api/admin/partners", nil, http.StatusOK},
		{"POST", "/api/admin/partners", map[string]any{"partnerName": "ValorCasa", "domain": "valorcasa.mx"}, http.StatusCreated},
		{"POST", fmt.Sprintf("/api/admin/partners/%d/deactivate", pid), nil, http.StatusOK},
		{"DELETE", fmt.Sprintf("/api/admin/partners/%d", pid), nil, http.StatusOK},
		{"GET", "/metrics", nil, http.StatusOK},
		{"GET", "/admin/monitoring/", nil, http.StatusOK},
	}
	for _, tc := range cases {
		r := e.send(t, anonymous(), tc.method, tc.path, tc.body)
		require.Equal(t, http.StatusUnauthorized, r.Status, "%s %s without a session: %s", tc.method, tc.path, r.Body)
		r = e.send(t, user, tc.method, tc.path, tc.body)
		require.Equal(t, http.StatusForbidden, r.Status, "%s %s with a user's session: %s", tc.method, tc.path, r.Body)
	}
	for _, tc := range cases {
		r := e.send(t, admin, tc.method, tc.path, tc.body)
		require.Equal(t, tc.works, r.Status, "%s %s as admin: %s", tc.method, tc.path, r.Body)
	}
	// A user still reads their own record.
	require.Equal(t, http.StatusOK, e.send(t, user, "GET", fmt.Sprintf("/api/users/%d", userID), nil).Status)
}

func TestAdminUserValidationMessages(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	for _, tc := range []struct {
		body         map[string]any
		field, human string
	}{
		{map[string]any{"nombre": " Al ", "origen": "Otro", "vigencia": 1}, "nombre", "El nombre debe tener al menos 3 caracteres"},
		{map[string]any{"nombre": "Ana López", "email": "ana@", "origen": "Otro", "vigencia": 1}, "email", "Email inválido"},
		{map[string]any{"nombre": "Ana López", "origen": "Inmobiliaria", "vigencia": 1}, "origen", "Selecciona un origen"},
		{map[string]any{"nombre": "Ana López", "origen": "invitación", "vigencia": 1}, "origen", "Selecciona un origen"},
		{map[string]any{"nombre": "Ana López", "origen": "Otro", "vigencia": 3}, "vigencia", "Selecciona una vigencia"},
		{map[string]any{"nombre": "Ana López", "origen": "Otro", "vigencia": "dos"}, "vigencia", "Selecciona una vigencia"},
	} {
		r := e.send(t, admin, "POST", "/api/users", tc.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%v", tc.body)
		out := r.JSON(t)
		require.Equal(t, tc.human, out["message"])
		require.Equal(t, tc.human, out["errors"].(map[string]any)[tc.field])
	}
	r := e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Ana", "origen": "Otro", "vigencia": 1, "phone": "x"})
	require.Equal(t, http.StatusBadRequest, r.Status, "unknown fields are refused")

	// Defaults: origen Otro, vigencia 1; vigencia may come as the form's string.
	r = e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Ana López"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "Otro", r.JSON(t)["origen"])
	require.EqualValues(t, 1, r.JSON(t)["vigencia"])
	r = e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Beto Ruiz", "vigencia": "10", "email": "BETO@Example.MX"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.EqualValues(t, 10, r.JSON(t)["vigencia"])
	require.Equal(t, "beto@example.mx", r.JSON(t)["email"])
	r = e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Otra Beto", "email": "beto@example.mx"})
	require.Equal(t, http.StatusConflict, r.Status)
	require.Equal(t, "Ya existe un usuario con ese email", r.JSON(t)["message"])
}

func TestAdminCreatesListsSearchesEditsAndDeletesAUser(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := setup(t, withClock(clk))
	admin := e.adminClient(t)
	r := e.send(t, admin, "POST", "/api/users", map[string]any{"nombre": "Lucía Hernández", "email": "lucia@casalista.mx", "origen": "CasaLista", "vigencia": 5})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	created := r.JSON(t)
	pid := created["id_validado"].(string)
	require.Regexp(t, `^PS-\d{4}-\d{4}-\d{2}$`, pid)
	validated, err := time.Parse(time.RFC3339Nano, created["fecha_validacion"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, clk.Now(), validated, time.Second, "fecha_validacion is now (the server's clock)")
	id := int64(created["id"].(float64))
	_, _ = seedUser(t, e.db, seeded{Name: "Otra Persona"})

	list := e.send(t, admin, "GET", "/api/users", nil)
	require.Equal(t, http.StatusOK, list.Status)
	var users []map[string]any
	require.NoError(t, json.Unmarshal(list.Body, &users), "the list is a JSON array")
	require.Len(t, users, 2)
	require.Equal(t, "2", list.Header.Get("X-Total-Count"))

	for _, q := range []string{"lucía", "CASALISTA", pid[3:9]} {
		found := e.send(t, admin, "GET", "/api/users?q="+urlQuery(q), nil)
		require.NoError(t, json.Unmarshal(found.Body, &users))
		require.Len(t, users, 1, q)
		require.Equal(t, pid, users[0]["id_validado"])
	}
	paged := e.send(t, admin, "GET", "/api/users?page=2&pageSize=1", nil)
	require.NoError(t, json.Unmarshal(paged.Body, &users))
	require.Len(t, users, 1)
	require.Equal(t, "2", paged.Header.Get("X-Total-Count"))
	require.Equal(t, http.StatusBadRequest, e.send(t, admin, "GET", "/api/users?page=0", nil).Status)

	r = e.send(t, admin, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"nombre": "Lucía H. Pérez", "email": "", "origen": "Broker", "vigencia": 10})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := e.send(t, admin, "GET", fmt.Sprintf("/api/users/%d", id), nil).JSON(t)
	require.Equal(t, "Lucía H. Pérez", got["nombre"])
	require.Nil(t, got["email"])
	require.Equal(t, "Broker", got["origen"])
	require.EqualValues(t, 10, got["vigencia"])
	require.Equal(t, pid, got["id_validado"], "the profile ID never changes")
	require.Equal(t, http.StatusNotFound, e.send(t, admin, "PUT", "/api/users/999999", map[string]any{"nombre": "Nadie Aquí"}).Status)

	d := e.send(t, admin, "DELETE", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, d.Status)
	require.Equal(t, "El usuario ha sido eliminado correctamente", d.JSON(t)["message"])
	require.Equal(t, http.StatusNotFound, e.send(t, admin, "GET", fmt.Sprintf("/api/users/%d", id), nil).Status)
	require.Equal(t, http.StatusNotFound, e.send(t, admin, "DELETE", fmt.Sprintf("/api/users/%d", id), nil).Status)
}

func TestAdminEditOfAPassHolderRebuildsThePassOnlyWhenPassDataChanges(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	validated := time.Now().Add(-24 * time.Hour)
	id, _ := seedUser(t, e.db, seeded{Name: "Pase Titular", Email: "pase@x.mx", Level: 3, Validated: &validated})
	path := fmt.Sprintf("/api/users/%d", id)

	r := e.send(t, admin, "PUT", path, map[string]any{"nombre": "Pase Titular", "email": "pase@x.mx", "origen": "Broker", "vigencia": 1})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Empty(t, e.pendingTasks(t, jobs.QueueDefault), "origen is not on the pass: nothing to rebuild")

	r = e.send(t, admin, "PUT", path, map[string]any{"nombre": "Pase Titular", "email": "pase@x.mx", "origen": "Broker", "vigencia": 5})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	types := map[string]int{}
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		var p jobs.WalletPayload
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		require.Equal(t, id, p.UserID)
		types[task.Type]++
	}
	require.Equal(t, map[string]int{jobs.TypeBuildApplePass: 1, jobs.TypeBuildGooglePass: 1}, types)

	// Users without a pass (below level 3) queue nothing.
	low, _ := seedUser(t, e.db, seeded{Level: 1})
	r = e.send(t, admin, "PUT", fmt.Sprintf("/api/users/%d", low), map[string]any{"nombre": "Nombre Nuevo", "vigencia": 10})
	require.Equal(t, http.StatusOK, r.Status)
	builds := 0
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		if task.Type != jobs.TypeSendAccountChangeNotice { // the person is told of the new name (account_changes_test.go)
			builds++
		}
	}
	require.Equal(t, 2, builds)
}

func TestAdminKeepsTheInvitationOriginOfAnInvitedUser(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	id, _ := seedUser(t, e.db, seeded{})
	_, err := e.db.Exec(`UPDATE users SET origen = 'invitación' WHERE id = $1`, id)
	require.NoError(t, err)
	r := e.send(t, admin, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"nombre": "Invitada Uno", "origen": "invitación", "vigencia": 1})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "invitación", r.JSON(t)["origen"])
}

func TestAdminDeleteLeavesNoPersonalDataBehind(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	b := e.browser(t)
	p := newPerson()
	id := b.signUp(p) // real sign-up: consent, code, registration token, session
	pid := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, id)
	_, err := e.db.Exec(`INSERT INTO verification_logs (user_id, id_validado, ip_address, user_agent, granted)
		VALUES ($1, $2, '203.0.113.9', 'scanner', true)`, id, pid)
	require.NoError(t, err)
	status, _ := b.call("GET", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, status)

	require.Equal(t, http.StatusOK, e.send(t, admin, "DELETE", fmt.Sprintf("/api/users/%d", id), nil).Status)

	var n int
	for _, table := range []string{"users WHERE id = $1", "consents WHERE user_id = $1", "verification_codes WHERE user_id = $1",
		"email_verification_codes WHERE user_id = $1", "session_tokens WHERE user_id = $1", "user_sessions WHERE user_id = $1",
		"verification_logs WHERE user_id = $1", "wallet_passes WHERE user_id = $1"} {
		require.NoError(t, e.db.Get(&n, "SELECT count(*) FROM "+table, id))
		require.Zero(t, n, table)
	}
	require.NoError(t, e.db.Get(&n, `SELECT count(*) FROM verification_logs WHERE id_validado = $1`, pid))
	require.Zero(t, n, "logs no longer name the profile")
	require.NoError(t, e.db.Get(&n, `SELECT count(*) FROM users WHERE email = $1 OR nombre = $2 AND phone_number LIKE $3`,
		strings.ToLower(p.Email), p.Name, "%"+p.Phone[len(p.Phone)-8:]))
	require.Zero(t, n)
	status, _ = b.call("GET", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusUnauthorized, status, "the person's sign-in session is gone")
}

func TestAdminPartnerRules(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	r := e.send(t, admin, "POST", "/api/admin/partners", map[string]any{"partnerName": "CasaLista", "domain": "ab"})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El dominio es requerido", r.JSON(t)["errors"].(map[string]any)["domain"])
	r = e.send(t, admin, "POST", "/api/admin/partners", map[string]any{"partnerName": "CL", "domain": "casalista.mx"})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Contains(t, r.JSON(t)["errors"], "partnerName")

	r = e.send(t, admin, "POST", "/api/admin/partners", map[string]any{"partnerName": "CasaLista", "domain": "https://CasaLista.mx/widget", "createdBy": "ops", "notes": "piloto"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p := r.JSON(t)
	require.Regexp(t, `^pk_live_[0-9a-f]{24}$`, p["keyId"])
	keys := p["keys"].(map[string]any)
	require.Equal(t, p["keyId"], keys["publishableLive"], "the key id is the live publishable key")
	require.Regexp(t, `^pk_test_[0-9a-f]{24}$`, keys["publishableTest"])
	require.Regexp(t, `^sk_live_[0-9a-f]{48}$`, keys["secretLive"])
	require.Regexp(t, `^sk_test_[0-9a-f]{48}$`, keys["secretTest"])
	var stored int
	require.NoError(t, e.db.Get(&stored, `SELECT count(*) FROM partner_keys WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')
		AND hint <> $1 AND kind = 'secret' AND livemode`, keys["secretLive"]))
	require.Equal(t, 1, stored, "the secret key is stored only as its hash, and shown as a hint")
	require.Equal(t, "https://casalista.mx", p["domain"])
	require.Equal(t, []any{"widget_auth"}, p["permissions"])
	require.Equal(t, true, p["isActive"])
	require.Equal(t, "ops", p["createdBy"])
	id := int64(p["id"].(float64))

	var list []map[string]any
	listed := e.send(t, admin, "GET", "/api/admin/partners", nil).Body
	require.NoError(t, json.Unmarshal(listed, &list))
	require.Len(t, list, 1)
	require.NotContains(t, string(listed), keys["secretLive"], "a secret key is shown once, at creation")

	r = e.send(t, admin, "POST", fmt.Sprintf("/api/admin/partners/%d/deactivate", id), nil)
	require.Equal(t, false, r.JSON(t)["isActive"])
	require.Equal(t, http.StatusOK, e.send(t, admin, "DELETE", fmt.Sprintf("/api/admin/partners/%d", id), nil).Status)
	require.Equal(t, http.StatusNotFound, e.send(t, admin, "DELETE", fmt.Sprintf("/api/admin/partners/%d", id), nil).Status)
	require.Equal(t, http.StatusBadRequest, e.send(t, admin, "DELETE", "/api/admin/partners/abc", nil).Status)
}
