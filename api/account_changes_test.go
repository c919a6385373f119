package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// acEnv is setup's env with its configuration, for the worker that sends the notices.
type acEnv struct {
	*env
	cfg config.Config
}

func acSetup(t *testing.T, mutate ...func(*api.Deps)) acEnv {
	t.Helper()
	b := newBacking(t, nil)
	s, h := newAPI(t, b.deps(testWeb, mutate...))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return acEnv{env: &env{srv: srv, api: s, queue: b.queue, redis: b.redis, db: b.db, asynqOpt: b.opt}, cfg: b.cfg}
}

// deliverNotices runs the queued account change notices through the worker, into the
// development inbox, as the worker process would.
func (e acEnv) deliverNotices(t *testing.T) int {
	t.Helper()
	inbox := devsim.Inbox{DB: e.db}
	w := worker.New(e.asynqOpt, 1, time.Second, worker.Deps{DB: e.db, Email: inbox, SMS: inbox, WhatsApp: inbox,
		Sealer: secure.NewSealer(e.cfg.SecretKey), PublicBaseURL: e.srv.URL})
	n := 0
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		if task.Type != jobs.TypeSendAccountChangeNotice {
			continue
		}
		require.NoError(t, w.Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)))
		n++
	}
	return n
}

// confirmByCode asks for a confirmation code (it goes to the current contact) and enters it.
func (e acEnv) confirmByCode(t *testing.T, c *http.Client, id int64) (destination string) {
	t.Helper()
	r := e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/confirmation-code", id), nil)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	code := r.JSON(t)["verificationCode"].(string)
	destination = dbGet[string](t, e.db, `SELECT destination FROM verification_codes WHERE user_id = $1 AND purpose = 'confirmation'
		ORDER BY id DESC LIMIT 1`, id)
	r = e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/confirmation", id), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return destination
}

// changeContact requests a contact change and enters the code sent to the new address.
func (e acEnv) changeContact(t *testing.T, c *http.Client, id int64, change map[string]string) map[string]any {
	t.Helper()
	r := e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/contact-change", id), change)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	code := r.JSON(t)["verificationCode"].(string)
	r = e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/contact-change/verify", id), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON(t)
}

var undoLink = regexp.MustCompile(`/api/account-changes/undo\?token=([0-9a-f]{64})`)

// inboxUndoToken is the undo token of the newest message to recipient.
func (e acEnv) inboxUndoToken(t *testing.T, recipient string) string {
	t.Helper()
	body := dbGet[string](t, e.db, `SELECT body_text FROM dev_messages WHERE recipient = $1 ORDER BY id DESC LIMIT 1`, recipient)
	m := undoLink.FindStringSubmatch(body)
	require.NotNil(t, m, body)
	return m[1]
}

func TestAContactChangeFirstNeedsAConfirmationFromTheCurrentContact(t *testing.T) {
	t.Parallel()
	e := acSetup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 1, Phone: "+525511110001", Email: "actual.uno@example.com"})
	thief := e.signedIn(t, id) // one stolen cookie
	path := fmt.Sprintf("/api/users/%d/contact-change", id)

	r := e.send(t, thief, "POST", path, map[string]string{"phoneNumber": "5599990001"})
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "confirma que eres tú con el código que enviamos a tu contacto actual")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_codes WHERE user_id = $1 AND purpose = 'contact_change'`, id),
		"no code went to the new phone")

	// The person's confirmation: a code to the current phone, not to anything the session chooses.
	require.Equal(t, "+525511110001", e.confirmByCode(t, thief, id))
	out := e.changeContact(t, thief, id, map[string]string{"phoneNumber": "5599990001"})
	require.Equal(t, "+525599990001", out["phoneNumber"])
}

func TestAContactChangeEndsOtherSessionsAndTheOldAddressCanUndoIt(t *testing.T) {
	t.Parallel()
	e := acSetup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 2, Name: "Rosa Ibarra", Phone: "+525511110002", Email: "rosa.antes@example.com"})
	victim := e.signedIn(t, id)
	changer := e.signedIn(t, id)
	e.confirmByCode(t, changer, id)

	// The phone, then the e-mail: the other sessions end, each old address is told.
	e.changeContact(t, changer, id, map[string]string{"phoneNumber": "5599990002"})
	require.Equal(t, http.StatusUnauthorized, e.send(t, victim, "GET", fmt.Sprintf("/api/users/%d", id), nil).Status,
		"every other session of the account ends")
	require.Equal(t, http.StatusOK, e.send(t, changer, "GET", fmt.Sprintf("/api/users/%d", id), nil).Status, "not the one that changed it")
	// A passkey the changer added (it could then confirm and sign in): the undo removes it.
	_, err := e.db.Exec(`INSERT INTO webauthn_credentials (user_id, credential_id, public_key, name) VALUES ($1, 'intruso', 'k', 'Intruso')`, id)
	require.NoError(t, err)
	e.changeContact(t, changer, id, map[string]string{"email": "rosa.despues@example.com"})
	require.Equal(t, 2, e.deliverNotices(t))

	sms := dbGet[string](t, e.db, `SELECT body_text FROM dev_messages WHERE recipient = '+525511110002'`)
	require.Contains(t, sms, "cambió el teléfono de tu perfil PS-")
	mail := dbGet[string](t, e.db, `SELECT subject || '|' || body_text FROM dev_messages WHERE recipient = 'rosa.antes@example.com'`)
	require.Contains(t, mail, "Cambió el correo electrónico de tu Perfil Seguro|")
	require.Contains(t, mail, "cerramos las demás sesiones")
	require.Contains(t, mail, "El enlace vale hasta el")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE recipient IN ('+525599990002', 'rosa.despues@example.com')
		AND body_text LIKE '%account-changes/undo%'`), "the new addresses get no undo link")
	require.Zero(t, e.deliverNotices(t)-2, "a retry sends nothing new")
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE body_text LIKE '%account-changes/undo%'`))

	// The old phone's link undoes both changes (the later e-mail too), after a question.
	token := e.inboxUndoToken(t, "+525511110002")
	res, page := e.do(t, "GET", "/api/account-changes/undo?token="+token, "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, page, "Deshacer el cambio")
	require.Equal(t, "+525599990002", dbGet[string](t, e.db, `SELECT phone_number FROM users WHERE id = $1`, id), "a GET changes nothing")
	res, page = e.do(t, "POST", "/api/account-changes/undo", "application/x-www-form-urlencoded", url.Values{"token": {token}}.Encode())
	require.Equal(t, http.StatusOK, res.StatusCode, page)
	require.Contains(t, page, "Cambio deshecho")
	var back struct {
		Phone string `db:"phone_number"`
		Email string `db:"email"`
	}
	require.NoError(t, e.db.Get(&back, `SELECT phone_number, email FROM users WHERE id = $1`, id))
	require.Equal(t, "+525511110002", back.Phone)
	require.Equal(t, "rosa.antes@example.com", back.Email)
	require.Equal(t, http.StatusUnauthorized, e.send(t, changer, "GET", fmt.Sprintf("/api/users/%d", id), nil).Status,
		"the session that changed them ends too")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM webauthn_credentials WHERE user_id = $1`, id), "the passkeys go")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'person.contact_undo' AND target_id = $1`, fmt.Sprint(id)))
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'person.contact_change' AND target_id = $1`, fmt.Sprint(id)))

	// Once only; the other link is spent with it; a made-up one is unknown.
	res, _ = e.do(t, "POST", "/api/account-changes/undo", "application/x-www-form-urlencoded", url.Values{"token": {token}}.Encode())
	require.Equal(t, http.StatusGone, res.StatusCode)
	res, _ = e.do(t, "GET", "/api/account-changes/undo?token="+e.inboxUndoToken(t, "rosa.antes@example.com"), "", "")
	require.Equal(t, http.StatusGone, res.StatusCode)
	res, _ = e.do(t, "GET", "/api/account-changes/undo?token="+strings.Repeat("a", 64), "", "")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = e.do(t, "POST", "/api/account-changes/undo", "application/x-www-form-urlencoded", "token=corto")
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}

func TestAnUndoLinkLastsItsWindowOnly(t *testing.T) {
	t.Parallel()
	e := acSetup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 1, Phone: "+525511110003", Email: "tarde@example.com"})
	c := e.signedIn(t, id)
	e.confirmByCode(t, c, id)
	e.changeContact(t, c, id, map[string]string{"email": "tarde.nuevo@example.com"})
	require.Equal(t, 1, e.deliverNotices(t))
	until := dbGet[time.Time](t, e.db, `SELECT undo_until FROM account_changes WHERE user_id = $1`, id)
	require.WithinDuration(t, time.Now().Add(7*24*time.Hour), until, time.Minute, "seven days")
	_, err := e.db.Exec(`UPDATE account_changes SET undo_until = now() - interval '1 second' WHERE user_id = $1`, id)
	require.NoError(t, err)
	res, _ := e.do(t, "POST", "/api/account-changes/undo", "application/x-www-form-urlencoded",
		url.Values{"token": {e.inboxUndoToken(t, "tarde@example.com")}}.Encode())
	require.Equal(t, http.StatusGone, res.StatusCode)
	require.Equal(t, "tarde.nuevo@example.com", dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, id))
}

func TestAContactChangeThatCannotBeToldChangesNothing(t *testing.T) {
	t.Parallel()
	q := &lvQueue{}
	e := acSetup(t, func(d *api.Deps) { q.live = d.Queue; d.Queue = q })
	id, _ := seedUser(t, e.db, seeded{Level: 1, Phone: "+525511110004", Email: "redis@example.com"})
	c := e.signedIn(t, id)
	e.confirmByCode(t, c, id)
	r := e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/contact-change", id), map[string]string{"email": "redis.nuevo@example.com"})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	code := r.JSON(t)["verificationCode"].(string)
	q.setDead(true)
	r = e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/contact-change/verify", id), map[string]string{"code": code})
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.Equal(t, "redis@example.com", dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, id))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM account_changes WHERE user_id = $1`, id))
}

func TestAnAdministratorEditOfNameOrEmailNeedsAFreshPasskeyAndIsTold(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := acSetup(t, withClock(clk))
	validated := clk.Now().Add(-24 * time.Hour)
	id, pid := seedUser(t, e.db, seeded{Name: "Laura Campos", Email: "laura.antes@example.com", Level: 3, Validated: &validated})
	path := fmt.Sprintf("/api/users/%d", id)
	edit := map[string]any{"nombre": "Laura Campos", "email": "laura.antes@example.com", "origen": "Broker", "vigencia": 1}
	with := func(changes map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range edit {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return out
	}

	stale := e.roleClient(t, perfilseguro.RoleAdministrator, false, clk.Now())
	r := e.send(t, stale, "PUT", path, edit)
	require.Equal(t, http.StatusOK, r.Status, "the origin alone: no confirmation: %s", r.Body)
	for _, change := range []map[string]any{{"nombre": "Otra Persona"}, {"email": "ladron@example.com"}} {
		r = e.send(t, stale, "PUT", path, with(change))
		require.Equal(t, http.StatusForbidden, r.Status, "%v: %s", change, r.Body)
		require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["reauth"])
	}
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'user.update' AND outcome = 'denied'`))

	fresh := e.roleClient(t, perfilseguro.RoleAdministrator, true, clk.Now())
	r = e.send(t, fresh, "PUT", path, with(map[string]any{"nombre": "Laura Campos Ruiz"}))
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["confirmRevalidation"])
	require.Equal(t, "Laura Campos", dbGet[string](t, e.db, `SELECT nombre FROM users WHERE id = $1`, id))

	r = e.send(t, fresh, "PUT", path, with(map[string]any{"nombre": "Laura Campos Ruiz", "email": "laura.nueva@example.com",
		"confirmRevalidation": true}))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON(t)
	require.Equal(t, "Laura Campos Ruiz", u["nombre"])
	require.EqualValues(t, 2, u["verificationLevel"], "the validation was of the old name")
	require.Equal(t, false, u["biometricVerified"])
	require.Nil(t, u["fecha_validacion"])
	res, body := e.do(t, "GET", "/api/verify/"+pid, "", "")
	require.NotContains(t, body, `"verificationLevel":3`, "%d %s", res.StatusCode, body)

	// Audited with before and after.
	changes := dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'user.update' AND outcome = 'ok'
		ORDER BY id DESC LIMIT 1`)
	for _, v := range []string{"Laura Campos", "Laura Campos Ruiz", "laura.antes@example.com", "laura.nueva@example.com"} {
		require.Contains(t, changes, `"`+v+`"`)
	}

	// Told at the old e-mail, both the name and the e-mail; nothing at the new one.
	require.Equal(t, 2, e.deliverNotices(t))
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE recipient = 'laura.antes@example.com'
		AND subject = 'Un administrador cambió tus datos en Perfil Seguro'`))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE recipient = 'laura.antes@example.com'
		AND body_text LIKE '%«Laura Campos Ruiz»%' AND body_text LIKE '%validación dejó de ser válida%'`))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE recipient = 'laura.nueva@example.com'`))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM dev_messages WHERE body_text LIKE '%account-changes/undo%'`),
		"an administrator's edit is not undone from the notice")
}

func TestOneWhoLostThePhoneConfirmsFromTheEmail(t *testing.T) {
	t.Parallel()
	e := acSetup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 1, Phone: "+525511110005", Email: "sin.telefono@example.com"})
	c := e.signedIn(t, id)
	path := fmt.Sprintf("/api/users/%d/confirmation-code", id)
	r := e.send(t, c, "POST", path+"?via=email", nil)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	require.Equal(t, "email", r.JSON(t)["channel"])
	require.Equal(t, "sin.telefono@example.com", dbGet[string](t, e.db, `SELECT destination FROM email_verification_codes
		WHERE user_id = $1 AND purpose = 'confirmation'`, id))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_codes WHERE user_id = $1 AND purpose = 'confirmation'`, id))
	code := r.JSON(t)["verificationCode"].(string)
	r = e.send(t, c, "POST", fmt.Sprintf("/api/users/%d/confirmation", id), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	e.changeContact(t, c, id, map[string]string{"phoneNumber": "5599990005"})

	r = e.send(t, c, "POST", path+"?via=fax", nil)
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "Elige phone o email", r.JSON(t)["errors"].(map[string]any)["via"])
	_, err := e.db.Exec(`UPDATE users SET email = NULL WHERE id = $1`, id)
	require.NoError(t, err)
	r = e.send(t, c, "POST", path+"?via=email", nil)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
}

func TestADeletedAccountKeepsNoneOfItsOldContacts(t *testing.T) {
	t.Parallel()
	e := acSetup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 1, Phone: "+525511110006", Email: "borrar.antes@example.com"})
	c := e.signedIn(t, id)
	e.confirmByCode(t, c, id)
	e.changeContact(t, c, id, map[string]string{"email": "borrar.despues@example.com"})
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM account_changes WHERE user_id = $1`, id))

	r := e.send(t, e.adminClient(t), "DELETE", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM account_changes WHERE old_value LIKE 'borrar%' OR new_value LIKE 'borrar%'`))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE changes::text LIKE '%borrar.%'`),
		"the audit trail keeps that the contact changed, not the addresses")
}
