package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// openTestFlow makes a test session with the partner's test secret key and opens it from a new
// browser with its test publishable key; it returns the browser and the flow token.
func openTestFlow(t *testing.T, e *env, pk string, requiredLevel int) (*browser, string) {
	t.Helper()
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	store := postgres.Store{DB: e.db}
	pkTest, err := store.InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	skTest := e.secretKey(t, pk, false)
	created := e.openSession(t, []string{"Authorization", "Bearer " + skTest},
		map[string]any{"reference": "prueba-1", "requiredLevel": requiredLevel, "claims": []string{"name"}})
	require.Equal(t, false, created["livemode"])
	b := e.browser(t)
	open := e.send(t, b.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pkTest.Key})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	require.Equal(t, false, open.JSON(t)["session"].(map[string]any)["livemode"])
	return b, open.JSON(t)["flowToken"].(string)
}

// otpModes lists the mode of every queued code delivery to a destination.
func (e *env) otpModes(t *testing.T, destination string) []int64 {
	t.Helper()
	var out []int64
	for _, p := range e.queuedOTPs(t) {
		if p.Destination == destination {
			out = append(out, p.TestPartner)
		}
	}
	return out
}

// A test session's registration makes a test person of the partner beside the live person with
// the same e-mail and phone; each mode's sign-in finds its own; the test person's code is queued
// for the inbox; the test person shares in the test session, the test secret key reads them and
// the live key does not; a live person cannot share in a test session; the test person has no
// public page and is in no administrator's list.
func TestATestSessionMakesATestPersonKeptApartFromLivePeople(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	p := newPerson()
	phone := "+52" + p.Phone
	live := e.browser(t)
	liveID := live.signUp(p)

	tester, flow := openTestFlow(t, e, pk, 2)
	body := map[string]string{"fullName": "Ana Prueba", "email": p.Email, "phoneNumber": p.Phone}
	r := e.send(t, tester.http, "POST", "/api/register", body, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusCreated, r.Status, "the same e-mail and phone are free among the partner's test people: %s", r.Body)
	reg := r.JSON(t)
	require.Regexp(t, `^[0-9]{6}$`, reg["verificationCode"])
	r = e.send(t, tester.http, "POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]},
		"Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	testID := int64(r.JSON(t)["userId"].(float64))
	require.NotEqual(t, liveID, testID)
	var marks []int64
	require.NoError(t, e.db.Select(&marks, `SELECT coalesce(test_partner_id, 0) FROM users WHERE email = $1 ORDER BY id`, p.Email))
	require.Equal(t, []int64{perfilseguro.Live, partner}, marks, "the live person stays live")
	require.ElementsMatch(t, []int64{perfilseguro.Live, partner}, e.otpModes(t, phone), "the test person's code goes to the inbox")

	// Registering again in the test flow is the test person's 409; sign-in finds each mode's own.
	r = e.send(t, anonymous(), "POST", "/api/register", body, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusConflict, r.Status)
	require.NotEqual(t, float64(testID), r.JSON(t)["existingUserId"], "an attempt's number, not the test person's id (issue 54, item 25)")
	r = e.send(t, anonymous(), "POST", "/api/login", map[string]string{"email": p.Email}, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(testID), r.JSON(t)["userId"])
	r = e.send(t, anonymous(), "POST", "/api/login", map[string]string{"email": p.Email}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(liveID), r.JSON(t)["userId"])

	// The live person, signed in, cannot share in the test session (nor link themselves by declining).
	view := e.send(t, live.http, "GET", "/api/hosted/session", nil, "X-Flow-Token", flow).JSON(t)
	require.Contains(t, view["blocker"], "verificación de prueba")
	require.Equal(t, true, view["signOutToContinue"])
	r = e.send(t, live.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusConflict, r.Status)

	// The test person shares; the test secret key reads them, the live one reads nobody.
	e.setLevel(t, testID, 2)
	r = e.send(t, tester.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "completed", r.JSON(t)["status"])
	lookup := "/api/widget/verify?email=" + url.QueryEscape(p.Email)
	_, st := e.cross(t, "GET", lookup, "", map[string]string{"Authorization": "Bearer " + e.secretKey(t, pk, false)}, nil)
	require.Equal(t, "Ana Prueba", st["name"])
	_, st = e.cross(t, "GET", lookup, "", map[string]string{"Authorization": "Bearer " + e.secretKey(t, pk, true)}, nil)
	require.Equal(t, "", st["name"], "live keys never see test people")

	// No public page, no administrator's list.
	pid := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, testID)
	require.Equal(t, http.StatusNotFound, e.send(t, anonymous(), "GET", "/api/verify/"+pid, nil).Status)
	admin := e.adminClient(t)
	r = e.send(t, admin, "GET", "/api/users?q="+url.QueryEscape(p.Email), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var listed []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &listed))
	require.Len(t, listed, 1)
	require.Equal(t, float64(liveID), listed[0]["id"])
	require.Equal(t, "1", r.Header.Get("X-Total-Count"))
}

// A test person cannot share in a live session, and cannot invite real people.
func TestATestPersonCannotShareLiveOrInvite(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	tester, flow := openTestFlow(t, e, pk, 2)
	p := newPerson()
	r := e.send(t, tester.http, "POST", "/api/register", map[string]string{"fullName": "Ana Prueba", "email": p.Email, "phoneNumber": p.Phone},
		"X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	reg := r.JSON(t)
	r = e.send(t, tester.http, "POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]},
		"Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	testID := int64(r.JSON(t)["userId"].(float64))
	e.setLevel(t, testID, 3)

	sk := e.secretKey(t, pk, true)
	created := e.openSession(t, []string{"Authorization", "Bearer " + sk}, map[string]any{"reference": "real-1", "requiredLevel": 2, "claims": []string{"name"}})
	open := e.send(t, tester.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pk})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	liveFlow := open.JSON(t)["flowToken"].(string)
	require.Contains(t, open.JSON(t)["session"].(map[string]any)["blocker"], "cuenta de prueba")
	r = e.send(t, tester.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", liveFlow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusConflict, r.Status)

	// Nothing we sign says a simulator-validated person is real: no pass, no credential.
	for _, path := range []string{"/api/wallet/apple/", "/api/wallet/google/"} {
		r = e.send(t, tester.http, "GET", path+strconv.FormatInt(testID, 10), nil)
		require.Equal(t, http.StatusConflict, r.Status, path)
		require.Contains(t, string(r.Body), "no reciben pases de Wallet ni credenciales verificables", path)
	}
	status, out := tester.call("POST", "/api/credentials", map[string]any{})
	require.Equal(t, http.StatusConflict, status, out)
	require.Equal(t, "Las cuentas de prueba de una plataforma no reciben pases de Wallet ni credenciales verificables.", out["message"])

	status, out = tester.call("POST", "/api/invitations", map[string]any{"inviteeEmail": "alguien@example.com",
		"inviteeName": "Carlos Ruiz", "type": "client"})
	require.Equal(t, http.StatusForbidden, status, out)
	require.Equal(t, "Las cuentas de prueba de una plataforma no pueden enviar invitaciones.", out["message"])
}

// The seed's widget sign-in with a test publishable key acts on the partner's test people: a live
// person's e-mail makes a new test person, not a code for the live account.
func TestWidgetSignInWithATestKeyActsOnTestPeople(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	pkTest, err := (&postgres.Store{DB: e.db}).InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	p := newPerson()
	liveID := e.browser(t).signUp(p)

	res, out := e.cross(t, "POST", "/api/widget/login", "https://casalista.example", map[string]string{"Authorization": "Bearer " + pkTest.Key},
		map[string]string{"email": p.Email})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, true, out["isNewUser"], "no test person had that e-mail")
	testID := dbGet[int64](t, e.db, `SELECT id FROM users WHERE email = $1 AND test_partner_id IS NOT NULL`, p.Email)
	require.NotEqual(t, liveID, testID)
	mode := dbGet[int64](t, e.db, `SELECT coalesce(test_partner_id, 0) FROM users WHERE id = $1`, testID)
	require.Equal(t, partner, mode)
	require.ElementsMatch(t, []int64{partner}, e.otpModes(t, p.Email), "the code goes to the inbox, not to the live person's e-mail")

	// The live publishable key still finds the live person.
	res, out = e.cross(t, "POST", "/api/widget/login", "https://casalista.example", map[string]string{"Authorization": "Bearer " + pk},
		map[string]string{"email": p.Email})
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, false, out["isNewUser"], "the live person has that e-mail")
	require.NotEqual(t, float64(liveID), out["userId"], "an attempt's id, never the person's")
}

// A partner's widget can make us send only so many codes an hour: per partner and mode, and per
// destination. A refused request stores nothing; the test budget is not the live one.
func TestAPartnersWidgetCodesAreCappedPerPartnerModeAndDestination(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.WidgetSendPerPartner, l.WidgetSendPerDestination = 2, 1 }))
	origin := "https://topes.example"
	pk := "pk_live_0000000000000000000000b1"
	e.addPartner(t, pk, origin, true, "widget_auth")
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	pkTest, err := (&postgres.Store{DB: e.db}).InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	login := func(key, email string) int {
		res, out := e.cross(t, "POST", "/api/widget/login", origin, map[string]string{"Authorization": "Bearer " + key}, map[string]string{"email": email})
		if res.StatusCode == http.StatusTooManyRequests {
			require.Contains(t, out["message"], "Demasiadas solicitudes", "a cap, not the resend cooldown")
		}
		return res.StatusCode
	}
	users := func() (n int) {
		require.NoError(t, e.db.Get(&n, `SELECT count(*) FROM users`))
		return n
	}
	a, b, c := newPerson(), newPerson(), newPerson()
	require.Equal(t, http.StatusOK, login(pk, a.Email))
	require.Equal(t, http.StatusTooManyRequests, login(pk, a.Email), "one code an hour to a destination")
	require.Equal(t, http.StatusOK, login(pk, b.Email))
	before := users()
	require.Equal(t, http.StatusTooManyRequests, login(pk, c.Email), "two codes an hour for the partner's live widget")
	require.Equal(t, before, users(), "a refusal creates nobody")
	require.Equal(t, http.StatusOK, login(pkTest.Key, c.Email), "the test widget has a budget of its own")
}
