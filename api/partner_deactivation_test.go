package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Issue 54 item 4: a deactivated partner is off: its console (sign-in and every route), its open
// hosted flows (nothing shared) and its webhook deliveries; reactivation restores the console.

func TestADeactivatedPartnersConsoleIsOffUntilReactivated(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "dueña@casalista.example", "propietario")
	status, out, _ := owner.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status, out)

	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/deactivate", p.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, false, out["isActive"])

	// Every console route of the open session, reads and changes alike.
	for _, call := range []struct{ method, path string }{
		{"GET", "/api/socios/me"}, {"GET", "/api/socios/sessions"}, {"GET", "/api/socios/test-inbox"},
		{"GET", "/api/socios/keys"}, {"POST", "/api/socios/keys"}, {"POST", "/api/socios/webhook/rotate"},
		{"GET", "/api/socios/deliveries"}, {"GET", "/api/socios/users"},
	} {
		var body any
		if call.method == "POST" {
			body = map[string]string{"kind": "secret", "mode": "live"}
		}
		status, out, _ := owner.call(call.method, call.path, body)
		require.Equal(t, http.StatusForbidden, status, "%s %s: %v", call.method, call.path, out)
		require.Contains(t, out["message"], "Tu plataforma está desactivada en Perfil Seguro", call.path)
	}
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM partner_keys WHERE partner_id = $1 AND created_by = $2`, p.id, owner.email),
		"no key was made")

	// A new sign-in is refused with the same words, and recorded as denied.
	status, out, _ = e.signIn(t, owner, 2)
	require.Equal(t, http.StatusForbidden, status, out)
	require.Contains(t, out["message"], "Tu plataforma está desactivada en Perfil Seguro")
	require.Equal(t, 1, e.auditCount(t, owner.email, "partner_console.signin.passkey", "denied"))

	// Its keys are refused (within the key cache's 10 s; this key was never cached).
	require.Equal(t, http.StatusUnauthorized, listSessions(t, e.base, p.secretKey))

	// Reactivated: the console and the keys work again.
	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/activate", p.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["isActive"])
	status, out, _ = owner.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = e.signIn(t, owner, 3)
	require.Equal(t, http.StatusOK, status, out)
	// The refusal was cached with the key (keyCacheTTL, 10 s): the key works again within it.
	require.Eventually(t, func() bool { return listSessions(t, e.base, p.secretKey) == http.StatusOK }, 15*time.Second, 500*time.Millisecond)
}

// listSessions lists a partner's sessions with its secret key, as its server would, and answers the status.
func listSessions(t *testing.T, base, secretKey string) int {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/api/partner/v1/verification-sessions", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+secretKey)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	return res.StatusCode
}

func TestADeactivatedPartnersOpenFlowSharesNothing(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	sk := e.secretKey(t, pk, true)
	created := e.openSession(t, []string{"Authorization", "Bearer " + sk},
		map[string]any{"reference": "cliente-7", "requiredLevel": 3, "claims": []string{"name"}})
	person, uid := e.signedInAt(t, 3)
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pk,
		"openerOrigin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	flow := open.JSON(t)["flowToken"].(string)

	// The administrator switches the partner off while the person has the flow open.
	_, err := e.db.Exec(`UPDATE api_keys SET is_active = false WHERE key_id = $1`, pk)
	require.NoError(t, err)

	view := e.send(t, person.http, "GET", "/api/hosted/session", nil, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, view.Status, string(view.Body))
	v := view.JSON(t)
	require.Equal(t, true, v["disconnected"])
	require.Contains(t, v["blocker"], "ya no está conectada con Perfil Seguro")
	require.Equal(t, false, v["signedIn"], "the person's data is not read for a partner that is off")
	require.NotContains(t, v["claims"].([]any)[0].(map[string]any), "value")

	for _, share := range []bool{true, false} {
		d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": share}, "X-Flow-Token", flow)
		require.Equal(t, http.StatusConflict, d.Status, string(d.Body))
		require.Contains(t, string(d.Body), "ya no está conectada con Perfil Seguro")
	}
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM partner_grants WHERE user_id = $1`, uid), "no grant")
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE shared IS NOT NULL`), "nothing shared")
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries`), "no notification")
	require.Equal(t, "in_progress", dbGet[string](t, e.db, `SELECT status FROM partner_sessions WHERE id = $1`, created["id"]))
}
