package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/descope/virtualwebauthn"
	"github.com/stretchr/testify/require"
)

// Enrolment links of administrators and partner users (issue 54 items 14 and 26): a new link
// voids the older unused ones, and one link stores one passkey even when two browsers use it at
// the same moment.

// enrolAttempt is one browser that opened an enrolment link and holds an answer to its options.
type enrolAttempt struct {
	c      *lvClient
	answer json.RawMessage
}

// prepareEnrolment asks for the registration options of token at base (/api/admin/enrol or
// /api/socios/enrol) in a new browser and signs an answer with a new passkey.
func (e *pkEnv) prepareEnrolment(t *testing.T, base, token string) enrolAttempt {
	t.Helper()
	c := e.anonymous(t)
	status, out, _ := c.call("POST", base+"/options", map[string]string{"token": token})
	require.Equal(t, http.StatusOK, status, out)
	ao, err := virtualwebauthn.ParseAttestationOptions(out["_raw"].(string))
	require.NoError(t, err)
	auth := virtualwebauthn.NewAuthenticatorWithOptions(virtualwebauthn.AuthenticatorOptions{UserHandle: []byte(ao.UserID)})
	return enrolAttempt{c: c, answer: json.RawMessage(virtualwebauthn.CreateAttestationResponse(e.rp, auth, newEC2Credential(t), *ao))}
}

// enrolTogether sends the attempts' answers for token at the same moment and returns their
// statuses, sorted.
func enrolTogether(t *testing.T, base, token string, attempts ...enrolAttempt) []int {
	t.Helper()
	statuses := make([]int, len(attempts))
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i, a := range attempts {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			statuses[i], _, _ = a.c.call("POST", base+"/verify", map[string]any{"token": token, "credential": a.answer})
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	slices.Sort(statuses)
	return statuses
}

func adminToken(t *testing.T, out map[string]any) string {
	t.Helper()
	link := out["enrolmentUrl"].(string)
	i := strings.Index(link, "token=")
	require.GreaterOrEqual(t, i, 0, link)
	return link[i+len("token="):]
}

func TestAnAdministratorsEnrolmentLinkStoresOnePasskeyAndANewLinkVoidsTheOld(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	status, out, _ := e.admin.call("POST", "/api/admin/admins", map[string]string{"email": "bea@example.com", "name": "Bea", "role": "soporte"})
	require.Equal(t, http.StatusCreated, status, out)
	id := int64(out["admin"].(map[string]any)["id"].(float64))
	first := adminToken(t, out)

	// Re-issued: the first link no longer opens; the new one does.
	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/admins/%d/enrolment", id), nil)
	require.Equal(t, http.StatusOK, status, out)
	second := adminToken(t, out)
	require.Contains(t, out["message"], "los enlaces anteriores que no se usaron ya no funcionan")
	status, _, _ = e.anonymous(t).call("GET", "/api/admin/enrol?token="+first, nil)
	require.Equal(t, http.StatusGone, status, "the older link is void")
	status, _, _ = e.anonymous(t).call("POST", "/api/admin/enrol/options", map[string]string{"token": first})
	require.Equal(t, http.StatusGone, status)
	status, out, _ = e.anonymous(t).call("GET", "/api/admin/enrol?token="+second, nil)
	require.Equal(t, http.StatusOK, status, out)

	// Two browsers opened the new link; both answer at once: one passkey, one 410.
	a, b := e.prepareEnrolment(t, "/api/admin/enrol", second), e.prepareEnrolment(t, "/api/admin/enrol", second)
	require.Equal(t, []int{http.StatusOK, http.StatusGone}, enrolTogether(t, "/api/admin/enrol", second, a, b))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM webauthn_credentials WHERE admin_id = $1`, id))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE action = 'admin.enrol' AND outcome = 'ok'
		AND target_id = $1`, fmt.Sprint(id)))

	// A new link after enrolment voids nothing used: the admin stays enrolled.
	status, out, _ = e.admin.call("POST", fmt.Sprintf("/api/admin/admins/%d/enrolment", id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["admin"].(map[string]any)["enrolled"], out)
}

func TestAPartnerUsersEnrolmentLinkStoresOnePasskeyAndANewLinkVoidsTheOld(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "Casa Lista", "casalista.example")
	owner := e.inviteAsAdmin(t, p, "laura@casalista.example", "propietario")
	status, out, _ := owner.call("POST", "/api/socios/users", map[string]string{"email": "dev@casalista.example", "name": "Dev", "role": "desarrollador"})
	require.Equal(t, http.StatusCreated, status, out)
	id := int64(out["user"].(map[string]any)["id"].(float64))
	first := tokenOf(t, out["enrolmentUrl"].(string))

	status, out, _ = owner.call("POST", fmt.Sprintf("/api/socios/users/%d/enrolment", id), nil)
	require.Equal(t, http.StatusOK, status, out)
	second := tokenOf(t, out["enrolmentUrl"].(string))
	require.Contains(t, out["message"], "Los enlaces anteriores que no se usaron ya no funcionan")
	status, _, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token="+first, nil)
	require.Equal(t, http.StatusGone, status, "the older link is void")
	status, _, _ = e.anonymous(t).call("POST", "/api/socios/enrol/options", map[string]string{"token": first})
	require.Equal(t, http.StatusGone, status)
	status, out, _ = e.anonymous(t).call("GET", "/api/socios/enrol?token="+second, nil)
	require.Equal(t, http.StatusOK, status, out)

	a, b := e.prepareEnrolment(t, "/api/socios/enrol", second), e.prepareEnrolment(t, "/api/socios/enrol", second)
	require.Equal(t, []int{http.StatusOK, http.StatusGone}, enrolTogether(t, "/api/socios/enrol", second, a, b))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM webauthn_credentials WHERE partner_user_id = $1`, id))
}
