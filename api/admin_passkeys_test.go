package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/config"
)

func TestAdministratorEnrolsSignsInWithAPasskeyAndConfirmsARevoke(t *testing.T) {
	t.Parallel()
	e := pkSetup(t)
	dev := e.anonymous(t)
	status, out, _ := dev.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = dev.call("POST", "/api/admin/admins", map[string]string{"email": "ana@example.com", "name": "Ana", "role": "administrador"})
	require.Equal(t, http.StatusCreated, status, out)
	link := out["enrolmentUrl"].(string)
	token := link[strings.Index(link, "token=")+6:]

	// The enrolment page registers Ana's passkey through the passkey package and opens her session.
	ana := e.anonymous(t)
	status, out, _ = ana.call("POST", "/api/admin/enrol/options", map[string]string{"token": token})
	require.Equal(t, http.StatusOK, status, out)
	ao, err := virtualwebauthn.ParseAttestationOptions(out["_raw"].(string))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(ao.UserID, "admin:"), ao.UserID)
	auth := virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(ao.UserID)})
	cred := newEC2Credential(t)
	answer := virtualwebauthn.CreateAttestationResponse(e.rp, auth, cred, *ao)
	status, out, _ = ana.call("POST", "/api/admin/enrol/verify", map[string]any{"token": token, "credential": json.RawMessage(answer)})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "ana@example.com", out["admin"].(map[string]any)["email"])
	auth.AddCredential(cred)

	// The link was single-use.
	status, out, _ = e.anonymous(t).call("GET", "/api/admin/enrol?token="+token, nil)
	require.Equal(t, http.StatusGone, status, out)
	status, _, _ = e.anonymous(t).call("POST", "/api/admin/enrol/options", map[string]string{"token": token})
	require.Equal(t, http.StatusGone, status)

	// Signed out, she comes back with the passkey alone.
	status, _, _ = ana.call("POST", "/api/admin/logout", nil)
	require.Equal(t, http.StatusOK, status)
	status, out, _ = ana.call("POST", "/api/admin/passkey/options", nil)
	require.Equal(t, http.StatusOK, status, out)
	opts, err := virtualwebauthn.ParseAssertionOptions(out["_raw"].(string))
	require.NoError(t, err)
	status, out, _ = ana.call("POST", "/api/admin/passkey/verify", e.sign(&pkDevice{auth: auth, cred: cred}, opts, 1))
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "administrador", out["admin"].(map[string]any)["role"])
	require.NotNil(t, out["freshUntil"])

	// Six minutes later a revocation asks for a fresh confirmation, then goes through.
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	revoke := fmt.Sprintf("/api/admin/users/%d/revoke", id)
	e.offset.Add(int64(6 * time.Minute))
	status, out, _ = ana.call("POST", revoke, map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusForbidden, status, out)
	require.NotEmpty(t, out["errors"].(map[string]any)["reauth"])
	status, out, _ = ana.call("POST", "/api/admin/reauth/options", nil)
	require.Equal(t, http.StatusOK, status, out)
	opts, err = virtualwebauthn.ParseAssertionOptions(out["_raw"].(string))
	require.NoError(t, err)
	status, out, _ = ana.call("POST", "/api/admin/reauth", e.sign(&pkDevice{auth: auth, cred: cred}, opts, 2))
	require.Equal(t, http.StatusOK, status, out)
	status, out, _ = ana.call("POST", revoke, map[string]string{"motivo": "Fraude"})
	require.Equal(t, http.StatusOK, status, out)

	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke' AND outcome = 'ok'
		AND actor_label = 'ana@example.com'`))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE action = 'admin.signin.passkey' AND outcome = 'ok'`))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM webauthn_credentials WHERE admin_id IS NOT NULL AND user_id IS NULL`))
}
