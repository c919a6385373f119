package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 54, items 1, 2, 3 and 15: what a person withdraws or deletes is gone from every surface of
// the partner, which keeps each session's status ("shared": null and "sharedReason").

// completeSession has person share claims in a new live session of the partner (server: its
// secret key's Authorization header) and returns the session's id.
func (e *env) completeSession(t *testing.T, server []string, pk string, person *browser, reference string, claims ...string) string {
	t.Helper()
	created := e.openSession(t, server, map[string]any{"reference": reference, "requiredLevel": 2, "claims": claims})
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pk,
		"openerOrigin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", open.JSON(t)["flowToken"].(string))
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))
	require.Equal(t, "completed", d.JSON(t)["status"])
	return created["id"].(string)
}

// requireStatusOnly checks a session as the partner reads it after the person's data is gone.
func requireStatusOnly(t *testing.T, got map[string]any, reason string) {
	t.Helper()
	require.Equal(t, "completed", got["status"])
	require.Contains(t, got, "shared")
	require.Nil(t, got["shared"], "shared: null")
	require.Equal(t, reason, got["sharedReason"])
	require.NotContains(t, got, "proof")
}

// A withdrawal leaves the partner each session's status only, in the read, the list and the
// stored notifications, and tells it which of its sessions (and references) are concerned,
// never a profile ID the person did not share. Before the fix the partner still read the name
// and the proof.
func TestAWithdrawalLeavesThePartnerOnlyTheSessionsStatus(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	person, uid := e.signedInAt(t, 2)
	_, err := e.db.Exec(`UPDATE users SET nombre = 'Ana Retirada' WHERE id = $1`, uid)
	require.NoError(t, err)
	first := e.completeSession(t, server, pk, person, "cliente-41", "name", "level")
	second := e.completeSession(t, server, pk, person, "cliente-42", "name")
	other, _ := e.signedInAt(t, 2)
	kept := e.completeSession(t, server, pk, other, "cliente-77", "name")
	read := func(id string) map[string]any {
		r := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		return r.JSON(t)
	}
	require.NotEmpty(t, read(second)["shared"].(map[string]any)["name"])
	require.NotContains(t, read(second), "sharedReason")

	path := "/api/users/" + itoa(uid) + "/partner-access"
	grants := e.send(t, person.http, "GET", path, nil).JSON(t)["grants"].([]any)
	require.Len(t, grants, 2, "the second session's grant replaced the first's")
	require.Nil(t, grants[0].(map[string]any)["revokedAt"], "the current grant first")
	gid := itoa(int64(grants[0].(map[string]any)["id"].(float64)))
	r := e.send(t, person.http, "DELETE", path+"/"+gid, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	// The read and the list: status, shared null, the reason, no proof.
	for _, id := range []string{first, second} {
		requireStatusOnly(t, read(id), "withdrawn")
	}
	list := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions?limit=10", nil, server...)
	require.Equal(t, http.StatusOK, list.Status, string(list.Body))
	for _, s := range list.JSON(t)["data"].([]any) {
		v := s.(map[string]any)
		if v["id"] == kept {
			require.NotEmpty(t, v["shared"], "another person's session keeps what they shared")
			require.NotContains(t, v, "sharedReason")
			continue
		}
		requireStatusOnly(t, v, "withdrawn")
	}
	require.NotContains(t, string(list.Body), "Ana Retirada")
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE user_id = $1 AND shared IS NULL AND proof IS NULL
		AND shared_reason = 'withdrawn'`, uid), "blanked, not hidden")

	// The stored completions are status-only too (what a retry or a resend sends).
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%Ana Retirada%'`))
	payload := dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE payload->>'id' = $1`, second)
	var hook map[string]any
	require.NoError(t, json.Unmarshal([]byte(payload), &hook))
	require.Equal(t, "verification_session.completed", hook["event"])
	requireStatusOnly(t, hook, "withdrawn")
	require.NotContains(t, hook, "claims")

	// profile.access_revoked: the partner's own sessions and references, no profile ID.
	revoked := dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE event = 'profile.access_revoked' AND user_id = $1`, uid)
	var ev map[string]any
	require.NoError(t, json.Unmarshal([]byte(revoked), &ev))
	require.NotContains(t, ev, "profileId", "the grant was name only")
	require.Equal(t, []any{map[string]any{"id": second, "reference": "cliente-42"}, map[string]any{"id": first, "reference": "cliente-41"}},
		ev["sessions"], "newest first")
	require.Equal(t, true, ev["livemode"])
}

// The console's Sesiones tab (role lectura) shows the status only after a withdrawal or a
// deletion; before the fix it still showed the name.
func TestTheConsoleShowsOnlyTheStatusAfterAWithdrawalOrADeletion(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	reader := e.inviteAsAdmin(t, p, "lee@casalista.example", "lectura")
	withdrawn, _ := seedUser(t, e.db, seeded{Level: 3, Name: "Ana Retirada"})
	deleted, _ := seedUser(t, e.db, seeded{Level: 3, Name: "Beto Eliminado"})
	_, err := e.db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, user_id, shared, proof, expires_at, ended_at) VALUES
		('vs_0000000000000000000000b1', $1, true, 'caso-1', 3, '{name}', 'h1', 'completed', $2, '{"name":"Ana Retirada"}', 'eyJ.a.b', now() + interval '1 day', now()),
		('vs_0000000000000000000000b2', $1, true, 'caso-2', 3, '{name}', 'h2', 'completed', $3, '{"name":"Beto Eliminado"}', 'eyJ.c.d', now() + interval '1 day', now())`,
		p.id, withdrawn, deleted)
	require.NoError(t, err)
	var grantID int64
	require.NoError(t, e.db.Get(&grantID, `INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via, session_id)
		VALUES ($1, $2, true, '{name}', 'session', 'vs_0000000000000000000000b1') RETURNING id`, p.id, withdrawn))
	store := postgres.Store{DB: e.db}
	_, _, err = store.RevokeGrant(context.Background(), withdrawn, grantID, time.Now())
	require.NoError(t, err)
	require.NoError(t, store.DeleteUser(context.Background(), deleted))

	status, out, _ := reader.call("GET", "/api/socios/sessions?mode=live", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.NotContains(t, out["_raw"], "Ana Retirada")
	require.NotContains(t, out["_raw"], "Beto Eliminado")
	reasons := map[string]any{}
	for _, d := range out["data"].([]any) {
		v := d.(map[string]any)
		require.Contains(t, v, "shared")
		require.Nil(t, v["shared"])
		reasons[v["reference"].(string)] = v["sharedReason"]
	}
	require.Equal(t, map[string]any{"caso-1": "withdrawn", "caso-2": "deleted"}, reasons)
}

// A person who deletes their account (code confirmed) leaves the partner the session's status
// and "shared": null with reason deleted; before the fix the partner still read their name,
// profile ID, level and proof.
func TestADeletedAccountLeavesThePartnerOnlyTheSessionsStatus(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	person, uid := e.signedInAt(t, 2)
	id := e.completeSession(t, server, pk, person, "cliente-9", "name", "profileId", "level")
	profileID := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, uid)

	self := "/api/users/" + itoa(uid)
	r := e.send(t, person.http, "POST", self+"/confirmation-code", nil)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	code := r.JSON(t)["verificationCode"].(string)
	r = e.send(t, person.http, "POST", self+"/confirmation", map[string]string{"code": code})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	r = e.send(t, person.http, "DELETE", self, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	got := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...)
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	requireStatusOnly(t, got.JSON(t), "deleted")
	require.NotContains(t, string(got.Body), profileID)
	list := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions", nil, server...)
	require.NotContains(t, string(list.Body), profileID)
	requireStatusOnly(t, list.JSON(t)["data"].([]any)[0].(map[string]any), "deleted")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE shared IS NOT NULL OR proof IS NOT NULL`))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%' || $1 || '%'
		AND event LIKE 'verification_session.%'`, profileID))
}

// A test person sees their test grant in Plataformas con acceso and withdraws it, and the partner
// hears profile.access_revoked in test mode, as with live keys; before the fix the list was
// empty while the test key still read the name.
func TestATestPersonSeesAndWithdrawsTheirTestGrant(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	skTest := []string{"Authorization", "Bearer " + e.secretKey(t, pk, false)}
	p := newPerson()
	tester, flow := openTestFlow(t, e, pk, 2)
	r := e.send(t, tester.http, "POST", "/api/register", map[string]string{"fullName": "Ana Prueba", "email": p.Email, "phoneNumber": p.Phone},
		"X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	reg := r.JSON(t)
	r = e.send(t, tester.http, "POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]},
		"Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	testID := dbGet[int64](t, e.db, `SELECT id FROM users WHERE email = $1 AND test_partner_id IS NOT NULL`, p.Email)
	e.setLevel(t, testID, 2)
	r = e.send(t, tester.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	session := dbGet[string](t, e.db, `SELECT id FROM partner_sessions WHERE user_id = $1`, testID)

	path := "/api/users/" + itoa(testID) + "/partner-access"
	list := e.send(t, tester.http, "GET", path, nil)
	require.Equal(t, http.StatusOK, list.Status, string(list.Body))
	grants := list.JSON(t)["grants"].([]any)
	require.Len(t, grants, 1, "the test grant is listed")
	g := grants[0].(map[string]any)
	require.Equal(t, "CasaLista", g["partnerName"])
	require.Equal(t, []any{"name"}, g["claims"])

	r = e.send(t, tester.http, "DELETE", path+"/"+itoa(int64(g["id"].(float64))), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	_, st := e.cross(t, "GET", "/api/widget/verify?email="+url.QueryEscape(p.Email), "", map[string]string{"Authorization": skTest[1]}, nil)
	require.Equal(t, "", st["name"], "the test key no longer reads them")
	got := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+session, nil, skTest...)
	requireStatusOnly(t, got.JSON(t), "withdrawn")

	revoked := dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE event = 'profile.access_revoked' AND user_id = $1`, testID)
	var ev map[string]any
	require.NoError(t, json.Unmarshal([]byte(revoked), &ev))
	require.Equal(t, false, ev["livemode"])
	require.Equal(t, []any{map[string]any{"id": session, "reference": "prueba-1"}}, ev["sessions"])

	// A live person's list still holds live grants only (a live key's grant, not another mode's).
	live, liveID := e.signedInAt(t, 2)
	e.grant(t, pk, liveID, true, "name")
	require.Len(t, e.send(t, live.http, "GET", "/api/users/"+itoa(liveID)+"/partner-access", nil).JSON(t)["grants"], 1)
}
