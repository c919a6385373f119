package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/config"
)

// The partner console driven through the real API: an administrator creates a platform and
// invites its first propietario, who enrols a passkey (virtualwebauthn) and invites the rest.

// consoleEnv is pkEnv (passkeys need a host name) with the development administrator signed in.
type consoleEnv struct {
	*pkEnv
	admin *lvClient
}

func consoleSetup(t *testing.T) *consoleEnv {
	t.Helper()
	e := pkSetup(t)
	admin := e.anonymous(t)
	status, out, _ := admin.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)
	return &consoleEnv{pkEnv: e, admin: admin}
}

// platform is a partner made by the administrator, with its first live secret key.
type platform struct {
	id        int64
	secretKey string
}

func (e *consoleEnv) newPlatform(t *testing.T, name, domain string) platform {
	t.Helper()
	status, out, _ := e.admin.call("POST", "/api/admin/partners", map[string]string{"partnerName": name, "domain": domain})
	require.Equal(t, http.StatusCreated, status, out)
	return platform{id: int64(out["id"].(float64)), secretKey: out["keys"].(map[string]any)["secretLive"].(string)}
}

// member is a partner user with the browser (cookie jar) signed in to the console and the
// authenticator holding their passkey.
type member struct {
	*lvClient
	id     int64
	email  string
	device *pkDevice
}

// tokenOf reads the token of an enrolment link.
func tokenOf(t *testing.T, link string) string {
	t.Helper()
	i := strings.Index(link, "/socios/registro?token=")
	require.GreaterOrEqual(t, i, 0, link)
	return link[i+len("/socios/registro?token="):]
}

// inviteAsAdmin invites someone to a platform's console from the admin panel and enrols them.
func (e *consoleEnv) inviteAsAdmin(t *testing.T, p platform, email, role string) *member {
	t.Helper()
	status, out, _ := e.admin.call("POST", fmt.Sprintf("/api/admin/partners/%d/users", p.id),
		map[string]string{"email": email, "name": "Persona " + role, "role": role})
	require.Equal(t, http.StatusCreated, status, out)
	return e.enrol(t, tokenOf(t, out["enrolmentUrl"].(string)), email)
}

// invite has m (a propietario) invite someone to their platform and enrols them.
func (e *consoleEnv) invite(t *testing.T, m *member, email, role string) *member {
	t.Helper()
	status, out, _ := m.call("POST", "/api/socios/users", map[string]string{"email": email, "name": "Persona " + role, "role": role})
	require.Equal(t, http.StatusCreated, status, out)
	return e.enrol(t, tokenOf(t, out["enrolmentUrl"].(string)), email)
}

// enrol registers a passkey with an enrolment link in a new browser, which the answer signs in.
func (e *consoleEnv) enrol(t *testing.T, token, email string) *member {
	t.Helper()
	c := e.anonymous(t)
	status, out, _ := c.call("POST", "/api/socios/enrol/options", map[string]string{"token": token})
	require.Equal(t, http.StatusOK, status, out)
	ao, err := virtualwebauthn.ParseAttestationOptions(out["_raw"].(string))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(ao.UserID, "partner:"), ao.UserID)
	d := &pkDevice{auth: virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(ao.UserID)}),
		cred: newEC2Credential(t)}
	answer := virtualwebauthn.CreateAttestationResponse(e.rp, d.auth, d.cred, *ao)
	status, out, _ = c.call("POST", "/api/socios/enrol/verify", map[string]any{"token": token, "credential": json.RawMessage(answer)})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["authenticated"])
	d.auth.AddCredential(d.cred)
	m := &member{lvClient: c, email: email, device: d}
	status, me, _ := c.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status, me)
	m.id = int64(me["user"].(map[string]any)["id"].(float64))
	require.Equal(t, email, me["user"].(map[string]any)["email"])
	return m
}

// signIn opens a console session for m's passkey in a new browser (counter: the passkey's next count).
func (e *consoleEnv) signIn(t *testing.T, m *member, counter uint32) (int, map[string]any, *lvClient) {
	t.Helper()
	c := e.anonymous(t)
	status, out, _ := c.call("POST", "/api/socios/passkey/options", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Nil(t, out["publicKey"].(map[string]any)["allowCredentials"], "discoverable: no allowCredentials")
	opts, err := virtualwebauthn.ParseAssertionOptions(out["_raw"].(string))
	require.NoError(t, err)
	status, out, _ = c.call("POST", "/api/socios/passkey/verify", e.sign(m.device, opts, counter))
	return status, out, c
}

// auditCount counts the audit events of a partner user's action with an outcome.
func (e *consoleEnv) auditCount(t *testing.T, email, action, outcome string) int {
	t.Helper()
	return e.count(t, `SELECT count(*) FROM audit_events WHERE actor_kind = 'partner_user' AND actor_label = $1
		AND action = $2 AND outcome = $3`, email, action, outcome)
}

// id reads a numeric id from a JSON answer.
func idOf(out map[string]any) int64 { return int64(out["id"].(float64)) }
