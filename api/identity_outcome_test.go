package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Issue 52, items 2, 4 and 5: Mi Perfil learns what the ID certified, and a mismatch can adopt
// the ID's name.

// idDocKey seals the documents the identity-outcome tests store.
var idDocKey = secure.NewDocumentKey("identity-outcome-test-key-0123456789abcdef")

// idBirth is the birth date on every test ID (each test has its own database).
var idBirth = time.Date(1986, 4, 17, 0, 0, 0, 0, time.UTC)

// idSetup is the levels environment with the document key the store needs to read IDs.
func idSetup(t *testing.T) (*lvEnv, *postgres.Store) {
	t.Helper()
	e := lvSetup(t, func(d *api.Deps) { d.Documents = idDocKey })
	return e, &postgres.Store{DB: e.db, Documents: idDocKey}
}

// approveWith applies an approved check of userID whose ID is doc, as the worker would.
func approveWith(t *testing.T, store *postgres.Store, userID int64, doc perfilseguro.DocumentIdentity) postgres.DecisionResult {
	t.Helper()
	ctx := context.Background()
	var vid int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = store.InsertVerificationSession(ctx, tx, userID, "devsim", "test")
		return err
	}))
	session := fmt.Sprintf("idtest-%d-%d", userID, vid)
	ok, err := store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: session, URL: "https://x/" + session})
	require.NoError(t, err)
	require.True(t, ok)
	score := 93.0
	var res postgres.DecisionResult
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		res, err = store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: session,
			Status: perfilseguro.BiometricApproved, Overall: &score, FaceMatch: &score, Identity: &doc})
		return err
	}))
	return res
}

// mismatched signs a person up as "Elena Márquez" and approves a check whose ID says
// "ROBERTO MENDOZA SALAS".
func mismatched(t *testing.T, e *lvEnv, store *postgres.Store) *lvClient {
	t.Helper()
	a := e.signedUp(t)
	res := approveWith(t, store, a.id, identity.SampleDocument("Roberto Mendoza Salas", idBirth))
	require.Equal(t, identity.VerdictMismatch, res.Verdict)
	require.False(t, res.ApprovedNow)
	return a
}

// confirm gives the client's session a fresh confirmation with a code, as Mi Perfil does.
func (c *lvClient) confirm() {
	c.t.Helper()
	status, sent, _ := c.call("POST", fmt.Sprintf("/api/users/%d/confirmation-code", c.id), nil)
	require.Equal(c.t, http.StatusAccepted, status, sent)
	status, out, _ := c.call("POST", fmt.Sprintf("/api/users/%d/confirmation", c.id), map[string]string{"code": sent["verificationCode"].(string)})
	require.Equal(c.t, http.StatusOK, status, out)
}

func (c *lvClient) adopt() (int, map[string]any) {
	c.t.Helper()
	status, out, _ := c.call("POST", fmt.Sprintf("/api/users/%d/identity/adopt-document-name", c.id), nil)
	return status, out
}

// idState is what adopting may change.
type idState struct {
	Nombre     string  `db:"nombre"`
	Source     string  `db:"name_source"`
	Level      int     `db:"verification_level"`
	Bio        bool    `db:"biometric_verified"`
	Key        *string `db:"document_key"`
	Resolution *string `db:"identity_resolution"`
	ResolvedBy *int64  `db:"identity_resolved_by"`
	Audits     int     `db:"audits"`
}

func stateOf(t *testing.T, db *sqlx.DB, userID int64) idState {
	t.Helper()
	var s idState
	require.NoError(t, db.Get(&s, `SELECT u.nombre, u.name_source, u.verification_level, u.biometric_verified, u.document_key,
		vs.identity_resolution, vs.identity_resolved_by,
		(SELECT count(*) FROM audit_events WHERE action = 'person.identity_adopt' AND target_id = u.id::text) AS audits
		FROM users u JOIN verification_sessions vs ON vs.user_id = u.id AND vs.identity_verdict IS NOT NULL
		WHERE u.id = $1 ORDER BY vs.id DESC LIMIT 1`, userID))
	return s
}

// passBuilds counts the Apple and Google pass builds queued for userID.
func passBuilds(t *testing.T, e *lvEnv, userID int64) (apple, google int) {
	t.Helper()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueDefault, asynq.PageSize(500))
	if err != nil {
		return 0, 0 // no queue yet: nothing was queued
	}
	for _, task := range tasks {
		var p jobs.WalletPayload
		if json.Unmarshal(task.Payload, &p) != nil || p.UserID != userID {
			continue
		}
		switch task.Type {
		case jobs.TypeBuildApplePass:
			apple++
		case jobs.TypeBuildGooglePass:
			google++
		}
	}
	return apple, google
}

func TestAMismatchGrantsNothingAndMiPerfilShowsBothNames(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := mismatched(t, e, store)

	st := a.status()
	require.Equal(t, 1.0, st["verificationLevel"], "no level 3 while the names differ")
	require.Equal(t, false, st["biometricVerified"])
	require.Equal(t, false, st["nameFromDocument"])
	id := st["identity"].(map[string]any)
	require.Equal(t, "mismatch", id["verdict"])
	require.Equal(t, "Roberto Mendoza Salas", id["documentName"], "the ID's name, in proper case")
	require.Nil(t, id["resolution"])
	require.NotEmpty(t, id["checkedAt"])
	require.NotEmpty(t, id["findings"], "the matcher says why")
	for _, f := range id["findings"].([]any) {
		require.NotEmpty(t, f.(map[string]any)["text"])
	}
	// Never the CURP or the document number.
	doc := identity.SampleDocument("Roberto Mendoza Salas", idBirth)
	require.NotContains(t, st["_raw"], doc.PersonalNumber)
	require.NotContains(t, st["_raw"], doc.DocumentNumber)

	status, user, _ := a.call("GET", fmt.Sprintf("/api/users/%d", a.id), nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "Elena Márquez", user["nombre"], "the typed name stays until the person adopts")
	s := stateOf(t, e.db, a.id)
	require.Nil(t, s.Key, "nothing is bound to the profile")
	require.Equal(t, "typed", s.Source)
}

func TestAMatchSaysTheNameCameFromTheID(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := e.signedUp(t)
	status := a.status()
	require.Nil(t, status["identity"], "no check yet")
	require.Equal(t, false, status["nameFromDocument"])

	res := approveWith(t, store, a.id, identity.SampleDocument("Elena Márquez", idBirth))
	require.True(t, res.ApprovedNow)
	st := a.status()
	require.Equal(t, 3.0, st["verificationLevel"])
	require.Equal(t, true, st["nameFromDocument"])
	require.Equal(t, "match", st["identity"].(map[string]any)["verdict"])
	require.Equal(t, "Elena Márquez", st["identity"].(map[string]any)["documentName"])
}

func TestAdoptingTheIDsNameCertifiesItOnceAfterAConfirmation(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := mismatched(t, e, store)
	before := stateOf(t, e.db, a.id)

	// Without a confirmation: refused, nothing changes.
	status, out := a.adopt()
	require.Equal(t, http.StatusForbidden, status, out)
	require.Contains(t, out["message"], "confirma que eres tú")
	require.Equal(t, before, stateOf(t, e.db, a.id))
	apple, google := passBuilds(t, e, a.id)
	require.Zero(t, apple+google)

	// Someone else, even confirmed, cannot adopt for this person.
	b := e.signedUp(t)
	b.confirm()
	status, out, _ = b.call("POST", fmt.Sprintf("/api/users/%d/identity/adopt-document-name", a.id), nil)
	require.Equal(t, http.StatusForbidden, status, out)
	require.Equal(t, before, stateOf(t, e.db, a.id))
	status, out = b.adopt()
	require.Equal(t, http.StatusConflict, status, "b has nothing to adopt")
	require.Equal(t, "No hay un nombre de identificación pendiente de confirmar.", out["message"])

	a.confirm()
	status, out = a.adopt()
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "Roberto Mendoza Salas", out["nombre"])
	require.Equal(t, 3.0, out["verificationLevel"])

	after := stateOf(t, e.db, a.id)
	require.Equal(t, "Roberto Mendoza Salas", after.Nombre, "the ID's name in proper case")
	require.Equal(t, "document", after.Source)
	require.Equal(t, 3, after.Level)
	require.True(t, after.Bio)
	require.NotNil(t, after.Key, "the ID now certifies this profile")
	require.Equal(t, "adopted", *after.Resolution)
	require.Equal(t, a.id, *after.ResolvedBy)
	require.Equal(t, 1, after.Audits)
	changes := dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'person.identity_adopt'`)
	require.Contains(t, changes, "Elena Márquez")
	require.Contains(t, changes, "Roberto Mendoza Salas")
	apple, google = passBuilds(t, e, a.id)
	require.Equal(t, 1, apple, "the Apple pass is built")
	require.Equal(t, 1, google, "the Google pass is built")

	st := a.status()
	require.Equal(t, 3.0, st["verificationLevel"])
	require.Equal(t, true, st["nameFromDocument"])
	require.Equal(t, "adopted", st["identity"].(map[string]any)["resolution"])

	// Twice: nothing left to adopt.
	status, out = a.adopt()
	require.Equal(t, http.StatusConflict, status)
	require.Equal(t, "No hay un nombre de identificación pendiente de confirmar.", out["message"])
	require.Equal(t, 1, stateOf(t, e.db, a.id).Audits)
}

func TestAdoptingWithRedisDownChangesNothing(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := mismatched(t, e, store)
	a.confirm()
	before := stateOf(t, e.db, a.id)

	e.queue.setDead(true)
	status, out := a.adopt()
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Contains(t, out["message"], "no está disponible")
	require.Equal(t, before, stateOf(t, e.db, a.id), "level, name, binding, resolution and audit all rolled back")

	e.queue.setDead(false)
	status, out = a.adopt()
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, 3, stateOf(t, e.db, a.id).Level)
}

func TestAdoptingAnIDBoundToAnotherProfileMeanwhileIsRefused(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := mismatched(t, e, store)

	// Roberto himself validates with the same ID first.
	b := e.signedUp(t)
	_, err := e.db.Exec(`UPDATE users SET nombre = 'Roberto Mendoza Salas' WHERE id = $1`, b.id)
	require.NoError(t, err)
	res := approveWith(t, store, b.id, identity.SampleDocument("Roberto Mendoza Salas", idBirth))
	require.True(t, res.ApprovedNow)

	a.confirm()
	before := stateOf(t, e.db, a.id)
	status, out := a.adopt()
	require.Equal(t, http.StatusConflict, status, out)
	require.Equal(t, "Esta identificación ya está vinculada a otro perfil.", out["message"])
	require.Equal(t, before, stateOf(t, e.db, a.id))
	require.Equal(t, 1.0, a.status()["verificationLevel"])
}

func TestARevokedPersonAdoptsNothing(t *testing.T) {
	t.Parallel()
	e, store := idSetup(t)
	a := mismatched(t, e, store)
	_, err := e.db.Exec(`UPDATE users SET revoked_at = now(), revoked_reason = 'prueba' WHERE id = $1`, a.id)
	require.NoError(t, err)
	a.confirm()
	before := stateOf(t, e.db, a.id)
	status, out := a.adopt()
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "revocada")
	require.Equal(t, before, stateOf(t, e.db, a.id))
}
