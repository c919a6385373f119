package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// signedInAt creates a user at the given level straight in the database and returns a browser
// carrying a live session for them (no code delivery needed, so it also works with Redis down).
func (e *env) signedInAt(t *testing.T, level int) (*browser, int64) {
	t.Helper()
	ctx := context.Background()
	store := postgres.Store{DB: e.db}
	p := newPerson()
	phone := "+52" + p.Phone
	token := secure.NewToken(32)
	var id int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		id, _, err = store.InsertUser(ctx, tx, postgres.NewUser{Nombre: p.Name, Email: &p.Email, Phone: &phone})
		if err != nil {
			return err
		}
		return store.InsertUserSession(ctx, tx, id, secure.HashToken(token), time.Now().Add(time.Hour), "127.0.0.1", "test")
	}))
	e.setLevel(t, id, level)
	b := e.browser(t)
	u, _ := url.Parse(e.srv.URL)
	b.http.Jar.SetCookies(u, []*http.Cookie{{Name: "ps_session", Value: token, Path: "/"}})
	return b, id
}

// setLevel sets a user's verification level directly (level 3 is biometric and validated).
func (e *env) setLevel(t *testing.T, id int64, level int) {
	t.Helper()
	_, err := e.db.Exec(`UPDATE users SET verification_level = $2::smallint, is_phone_verified = $2::int >= 1,
		is_email_verified = $2::int >= 2, biometric_verified = $2::int >= 3,
		fecha_validacion = CASE WHEN $2::int >= 3 THEN now() END WHERE id = $1`, id, level)
	require.NoError(t, err)
}

// invite sends a valid invitation as b and returns its JSON.
func (b *browser) invite(fields map[string]any) map[string]any {
	b.t.Helper()
	body := map[string]any{"inviteeEmail": fmt.Sprintf("invitado%d@example.com", time.Now().UnixNano()),
		"inviteeName": "Carlos Ruiz", "type": "client"}
	for k, v := range fields {
		body[k] = v
	}
	status, out := b.call("POST", "/api/invitations", body)
	require.Equal(b.t, http.StatusCreated, status, out)
	return out["invitation"].(map[string]any)
}

// callList GETs a JSON array (nil when the answer is not one).
func (b *browser) callList(method, path string) (int, []map[string]any) {
	b.t.Helper()
	req, err := http.NewRequest(method, b.e.srv.URL+path, nil)
	require.NoError(b.t, err)
	res, err := b.http.Do(req)
	require.NoError(b.t, err)
	defer res.Body.Close()
	var out []map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// pastDue moves an invitation's expiry into the past without touching its status.
func (e *env) pastDue(t *testing.T, id any) {
	t.Helper()
	_, err := e.db.Exec(`UPDATE invitations SET expires_at = now() - interval '1 hour' WHERE id = $1`, id)
	require.NoError(t, err)
}

func TestInvitationCallsNeedBiometricLevel3(t *testing.T) {
	t.Parallel()
	e := setup(t)
	inviter, _ := e.signedInAt(t, 3)
	inv := inviter.invite(nil)

	b, id := e.signedInAt(t, 2)
	for _, c := range []struct{ method, path string }{
		{"POST", "/api/invitations"},
		{"GET", fmt.Sprintf("/api/invitations/%d", id)},
		{"DELETE", fmt.Sprintf("/api/invitations/%v", inv["id"])},
	} {
		var body any
		if c.method == "POST" {
			body = map[string]any{"inviteeEmail": "x@example.com", "inviteeName": "Carlos", "type": "client"}
		}
		status, out := b.call(c.method, c.path, body)
		require.Equal(t, http.StatusForbidden, status, "%s %s: %v", c.method, c.path, out)
		require.Contains(t, out["message"], "Acceso restringido")
	}
	// Level 3 without the biometric flag is not enough either.
	_, err := e.db.Exec(`UPDATE users SET verification_level = 3 WHERE id = $1`, id)
	require.NoError(t, err)
	status, _ := b.call("GET", fmt.Sprintf("/api/invitations/%d", id), nil)
	require.Equal(t, http.StatusForbidden, status)

	status, _ = e.browser(t).call("POST", "/api/invitations", map[string]any{"inviteeEmail": "x@example.com"})
	require.Equal(t, http.StatusUnauthorized, status, "signed out")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM invitations`))
}

func TestSendInvitationValidationMessages(t *testing.T) {
	t.Parallel()
	e := setup(t)
	b, id := e.signedInAt(t, 3)
	valid := map[string]any{"inviteeEmail": "carlos@example.com", "inviteeName": "Carlos", "type": "broker"}
	for _, c := range []struct {
		field   string
		value   any
		message string
	}{
		{"inviteeEmail", "no-es-correo", "Email válido requerido"},
		{"inviteeName", " C ", "Nombre del invitado requerido"},
		{"type", "agent", "Tipo debe ser 'client' o 'broker'"},
		{"expiresInDays", 0, "La vigencia debe ser de 1 a 30 días"},
		{"expiresInDays", 31, "La vigencia debe ser de 1 a 30 días"},
		{"inviteePhone", "55 1234 567", "El teléfono debe tener 10 dígitos"},
		{"inviteePhone", "+52 55 1234 5678", "El teléfono debe tener 10 dígitos"},
	} {
		body := map[string]any{}
		for k, v := range valid {
			body[k] = v
		}
		body[c.field] = c.value
		status, out := b.call("POST", "/api/invitations", body)
		require.Equal(t, http.StatusBadRequest, status, "%s=%v", c.field, c.value)
		require.Equal(t, c.message, out["message"], "%s=%v", c.field, c.value)
		require.Equal(t, c.message, out["error"], "the spec reads the error field")
		require.Equal(t, c.message, out["errors"].(map[string]any)[c.field])
	}
	// Someone else's inviterId is refused, never trusted.
	body := map[string]any{"inviterId": id + 1000}
	for k, v := range valid {
		body[k] = v
	}
	status, _ := b.call("POST", "/api/invitations", body)
	require.Equal(t, http.StatusForbidden, status)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM invitations`))
}

func TestSendInvitationStoresAndQueuesDelivery(t *testing.T) {
	t.Parallel()
	e := setup(t)
	b, id := e.signedInAt(t, 3)
	inv := b.invite(map[string]any{"inviterId": fmt.Sprint(id), "inviteeEmail": " Carlos@Example.com ",
		"inviteePhone": "55 1234 5678", "companyName": "Inmobiliaria Sol", "personalMessage": "¡Hola Carlos!"})
	require.Equal(t, "carlos@example.com", inv["inviteeEmail"])
	require.Equal(t, "+525512345678", inv["inviteePhone"])
	require.Equal(t, "pending", inv["status"])
	require.Regexp(t, `^[A-HJ-NP-Z2-9]{12}$`, inv["invitationCode"])
	require.Regexp(t, `^http://localhost:8080/accept-invitation\?token=[0-9a-f]{64}$`, inv["uniqueLink"])
	expires, err := time.Parse(time.RFC3339Nano, inv["expiresAt"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(7*24*time.Hour), expires, time.Minute, "default 7 days")

	insp := asynq.NewInspector(e.asynqOpt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault)
	require.NoError(t, err)
	vias := map[string]bool{}
	for _, task := range tasks {
		require.Equal(t, jobs.TypeSendInvitation, task.Type)
		vias[task.ID] = true
	}
	require.Equal(t, map[string]bool{fmt.Sprintf("invitation:send:%v:email", inv["id"]): true,
		fmt.Sprintf("invitation:send:%v:whatsapp", inv["id"]): true}, vias)

	// Without a phone only the e-mail goes out; a custom lifetime is honoured.
	other := b.invite(map[string]any{"expiresInDays": 30})
	expires, _ = time.Parse(time.RFC3339Nano, other["expiresAt"].(string))
	require.WithinDuration(t, time.Now().Add(30*24*time.Hour), expires, time.Minute)
	require.Nil(t, other["inviteePhone"])
	require.NotEqual(t, inv["invitationCode"], other["invitationCode"])
	tasks, _ = insp.ListPendingTasks(jobs.QueueDefault)
	require.Len(t, tasks, 3)

	status, list := b.callList("GET", fmt.Sprintf("/api/invitations/%d", id))
	require.Equal(t, http.StatusOK, status)
	require.Len(t, list, 2)
	require.Equal(t, other["id"], list[0]["id"], "newest first")
	require.Equal(t, inv["uniqueLink"], list[1]["uniqueLink"])

	status, _ = b.callList("GET", fmt.Sprintf("/api/invitations/%d", id+1))
	require.Equal(t, http.StatusForbidden, status, "someone else's list")

	// The contract's path for the same list (the spec's first one stays, deprecated).
	status, again := b.callList("GET", fmt.Sprintf("/api/users/%d/invitations", id))
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, list, again)
	status, _ = b.callList("GET", fmt.Sprintf("/api/users/%d/invitations", id+1))
	require.Equal(t, http.StatusForbidden, status)
}

func TestRedisDownWhenSendingLeavesNoInvitation(t *testing.T) {
	t.Parallel()
	e := setup(t, withDeadQueue)
	b, _ := e.signedInAt(t, 3)
	status, out := b.call("POST", "/api/invitations", map[string]any{"inviteeEmail": "carlos@example.com", "inviteeName": "Carlos", "type": "client"})
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM invitations`))
}

func TestCancelOnlyOwnPendingInvitations(t *testing.T) {
	t.Parallel()
	e := setup(t)
	b, id := e.signedInAt(t, 3)
	other, _ := e.signedInAt(t, 3)
	inv := b.invite(nil)
	path := fmt.Sprintf("/api/invitations/%v", inv["id"])

	status, out := other.call("DELETE", path, nil)
	require.Equal(t, http.StatusForbidden, status, out)
	status, _ = b.call("DELETE", path, map[string]any{"inviterId": id + 1})
	require.Equal(t, http.StatusForbidden, status, "a foreign inviterId in the body")

	status, out = b.call("DELETE", path, map[string]any{"inviterId": id})
	require.Equal(t, http.StatusOK, status, out)
	status, out = b.call("DELETE", path, nil)
	require.Equal(t, http.StatusConflict, status, "already cancelled")
	require.Equal(t, "Solo se pueden cancelar invitaciones pendientes.", out["message"])

	expired := b.invite(nil)
	e.pastDue(t, expired["id"])
	status, _ = b.call("DELETE", fmt.Sprintf("/api/invitations/%v", expired["id"]), nil)
	require.Equal(t, http.StatusConflict, status, "expired (even before the job ran)")

	status, _ = b.call("DELETE", "/api/invitations/999999", nil)
	require.Equal(t, http.StatusNotFound, status)

	_, list := b.callList("GET", fmt.Sprintf("/api/invitations/%d", id))
	statuses := map[any]any{}
	for _, i := range list {
		statuses[i["id"]] = i["status"]
	}
	require.Equal(t, map[any]any{inv["id"]: "cancelled", expired["id"]: "expired"}, statuses)

	status, out = e.browser(t).call("GET", "/api/invitations/validate?code="+inv["invitationCode"].(string), nil)
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "Código de invitación inválido", out["message"])
}

func TestValidateInvitationByCodeAndToken(t *testing.T) {
	t.Parallel()
	e := setup(t)
	b, _ := e.signedInAt(t, 3)
	inv := b.invite(map[string]any{"companyName": "Inmobiliaria Sol", "personalMessage": "Te espero", "type": "broker"})
	visitor := e.browser(t)

	status, out := visitor.call("GET", "/api/invitations/validate?code="+inv["invitationCode"].(string), nil)
	require.Equal(t, http.StatusOK, status, out)
	pub := out["invitation"].(map[string]any)
	require.Equal(t, "Carlos Ruiz", pub["inviteeName"])
	require.Equal(t, "Ana López", pub["inviterName"])
	require.Equal(t, "Inmobiliaria Sol", pub["companyName"])
	require.Equal(t, "Te espero", pub["personalMessage"])
	require.Equal(t, "broker", pub["type"])
	require.Equal(t, "pending", pub["status"])
	require.Equal(t, inv["invitationCode"], pub["invitationCode"])
	require.NotContains(t, pub, "uniqueLink")
	require.NotContains(t, pub, "inviteePhone")

	token := inv["uniqueLink"].(string)[len("http://localhost:8080/accept-invitation?token="):]
	status, out = visitor.call("GET", "/api/invitations/validate-token?token="+token, nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, inv["invitationCode"], out["invitation"].(map[string]any)["invitationCode"])

	status, out = visitor.call("GET", "/api/invitations/validate?code=ZZZZZZZZZZZZ", nil)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "Código de invitación inválido", out["message"])
	status, out = visitor.call("GET", "/api/invitations/validate-token?token=abc", nil)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "Link de invitación no válido o expirado", out["message"])

	e.pastDue(t, inv["id"])
	for _, path := range []string{"/api/invitations/validate?code=" + inv["invitationCode"].(string),
		"/api/invitations/validate-token?token=" + token} {
		status, out = visitor.call("GET", path, nil)
		require.Equal(t, http.StatusGone, status, path)
		require.Equal(t, "Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva.", out["message"])
		require.Equal(t, "expired", out["status"])
		require.Equal(t, "Carlos Ruiz", out["invitation"].(map[string]any)["inviteeName"], "the screen still shows it")
	}
}

func TestAcceptInvitationCreatesTheInvitedAccount(t *testing.T) {
	t.Parallel()
	e := setup(t)
	inviter, inviterID := e.signedInAt(t, 3)
	inv := inviter.invite(map[string]any{"inviteeEmail": "nuevo.invitado@example.com"})
	code := inv["invitationCode"].(string)
	token := inv["uniqueLink"].(string)[len("http://localhost:8080/accept-invitation?token="):]

	invitee := e.browser(t)
	status, out := invitee.call("POST", "/api/invitations/accept", map[string]any{"invitationCode": code,
		"accepterData": map[string]any{"nombre": "  Carlos   Ruiz ", "phone_number": "55 8765 4321"}})
	require.Equal(t, http.StatusOK, status, out)
	user := out["user"].(map[string]any)
	require.Equal(t, "Carlos Ruiz", user["name"])
	require.Equal(t, "nuevo.invitado@example.com", user["email"])
	require.Regexp(t, `^PS-\d{4}-\d{4}-\d{2}$`, user["profileId"])
	newID := int64(user["id"].(float64))

	// The invitee is signed in and reads their own record: origin and inviter recorded, level 0.
	status, me := invitee.call("GET", fmt.Sprintf("/api/users/%d", newID), nil)
	require.Equal(t, http.StatusOK, status, me)
	require.Equal(t, "invitación", me["origen"])
	require.Equal(t, "Ana López", me["inviterName"])
	require.Equal(t, "+525587654321", me["phoneNumber"])
	require.Equal(t, float64(0), me["verificationLevel"])
	require.Equal(t, false, me["isPhoneVerified"])
	invitedBy := dbGet[int64](t, e.db, `SELECT invited_by FROM users WHERE id = $1`, newID)
	require.Equal(t, inviterID, invitedBy)

	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM consents WHERE user_id = $1`, newID), "privacy consent recorded with the account")

	_, list := inviter.callList("GET", fmt.Sprintf("/api/invitations/%d", inviterID))
	require.Equal(t, "accepted", list[0]["status"])
	require.Equal(t, float64(newID), list[0]["acceptedUserId"])
	require.NotNil(t, list[0]["acceptedAt"])

	// Twice: refused. The link is single-use.
	status, out = e.browser(t).call("POST", "/api/invitations/accept", map[string]any{"invitationCode": code,
		"accepterData": map[string]any{"nombre": "Otro", "phone_number": "5511112222"}})
	require.Equal(t, http.StatusConflict, status, out)
	status, out = e.browser(t).call("GET", "/api/invitations/validate-token?token="+token, nil)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "Link de invitación no válido o expirado", out["message"])
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users WHERE phone_number = '+525511112222'`))
}

func TestAcceptRefusesExpiredCancelledAndTakenAccounts(t *testing.T) {
	t.Parallel()
	e := setup(t)
	inviter, _ := e.signedInAt(t, 3)
	accept := func(code, phone string) (int, map[string]any) {
		return e.browser(t).call("POST", "/api/invitations/accept", map[string]any{"invitationCode": code,
			"accepterData": map[string]any{"nombre": "Carlos", "phone_number": phone}})
	}

	expired := inviter.invite(nil)
	e.pastDue(t, expired["id"])
	status, out := accept(expired["invitationCode"].(string), "5587654321")
	require.Equal(t, http.StatusGone, status)
	require.Equal(t, "Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva.", out["message"])

	cancelled := inviter.invite(nil)
	status, _ = inviter.call("DELETE", fmt.Sprintf("/api/invitations/%v", cancelled["id"]), nil)
	require.Equal(t, http.StatusOK, status)
	status, out = accept(cancelled["invitationCode"].(string), "5587654321")
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "Código de invitación inválido", out["message"])

	status, out = accept("ZZZZZZZZZZZZ", "5587654321")
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "Código de invitación inválido", out["message"])

	// The invitee's e-mail already has an account: 409, the invitation stays pending.
	taken := newPerson()
	e.browser(t).signUp(taken)
	inv := inviter.invite(map[string]any{"inviteeEmail": taken.Email})
	status, out = accept(inv["invitationCode"].(string), "5587654321")
	require.Equal(t, http.StatusConflict, status, out)
	st := dbGet[string](t, e.db, `SELECT status FROM invitations WHERE id = $1`, inv["id"])
	require.Equal(t, "pending", st)

	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users WHERE origen = 'invitación'`))
}

func TestAcceptValidationMessages(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, c := range []struct {
		code, nombre, phone, field, message string
	}{
		{"ABCDEFG", "Carlos", "5587654321", "invitationCode", "Código de invitación inválido"},
		{"ABCDEFGHJK", "C", "5587654321", "nombre", "Nombre requerido"},
		{"ABCDEFGHJK", "Carlos", "558765432", "phone_number", "Teléfono requerido"},
		{"ABCDEFGHJK", "Carlos", "", "phone_number", "Teléfono requerido"},
	} {
		status, out := e.browser(t).call("POST", "/api/invitations/accept", map[string]any{"invitationCode": c.code,
			"accepterData": map[string]any{"nombre": c.nombre, "phone_number": c.phone}})
		require.Equal(t, http.StatusBadRequest, status, c)
		require.Equal(t, c.message, out["message"], c)
		require.Equal(t, c.message, out["errors"].(map[string]any)[c.field], c)
	}
}
