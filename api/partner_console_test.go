package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"
	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/secure"
)

func TestPartnerUserEnrolsWithALinkAndSignsInWithAPasskeyOnly(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	status, out, _ := e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/users", p.id),
		map[string]string{"email": "  Laura@CasaLista.example ", "name": " Laura  Ríos ", "role": "propietario"})
	require.Equal(t, http.StatusCreated, status, out)
	require.Contains(t, out["message"], "7 días")
	token := tokenOf(t, out["enrolmentUrl"].(string))
	user := out["user"].(map[string]any)
	require.Equal(t, "laura@casalista.example", user["email"])
	require.Equal(t, "Laura Ríos", user["name"])
	require.Equal(t, false, user["enrolled"])
	require.Equal(t, "admin@perfilseguro.local", user["invitedBy"])

	// The link says whom it is for; only its hash is stored.
	status, out, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token="+token, nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "CasaLista", out["partnerName"])
	require.Equal(t, "propietario", out["role"])
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM partner_user_enrolments WHERE token_hash = $1 AND expires_at > now() + interval '6 days 23 hours'`,
		secure.HashToken(token)))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM partner_user_enrolments WHERE token_hash = $1`, token))

	laura := e.enrol(t, token, "laura@casalista.example")
	status, out, _ = laura.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "CasaLista", out["partner"].(map[string]any)["name"])
	require.Equal(t, "https://casalista.example", out["partner"].(map[string]any)["domain"])
	require.ElementsMatch(t, []any{"read", "keys", "webhook", "origin", "resend", "team", "operations", "compliance"}, out["actions"])
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM webauthn_credentials WHERE partner_user_id = $1 AND user_id IS NULL AND admin_id IS NULL`, laura.id))

	// The link worked once.
	status, _, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token="+token, nil)
	require.Equal(t, http.StatusGone, status)
	status, _, _ = e.anonymous(t).call("POST", "/api/socios/enrol/options", map[string]string{"token": token})
	require.Equal(t, http.StatusGone, status)

	// Signed out, she comes back with the passkey alone; the cookie is HttpOnly and SameSite=Lax.
	status, _, _ = laura.call("POST", "/api/socios/logout", nil)
	require.Equal(t, http.StatusOK, status)
	status, out, _ = laura.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Equal(t, "Inicia sesión en la consola de socios para continuar.", out["message"])
	c := e.anonymous(t)
	status, out, _ = c.call("POST", "/api/socios/passkey/options", nil)
	require.Equal(t, http.StatusOK, status, out)
	opts, err := virtualwebauthn.ParseAssertionOptions(out["_raw"].(string))
	require.NoError(t, err)
	status, out, res := c.call("POST", "/api/socios/passkey/verify", e.sign(laura.device, opts, 1))
	require.Equal(t, http.StatusOK, status, out)
	cookie := cookieNamed(res, "ps_partner")
	require.NotNil(t, cookie)
	require.True(t, cookie.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, cookie.SameSite)
	require.Equal(t, 8*3600, cookie.MaxAge)
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM partner_console_sessions WHERE token_hash = $1`, secure.HashToken(cookie.Value)))
	status, _, _ = c.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status)

	// A partner's passkey opens neither the admin panel nor a person's profile.
	status, out, _ = c.call("POST", "/api/admin/passkey/options", nil)
	require.Equal(t, http.StatusOK, status, out)
	opts, err = virtualwebauthn.ParseAssertionOptions(out["_raw"].(string))
	require.NoError(t, err)
	status, _, _ = c.call("POST", "/api/admin/passkey/verify", e.sign(laura.device, opts, 2))
	require.Equal(t, http.StatusUnauthorized, status)
	opts = signInOptions(t, c)
	status, _, _ = c.call("POST", "/api/auth/passkey/verify", e.sign(laura.device, opts, 3))
	require.Equal(t, http.StatusUnauthorized, status)

	// Eight hours later the session is over.
	e.offset.Add(int64(8*time.Hour + time.Minute))
	status, _, _ = c.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusUnauthorized, status)

	require.Equal(t, 1, e.auditCount(t, "laura@casalista.example", "partner_console.enrol", "ok"))
	require.Equal(t, 1, e.auditCount(t, "laura@casalista.example", "partner_console.signin.passkey", "ok"))
	require.Equal(t, 1, e.auditCount(t, "laura@casalista.example", "partner_console.signout", "ok"))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE actor_kind = 'admin' AND action = 'partner.user.invite'
		AND target_kind = 'partner_user' AND target_id = $1`, fmt.Sprint(laura.id)))
}

func TestEachPartnerRoleMayDoWhatItAllowsAndNothingElse(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "VentaDirecta", "https://ventadirecta.example")
	owner := e.inviteAsAdmin(t, p, "duena@ventadirecta.example", "propietario")
	dev := e.invite(t, owner, "dev@ventadirecta.example", "desarrollador")
	reader := e.invite(t, owner, "lee@ventadirecta.example", "lectura")
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(hook.Close)
	var delivery int64
	require.NoError(t, e.db.Get(&delivery, `INSERT INTO partner_deliveries (partner_id, event, payload) VALUES ($1, 'verification_session.completed', '{}')
		RETURNING id`, p.id))
	key := dbGet[int64](t, e.db, `SELECT id FROM partner_keys WHERE partner_id = $1 AND kind = 'secret' AND livemode`, p.id)

	type call struct {
		method, path string
		body         any
		allowed      map[string]int // role → status when allowed
	}
	everyone := func(status int) map[string]int {
		return map[string]int{"propietario": status, "desarrollador": status, "lectura": status}
	}
	builders := func(status int) map[string]int { return map[string]int{"propietario": status, "desarrollador": status} }
	owners := func(status int) map[string]int { return map[string]int{"propietario": status} }
	calls := []call{
		{"GET", "/api/socios/me", nil, everyone(200)},
		{"GET", "/api/socios/keys", nil, everyone(200)},
		{"GET", "/api/socios/webhook", nil, everyone(200)},
		{"GET", "/api/socios/deliveries", nil, everyone(200)},
		{"GET", "/api/socios/sessions?mode=test", nil, everyone(200)},
		{"GET", "/api/socios/usage", nil, everyone(200)},
		{"GET", "/api/socios/users", nil, everyone(200)},
		{"POST", "/api/socios/keys", map[string]string{"kind": "secret", "mode": "test"}, builders(201)},
		{"PUT", "/api/socios/webhook", map[string]string{"url": hook.URL}, builders(200)},
		{"POST", "/api/socios/webhook/rotate", nil, builders(200)},
		{"PUT", "/api/socios/origin", map[string]string{"origin": "https://www.ventadirecta.example"}, builders(200)},
		{"POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", delivery), nil, builders(200)},
		{"POST", "/api/socios/users", map[string]string{"email": "nuevo@ventadirecta.example", "name": "Nuevo", "role": "lectura"}, owners(201)},
		{"PUT", fmt.Sprintf("/api/socios/users/%d", reader.id), map[string]string{"role": "lectura"}, owners(200)},
		{"POST", fmt.Sprintf("/api/socios/users/%d/enrolment", reader.id), nil, owners(200)},
	}
	for _, who := range []struct {
		role string
		m    *member
	}{{"lectura", reader}, {"desarrollador", dev}, {"propietario", owner}} {
		for _, c := range calls {
			want, ok := c.allowed[who.role]
			if !ok {
				want = http.StatusForbidden
			}
			status, out, _ := who.m.call(c.method, c.path, c.body)
			require.Equal(t, want, status, "%s %s as %s: %v", c.method, c.path, who.role, out)
			if want == http.StatusForbidden {
				require.Contains(t, out["message"], "Tu rol ("+who.role+") no permite esta acción")
			}
		}
	}
	// The last key-changing calls: revoke, and disable by a propietario only.
	status, _, _ := reader.call("POST", fmt.Sprintf("/api/socios/keys/%d/revoke", key), nil)
	require.Equal(t, http.StatusForbidden, status)
	status, out, _ := dev.call("POST", fmt.Sprintf("/api/socios/keys/%d/revoke", key), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.NotNil(t, out["revokedAt"])
	status, _, _ = dev.call("POST", fmt.Sprintf("/api/socios/users/%d/disable", reader.id), nil)
	require.Equal(t, http.StatusForbidden, status)
	status, out, _ = owner.call("POST", fmt.Sprintf("/api/socios/users/%d/disable", reader.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.NotNil(t, out["disabledAt"])

	// A disabled account's session ends, and its passkey no longer signs in.
	status, _, _ = reader.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusUnauthorized, status)
	status, out, _ = e.signIn(t, reader, 5)
	require.Equal(t, http.StatusForbidden, status, out)
	require.Contains(t, out["message"], "desactivada")

	// Every change is in the audit trail under the partner user's e-mail; refusals too.
	require.Equal(t, 1, e.auditCount(t, "lee@ventadirecta.example", "partner_console.key.create", "denied"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.key.create", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.key.revoke", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.webhook.url", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.webhook.rotate", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.origin", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.delivery.resend", "ok"))
	require.Equal(t, 1, e.auditCount(t, "dev@ventadirecta.example", "partner_console.user.invite", "denied"))
	require.Equal(t, 1, e.auditCount(t, "duena@ventadirecta.example", "partner_console.user.disable", "ok"))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE actor_kind = 'partner_user' AND action = 'partner_console.origin'
		AND changes->'domain'->>'after' = 'https://www.ventadirecta.example'`))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM audit_events WHERE changes::text LIKE '%whsec_%' OR changes::text ~ 'sk_(live|test)_[0-9a-f]{48}'`),
		"no secret reaches the audit trail (a key's hint does)")
}

func TestTheLastPropietarioStaysAndNobodyDisablesThemselves(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "ValorCasa", "https://valorcasa.example")
	owner := e.inviteAsAdmin(t, p, "dueno@valorcasa.example", "propietario")
	status, out, _ := owner.call("PUT", fmt.Sprintf("/api/socios/users/%d", owner.id), map[string]string{"role": "lectura"})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "al menos un propietario")
	status, out, _ = owner.call("POST", fmt.Sprintf("/api/socios/users/%d/disable", owner.id), nil)
	require.Equal(t, http.StatusConflict, status, out)

	second := e.invite(t, owner, "socia@valorcasa.example", "propietario")
	status, out, _ = owner.call("PUT", fmt.Sprintf("/api/socios/users/%d", owner.id), map[string]string{"role": "desarrollador"})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "desarrollador", out["role"])
	status, _, _ = owner.call("POST", "/api/socios/users", map[string]string{"email": "otro@valorcasa.example", "name": "Otro", "role": "lectura"})
	require.Equal(t, http.StatusForbidden, status, "the new role applies at once")
	status, out, _ = second.call("POST", "/api/socios/users", map[string]string{"email": "dueno@valorcasa.example", "name": "Repetido", "role": "lectura"})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["errors"], "email")
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE action = 'partner_console.user.role'
		AND changes->'role'->>'before' = 'propietario' AND changes->'role'->>'after' = 'desarrollador'`))
}

func TestAnotherPartnersUserCannotSeeOrChangeThisPartner(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	a := e.newPlatform(t, "CasaLista", "https://casalista.example")
	b := e.newPlatform(t, "Intrusa", "https://intrusa.example")
	ownerA := e.inviteAsAdmin(t, a, "ana@casalista.example", "propietario")
	devA := e.invite(t, ownerA, "dev@casalista.example", "desarrollador")
	ownerB := e.inviteAsAdmin(t, b, "beto@intrusa.example", "propietario")
	var keyA, deliveryA int64
	require.NoError(t, e.db.Get(&keyA, `SELECT id FROM partner_keys WHERE partner_id = $1 AND kind = 'secret' AND livemode`, a.id))
	require.NoError(t, e.db.Get(&deliveryA, `INSERT INTO partner_deliveries (partner_id, event, payload) VALUES ($1, 'profile.expired', '{}') RETURNING id`, a.id))
	_, err := e.db.Exec(`UPDATE api_keys SET webhook_url = 'https://hooks.intrusa.example/x' WHERE id = $1`, b.id)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, expires_at)
		VALUES ('vs_aaaaaaaaaaaaaaaaaaaaaaaa', $1, true, 'cliente-a', 3, '{name}', 'h1', now() + interval '1 day')`, a.id)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO dev_messages (channel, recipient, body_text, test_partner_id) VALUES
		('whatsapp', '+525512340000', '123456 es tu código de verificación de Perfil Seguro.', $1),
		('whatsapp', '+525512340001', '654321 es tu código (de nadie de prueba).', NULL)`, a.id)
	require.NoError(t, err)

	// A's test inbox holds A's test people's messages only.
	status, out, _ := devA.call("GET", "/api/socios/test-inbox", nil)
	require.Equal(t, http.StatusOK, status, out)
	inbox := out["data"].([]any)
	require.Len(t, inbox, 1, "only the messages tagged with A")
	require.Contains(t, inbox[0].(map[string]any)["text"], "123456")
	require.Equal(t, "+525512340000", inbox[0].(map[string]any)["recipient"])

	// B reads only B.
	status, out, _ = ownerB.call("GET", "/api/socios/keys", nil)
	require.Equal(t, http.StatusOK, status)
	var keys []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out["_raw"].(string)), &keys))
	require.Len(t, keys, 4, "B's own four first keys")
	for _, k := range keys {
		require.NotEqual(t, float64(keyA), k["id"])
	}
	for _, path := range []string{"/api/socios/deliveries", "/api/socios/sessions?mode=live", "/api/socios/test-inbox"} {
		status, out, _ = ownerB.call("GET", path, nil)
		require.Equal(t, http.StatusOK, status)
		require.Empty(t, out["data"], path)
	}
	status, out, _ = ownerB.call("GET", "/api/socios/users", nil)
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, out["_raw"], "casalista")

	// And changes nothing of A's: each answers as if it did not exist.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", fmt.Sprintf("/api/socios/keys/%d/revoke", keyA), nil},
		{"POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", deliveryA), nil},
		{"PUT", fmt.Sprintf("/api/socios/users/%d", devA.id), map[string]string{"role": "propietario"}},
		{"POST", fmt.Sprintf("/api/socios/users/%d/disable", devA.id), nil},
		{"POST", fmt.Sprintf("/api/socios/users/%d/enrolment", devA.id), nil},
	} {
		status, out, _ := ownerB.call(c.method, c.path, c.body)
		require.Equal(t, http.StatusNotFound, status, "%s %s: %v", c.method, c.path, out)
	}
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM partner_keys WHERE id = $1 AND revoked_at IS NOT NULL`, keyA))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM partner_users WHERE id = $1 AND role = 'desarrollador' AND disabled_at IS NULL`, devA.id))

	// Nor can B take A's origin (the widget's origin-only calls would become B's).
	status, out, _ = ownerB.call("PUT", "/api/socios/origin", map[string]string{"origin": "CasaLista.example/"})
	require.Equal(t, http.StatusConflict, status, out)
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM api_keys WHERE id = $1 AND domain = 'https://intrusa.example'`, b.id))
}

func TestANewSecretKeyIsShownOnceStoredHashedAndRevocable(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "ana@casalista.example", "propietario")
	status, out, _ := owner.call("POST", "/api/socios/keys", map[string]string{"kind": "secret", "mode": "test"})
	require.Equal(t, http.StatusCreated, status, out)
	secret := out["key"].(string)
	require.True(t, strings.HasPrefix(secret, "sk_test_"), secret)
	require.Equal(t, "sk_test_…"+secret[len(secret)-4:], out["hint"])
	require.Equal(t, "ana@casalista.example", out["createdBy"])
	id := idOf(out)

	// Stored as its SHA-256; no list shows it again.
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM partner_keys WHERE id = $1 AND token_hash = $2`, id, secure.HashToken(secret)))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM partner_keys WHERE token_hash = $1 OR hint = $1`, secret))
	status, out, _ = owner.call("GET", "/api/socios/keys?mode=test", nil)
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, out["_raw"], secret)
	var keys []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out["_raw"].(string)), &keys))
	require.Len(t, keys, 3, "the two first test keys and the new one")
	for _, k := range keys {
		require.Equal(t, false, k["livemode"])
		require.NotContains(t, k, "key")
	}

	// It works from the partner's server until it is revoked.
	server := e.anonymous(t)
	get := func() int {
		req, _ := http.NewRequest("GET", e.base+"/api/partner/v1/verification-sessions", nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		res, err := server.http.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	require.Equal(t, http.StatusOK, get())
	status, out, _ = owner.call("POST", fmt.Sprintf("/api/socios/keys/%d/revoke", id), nil)
	require.Equal(t, http.StatusOK, status, out)
	status, _, _ = owner.call("POST", fmt.Sprintf("/api/socios/keys/%d/revoke", id), nil)
	require.Equal(t, http.StatusNotFound, status, "revoked once")
	e.offset.Add(int64(11 * time.Second)) // past the key cache
	require.Equal(t, http.StatusUnauthorized, get())
	require.Equal(t, 1, e.auditCount(t, "ana@casalista.example", "partner_console.key.revoke", "ok"))
}

// hookRecorder is a partner's webhook endpoint that keeps what it received.
type hookRecorder struct {
	mu   sync.Mutex
	sigs []string
	body [][]byte
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.sigs = append(h.sigs, r.Header.Get(perfilseguro.PartnerSignatureHeader))
	h.body = append(h.body, b)
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (h *hookRecorder) last() (string, []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sigs[len(h.sigs)-1], h.body[len(h.body)-1]
}

// runNotify runs the partner:notify tasks waiting in the queue, as the worker would.
func (e *consoleEnv) runNotify(t *testing.T) int {
	t.Helper()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault, asynq.PageSize(100))
	require.NoError(t, err)
	w := e.worker()
	n := 0
	for _, task := range tasks {
		if task.Type != jobs.TypePartnerNotify {
			continue
		}
		require.NoError(t, w.Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)))
		require.NoError(t, insp.DeleteTask(jobs.QueueDefault, task.ID))
		n++
	}
	return n
}

func TestWebhookSecretRotationSignsWithBothSecretsFor24Hours(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	dev := e.inviteAsAdmin(t, p, "dev@casalista.example", "desarrollador")
	hook := &hookRecorder{}
	srv := httptest.NewServer(hook)
	t.Cleanup(srv.Close)

	// The first URL makes the first secret, shown in that answer only.
	status, out, _ := dev.call("PUT", "/api/socios/webhook", map[string]string{"url": srv.URL + "/hooks"})
	require.Equal(t, http.StatusOK, status, out)
	first := out["secret"].(string)
	require.True(t, strings.HasPrefix(first, "whsec_"), first)
	status, out, _ = dev.call("PUT", "/api/socios/webhook", map[string]string{"url": srv.URL + "/hooks/v2"})
	require.Equal(t, http.StatusOK, status, out)
	require.Nil(t, out["secret"], "the secret stays, unseen")
	status, out, _ = dev.call("GET", "/api/socios/webhook", nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, srv.URL+"/hooks/v2", out["url"])
	require.Equal(t, true, out["hasSecret"])
	require.Nil(t, out["previousSecretUntil"])
	require.NotContains(t, out["_raw"], first)

	status, out, _ = dev.call("POST", "/api/socios/webhook/rotate", nil)
	require.Equal(t, http.StatusOK, status, out)
	second := out["secret"].(string)
	require.NotEqual(t, first, second)
	until, err := time.Parse(time.RFC3339, out["previousSecretUntil"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), until, time.Minute)

	// During the overlap a notification carries both signatures: either secret verifies it.
	var delivery int64
	require.NoError(t, e.db.Get(&delivery, `INSERT INTO partner_deliveries (partner_id, event, payload)
		VALUES ($1, 'verification_session.completed', '{"id":"vs_1"}') RETURNING id`, p.id))
	status, out, _ = dev.call("POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", delivery), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, 1, e.runNotify(t))
	sig, body := hook.last()
	require.Equal(t, 2, strings.Count(sig, "v1="), sig)
	require.NoError(t, perfilseguro.VerifyPartnerWebhook(second, sig, body, time.Now(), 5*time.Minute))
	require.NoError(t, perfilseguro.VerifyPartnerWebhook(first, sig, body, time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_otro", sig, body, time.Now(), 5*time.Minute))

	// Once the overlap is over only the new secret signs.
	_, err = e.db.Exec(`UPDATE api_keys SET webhook_secret_previous_until = now() - interval '1 second' WHERE id = $1`, p.id)
	require.NoError(t, err)
	status, _, _ = dev.call("POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", delivery), nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, 1, e.runNotify(t))
	sig, body = hook.last()
	require.Equal(t, 1, strings.Count(sig, "v1="), sig)
	require.NoError(t, perfilseguro.VerifyPartnerWebhook(second, sig, body, time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook(first, sig, body, time.Now(), 5*time.Minute))
	status, out, _ = dev.call("GET", "/api/socios/webhook", nil)
	require.Equal(t, http.StatusOK, status)
	require.Nil(t, out["previousSecretUntil"])
}

func TestResendMakesANewAttemptNow(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "ana@casalista.example", "propietario")
	var delivery int64
	require.NoError(t, e.db.Get(&delivery, `INSERT INTO partner_deliveries (partner_id, event, payload, attempts, status_code, last_error, delivered_at, next_attempt_at)
		VALUES ($1, 'profile.revoked', '{}', 1, 200, NULL, now() - interval '1 hour', now() - interval '1 hour') RETURNING id`, p.id))

	// Without a webhook there is nowhere to send it.
	status, out, _ := owner.call("POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", delivery), nil)
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "webhook")

	hook := &hookRecorder{}
	srv := httptest.NewServer(hook)
	t.Cleanup(srv.Close)
	status, out, _ = owner.call("PUT", "/api/socios/webhook", map[string]string{"url": srv.URL})
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = owner.call("GET", "/api/socios/deliveries", nil)
	require.Equal(t, http.StatusOK, status)
	row := out["data"].([]any)[0].(map[string]any)
	require.Equal(t, "delivered", row["status"])
	require.Equal(t, float64(1), row["attempts"])

	status, out, _ = owner.call("POST", fmt.Sprintf("/api/socios/deliveries/%d/resend", delivery), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "retrying", out["status"])
	require.Nil(t, out["deliveredAt"])
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM partner_deliveries WHERE id = $1 AND delivered_at IS NULL AND next_attempt_at <= now()`, delivery))
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	_, err := insp.GetTaskInfo(jobs.QueueDefault, fmt.Sprintf("%s:%d:2", jobs.TypePartnerNotify, delivery))
	require.NoError(t, err, "attempt 2 is queued")

	require.Equal(t, 1, e.runNotify(t))
	status, out, _ = owner.call("GET", "/api/socios/deliveries", nil)
	require.Equal(t, http.StatusOK, status)
	row = out["data"].([]any)[0].(map[string]any)
	require.Equal(t, "delivered", row["status"])
	require.Equal(t, float64(2), row["attempts"])
	require.Equal(t, float64(200), row["statusCode"])

	status, _, _ = owner.call("POST", "/api/socios/deliveries/999999/resend", nil)
	require.Equal(t, http.StatusNotFound, status)
}

func TestSessionsShowOnlyWhatWasSharedAndUsageCountsPerMonth(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	reader := e.inviteAsAdmin(t, p, "lee@casalista.example", "lectura")
	uid, _ := seedUser(t, e.db, seeded{Level: 3})
	_, err := e.db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, return_url, secret_hash, status, user_id, shared, proof, expires_at, ended_at) VALUES
		('vs_000000000000000000000001', $1, true, 'caso-1', 3, '{name,profileId}', 'https://casalista.example/fin', 'h1', 'completed', $2,
			'{"name":"María Fernanda López"}', 'eyJ.prueba.firma', now() + interval '1 day', now()),
		('vs_000000000000000000000002', $1, true, 'caso-2', 2, '{level}', NULL, 'h2', 'declined', NULL, NULL, NULL, now() + interval '1 day', now()),
		('vs_000000000000000000000003', $1, false, 'prueba-1', 2, '{level}', NULL, 'h3', 'created', NULL, NULL, NULL, now() + interval '1 day', NULL)`, p.id, uid)
	require.NoError(t, err)
	_, err = e.db.Exec(`UPDATE api_keys SET requests_count = 42 WHERE id = $1`, p.id)
	require.NoError(t, err)

	status, out, _ := reader.call("GET", "/api/socios/sessions?mode=live", nil)
	require.Equal(t, http.StatusOK, status, out)
	data := out["data"].([]any)
	require.Len(t, data, 2)
	var completed map[string]any
	for _, d := range data {
		if d.(map[string]any)["status"] == "completed" {
			completed = d.(map[string]any)
		}
	}
	require.Equal(t, map[string]any{"name": "María Fernanda López"}, completed["shared"])
	require.Equal(t, "caso-1", completed["reference"])
	require.NotContains(t, out["_raw"], "eyJ.prueba.firma", "no proof")
	require.NotContains(t, out["_raw"], "/fin", "no return URL")
	require.NotContains(t, out["_raw"], "userId")
	status, out, _ = reader.call("GET", "/api/socios/sessions?mode=test", nil)
	require.Equal(t, http.StatusOK, status)
	require.Len(t, out["data"], 1)
	require.Equal(t, "prueba-1", out["data"].([]any)[0].(map[string]any)["reference"])

	status, out, _ = reader.call("GET", "/api/socios/usage?mode=live", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, float64(42), out["requestsCount"])
	months := out["months"].([]any)
	require.Len(t, months, 12)
	now := months[0].(map[string]any)
	require.Equal(t, time.Now().In(perfilseguro.MexicoCity()).Format("2006-01"), now["month"])
	require.Equal(t, float64(2), now["opened"])
	require.Equal(t, float64(1), now["completed"])
	require.Equal(t, float64(1), now["declined"])
	status, out, _ = reader.call("GET", "/api/socios/usage?mode=test", nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, float64(1), out["months"].([]any)[0].(map[string]any)["opened"])
}

func TestConsoleRefusesBadInputWithSpanishMessages(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "ana@casalista.example", "propietario")
	for _, c := range []struct {
		method, path string
		body         any
		field, msg   string
	}{
		{"POST", "/api/socios/keys", map[string]string{"kind": "maestra", "mode": "live"}, "kind", "El tipo de llave debe ser secret"},
		{"POST", "/api/socios/keys", map[string]string{"kind": "secret", "mode": "prod"}, "mode", "El modo debe ser live (producción) o test (prueba)."},
		{"POST", "/api/socios/keys", map[string]any{"kind": "secret", "mode": "live", "extra": 1}, "", "Campo no permitido: \"extra\""},
		{"PUT", "/api/socios/webhook", map[string]string{"url": "ftp://casalista.example/hook"}, "url", "La URL del webhook debe ser https://"},
		{"PUT", "/api/socios/webhook", map[string]string{"url": "https://user:pw@casalista.example/hook"}, "url", "La URL del webhook debe ser https://"},
		{"PUT", "/api/socios/origin", map[string]string{"origin": "  "}, "origin", "Escribe el origen de tu sitio"},
		{"PUT", "/api/socios/origin", map[string]string{"origin": "javascript:alert(1)"}, "origin", "El origen no es válido"},
		{"POST", "/api/socios/users", map[string]string{"email": "no-es-correo", "name": "A", "role": "jefa"}, "email", "Email inválido"},
		{"POST", "/api/socios/users", map[string]string{"email": "a@b.mx", "name": "Ana", "role": "jefa"}, "role", perfilseguro.MsgPartnerRole},
		{"PUT", fmt.Sprintf("/api/socios/users/%d", owner.id), map[string]string{"role": "admin"}, "role", perfilseguro.MsgPartnerRole},
		{"PUT", "/api/socios/users/abc", map[string]string{"role": "lectura"}, "id", "Identificador no válido"},
		{"GET", "/api/socios/sessions?mode=prod", nil, "mode", "El modo debe ser"},
		{"GET", "/api/socios/sessions?startingAfter=x", nil, "startingAfter", "startingAfter debe ser"},
		{"GET", "/api/socios/deliveries?limit=0", nil, "limit", "limit debe ser un número de 1 a 100."},
		{"GET", "/api/socios/keys?mode=prod", nil, "mode", "El modo debe ser"},
	} {
		status, out, _ := owner.call(c.method, c.path, c.body)
		require.Equal(t, http.StatusBadRequest, status, "%s %s: %v", c.method, c.path, out)
		require.Contains(t, out["message"], c.msg, "%s %s", c.method, c.path)
		if c.field != "" {
			require.Contains(t, out["errors"], c.field, "%s %s: %v", c.method, c.path, out)
		}
	}
	status, out, _ := e.admin.call("POST", "/api/admin/partners/999999/users", map[string]string{"email": "x@y.mx", "name": "Equis", "role": "lectura"})
	require.Equal(t, http.StatusNotFound, status, out)
	status, out, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token=", nil)
	require.Equal(t, http.StatusBadRequest, status, out)
	status, _, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token="+strings.Repeat("a", 64), nil)
	require.Equal(t, http.StatusGone, status)
	// Nothing above changed anything.
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM audit_events WHERE actor_kind = 'partner_user' AND outcome = 'ok'
		AND action NOT IN ('partner_console.enrol')`))
}

func TestConsoleStateChangesFromAnotherSiteAreRefused(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "ana@casalista.example", "propietario")
	req, err := http.NewRequest("POST", e.base+"/api/socios/keys", strings.NewReader(`{"kind":"secret","mode":"live"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	res, err := owner.http.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Equal(t, 0, e.auditCount(t, "ana@casalista.example", "partner_console.key.create", "ok"))
}
