package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// reviewDocumentKey seals the documents of the review tests (the API and the test's store share it).
var reviewDocumentKey = secure.NewDocumentKey("test-document-key-0123456789abcdef0123")

// reviewSetup is setup with documents sealed by reviewDocumentKey, and a store on its database.
func reviewSetup(t *testing.T, mutate ...func(*api.Deps)) (*env, *postgres.Store) {
	t.Helper()
	mutate = append(mutate, func(d *api.Deps) { d.Documents = reviewDocumentKey })
	e := setup(t, mutate...)
	return e, &postgres.Store{DB: e.db, Documents: reviewDocumentKey}
}

// approvedCheck applies, through the store, an approved biometric decision reading doc (with
// the registry's answers) for userID, and returns the check's id and what the store decided.
func approvedCheck(t *testing.T, e *env, store *postgres.Store, userID int64, doc perfilseguro.DocumentIdentity,
	registry []perfilseguro.RegistryCheck) (int64, postgres.DecisionResult) {
	t.Helper()
	ctx := context.Background()
	sessionID := fmt.Sprintf("review-%d-%d", userID, time.Now().UnixNano())
	var vid int64
	var res postgres.DecisionResult
	overall, face, liveness, document := 91.5, 88.0, 97.25, 90.0
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if vid, err = store.InsertVerificationSession(ctx, tx, userID, "didit", "test"); err != nil {
			return err
		}
		if _, err = tx.Exec(`UPDATE verification_sessions SET session_id = $2 WHERE id = $1`, vid, sessionID); err != nil {
			return err
		}
		res, err = store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: sessionID,
			Status: perfilseguro.BiometricApproved, Overall: &overall, FaceMatch: &face, Liveness: &liveness, Document: &document,
			Identity: &doc, RegistryChecks: registry})
		return err
	}))
	return vid, res
}

// registryNoMatch is RENAPO saying the CURP's name is not the document's: a review.
var registryNoMatch = []perfilseguro.RegistryCheck{
	{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryNoMatch},
	{Registry: "mex_curp", Field: "date_of_birth", Result: perfilseguro.RegistryMatch},
}

// nearCheck seeds a person at level 2 registered as typed whose approved check read an INE in
// the document's name that RENAPO does not confirm: a check waiting for review.
func nearCheck(t *testing.T, e *env, store *postgres.Store, typed, onDocument string) (int64, int64, perfilseguro.DocumentIdentity) {
	t.Helper()
	uid, _ := seedUser(t, e.db, seeded{Name: typed, Level: 2})
	doc := identity.SampleDocument(onDocument, time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(uid%20000)))
	vid, res := approvedCheck(t, e, store, uid, doc, registryNoMatch)
	require.Equal(t, identity.VerdictNear, res.Verdict)
	return uid, vid, doc
}

func reviewPath(vid int64, what string) string {
	return fmt.Sprintf("/api/admin/identity-reviews/%d/%s", vid, what)
}

// queuedOfType lists the pending default-queue payloads of type typ.
func (e *env) queuedOfType(t *testing.T, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		if task.Type != typ {
			continue
		}
		p := map[string]any{}
		require.NoError(t, json.Unmarshal(task.Payload, &p))
		out = append(out, p)
	}
	return out
}

func TestIdentityReviewQueueIsForSupportAndAdministratorsAndMasksTheIDs(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t)
	uid, vid, doc := nearCheck(t, e, store, "Ana Ruiz Hernández", "Ana Ruiz Hernández")
	// A settled check and a plain match are not in the queue.
	other, _ := seedUser(t, e.db, seeded{Name: "Luis Pérez Gómez", Level: 2})
	_, res := approvedCheck(t, e, store, other, identity.SampleDocument("Luis Pérez Gómez", time.Date(1985, 3, 4, 0, 0, 0, 0, time.UTC)), nil)
	require.Equal(t, identity.VerdictMatch, res.Verdict)

	now := time.Now()
	person := e.signedIn(t, uid)
	r := e.send(t, person, "GET", "/api/admin/identity-reviews", nil)
	require.Equal(t, http.StatusForbidden, r.Status, "a person's sign-in: %s", r.Body)
	r = e.send(t, anonymous(), "GET", "/api/admin/identity-reviews", nil)
	require.Equal(t, http.StatusUnauthorized, r.Status)
	e.addPartner(t, "pk_live_0000000000000000000000r2", "https://socio.example", true, "widget_auth")
	r = e.send(t, anonymous(), "GET", "/api/admin/identity-reviews", nil,
		"Authorization", "Bearer "+e.secretKey(t, "pk_live_0000000000000000000000r2", true))
	require.Contains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, r.Status, "a partner's key: %s", r.Body)
	finanzas := e.roleClient(t, perfilseguro.RoleFinance, true, now)
	r = e.send(t, finanzas, "GET", "/api/admin/identity-reviews", nil)
	require.Equal(t, http.StatusForbidden, r.Status)
	require.Equal(t, "Tu rol (finanzas) no permite esta acción.", r.JSON(t)["message"])

	for _, role := range []string{perfilseguro.RoleSupport, perfilseguro.RoleAdministrator} {
		r = e.send(t, e.roleClient(t, role, false, now), "GET", "/api/admin/identity-reviews", nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", role, r.Body)
		raw := string(r.Body)
		require.NotContains(t, raw, doc.PersonalNumber, "never the CURP in full")
		require.NotContains(t, raw, doc.DocumentNumber, "never the document number in full")
		reviews := r.JSON(t)["reviews"].([]any)
		require.Len(t, reviews, 1)
		rv := reviews[0].(map[string]any)
		require.EqualValues(t, vid, rv["verificationId"])
		require.EqualValues(t, uid, rv["userId"])
		require.Equal(t, "Ana Ruiz Hernández", rv["typedName"])
		require.Equal(t, "Ana Ruiz Hernández", rv["documentName"])
		require.Equal(t, "near", rv["verdict"])
		d := rv["document"].(map[string]any)
		require.Equal(t, doc.PersonalNumber[:4]+"…"+doc.PersonalNumber[16:], d["curp"])
		require.Equal(t, doc.DocumentNumber[:4]+"…"+doc.DocumentNumber[len(doc.DocumentNumber)-2:], d["number"])
		require.Equal(t, "ine", d["type"])
		require.Equal(t, "JALISCO", d["issuingState"])
		require.Equal(t, doc.DateOfBirth.Format(time.DateOnly), d["birthDate"])
		require.Equal(t, "2035-12-31", d["expiryDate"])
		require.NotNil(t, rv["age"])
		require.Equal(t, true, rv["curpValid"])
		require.Contains(t, raw, "El registro oficial no coincide con el documento.")
		registry := rv["registry"].([]any)
		require.Len(t, registry, 2)
		require.Equal(t, map[string]any{"registry": "mex_curp", "field": "full_name", "result": "no_match"}, registry[0])
		scores := rv["scores"].(map[string]any)
		require.InDelta(t, 91.5, scores["overall"], 0.001)
		require.InDelta(t, 97.25, scores["liveness"], 0.001)
		require.InDelta(t, 88.0, scores["faceMatch"], 0.001)
		require.InDelta(t, 90.0, scores["document"], 0.001)
		require.NotEmpty(t, rv["checkedAt"])
	}
}

func TestApprovingAReviewCertifiesTheDocumentsNameInOneTransaction(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e, store := reviewSetup(t, withClock(clk))
	uid, vid, _ := nearCheck(t, e, store, "Ana Ruiz Hernandes", "Ana Ruiz Hernández")

	// Without a fresh passkey confirmation: refused, and the refusal is audited.
	stale := e.roleClient(t, perfilseguro.RoleSupport, false, clk.Now())
	r := e.send(t, stale, "POST", reviewPath(vid, "approve"), map[string]any{})
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["reauth"])
	require.Equal(t, 2, dbGet[int](t, e.db, `SELECT verification_level FROM users WHERE id = $1`, uid))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'user.identity_review.approve' AND outcome = 'denied'`))

	soporte := e.roleClient(t, perfilseguro.RoleSupport, true, clk.Now())
	r = e.send(t, soporte, "POST", reviewPath(vid, "approve"), map[string]any{})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "approved", r.JSON(t)["resolution"])

	var u struct {
		Level    int     `db:"verification_level"`
		Nombre   string  `db:"nombre"`
		Source   string  `db:"name_source"`
		Certify  *int64  `db:"identity_verification_id"`
		Key      *string `db:"document_key"`
		Verified bool    `db:"biometric_verified"`
	}
	require.NoError(t, e.db.Get(&u, `SELECT verification_level, nombre, name_source, identity_verification_id, document_key,
		biometric_verified FROM users WHERE id = $1`, uid))
	require.Equal(t, 3, u.Level)
	require.True(t, u.Verified)
	require.Equal(t, "Ana Ruiz Hernández", u.Nombre, "the document's name, not the typed one")
	require.Equal(t, "document", u.Source)
	require.Equal(t, vid, *u.Certify)
	require.NotNil(t, u.Key)
	var v struct {
		Resolution string     `db:"identity_resolution"`
		At         *time.Time `db:"identity_resolved_at"`
		By         *int64     `db:"identity_resolved_by_admin"`
	}
	require.NoError(t, e.db.Get(&v, `SELECT identity_resolution, identity_resolved_at, identity_resolved_by_admin FROM verification_sessions WHERE id = $1`, vid))
	require.Equal(t, "approved", v.Resolution)
	require.NotNil(t, v.At)
	require.NotNil(t, v.By, "the reviewer is kept with the decision")

	// The audit row names the administrator, the profile and the name change, in Spanish.
	r = e.send(t, e.adminClient(t), "GET", fmt.Sprintf("/api/admin/audit?action=user.identity_review.approve&target=user:%d", uid), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	page := r.JSON(t)
	require.EqualValues(t, 1, page["total"], "the ok row (the denied one had the review as its target)")
	row := page["events"].([]any)[0].(map[string]any)
	require.Equal(t, "soporte@example.com", row["actorLabel"])
	require.Equal(t, "Aprobación de la revisión de identidad", row["actionLabel"])
	changes := row["changes"].(map[string]any)
	require.Equal(t, "Ana Ruiz Hernandes", changes["nombre"].(map[string]any)["before"])
	require.Equal(t, "Ana Ruiz Hernández", changes["nombre"].(map[string]any)["after"])

	// The person's e-mail and both pass builds are queued.
	notices := e.queuedOfType(t, jobs.TypeSendIdentityReviewNotice)
	require.Len(t, notices, 1)
	require.EqualValues(t, vid, notices[0]["verificationId"])
	require.Len(t, e.queuedOfType(t, jobs.TypeBuildApplePass), 1)
	require.Len(t, e.queuedOfType(t, jobs.TypeBuildGooglePass), 1)

	// A second decision on the same check: 409, nothing more.
	r = e.send(t, soporte, "POST", reviewPath(vid, "decline"), map[string]string{"reason": "La foto no corresponde a la persona."})
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, "Esta revisión ya fue resuelta.", r.JSON(t)["message"])
	r = e.send(t, soporte, "POST", reviewPath(vid, "approve"), map[string]any{})
	require.Equal(t, http.StatusConflict, r.Status)
	require.Equal(t, 3, dbGet[int](t, e.db, `SELECT verification_level FROM users WHERE id = $1`, uid))

	// The queue is empty now; an unknown check is a 404.
	r = e.send(t, soporte, "GET", "/api/admin/identity-reviews", nil)
	require.Empty(t, r.JSON(t)["reviews"])
	r = e.send(t, soporte, "POST", reviewPath(vid+1000, "approve"), map[string]any{})
	require.Equal(t, http.StatusNotFound, r.Status)
}

func TestDecliningAReviewGrantsNothingAndKeepsTheReason(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t)
	uid, vid, _ := nearCheck(t, e, store, "Ana Ruiz Hernández", "Ana Ruiz Hernández")
	admin := e.roleClient(t, perfilseguro.RoleAdministrator, true, time.Now())

	r := e.send(t, admin, "POST", reviewPath(vid, "decline"), map[string]any{})
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["errors"].(map[string]any)["reason"], "motivo")
	r = e.send(t, admin, "POST", reviewPath(vid, "decline"), map[string]string{"reason": "Corta"})
	require.Equal(t, http.StatusBadRequest, r.Status)
	require.Equal(t, "El motivo debe tener al menos 10 caracteres.", r.JSON(t)["errors"].(map[string]any)["reason"])
	r = e.send(t, admin, "POST", reviewPath(vid, "decline"), map[string]string{"reason": strings.Repeat("a", 501)})
	require.Equal(t, http.StatusBadRequest, r.Status)

	reason := "El registro oficial no confirma el nombre de la CURP."
	r = e.send(t, admin, "POST", reviewPath(vid, "decline"), map[string]string{"reason": "  " + reason + " "})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var u struct {
		Level  int    `db:"verification_level"`
		Source string `db:"name_source"`
		Nombre string `db:"nombre"`
	}
	require.NoError(t, e.db.Get(&u, `SELECT verification_level, name_source, nombre FROM users WHERE id = $1`, uid))
	require.Equal(t, 2, u.Level, "nothing granted")
	require.Equal(t, "typed", u.Source)
	var v struct {
		Resolution string  `db:"identity_resolution"`
		Reason     *string `db:"identity_resolution_reason"`
	}
	require.NoError(t, e.db.Get(&v, `SELECT identity_resolution, identity_resolution_reason FROM verification_sessions WHERE id = $1`, vid))
	require.Equal(t, "declined", v.Resolution)
	require.Equal(t, reason, *v.Reason)
	require.Len(t, e.queuedOfType(t, jobs.TypeSendIdentityReviewNotice), 1)
	require.Empty(t, e.queuedOfType(t, jobs.TypeBuildApplePass), "no pass for a declined review")
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'user.identity_review.decline'
		AND outcome = 'ok' AND target_kind = 'user' AND target_id = $1 AND changes->'motivo'->>'after' = $2`, fmt.Sprint(uid), reason))
}

func TestApprovingADocumentThatNowCertifiesAnotherProfileChangesNothing(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t)
	uid, vid, doc := nearCheck(t, e, store, "Ana Ruiz Hernández", "Ana Ruiz Hernández")
	// Meanwhile another profile was certified by the same document.
	holder, _ := seedUser(t, e.db, seeded{Name: "Ana Ruiz Hernández", Level: 3})
	_, err := e.db.Exec(`UPDATE users SET document_key = $2 WHERE id = $1`, holder, postgres.LookupOf(reviewDocumentKey, doc).CURPHash)
	require.NoError(t, err)

	r := e.send(t, e.roleClient(t, perfilseguro.RoleAdministrator, true, time.Now()), "POST", reviewPath(vid, "approve"), map[string]any{})
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, "Esta identificación ya está vinculada a otro perfil.", r.JSON(t)["message"])
	requireReviewUntouched(t, e, uid, vid)
}

func TestAReviewIsNotResolvedWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t, withDeadQueue)
	uid, vid, _ := nearCheck(t, e, store, "Ana Ruiz Hernández", "Ana Ruiz Hernández")
	admin := e.roleClient(t, perfilseguro.RoleAdministrator, true, time.Now())
	for _, c := range []struct {
		what string
		body any
	}{{"approve", map[string]any{}}, {"decline", map[string]string{"reason": "La foto no corresponde a la persona."}}} {
		r := e.send(t, admin, "POST", reviewPath(vid, c.what), c.body)
		require.Equal(t, http.StatusServiceUnavailable, r.Status, "%s: %s", c.what, r.Body)
		require.Contains(t, r.JSON(t)["message"], "no está disponible")
		requireReviewUntouched(t, e, uid, vid)
	}
}

// requireReviewUntouched checks a refused decision changed nothing: the person, the check, the audit trail.
func requireReviewUntouched(t *testing.T, e *env, uid, vid int64) {
	t.Helper()
	var u struct {
		Level  int     `db:"verification_level"`
		Source string  `db:"name_source"`
		Key    *string `db:"document_key"`
		Check  *int64  `db:"identity_verification_id"`
	}
	require.NoError(t, e.db.Get(&u, `SELECT verification_level, name_source, document_key, identity_verification_id FROM users WHERE id = $1`, uid))
	require.Equal(t, 2, u.Level)
	require.Equal(t, "typed", u.Source)
	require.Nil(t, u.Key)
	require.Nil(t, u.Check)
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM verification_sessions WHERE id = $1 AND
		(identity_resolution IS NOT NULL OR identity_resolved_at IS NOT NULL)`, vid))
	require.Equal(t, 0, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action LIKE 'user.identity_review.%' AND outcome = 'ok'`))
}

func TestTheAdminUserViewShowsTheDocumentAndLinksDuplicateProfilesBothWays(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t)
	first, _ := seedUser(t, e.db, seeded{Name: "Ana Ruiz Hernández", Level: 2})
	doc := identity.SampleDocument("Ana Ruiz Hernández", time.Date(1988, 7, 9, 0, 0, 0, 0, time.UTC))
	vid, res := approvedCheck(t, e, store, first, doc, nil)
	require.Equal(t, identity.VerdictMatch, res.Verdict)
	second, _ := seedUser(t, e.db, seeded{Name: "Ana Ruiz Hernández", Level: 2})
	dupID, res := approvedCheck(t, e, store, second, doc, nil)
	require.Equal(t, identity.VerdictDuplicate, res.Verdict)

	soporte := e.roleClient(t, perfilseguro.RoleSupport, false, time.Now())
	r := e.send(t, soporte, "GET", fmt.Sprintf("/api/admin/users/%d/identity", first), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.NotContains(t, string(r.Body), doc.PersonalNumber)
	require.NotContains(t, string(r.Body), doc.DocumentNumber)
	view := r.JSON(t)
	require.Equal(t, true, view["nameFromDocument"])
	check := view["check"].(map[string]any)
	require.EqualValues(t, vid, check["verificationId"])
	require.Equal(t, "match", check["verdict"])
	require.Equal(t, doc.PersonalNumber[:4]+"…"+doc.PersonalNumber[16:], check["document"].(map[string]any)["curp"])
	linked := view["linked"].([]any)
	require.Len(t, linked, 1)
	l := linked[0].(map[string]any)
	require.EqualValues(t, second, l["userId"])
	require.Equal(t, "presenter", l["relation"])
	require.EqualValues(t, dupID, l["verificationId"])

	r = e.send(t, soporte, "GET", fmt.Sprintf("/api/admin/users/%d/identity", second), nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	view = r.JSON(t)
	require.Equal(t, false, view["nameFromDocument"])
	require.Equal(t, "duplicate", view["check"].(map[string]any)["verdict"])
	linked = view["linked"].([]any)
	require.Len(t, linked, 1)
	require.EqualValues(t, first, linked[0].(map[string]any)["userId"])
	require.Equal(t, "holder", linked[0].(map[string]any)["relation"])

	// A profile never checked has no document; finanzas may not read documents.
	none, _ := seedUser(t, e.db, seeded{Level: 1})
	r = e.send(t, soporte, "GET", fmt.Sprintf("/api/admin/users/%d/identity", none), nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Nil(t, r.JSON(t)["check"])
	require.Empty(t, r.JSON(t)["linked"])
	r = e.send(t, e.roleClient(t, perfilseguro.RoleFinance, true, time.Now()), "GET", fmt.Sprintf("/api/admin/users/%d/identity", first), nil)
	require.Equal(t, http.StatusForbidden, r.Status)
	r = e.send(t, soporte, "GET", "/api/admin/users/99999999/identity", nil)
	require.Equal(t, http.StatusNotFound, r.Status)
}

func TestAnAdministratorCannotEditANameTheDocumentCertifies(t *testing.T) {
	t.Parallel()
	e, store := reviewSetup(t)
	uid, _ := seedUser(t, e.db, seeded{Name: "Ana Ruiz Hernández", Level: 2})
	_, res := approvedCheck(t, e, store, uid, identity.SampleDocument("Ana Ruiz Hernández", time.Date(1979, 2, 3, 0, 0, 0, 0, time.UTC)), nil)
	require.True(t, res.ApprovedNow)
	admin := e.adminClient(t)
	path := fmt.Sprintf("/api/users/%d", uid)
	r := e.send(t, admin, "PUT", path, map[string]any{"nombre": "Otra Persona", "origen": "Otro", "vigencia": 1, "confirmRevalidation": true})
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Equal(t, "El nombre de este perfil viene de su identificación oficial; no se puede editar.", r.JSON(t)["message"])
	require.Equal(t, "Ana Ruiz Hernández", dbGet[string](t, e.db, `SELECT nombre FROM users WHERE id = $1`, uid))

	// The rest may change, with the name as it is.
	r = e.send(t, admin, "PUT", path, map[string]any{"nombre": "Ana Ruiz Hernández", "origen": "Otro", "vigencia": 5})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 5, dbGet[int](t, e.db, `SELECT vigencia FROM users WHERE id = $1`, uid))

	// The store refuses it too, whoever calls it.
	_, _, err := store.UpdateUserAsAdmin(context.Background(), uid, postgres.AdminUser{Nombre: "Otra Persona", Origen: "Otro", Vigencia: 1})
	require.ErrorIs(t, err, postgres.ErrNameFromDocument)
}
