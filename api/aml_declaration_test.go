package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 53 item 2: the know-your-client declaration, asked by a session with amlProfile, signed
// with a code or a passkey, shared with the business and corrected in Mi Perfil.

// A valid RFC of a person (check digit computed): aml's own test value.
const declRFC = "GODE561231GR8"

func declAnswers() map[string]any {
	return map[string]any{"occupation": "Contadora independiente", "address": "Av. Reforma 100, Col. Juárez, CDMX",
		"rfc": declRFC, "nationality": "MEX", "forBeneficiary": false, "pep": false}
}

// declare reviews answers as person uid and signs the text with a fresh confirmation code; it
// returns the signing answer.
func (e *env) declare(t *testing.T, person *browser, uid int64, answers map[string]any) map[string]any {
	t.Helper()
	base := "/api/users/" + itoa(uid) + "/aml-declaration"
	r := e.send(t, person.http, "POST", base+"/text", map[string]any{"answers": answers}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	text := r.JSON(t)
	sent := e.send(t, person.http, "POST", "/api/users/"+itoa(uid)+"/confirmation-code", nil, "Origin", e.srv.URL)
	require.Equal(t, http.StatusAccepted, sent.Status, string(sent.Body))
	r = e.send(t, person.http, "POST", base, map[string]any{"answers": answers, "textSha256": text["textSha256"],
		"code": sent.JSON(t)["verificationCode"]}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON(t)
}

// openAMLFlow opens a new amlProfile session of the partner in person's hosted flow.
func (e *env) openAMLFlow(t *testing.T, server []string, pk string, person *browser, reference string) (string, string, map[string]any) {
	t.Helper()
	created := e.openSession(t, server, map[string]any{"reference": reference, "requiredLevel": 2, "claims": []string{"name"}, "amlProfile": true})
	open := e.send(t, person.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pk,
		"openerOrigin": "https://casalista.example"})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	return created["id"].(string), open.JSON(t)["flowToken"].(string), open.JSON(t)["session"].(map[string]any)
}

func TestAnAMLSessionAsksForTheDeclarationAndSharesTheSignedVersion(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	person, uid := e.signedInAt(t, 2)
	_, err := e.db.Exec(`UPDATE users SET nombre = 'Elena Gómez Díaz' WHERE id = $1`, uid)
	require.NoError(t, err)

	id, flow, view := e.openAMLFlow(t, server, pk, person, "casa-1")
	require.Equal(t, true, view["amlProfile"], "the hosted flow knows the declaration is asked")
	require.NotContains(t, view, "amlDeclaration", "nothing signed yet")
	require.Equal(t, true, e.readSession(t, server, id)["amlProfile"])

	// Sharing before signing is refused; nothing is completed.
	r := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "declaración")

	signed := e.declare(t, person, uid, declAnswers())["declaration"].(map[string]any)
	require.EqualValues(t, 1, signed["version"])
	require.Equal(t, "codigo", signed["method"])
	require.Contains(t, signed["text"], "Yo, Elena Gómez Díaz, declaro bajo protesta de decir verdad")
	require.Contains(t, signed["text"], declRFC)

	row := dbGet[struct {
		Version  int    `db:"version"`
		Sha      string `db:"text_sha256"`
		Method   string `db:"method"`
		Evidence string `db:"evidence"`
		Test     bool   `db:"test_mode"`
		Answers  string `db:"answers_sealed"`
	}](t, e.db, `SELECT version, text_sha256, method, evidence::text AS evidence, test_mode, answers_sealed FROM aml_declarations WHERE user_id = $1`, uid)
	require.Equal(t, 1, row.Version)
	require.Equal(t, postgres.TextSHA256(signed["text"].(string)), row.Sha, "the hash of the exact text")
	require.Equal(t, "codigo", row.Method)
	require.False(t, row.Test)
	require.NotContains(t, row.Answers, "Contadora", "answers are sealed")
	var ev map[string]any
	require.NoError(t, json.Unmarshal([]byte(row.Evidence), &ev))
	require.Contains(t, []string{"phone", "email"}, ev["channel"])
	require.Contains(t, ev["destination"], "•", "the destination is masked")
	require.Len(t, ev["ipHash"], 64)
	require.NotContains(t, row.Evidence, "127.0.0.1", "never the address itself")

	// The hosted view now shows the version; sharing without naming it is refused, naming it shares.
	v := e.send(t, person.http, "GET", "/api/hosted/session", nil, "X-Flow-Token", flow).JSON(t)
	require.EqualValues(t, 1, v["amlDeclaration"].(map[string]any)["version"])
	require.Equal(t, http.StatusConflict, e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true}, "X-Flow-Token", flow).Status)
	r = e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "amlDeclarationVersion": 1}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	got := e.readSession(t, server, id)
	d := got["amlDeclaration"].(map[string]any)
	require.EqualValues(t, 1, d["version"])
	require.Equal(t, row.Sha, d["textSha256"])
	require.Equal(t, "Contadora independiente", d["answers"].(map[string]any)["occupation"])
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_declaration_shares WHERE partner_session_id = $1`, id))
	list := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions", nil, server...).JSON(t)["data"].([]any)
	require.EqualValues(t, 1, list[0].(map[string]any)["amlDeclaration"].(map[string]any)["version"])

	// After a withdrawal the session shows its status only; the declaration stays stored.
	grant := dbGet[int64](t, e.db, `SELECT id FROM partner_grants WHERE user_id = $1 AND revoked_at IS NULL`, uid)
	r = e.send(t, person.http, "DELETE", "/api/users/"+itoa(uid)+"/partner-access/"+itoa(grant), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got = e.readSession(t, server, id)
	requireStatusOnly(t, got, "withdrawn")
	require.NotContains(t, got, "amlDeclaration")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, uid))
}

func TestADeclarationIsNotStoredWithAWrongOrExpiredCode(t *testing.T) {
	t.Parallel()
	e := setup(t)
	person, uid := e.signedInAt(t, 2)
	base := "/api/users/" + itoa(uid) + "/aml-declaration"
	text := e.send(t, person.http, "POST", base+"/text", map[string]any{"answers": declAnswers()}, "Origin", e.srv.URL).JSON(t)
	sent := e.send(t, person.http, "POST", "/api/users/"+itoa(uid)+"/confirmation-code", nil, "Origin", e.srv.URL).JSON(t)
	wrong := "000000"
	if sent["verificationCode"] == wrong {
		wrong = "111111"
	}
	r := e.send(t, person.http, "POST", base, map[string]any{"answers": declAnswers(), "textSha256": text["textSha256"], "code": wrong}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, uid))

	// Expired: the right code, past its life.
	_, err := e.db.Exec(`UPDATE verification_codes SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, uid)
	require.NoError(t, err)
	r = e.send(t, person.http, "POST", base, map[string]any{"answers": declAnswers(), "textSha256": text["textSha256"],
		"code": sent["verificationCode"]}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "expiró")
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, uid))

	// A text other than the one reviewed is refused before any code is checked.
	sent = e.send(t, person.http, "POST", "/api/users/"+itoa(uid)+"/confirmation-code", nil, "Origin", e.srv.URL).JSON(t)
	changed := declAnswers()
	changed["occupation"] = "Otra cosa"
	r = e.send(t, person.http, "POST", base, map[string]any{"answers": changed, "textSha256": text["textSha256"],
		"code": sent["verificationCode"]}, "Origin", e.srv.URL)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, uid))
}

func TestTheDeclarationsAnswersAreCheckedInSpanish(t *testing.T) {
	t.Parallel()
	e := setup(t)
	person, uid := e.signedInAt(t, 2)
	other, _ := e.signedInAt(t, 2)
	path := "/api/users/" + itoa(uid) + "/aml-declaration/text"
	post := func(b *browser, body map[string]any) (int, map[string]any) {
		r := e.send(t, b.http, "POST", path, body, "Origin", e.srv.URL)
		return r.Status, r.JSON(t)
	}

	bad := declAnswers()
	bad["rfc"] = "GODE561331GR8" // 31 of month 13
	status, out := post(person, map[string]any{"answers": bad})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "La fecha del RFC no existe", out["errors"].(map[string]any)["rfc"])

	bad["rfc"] = "ABC"
	status, out = post(person, map[string]any{"answers": bad})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["errors"].(map[string]any)["rfc"], "formato")

	// Only the check digit fails: refused unless the person confirms it is theirs.
	digit := declAnswers()
	digit["rfc"] = declRFC[:12] + "9"
	status, out = post(person, map[string]any{"answers": digit})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["errors"].(map[string]any)["rfc"], "dígito verificador")
	status, _ = post(person, map[string]any{"answers": digit, "confirmRfc": true})
	require.Equal(t, http.StatusOK, status)

	// Acting for someone else requires every field of the beneficiary.
	forOther := declAnswers()
	forOther["forBeneficiary"] = true
	status, out = post(person, map[string]any{"answers": forOther})
	require.Equal(t, http.StatusBadRequest, status)
	fields := out["errors"].(map[string]any)
	for _, f := range []string{"beneficiary.name", "beneficiary.birthDate", "beneficiary.curpOrRfc", "beneficiary.relationship"} {
		require.Contains(t, fields, f)
	}
	forOther["beneficiary"] = map[string]any{"name": "Luis Pérez", "birthDate": "1970-02-30", "curpOrRfc": "PEXL700210HDFRRS09", "relationship": "socio"}
	status, out = post(person, map[string]any{"answers": forOther})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, []string{"beneficiary.birthDate"}, keysOf(out["errors"].(map[string]any)))
	forOther["beneficiary"].(map[string]any)["birthDate"] = "1970-02-10"
	status, out = post(person, map[string]any{"answers": forOther})
	require.Equal(t, http.StatusOK, status, out)
	require.Contains(t, out["text"], "Luis Pérez, nacida el 10/02/1970")

	pep := declAnswers()
	pep["pep"] = true
	status, out = post(person, map[string]any{"answers": pep})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["errors"], "pepPosition")

	// Another person cannot use someone's declaration.
	status, _ = post(other, map[string]any{"answers": declAnswers()})
	require.Equal(t, http.StatusForbidden, status)
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestACorrectionIsANewVersionSharedAndNotifiedOnce(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	person, uid := e.signedInAt(t, 2)
	e.declare(t, person, uid, declAnswers())
	id, flow, _ := e.openAMLFlow(t, server, pk, person, "casa-2")
	r := e.send(t, person.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "amlDeclarationVersion": 1}, "X-Flow-Token", flow)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	corrected := declAnswers()
	corrected["occupation"] = "Arquitecta"
	out := e.declare(t, person, uid, corrected)
	require.EqualValues(t, 2, out["declaration"].(map[string]any)["version"])
	require.EqualValues(t, 1, out["notified"])

	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, uid), "version 1 stays")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM aml_declaration_shares sh JOIN aml_declarations d ON d.id = sh.declaration_id
		WHERE d.user_id = $1 AND d.version = 2 AND sh.notified_at IS NOT NULL AND sh.partner_session_id = $2`, uid, id))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE event = 'aml.declaration_updated' AND user_id = $1`, uid))
	var hook map[string]any
	require.NoError(t, json.Unmarshal([]byte(dbGet[string](t, e.db,
		`SELECT payload::text FROM partner_deliveries WHERE event = 'aml.declaration_updated' AND user_id = $1`, uid)), &hook))
	require.EqualValues(t, 2, hook["version"])
	require.Equal(t, []any{map[string]any{"id": id, "reference": "casa-2"}}, hook["sessions"])
	require.NotContains(t, dbGet[string](t, e.db, `SELECT payload::text FROM partner_deliveries WHERE event = 'aml.declaration_updated'`), "Arquitecta",
		"no personal data in the notification")

	got := e.readSession(t, server, id)["amlDeclaration"].(map[string]any)
	require.EqualValues(t, 2, got["version"], "the business reads the new version")
	require.Equal(t, "Arquitecta", got["answers"].(map[string]any)["occupation"])

	// Mi Perfil: the current version, both versions, and who received them.
	st := e.send(t, person.http, "GET", "/api/users/"+itoa(uid)+"/aml-declaration", nil).JSON(t)
	require.EqualValues(t, 2, st["current"].(map[string]any)["version"])
	require.Len(t, st["history"], 2)
	require.Len(t, st["shares"], 2)
	require.Equal(t, "CasaLista", st["shares"].([]any)[0].(map[string]any)["partnerName"])

	// A third version after a withdrawal is shared with nobody and notifies nobody.
	grant := dbGet[int64](t, e.db, `SELECT id FROM partner_grants WHERE user_id = $1 AND revoked_at IS NULL`, uid)
	require.Equal(t, http.StatusOK, e.send(t, person.http, "DELETE", "/api/users/"+itoa(uid)+"/partner-access/"+itoa(grant), nil).Status)
	corrected["occupation"] = "Ingeniera"
	require.EqualValues(t, 0, e.declare(t, person, uid, corrected)["notified"])
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM partner_deliveries WHERE event = 'aml.declaration_updated' AND user_id = $1`, uid))
}

func TestATestPersonsDeclarationIsTestModeAndLiveNeverSeesIt(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	pkTest, err := (&postgres.Store{DB: e.db}).InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	skTest := []string{"Authorization", "Bearer " + e.secretKey(t, pk, false)}
	skLive := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	created := e.openSession(t, skTest, map[string]any{"reference": "prueba-aml", "requiredLevel": 2, "claims": []string{"name"}, "amlProfile": true})
	tester := e.browser(t)
	open := e.send(t, tester.http, "POST", "/api/hosted/open", map[string]any{"clientSecret": created["clientSecret"], "publishableKey": pkTest.Key})
	require.Equal(t, http.StatusOK, open.Status, string(open.Body))
	flow := open.JSON(t)["flowToken"].(string)
	p := newPerson()
	r := e.send(t, tester.http, "POST", "/api/register", map[string]string{"fullName": "Ana Prueba", "email": p.Email, "phoneNumber": p.Phone},
		"X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	reg := r.JSON(t)
	r = e.send(t, tester.http, "POST", "/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]},
		"Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	testID := dbGet[int64](t, e.db, `SELECT id FROM users WHERE email = $1 AND test_partner_id IS NOT NULL`, p.Email)
	e.setLevel(t, testID, 2)

	e.declare(t, tester, testID, declAnswers())
	require.Equal(t, true, dbGet[bool](t, e.db, `SELECT test_mode FROM aml_declarations WHERE user_id = $1`, testID))
	r = e.send(t, tester.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "amlDeclarationVersion": 1}, "X-Flow-Token", flow, "Origin", e.srv.URL)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	id := created["id"].(string)
	got := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, skTest...).JSON(t)
	require.EqualValues(t, 1, got["amlDeclaration"].(map[string]any)["version"])

	// The live key does not see the test session nor its declaration.
	require.Equal(t, http.StatusNotFound, e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+id, nil, skLive...).Status)
	for _, s := range e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions", nil, skLive...).JSON(t)["data"].([]any) {
		require.NotEqual(t, id, s.(map[string]any)["id"])
	}

	// A live person's live session never shares a test declaration: the live person has none.
	live, liveID := e.signedInAt(t, 2)
	_, liveFlow, view := e.openAMLFlow(t, skLive, pk, live, "casa-live")
	require.NotContains(t, view, "amlDeclaration")
	r = e.send(t, live.http, "POST", "/api/hosted/decision", map[string]any{"share": true, "amlDeclarationVersion": 1}, "X-Flow-Token", liveFlow)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM aml_declarations WHERE user_id = $1`, liveID))
}

// The console lists the declaration to cumplimiento and propietario only.
func TestTheConsoleShowsTheDeclarationToComplianceOnly(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "duena@casalista.example", "propietario")
	members := map[string]*member{"propietario": owner,
		"cumplimiento":  e.inviteAsAdmin(t, p, "oficial@casalista.example", "cumplimiento"),
		"desarrollador": e.invite(t, owner, "dev@casalista.example", "desarrollador"),
		"lectura":       e.invite(t, owner, "lee@casalista.example", "lectura")}
	uid := amlPerson(t, e.db, true)
	session := completedSession(t, e.db, p.id, uid, true, "completed")
	_, err := e.db.Exec(`UPDATE partner_sessions SET aml_profile = true WHERE id = $1`, session)
	require.NoError(t, err)
	store := &postgres.Store{DB: e.db, Documents: defaultTestDocumentKey}
	require.NoError(t, store.InTx(t.Context(), func(tx *sqlx.Tx) error {
		d, _, err := store.InsertAMLDeclaration(t.Context(), tx, postgres.NewAMLDeclaration{UserID: uid, Answers: expediente.Answers{
			Occupation: "Notaria", Address: "Calle 1", RFC: declRFC, Nationality: "MEX"}, Text: "texto", Method: "codigo",
			Evidence: map[string]any{"channel": "email"}, Now: time.Now()})
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO aml_declaration_shares (declaration_id, partner_id, partner_session_id) VALUES ($1, $2, $3)`, d.ID, p.id, session)
		return err
	}))
	for role, sees := range map[string]bool{"propietario": true, "cumplimiento": true, "lectura": false, "desarrollador": false} {
		status, out, _ := members[role].call("GET", "/api/socios/sessions?mode=live", nil)
		require.Equal(t, http.StatusOK, status, out)
		s := out["data"].([]any)[0].(map[string]any)
		require.Equal(t, true, s["amlProfile"])
		if sees {
			d := s["amlDeclaration"].(map[string]any)
			require.EqualValues(t, 1, d["version"], role)
			require.Equal(t, "Notaria", d["answers"].(map[string]any)["occupation"])
		} else {
			require.NotContains(t, s, "amlDeclaration", role)
		}
	}
	// Withdrawn: status only, for every role.
	_, err = e.db.Exec(`UPDATE partner_sessions SET shared = NULL, proof = NULL, shared_reason = 'withdrawn' WHERE id = $1`, session)
	require.NoError(t, err)
	status, out, _ := owner.call("GET", "/api/socios/sessions?mode=live", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.NotContains(t, out["data"].([]any)[0].(map[string]any), "amlDeclaration")
}
