package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Issue 52 item 6: a partner session may ask for the data of the identity document that
// certifies the profile (givenName, familyName, birthdate, ageOver18, nationality, curp); the
// birth date and the CURP travel only when asked for and agreed to on the hosted screen.

var docClaimsKey = secure.NewDocumentKey("partner-document-claims-key-0123456789ab")

// docSessionEnv is sessionEnv with the document-data key, so that certified profiles' documents open.
func docSessionEnv(t *testing.T) (*env, *credential.Issuer, string, []string) {
	t.Helper()
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, func(d *api.Deps) { d.Credentials = issuer; d.Documents = docClaimsKey })
	pk := "pk_live_00000000000000000000d0c5"
	e.addPartner(t, pk, "https://casalista.example", true, "widget_auth")
	_, err := e.db.Exec(`UPDATE api_keys SET partner_name = 'CasaLista', webhook_url = 'https://casalista.example/hooks', webhook_secret = 'whsec_x' WHERE key_id = $1`, pk)
	require.NoError(t, err)
	return e, issuer, pk, []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
}

// certifyWithDocument makes uid "ID Validado" by doc, as an approved check whose document matched
// does: the document stored on a check of theirs, and the profile certified under its name.
func (e *env) certifyWithDocument(t *testing.T, uid int64, doc perfilseguro.DocumentIdentity) {
	t.Helper()
	ctx := context.Background()
	store := &postgres.Store{DB: e.db, Documents: docClaimsKey}
	vid := dbGet[int64](t, e.db, `INSERT INTO verification_sessions (user_id, session_id, verification_status, completed_at)
		VALUES ($1, $2, 'Approved', now()) RETURNING id`, uid, "doc-"+itoa(uid))
	name := identity.ProperName(doc.GivenNames + " " + doc.FirstSurname + " " + doc.SecondSurname)
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := store.StoreDocument(ctx, tx, vid, doc); err != nil {
			return err
		}
		c, err := store.Certify(ctx, tx, vid, name, doc, nil)
		require.True(t, c.ApprovedNow || c.RenewedNow, "certified")
		return err
	}))
	require.Equal(t, "document", dbGet[string](t, e.db, `SELECT name_source FROM users WHERE id = $1`, uid))
}

// openFlow opens a new session of the partner asking claims, in person's hosted flow; it returns
// the session id, the flow token and the hosted view.
func (e *env) openFlowFor(t *testing.T, server []string, pk string, person *browser, claims ...string) (string, string, map[string]any) {
	t.Helper()
	created := e.openSession(t, server, map[string]any{"reference": "doc-" + claims[0], "requiredLevel": 3, "claims": claims})
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pk,
		"openerOrigin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	return created["id"].(string), open.JSON(t)["flowToken"].(string), open.JSON(t)["session"].(map[string]any)
}

// hostedClaims are the hosted view's claims by key.
func hostedClaims(view map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range view["claims"].([]any) {
		out[c.(map[string]any)["key"].(string)] = c.(map[string]any)
	}
	return out
}

func (e *env) readSession(t *testing.T, server []string, id string) map[string]any {
	t.Helper()
	r := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, server...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON(t)
}

// hookOf is the stored verification_session.completed notification of session id.
func (e *env) hookOf(t *testing.T, id string) map[string]any {
	t.Helper()
	var hook map[string]any
	require.NoError(t, json.Unmarshal([]byte(dbGet[string](t, e.db,
		`SELECT payload::text FROM partner_deliveries WHERE event = 'verification_session.completed' AND payload->>'id' = $1`, id)), &hook))
	return hook
}

func grantOf(t *testing.T, e *env, id string) []string {
	t.Helper()
	return []string(dbGet[pq.StringArray](t, e.db, `SELECT claims FROM partner_grants WHERE session_id = $1`, id))
}

func TestASessionAskingCURPAndBirthdateGetsThemOnlyAfterThePersonAgreed(t *testing.T) {
	t.Parallel()
	e, issuer, pk, server := docSessionEnv(t)
	person, uid := e.signedInAt(t, 2)
	doc := identity.SampleDocument("ANA MARÍA RUIZ SOTO", time.Date(1990, 5, 17, 0, 0, 0, 0, time.UTC))
	e.certifyWithDocument(t, uid, doc)

	asked := []string{"name", "givenName", "familyName", "birthdate", "ageOver18", "nationality", "curp"}
	id, flow, view := e.openFlowFor(t, server, pk, person, asked...)
	require.Equal(t, "", view["blocker"])
	shown := hostedClaims(view)
	require.Len(t, shown, len(asked))
	for key, label := range map[string]string{
		"givenName": "Tu nombre (como aparece en tu identificación)", "familyName": "Tus apellidos",
		"birthdate": "Tu fecha de nacimiento", "ageOver18": "Que eres mayor de 18 años (sin tu fecha de nacimiento)",
		"nationality": "Tu nacionalidad", "curp": "Tu CURP",
	} {
		require.Equal(t, label, shown[key]["label"], key)
		require.NotContains(t, shown[key], "unavailable", key)
	}
	require.Equal(t, doc.PersonalNumber, shown["curp"]["value"], "the person sees what would be shared")

	// Before the person agrees: in progress, nothing shared.
	before := e.readSession(t, server, id)
	require.Equal(t, "in_progress", before["status"])
	require.NotContains(t, before, "shared")

	// "Compartir" from a screen that did not name the CURP and the birth date shares nothing.
	for _, agreed := range [][]string{nil, {"name", "givenName", "familyName", "ageOver18", "nationality"},
		{"name", "givenName", "familyName", "birthdate", "ageOver18", "nationality"}} {
		body := map[string]any{"share": true}
		if agreed != nil {
			body["claims"] = agreed
		}
		d := e.send(t, person.http, "POST", "/api/hosted/decision", body, "X-Flow-Token", flow)
		require.Equal(t, http.StatusConflict, d.Status, "agreed %v: %s", agreed, d.Body)
		require.Contains(t, string(d.Body), "no son los que viste en esta pantalla")
	}
	still := e.readSession(t, server, id)
	require.Equal(t, "in_progress", still["status"])
	require.NotContains(t, still, "shared")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_grants WHERE user_id = $1`, uid))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload->>'id' = $1`, id))

	// The person agrees to what the screen showed: shared, equal to the document.
	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "claims": asked}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))
	got := e.readSession(t, server, id)
	require.Equal(t, "completed", got["status"])
	shared := got["shared"].(map[string]any)
	require.Equal(t, map[string]any{"name": "Ana María Ruiz Soto", "givenName": "Ana María", "familyName": "Ruiz Soto",
		"birthdate": "1990-05-17", "ageOver18": true, "nationality": "MEX", "curp": doc.PersonalNumber}, shared)
	require.NotContains(t, got, "unavailableClaims")
	require.Equal(t, asked, grantOf(t, e, id), "the grant records exactly the claims shown")

	// The proof signs them; the webhook carries them as the read does.
	tok, err := jwt.Parse(got["proof"].(string), func(*jwt.Token) (any, error) { return issuer.Keys[0].Private.Public(), nil },
		jwt.WithValidMethods([]string{"ES256"}))
	require.NoError(t, err)
	require.Equal(t, shared, tok.Claims.(jwt.MapClaims)["claims"])
	hook := e.hookOf(t, id)
	require.Equal(t, shared, hook["claims"])
	require.NotContains(t, hook, "unavailableClaims")

	// A withdrawal blanks them everywhere: the read, the stored notification, the database.
	path := "/api/users/" + itoa(uid) + "/partner-access"
	grants := e.send(t, person.http, "GET", path, nil).JSON(t)["grants"].([]any)
	r := e.send(t, person.http, "DELETE", path+"/"+itoa(int64(grants[0].(map[string]any)["id"].(float64))), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	after := e.readSession(t, server, id)
	requireStatusOnly(t, after, "withdrawn")
	require.NotContains(t, after, "unavailableClaims")
	hook = e.hookOf(t, id)
	requireStatusOnly(t, hook, "withdrawn")
	require.NotContains(t, hook, "claims")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%' || $1 || '%'`, doc.PersonalNumber))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE shared IS NOT NULL OR proof IS NOT NULL`))
}

func TestASessionThatDidNotAskForTheCURPNeverGetsIt(t *testing.T) {
	t.Parallel()
	e, issuer, pk, server := docSessionEnv(t)
	person, uid := e.signedInAt(t, 2)
	doc := identity.SampleDocument("LUIS DE LA GARZA PÉREZ", time.Date(1985, 2, 3, 0, 0, 0, 0, time.UTC))
	e.certifyWithDocument(t, uid, doc)

	id, flow, view := e.openFlowFor(t, server, pk, person, "name", "givenName", "ageOver18")
	shown := hostedClaims(view)
	require.NotContains(t, shown, "curp")
	require.NotContains(t, shown, "birthdate")
	// A screen claiming more than was asked is out of date: nothing is shared.
	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true,
		"claims": []string{"name", "givenName", "ageOver18", "curp"}}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusConflict, d.Status, string(d.Body))
	// Without a sensitive claim, the claims of the screen are not required (the drop-in's older pages).
	d = e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))

	got := e.readSession(t, server, id)
	shared := got["shared"].(map[string]any)
	require.Equal(t, map[string]any{"name": "Luis de la Garza Pérez", "givenName": "Luis", "ageOver18": true}, shared)
	tok, err := jwt.Parse(got["proof"].(string), func(*jwt.Token) (any, error) { return issuer.Keys[0].Private.Public(), nil },
		jwt.WithValidMethods([]string{"ES256"}))
	require.NoError(t, err)
	require.NotContains(t, tok.Claims.(jwt.MapClaims)["claims"], "curp")
	require.Equal(t, shared, e.hookOf(t, id)["claims"])
	for _, secret := range []string{doc.PersonalNumber, "1985-02-03"} {
		require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_sessions WHERE shared::text LIKE '%' || $1 || '%' OR proof LIKE '%' || $1 || '%'`, secret))
		require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%' || $1 || '%'`, secret))
	}
}

func TestATypedNameProfileGivesTheDocumentClaimsAsUnavailable(t *testing.T) {
	t.Parallel()
	e, _, pk, server := docSessionEnv(t)
	person, uid := e.signedInAt(t, 3) // validated before documents were read: its name was typed
	require.Equal(t, "typed", dbGet[string](t, e.db, `SELECT name_source FROM users WHERE id = $1`, uid))

	id, flow, view := e.openFlowFor(t, server, pk, person, "name", "birthdate", "ageOver18", "curp")
	shown := hostedClaims(view)
	require.NotContains(t, shown["name"], "unavailable")
	for _, c := range []string{"birthdate", "ageOver18", "curp"} {
		require.Equal(t, true, shown[c]["unavailable"], c)
		require.NotContains(t, shown[c], "value", c)
	}
	d := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "claims": []string{"name"}}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, d.Status, string(d.Body))

	got := e.readSession(t, server, id)
	shared := got["shared"].(map[string]any)
	require.NotEmpty(t, shared["name"])
	for _, c := range []string{"birthdate", "ageOver18", "curp"} {
		require.NotContains(t, shared, c, "absent, and listed in unavailableClaims")
	}
	require.Equal(t, []any{"birthdate", "ageOver18", "curp"}, got["unavailableClaims"])
	require.Equal(t, []string{"name"}, grantOf(t, e, id), "only what was shown as shared is granted")
	hook := e.hookOf(t, id)
	require.Equal(t, shared, hook["claims"])
	require.Equal(t, got["unavailableClaims"], hook["unavailableClaims"])
}

func TestAPartnerCannotAskForAnUnknownClaim(t *testing.T) {
	t.Parallel()
	e, _, _, server := docSessionEnv(t)
	r := e.send(t, anonymous(), "POST", "/api/partner/v1/verification-sessions",
		map[string]any{"reference": "x", "requiredLevel": 3, "claims": []string{"curp", "address"}}, server...)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Contains(t, string(r.Body), "curp")
}
