package api_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// roleClient is a client signed in as a named administrator with role (asserted: a passkey
// confirmation just now), with a session inserted as a passkey sign-in would.
func (e *env) roleClient(t *testing.T, role string, asserted bool, now time.Time) *http.Client {
	t.Helper()
	ctx := context.Background()
	store := &postgres.Store{DB: e.db}
	a, err := store.EnsureAdmin(ctx, role+"@example.com", "Prueba "+role, role)
	require.NoError(t, err)
	token := secure.NewToken(32)
	require.NoError(t, store.InsertAdminSession(ctx, postgres.AdminSessionStart{TokenHash: secure.HashToken(token),
		AdminID: a.ID, Created: now, Expires: now.Add(4 * time.Hour), Asserted: asserted}))
	c := anonymous()
	u, err := url.Parse(e.srv.URL)
	require.NoError(t, err)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "ps_admin", Value: token, Path: "/"}})
	return c
}

func TestAdminRolesAreCheckedOnTheServer(t *testing.T) {
	t.Parallel()
	e := setup(t)
	now := time.Now()
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	soporte := e.roleClient(t, perfilseguro.RoleSupport, true, now)
	finanzas := e.roleClient(t, perfilseguro.RoleFinance, true, now)
	user := fmt.Sprintf("/api/users/%d", id)
	edit := map[string]any{"nombre": "Nombre Cambiado", "email": "", "origen": "Otro", "vigencia": 1}

	// soporte reads users, their lifecycle and payments…
	for _, path := range []string{"/api/users", user, user + "/../" + fmt.Sprint(id), fmt.Sprintf("/api/admin/users/%d/lifecycle", id),
		fmt.Sprintf("/api/admin/users/%d/payments", id), "/api/admin/arco-requests"} {
		if strings.Contains(path, "..") {
			continue
		}
		r := e.send(t, soporte, "GET", path, nil)
		require.Equal(t, http.StatusOK, r.Status, "soporte GET %s: %s", path, r.Body)
	}
	// …and cannot edit, revoke, delete, refund or manage partners, administrators or the queues.
	for _, c := range []struct{ method, path string }{
		{"PUT", user}, {"POST", fmt.Sprintf("/api/admin/users/%d/revoke", id)}, {"DELETE", user},
		{"POST", "/api/admin/payments/1/refund"}, {"POST", "/api/admin/partners"}, {"GET", "/api/admin/partners"},
		{"GET", "/api/admin/admins"}, {"POST", "/api/admin/admins"}, {"GET", "/api/admin/audit"},
		{"GET", "/admin/monitoring/"}, {"GET", "/metrics"},
	} {
		var body any
		switch c.method {
		case "PUT":
			body = edit
		case "POST":
			body = map[string]string{"motivo": "Fraude", "partnerName": "Socio", "domain": "https://socio.mx"}
		}
		r := e.send(t, soporte, c.method, c.path, body)
		require.Equal(t, http.StatusForbidden, r.Status, "soporte %s %s: %s", c.method, c.path, r.Body)
		require.Equal(t, "Tu rol (soporte) no permite esta acción.", r.JSON(t)["message"])
	}
	// finanzas reads users and payments and may refund; it cannot edit users.
	r := e.send(t, finanzas, "PUT", user, edit)
	require.Equal(t, http.StatusForbidden, r.Status)
	require.Equal(t, "Tu rol (finanzas) no permite esta acción.", r.JSON(t)["message"])
	r = e.send(t, finanzas, "GET", fmt.Sprintf("/api/admin/users/%d/payments", id), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, finanzas, "GET", "/api/users", nil)
	require.Equal(t, http.StatusOK, r.Status)
	r = e.send(t, finanzas, "POST", "/api/admin/payments/999999/refund", nil)
	require.Equal(t, http.StatusNotFound, r.Status, "allowed through to the lookup: %s", r.Body)
	r = e.send(t, finanzas, "GET", "/api/admin/arco-requests", nil)
	require.Equal(t, http.StatusForbidden, r.Status)

	// The session says who and what role, so the panel can hide what the role cannot do.
	r = e.send(t, soporte, "GET", "/api/admin/session", nil)
	require.Equal(t, http.StatusOK, r.Status)
	me := r.JSON(t)["admin"].(map[string]any)
	require.Equal(t, "soporte@example.com", me["email"])
	require.Equal(t, "soporte", me["role"])

	// The refusals are in the audit trail as denied, with the administrator.
	var denied int
	require.NoError(t, e.db.Get(&denied, `SELECT count(*) FROM audit_events WHERE outcome = 'denied'
		AND actor_label = 'soporte@example.com' AND action = 'user.revoke' AND target_id = $1`, fmt.Sprint(id)))
	require.Equal(t, 1, denied)
}

func TestDestructiveActionsWantAFreshPasskeyConfirmation(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := setup(t, withClock(clk))
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	stale := e.roleClient(t, perfilseguro.RoleAdministrator, false, clk.Now())
	revoke := fmt.Sprintf("/api/admin/users/%d/revoke", id)
	r := e.send(t, stale, "POST", revoke, map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["reauth"])
	r = e.send(t, stale, "DELETE", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusForbidden, r.Status)

	fresh := e.roleClient(t, "administrador", true, clk.Now())
	clk.Advance(5*time.Minute + time.Second)
	r = e.send(t, fresh, "POST", revoke, map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusForbidden, r.Status, "older than 5 minutes")

	fresh = e.roleClient(t, "administrador", true, clk.Now())
	clk.Advance(4 * time.Minute)
	r = e.send(t, fresh, "GET", "/api/admin/session", nil)
	require.NotNil(t, r.JSON(t)["freshUntil"])
	r = e.send(t, fresh, "POST", revoke, map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	// The development password's session counts as fresh outside production.
	dev := e.adminClient(t)
	r = e.send(t, dev, "GET", "/api/admin/session", nil)
	require.Equal(t, true, r.JSON(t)["passwordSession"])
	require.NotNil(t, r.JSON(t)["freshUntil"])
}

func TestAdminSessionsEndAfter30IdleMinutes(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := setup(t, withClock(clk))
	admin := e.adminClient(t)
	for range 3 { // used every 25 minutes: still alive after 75
		clk.Advance(25 * time.Minute)
		r := e.send(t, admin, "GET", "/api/users", nil)
		require.Equal(t, http.StatusOK, r.Status)
	}
	clk.Advance(31 * time.Minute)
	r := e.send(t, admin, "GET", "/api/users", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	r = e.send(t, admin, "GET", "/api/admin/session", nil)
	require.Equal(t, false, r.JSON(t)["authenticated"])

	// 4 hours is the absolute end, however busy the session.
	admin = e.adminClient(t)
	for range 9 {
		clk.Advance(29 * time.Minute)
		e.send(t, admin, "GET", "/api/users", nil)
	}
	r = e.send(t, admin, "GET", "/api/users", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status, "past 4 hours")
}

func TestRevokeIsAuditedAndTheHistoryNamesTheAdministrator(t *testing.T) {
	t.Parallel()
	e := setup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	admin := e.adminClient(t)
	r := e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/revoke", id), map[string]string{"motivo": "Documento robado"},
		"User-Agent", "Prueba/1.0")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	r = e.send(t, admin, "GET", fmt.Sprintf("/api/admin/users/%d/lifecycle", id), nil)
	ev := r.JSON(t)["events"].([]any)[0].(map[string]any)
	require.Equal(t, "admin", ev["quien"])
	require.Equal(t, perfilseguro.DevAdminEmail, ev["administrador"])

	r = e.send(t, admin, "GET", fmt.Sprintf("/api/admin/audit?action=user.revoke&target=user:%d", id), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	page := r.JSON(t)
	require.EqualValues(t, 1, page["total"])
	row := page["events"].([]any)[0].(map[string]any)
	require.Equal(t, "admin", row["actorKind"])
	require.Equal(t, perfilseguro.DevAdminEmail, row["actorLabel"])
	require.NotNil(t, row["actorId"])
	require.Equal(t, "127.0.0.1", row["ip"])
	require.Equal(t, "Prueba/1.0", row["userAgent"])
	require.Equal(t, "ok", row["outcome"])
	require.Equal(t, "Documento robado", row["changes"].(map[string]any)["motivo"].(map[string]any)["after"])
	require.Equal(t, "user.revoke", row["action"], "the code stays")
	require.Equal(t, "Revocación de la validación", row["actionLabel"])
	pid := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, id)
	require.Equal(t, "Perfil "+pid, row["targetText"])

	// An edit records before and after; the sign-in with the password is there too.
	r = e.send(t, admin, "PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"nombre": "Nombre Nuevo", "origen": "Otro", "vigencia": 5,
		"confirmRevalidation": true}) // a validated person's new name annuls the validation (issue 54, item 22)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, admin, "GET", "/api/admin/audit?action=user.update", nil)
	changes := r.JSON(t)["events"].([]any)[0].(map[string]any)["changes"].(map[string]any)
	require.Equal(t, "Nombre Nuevo", changes["nombre"].(map[string]any)["after"])
	require.EqualValues(t, 5, changes["vigencia"].(map[string]any)["after"])
	r = e.send(t, admin, "GET", "/api/admin/audit?action=admin.signin.password&actor=admin@", nil)
	require.EqualValues(t, 1, r.JSON(t)["total"])

	// The CSV has a Spanish header and every row of the filter.
	res, body := get(t, admin, e.srv.URL+"/api/admin/audit?format=csv&action=user.")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "text/csv")
	require.Contains(t, res.Header.Get("Content-Disposition"), "bitacora-")
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"fecha", "tipo_actor", "id_actor", "actor", "accion", "tipo_objetivo", "objetivo",
		"ip", "navegador", "cambios", "resultado", "accion_descripcion", "objetivo_descripcion"}, rows[0])
	require.Len(t, rows, 3)
	require.Equal(t, "user.update", rows[1][4], "newest first")
	require.Equal(t, "user.revoke", rows[2][4])
	require.Equal(t, []string{"Revocación de la validación", "Perfil " + pid}, rows[2][11:13], "the codes in their columns, the words in theirs")

	r = e.send(t, admin, "GET", "/api/admin/audit?from=ayer", nil)
	require.Equal(t, http.StatusBadRequest, r.Status)
}

func TestAdministratorsInviteChangeRolesAndNeverLoseTheLast(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	r := e.send(t, admin, "GET", "/api/admin/session", nil)
	me := r.JSON(t)["admin"].(map[string]any)
	devID := int64(me["id"].(float64))

	r = e.send(t, admin, "POST", fmt.Sprintf("/api/admin/admins/%d/disable", devID), nil)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "sin un administrador activo")
	r = e.send(t, admin, "PUT", fmt.Sprintf("/api/admin/admins/%d", devID), map[string]string{"role": "soporte"})
	require.Equal(t, http.StatusConflict, r.Status)

	r = e.send(t, admin, "POST", "/api/admin/admins", map[string]string{"email": "Luz@Example.com", "name": "Luz", "role": "soporte"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	inv := r.JSON(t)
	link := inv["enrolmentUrl"].(string)
	require.Contains(t, link, "/admin-enrol?token=")
	luz := inv["admin"].(map[string]any)
	require.Equal(t, "luz@example.com", luz["email"])
	require.Equal(t, false, luz["enrolled"])
	token := link[strings.Index(link, "token=")+6:]
	r = e.send(t, anonymous(), "GET", "/api/admin/enrol?token="+token, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "Luz", r.JSON(t)["name"])
	r = e.send(t, anonymous(), "GET", "/api/admin/enrol?token="+strings.Repeat("0", 64), nil)
	require.Equal(t, http.StatusGone, r.Status)
	r = e.send(t, admin, "POST", "/api/admin/admins", map[string]string{"email": "luz@example.com", "name": "Luz", "role": "soporte"})
	require.Equal(t, http.StatusConflict, r.Status)
	r = e.send(t, admin, "POST", "/api/admin/admins", map[string]string{"email": "x@example.com", "name": "X", "role": "jefe"})
	require.Equal(t, http.StatusBadRequest, r.Status)

	luzID := int64(luz["id"].(float64))
	r = e.send(t, admin, "PUT", fmt.Sprintf("/api/admin/admins/%d", luzID), map[string]string{"role": "administrador"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	// Now there are two administradores: the development one can be disabled, and its session ends.
	r = e.send(t, admin, "POST", fmt.Sprintf("/api/admin/admins/%d/disable", devID), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, admin, "GET", "/api/users", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	r = e.send(t, anonymous(), "POST", "/api/admin/login", map[string]string{"password": "admin-dev-only"})
	require.Equal(t, http.StatusForbidden, r.Status, "a disabled account stays out")

	require.Equal(t, 3, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action IN ('admin.create', 'admin.role', 'admin.disable') AND outcome = 'ok'`))
}
