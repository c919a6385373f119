package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// revokedSupportMessage is the 409 of every new start while a revocation stands (test config).
const revokedSupportMessage = "Tu validación fue revocada: no puedes iniciar una nueva verificación hasta que soporte " +
	"revise tu caso. Escríbenos a soporte@perfilseguro.mx."

func TestOnlyAnAdministradorLiftsARevocationWithAReason(t *testing.T) {
	t.Parallel()
	e := setup(t)
	now := time.Now()
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &now})
	lift := fmt.Sprintf("/api/admin/users/%d/lift-revocation", id)
	reason := map[string]string{"motivo": "  Documento   aclarado con la persona "}
	admin := e.adminClient(t)

	// Not revoked: nothing to lift.
	r := e.send(t, admin, "POST", lift, reason)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, "Este perfil no está revocado: no hay revocación que levantar.", r.JSON(t)["message"])

	r = e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/revoke", id), map[string]string{"motivo": "Documento robado"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	r = e.send(t, anonymous(), "POST", lift, reason)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	for _, role := range []string{perfilseguro.RoleSupport, perfilseguro.RoleFinance} {
		r = e.send(t, e.roleClient(t, role, true, now), "POST", lift, reason)
		require.Equal(t, http.StatusForbidden, r.Status, "%s: %s", role, r.Body)
		require.Equal(t, fmt.Sprintf("Tu rol (%s) no permite esta acción.", role), r.JSON(t)["message"])
	}
	r = e.send(t, e.roleClient(t, perfilseguro.RoleAdministrator, false, now), "POST", lift, reason)
	require.Equal(t, http.StatusForbidden, r.Status, "a fresh passkey confirmation, as for the revocation")
	require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["reauth"])
	r = e.send(t, admin, "POST", lift, map[string]string{"motivo": "   "})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El motivo para levantar la revocación es requerido", r.JSON(t)["errors"].(map[string]any)["motivo"])
	r = e.send(t, admin, "POST", lift, map[string]any{})
	require.Equal(t, http.StatusBadRequest, r.Status, "no reason at all")
	r = e.send(t, admin, "POST", lift, map[string]string{"motivo": strings.Repeat("x", 501)})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El motivo no puede exceder 500 caracteres", r.JSON(t)["errors"].(map[string]any)["motivo"])
	r = e.send(t, admin, "POST", "/api/admin/users/99999999/lift-revocation", reason)
	require.Equal(t, http.StatusNotFound, r.Status)
	count := countOf(t, e.db, `SELECT count(*) FROM profile_events WHERE user_id = $1 AND kind = 'lifted'`, id)
	require.Zero(t, count, "no refusal lifted anything")
	require.NoError(t, e.db.Get(&count, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke.lift' AND outcome = 'denied'
		AND target_id = $1`, fmt.Sprint(id)))
	require.Equal(t, 3, count, "soporte, finanzas and the stale session are in the Bitácora as denied")

	r = e.send(t, admin, "POST", lift, reason, "User-Agent", "Prueba/1.0")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON(t)
	require.Nil(t, u["revokedAt"])
	require.Nil(t, u["revokedReason"])
	require.Equal(t, false, u["biometricVerified"], "the revoked validation does not come back")
	require.Nil(t, u["fecha_validacion"])
	require.EqualValues(t, 2, u["verificationLevel"])

	r = e.send(t, admin, "POST", lift, reason)
	require.Equal(t, http.StatusConflict, r.Status, "a lift happens once")

	// The history shows the lift, newest first, with who, from where and why.
	r = e.send(t, admin, "GET", fmt.Sprintf("/api/admin/users/%d/lifecycle", id), nil)
	events := r.JSON(t)["events"].([]any)
	require.Len(t, events, 2)
	ev := events[0].(map[string]any)
	require.Equal(t, "lifted", ev["tipo"])
	require.Equal(t, "Documento aclarado con la persona", ev["motivo"])
	require.Equal(t, perfilseguro.DevAdminEmail, ev["administrador"])
	require.Equal(t, "127.0.0.1", ev["ip"])
	require.Equal(t, "revoked", events[1].(map[string]any)["tipo"])

	// Audited, in Spanish too.
	r = e.send(t, admin, "GET", fmt.Sprintf("/api/admin/audit?action=user.revoke.lift&target=user:%d", id), nil)
	page := r.JSON(t)
	var ok []map[string]any
	for _, row := range page["events"].([]any) {
		if m := row.(map[string]any); m["outcome"] == "ok" {
			ok = append(ok, m)
		}
	}
	require.Len(t, ok, 1)
	require.Equal(t, "Levantamiento de la revocación", ok[0]["actionLabel"])
	require.Equal(t, "Prueba/1.0", ok[0]["userAgent"])
	require.Equal(t, "Documento aclarado con la persona", ok[0]["changes"].(map[string]any)["motivo"].(map[string]any)["after"])

	// The person's e-mail is queued, naming the lift's event.
	eventID := dbGet[int64](t, e.db, `SELECT id FROM profile_events WHERE user_id = $1 AND kind = 'lifted'`, id)
	var notices []jobs.SendLiftNoticePayload
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		if task.Type == jobs.TypeSendLiftNotice {
			var p jobs.SendLiftNoticePayload
			require.NoError(t, json.Unmarshal(task.Payload, &p))
			notices = append(notices, p)
		}
	}
	require.Equal(t, []jobs.SendLiftNoticePayload{{EventID: eventID}}, notices)

	// The public page no longer says Revocado, nor Verificado: a new check validates again.
	res, body := get(t, e.srv.Client(), e.srv.URL+"/api/verify/"+pid)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, string(body), `"revocado":false`)
	require.Contains(t, string(body), `"verificado":false`)
}

// Redis down: the e-mail cannot be queued, so nothing is lifted (one transaction).
func TestALiftThatCannotBeToldIsNotMade(t *testing.T) {
	t.Parallel()
	e := setup(t, withDeadQueue)
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	admin := e.adminClient(t)
	r := e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/revoke", id), map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, admin, "POST", fmt.Sprintf("/api/admin/users/%d/lift-revocation", id), map[string]string{"motivo": "Aclarado"})
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	revoked := dbGet[bool](t, e.db, `SELECT revoked_at IS NOT NULL FROM users WHERE id = $1`, id)
	require.True(t, revoked)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke.lift' AND outcome = 'ok'`), "no audit row for a lift that did not happen")
}

// Issue 38: a revoked person who corrects their name still cannot pay or start a check; once an
// administrador lifts the revocation they can, they are told by e-mail, and a new check validates them.
func TestARevokedPersonStartsNothingUntilTheRevocationIsLifted(t *testing.T) {
	t.Parallel()
	e, a := paySetup(t).withWorkerAndPerson(t)
	_, err := e.db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = now(),
		origen = 'CasaLista' WHERE id = $1`, a.id)
	require.NoError(t, err)
	admin := e.anonymous(t)
	status, out, _ := admin.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = admin.call("POST", fmt.Sprintf("/api/admin/users/%d/revoke", a.id), map[string]string{"motivo": "Documento robado"})
	require.Equal(t, http.StatusOK, status, out)

	refused := func(when string) {
		t.Helper()
		status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
		require.Equal(t, http.StatusConflict, status, "%s: %v", when, out)
		require.Equal(t, revokedSupportMessage, out["message"], when)
		status, out, _ = a.call("POST", "/api/payments/checkout", map[string]any{"plan": "one_year"})
		require.Equal(t, http.StatusConflict, status, "%s: %v", when, out)
		require.Equal(t, revokedSupportMessage, out["message"], when)
		pay := a.payStatus()
		require.Equal(t, "revoked", pay["state"], when)
		require.Equal(t, false, pay["mayStartBiometric"], when)
		require.Equal(t, true, a.status()["revoked"], when)
	}
	refused("revoked")

	// A corrected name annuls the validation, and still nothing may start.
	status, out, _ = a.call("PUT", a.path("/api/users/%d/personal-data"), map[string]any{"nombre": "Elena Ruiz", "confirmRevalidation": true})
	require.Equal(t, http.StatusOK, status, out)
	require.NotNil(t, out["revokedAt"], "a rectification does not lift a revocation")
	refused("revoked, then renamed")
	status, out, _ = a.call("POST", "/api/invitations", map[string]any{"inviteeEmail": "x@example.com", "inviteeName": "Xo", "type": "client"})
	require.Equal(t, http.StatusForbidden, status, out)

	status, out, _ = admin.call("POST", fmt.Sprintf("/api/admin/users/%d/lift-revocation", a.id), map[string]string{"motivo": "Documento aclarado"})
	require.Equal(t, http.StatusOK, status, out)

	// Told by e-mail (the development inbox), once.
	email := dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, a.id)
	require.Eventually(t, func() bool {
		var n int
		return e.db.Get(&n, `SELECT count(*) FROM dev_messages WHERE recipient = $1 AND subject = $2`, email,
			"Levantamos la revocación de tu Perfil Seguro") == nil && n == 1
	}, 10*time.Second, 100*time.Millisecond)
	text := dbGet[string](t, e.db, `SELECT body_text FROM dev_messages WHERE recipient = $1 AND subject LIKE 'Levantamos%'`, email)
	require.Contains(t, text, "Motivo: Documento aclarado.")
	require.Contains(t, text, "completa de nuevo la verificación biométrica")
	require.Eventually(t, func() bool {
		var told bool
		return e.db.Get(&told, `SELECT notified_at IS NOT NULL FROM profile_events WHERE user_id = $1 AND kind = 'lifted'`, a.id) == nil && told
	}, 5*time.Second, 50*time.Millisecond)

	// The validation they had is not charged again, and a new check validates them.
	pay := a.payStatus()
	require.Equal(t, "active", pay["state"], pay)
	require.Equal(t, true, pay["mayStartBiometric"])
	require.Equal(t, false, a.status()["revoked"])
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	a.decideOnSimulator(out["verificationUrl"].(string), "approve")
	require.Eventually(t, func() bool { return a.status()["verificationLevel"] == 3.0 }, 10*time.Second, 100*time.Millisecond)
	require.Equal(t, true, a.status()["biometricVerified"])
}
