package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// sessionEnv is an API with an issuer (proofs) and one partner with a webhook; pk is its live
// publishable key.
func sessionEnv(t *testing.T) (*env, *credential.Issuer, string) {
	t.Helper()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer })
	pk := "pk_live_00000000000000000000c0de"
	e.addPartner(t, pk, "https://casalista.example", true, "widget_auth")
	_, err := e.db.Exec(`UPDATE api_keys SET partner_name = 'CasaLista', webhook_url = 'https://casalista.example/hooks', webhook_secret = 'whsec_x' WHERE key_id = $1`, pk)
	require.NoError(t, err)
	return e, issuer, pk
}

// openSession opens a verification session as the partner's server (server: its Authorization
// header) and returns the 201 answer.
func (e *env) openSession(t *testing.T, server []string, body map[string]any) map[string]any {
	t.Helper()
	r := e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions", body, server...)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON(t)
}

func TestAPartnerSessionCompletesWithSharedClaimsAProofAndAWebhook(t *testing.T) {
	t.Parallel()
	e, issuer, pk := sessionEnv(t)
	sk := e.secretKey(t, pk, true)
	server := []string{"Authorization", "Bearer " + sk}

	// The partner's server opens a session.
	created := e.openSession(t, server, map[string]any{"reference": "cliente-42", "requiredLevel": 3, "claims": []string{"name", "validUntil"},
		"returnUrl": "https://casalista.example/vuelta"})
	id := created["id"].(string)
	secret := created["clientSecret"].(string)
	require.Regexp(t, `^vs_[0-9a-f]{24}$`, id)
	require.True(t, strings.HasPrefix(secret, id+"_secret_"))
	require.Equal(t, true, created["livemode"])
	require.True(t, strings.HasSuffix(created["url"].(string), "/conectar?mode=redirect&pk="+pk+"#"+secret), "the redirect variant, with the publishable key: %s", created["url"])
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE secret_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`, secret), "only the client secret's hash is kept")

	// A validated person opens the hosted flow from the partner's page and shares.
	person, uid := e.signedInAt(t, 3)
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": secret, "publishableKey": pk,
		"openerOrigin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	flow := open.JSON(t)["flowToken"].(string)
	view := open.JSON(t)["session"].(map[string]any)
	require.Equal(t, "CasaLista", view["partnerName"])
	require.Equal(t, "https://casalista.example", view["partnerOrigin"])
	require.Equal(t, "", view["blocker"])
	claims := view["claims"].([]any)
	require.Len(t, claims, 2)
	require.Equal(t, "Tu nombre completo", claims[0].(map[string]any)["label"])

	// The client secret works once.
	again := e.send(t, anonymous(), "POST", "/api/hosted/open", map[string]any{"clientSecret": secret, "publishableKey": pk})
	require.Equal(t, http.StatusConflict, again.Status)

	// Before the decision the partner sees in_progress and no data.
	r := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...)
	require.Equal(t, "in_progress", r.JSON(t)["status"])
	require.NotContains(t, r.JSON(t), "shared")

	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))
	require.Equal(t, "completed", d.JSON(t)["status"])
	back, err := url.Parse(d.JSON(t)["redirectUrl"].(string))
	require.NoError(t, err)
	require.Equal(t, "casalista.example", back.Host)
	require.Equal(t, id, back.Query().Get("perfilseguro_session"))
	require.Equal(t, "completed", back.Query().Get("perfilseguro_status"))

	// The partner reads the shared claims, and the proof verifies against the published key.
	r = e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...)
	got := r.JSON(t)
	require.Equal(t, "completed", got["status"])
	shared := got["shared"].(map[string]any)
	require.NotEmpty(t, shared["name"])
	require.Contains(t, shared, "validUntil")
	require.NotContains(t, shared, "profileId", "only what was asked")
	pub := issuer.Keys[0].Private.Public()
	tok, err := jwt.Parse(got["proof"].(string), func(*jwt.Token) (any, error) { return pub, nil }, jwt.WithValidMethods([]string{"ES256"}))
	require.NoError(t, err)
	pc := tok.Claims.(jwt.MapClaims)
	require.Equal(t, id, pc["sub"])
	require.Equal(t, pk, pc["aud"])
	require.Equal(t, shared["name"], pc["claims"].(map[string]any)["name"])
	require.Equal(t, "perfilseguro-session+jwt", tok.Header["typ"])

	// The webhook was written in the same transaction; the grant lets the secret key look them up.
	var events []string
	require.NoError(t, e.db.Select(&events, `SELECT event FROM partner_deliveries WHERE payload->>'id' = $1`, id))
	require.Equal(t, []string{"verification_session.completed"}, events)
	hookedName := dbGet[string](t, e.db, `SELECT payload->'claims'->>'name' FROM partner_deliveries WHERE payload->>'id' = $1`, id)
	require.Equal(t, shared["name"], hookedName, "the webhook carries the shared claims as JSON")
	email := dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, uid)
	_, st := e.cross(t, "GET", "/api/widget/verify?email="+email, "", map[string]string{"Authorization": "Bearer " + sk}, nil)
	require.Equal(t, shared["name"], st["name"])
	require.Equal(t, "", st["profileId"], "profileId was not shared")

	// A decided session cannot be decided again or canceled.
	require.Equal(t, http.StatusConflict, e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": false}, "X-Flow-Token", flow).Status)
	require.Equal(t, http.StatusConflict, e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions/"+id+"/cancel", nil, server...).Status)
}

func TestADeclinedSessionSharesNothing(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	created := e.openSession(t, server, map[string]any{"reference": "c-1", "requiredLevel": 2, "claims": []string{"name"}})
	id, secret := created["id"].(string), created["clientSecret"].(string)
	person, _ := e.signedInAt(t, 2)
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": secret, "publishableKey": pk})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	flow := open.JSON(t)["flowToken"].(string)
	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": false}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))
	require.Equal(t, "declined", d.JSON(t)["status"])
	got := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...).JSON(t)
	require.Equal(t, "declined", got["status"])
	require.NotContains(t, got, "shared")
	require.NotContains(t, got, "proof")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_grants`))
	payload := dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE event = 'verification_session.declined'`)
	require.NotContains(t, payload, "claims")
}

func TestSessionKeysAndSecretsAreRefused(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	live := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	test := []string{"Authorization", "Bearer " + e.secretKey(t, pk, false)}
	body := map[string]any{"reference": "c-1", "requiredLevel": 3, "claims": []string{"name"}}
	path := "/api/partner/v1/verification-sessions"

	// No key, a publishable key, a made-up secret, a malformed header: the same 401, nothing created.
	for _, h := range [][]string{nil, {"Authorization", "Bearer " + pk}, {"Authorization", "Bearer sk_live_000000000000000000000000000000000000000000000000"},
		{"Authorization", "Basic abc"}, {"X-Partner-Key", pk}} {
		r := e.send(t, anonymous(), "POST", path, body, h...)
		require.Equal(t, http.StatusUnauthorized, r.Status, h)
		require.Contains(t, r.JSON(t)["message"], "Llave secreta no válida")
	}
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_sessions`))

	// Bad input: Spanish field messages.
	r := e.send(t, anonymous(), "POST", path, map[string]any{"reference": "c", "requiredLevel": 3, "claims": []string{"name"},
		"returnUrl": "https://evil.example/x"}, live...)
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Contains(t, r.JSON(t)["message"], "dominio registrado")

	// Test and live never mix: a test session is invisible to the live key, and its client
	// secret does not open with the live publishable key.
	r = e.send(t, anonymous(), "POST", path, body, test...)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, false, r.JSON(t)["livemode"])
	id, secret := r.JSON(t)["id"].(string), r.JSON(t)["clientSecret"].(string)
	require.Equal(t, http.StatusNotFound, e.send(t, anonymous(), "GET", path+"/"+id, nil, live...).Status)
	require.Equal(t, http.StatusOK, e.send(t, anonymous(), "GET", path+"/"+id, nil, test...).Status)
	require.Equal(t, http.StatusConflict, e.send(t, anonymous(), "POST", "/api/hosted/open", map[string]any{"clientSecret": secret, "publishableKey": pk}).Status)
	// From a page that is not the partner's: refused, the session stays unopened.
	r = e.send(t, anonymous(), "POST", "/api/hosted/open", map[string]any{"clientSecret": secret, "publishableKey": pk, "openerOrigin": "https://evil.example"})
	require.Equal(t, http.StatusForbidden, r.Status)
	status := dbGet[string](t, e.db, `SELECT status FROM partner_sessions WHERE id = $1`, id)
	require.Equal(t, "created", status)

	// Cancel, then the secret no longer opens anything.
	r = e.send(t, anonymous(), "POST", path+"/"+id+"/cancel", nil, test...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "canceled", r.JSON(t)["status"])

	// A flow token that was never issued: 404.
	require.Equal(t, http.StatusNotFound, e.send(t, anonymous(), "GET", "/api/hosted/session", nil, "X-Flow-Token", strings.Repeat("a", 64)).Status)
}

func TestSessionsListInKeysetPages(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	var ids []string
	for i := range 5 {
		created := e.openSession(t, server, map[string]any{"reference": "c-" + string(rune('a'+i)), "requiredLevel": 2, "claims": []string{"level"}})
		ids = append(ids, created["id"].(string))
		time.Sleep(2 * time.Millisecond) // distinct created_at; ties are ordered by id anyway
	}
	var seen []string
	after := ""
	for {
		path := "/api/partner/v1/verification-sessions?limit=2"
		if after != "" {
			path += "&startingAfter=" + after
		}
		page := e.send(t, anonymous(), "GET", path, nil, server...).JSON(t)
		for _, s := range page["data"].([]any) {
			seen = append(seen, s.(map[string]any)["id"].(string))
		}
		if page["hasMore"] != true {
			break
		}
		after = seen[len(seen)-1]
	}
	require.Len(t, seen, 5)
	for i, id := range seen {
		require.Equal(t, ids[len(ids)-1-i], id, "newest first, each once")
	}
	require.Equal(t, http.StatusBadRequest, e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions?limit=0", nil, server...).Status)
}

func TestExpiredSessionsAreMarkedAndNotified(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	id := e.openSession(t, server, map[string]any{"reference": "viejo", "requiredLevel": 2, "claims": []string{"level"}})["id"].(string)
	_, err := e.db.Exec(`UPDATE partner_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, id)
	require.NoError(t, err)
	require.Equal(t, "expired", e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...).JSON(t)["status"],
		"expired as seen, before any sweep")
	store := &postgres.Store{DB: e.db}
	ids, err := store.ExpireSessions(t.Context(), time.Now(), 100)
	require.NoError(t, err)
	require.Len(t, ids, 1)
	again, err := store.ExpireSessions(t.Context(), time.Now(), 100)
	require.NoError(t, err)
	require.Empty(t, again, "each session expires once")
}

func TestTheDropInIsServedToPartnerPages(t *testing.T) {
	t.Parallel()
	e := setup(t)
	res, body := e.do(t, "GET", "/widget/v1.js", "", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "javascript")
	require.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, "public, max-age=300", res.Header.Get("Cache-Control"))
	require.Contains(t, body, "PerfilSeguro")
}

func TestAPersonWithdrawsAPartnersAccess(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	sk := e.secretKey(t, pk, true)
	person, uid := e.signedInAt(t, 3)
	e.grant(t, pk, uid, true, "name")
	email := dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, uid)
	lookup := func() string {
		_, st := e.cross(t, "GET", "/api/widget/verify?email="+email, "", map[string]string{"Authorization": "Bearer " + sk}, nil)
		return st["name"].(string)
	}
	require.NotEmpty(t, lookup())

	path := "/api/users/" + itoa(uid) + "/partner-access"
	list := e.send(t, person.http, "GET", path, nil)
	require.Equal(t, http.StatusOK, list.Status, string(list.Body))
	grants := list.JSON(t)["grants"].([]any)
	require.Len(t, grants, 1)
	g := grants[0].(map[string]any)
	require.Equal(t, "CasaLista", g["partnerName"])
	require.Equal(t, []any{"name"}, g["claims"])
	gid := itoa(int64(g["id"].(float64)))

	// Someone else cannot see or withdraw it.
	other, _ := e.signedInAt(t, 1)
	require.Equal(t, http.StatusForbidden, e.send(t, other.http, "GET", path, nil).Status)
	require.Equal(t, http.StatusForbidden, e.send(t, other.http, "DELETE", path+"/"+gid, nil).Status)

	r := e.send(t, person.http, "DELETE", path+"/"+gid, nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.NotNil(t, r.JSON(t)["revokedAt"])
	require.Empty(t, lookup(), "no answer names them any more")
	require.Equal(t, http.StatusNotFound, e.send(t, person.http, "DELETE", path+"/"+gid, nil).Status)
	var events []string
	require.NoError(t, e.db.Select(&events, `SELECT event FROM partner_deliveries WHERE user_id = $1`, uid))
	require.Equal(t, []string{"profile.access_revoked"}, events)
}
