package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Issue 53 item 1 in the console: propietario and cumplimiento record operations and see the
// people in them; desarrollador and lectura read the list without people, and their attempts to
// record one are refused (403) and recorded as denied.

func TestTheComplianceRoleRecordsOperationsAndOthersOnlyReadTheList(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "duena@casalista.example", "propietario")
	officer := e.inviteAsAdmin(t, p, "oficial@casalista.example", "cumplimiento")
	dev := e.invite(t, owner, "dev@casalista.example", "desarrollador")
	reader := e.invite(t, owner, "lee@casalista.example", "lectura")
	other := e.newPlatform(t, "OtraInmo", "https://otra.example")

	uid := amlPerson(t, e.db, true)
	liveSession := completedSession(t, e.db, p.id, uid, true, "completed")
	testSession := completedSession(t, e.db, p.id, uid, false, "completed")
	foreign := completedSession(t, e.db, other.id, uid, true, "completed")

	// What the console says each role may do.
	status, me, _ := officer.call("GET", "/api/socios/me", nil)
	require.Equal(t, http.StatusOK, status, me)
	require.Equal(t, "cumplimiento", me["user"].(map[string]any)["role"])
	require.ElementsMatch(t, []any{"read", "operations", "compliance"}, me["actions"])

	// The officer chooses people from the platform's completed sessions of the mode.
	status, cands, _ := officer.call("GET", "/api/socios/operation-candidates?mode=live", nil)
	require.Equal(t, http.StatusOK, status, cands)
	data := cands["data"].([]any)
	require.Len(t, data, 1, "the live completed session only, not the other platform's")
	require.Equal(t, liveSession, data[0].(map[string]any)["sessionId"])
	require.Equal(t, true, data[0].(map[string]any)["identityVerified"])

	body := operation(liveSession, func(b map[string]any) { b["kind"], b["amount"] = "arrendamiento", "200000" })
	status, out, _ := officer.call("POST", "/api/socios/operations?mode=live", body)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, true, requirementOf(t, out)["identify"])
	require.Equal(t, false, requirementOf(t, out)["aviso"])
	require.Equal(t, 1, e.auditCount(t, "oficial@casalista.example", "partner_console.operation.create", "ok"))
	require.Equal(t, "oficial@casalista.example", dbGet[string](t, e.db, `SELECT created_by_label FROM aml_operations WHERE id = $1`, out["id"]))
	status, out, _ = owner.call("POST", "/api/socios/operations?mode=test", operation(testSession, nil))
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, false, out["livemode"])

	// Another platform's session: 422, in Spanish.
	status, out, _ = officer.call("POST", "/api/socios/operations?mode=live", operation(foreign, nil))
	require.Equal(t, http.StatusUnprocessableEntity, status, out)
	require.Equal(t, "La persona debe haber completado una verificación con tu plataforma.", out["message"])

	// desarrollador and lectura: 403 on writes and on the chooser, recorded as denied.
	for _, m := range []*member{dev, reader} {
		role := map[*member]string{dev: "desarrollador", reader: "lectura"}[m]
		status, out, _ = m.call("POST", "/api/socios/operations?mode=live", body)
		require.Equal(t, http.StatusForbidden, status, out)
		require.Contains(t, out["message"], "Tu rol ("+role+") no permite esta acción")
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.operation.create", "denied"), role)
		status, out, _ = m.call("GET", "/api/socios/operation-candidates", nil)
		require.Equal(t, http.StatusForbidden, status, out)
	}
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM aml_operations WHERE NOT test_mode`), "only the officer's live operation")

	// Everyone lists the operations; only propietario and cumplimiento see the people.
	for _, c := range []struct {
		m      *member
		people bool
	}{{owner, true}, {officer, true}, {dev, false}, {reader, false}} {
		status, page, _ := c.m.call("GET", "/api/socios/operations?mode=live", nil)
		require.Equal(t, http.StatusOK, status, page)
		ops := page["data"].([]any)
		require.Len(t, ops, 1)
		require.Equal(t, !c.people, page["peopleHidden"], c.m.email)
		people := ops[0].(map[string]any)["people"].([]any)
		if c.people {
			require.Len(t, people, 1, c.m.email)
			require.Equal(t, true, people[0].(map[string]any)["identityVerified"])
		} else {
			require.Empty(t, people, c.m.email)
		}
	}
	status, page, _ := reader.call("GET", "/api/socios/operations?mode=test", nil)
	require.Equal(t, http.StatusOK, status, page)
	require.Len(t, page["data"].([]any), 1, "test mode lists the test operation only")
}

func TestTheComplianceRoleIsAPartnerRole(t *testing.T) {
	t.Parallel()
	require.True(t, perfilseguro.ValidPartnerRole("cumplimiento"))
	for role, want := range map[string]bool{"propietario": true, "cumplimiento": true, "desarrollador": false, "lectura": false} {
		require.Equal(t, want, perfilseguro.PartnerRoleAllows(role, perfilseguro.PartnerOperationsWrite), role)
		require.Equal(t, want, perfilseguro.PartnerRoleAllows(role, perfilseguro.PartnerComplianceRead), role)
	}
	for _, a := range []perfilseguro.PartnerAction{perfilseguro.PartnerManageKeys, perfilseguro.PartnerManageWebhook,
		perfilseguro.PartnerManageOrigin, perfilseguro.PartnerResend, perfilseguro.PartnerManageTeam} {
		require.False(t, perfilseguro.PartnerRoleAllows("cumplimiento", a), a)
	}
	u := perfilseguro.NewPartnerUser{Email: "x@y.mx", Name: "Xo", Role: "jefa"}
	require.ErrorContains(t, u.Validate(), "cumplimiento")
}
