package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/secure"
)

// Issue 53 item 3 (the review): the compliance officer reads each operation's people with what
// they were screened against and rules on each possible hit; confirming a hit on a blocked list
// stops the operation and raises the 24-hour aviso in the same transaction. Screening runs in the
// worker; here the screenings and hits are inserted as it would.

// seedHit stores, for the n-th person (0-based) of an operation, a screening against a new list
// version and a possible hit from it; it returns the hit's id.
func seedHit(t *testing.T, db *sqlx.DB, opID string, n int, listName string, blocking, testMode bool) int64 {
	t.Helper()
	personID := dbGet[int64](t, db, `SELECT id FROM aml_operation_people WHERE operation_id = $1 ORDER BY id OFFSET $2 LIMIT 1`, opID, n)
	listID := dbGet[int64](t, db, `INSERT INTO screening_lists (name, kind, test_mode) VALUES ($1, 'un', $2) RETURNING id`,
		listName+" "+secure.NewToken(3), testMode)
	versionID := dbGet[int64](t, db, `INSERT INTO screening_list_versions (list_id, version, source, sha256, entry_count)
		VALUES ($1, 3, 'consolidated.xml', repeat('a', 64), 10) RETURNING id`, listID)
	screeningID := dbGet[int64](t, db, `INSERT INTO aml_screenings (operation_person_id, subject, screened_name, source, list_id,
		version_id, candidate_count) VALUES ($1, 'persona', 'ANA RUIZ SOTO', 'lista', $2, $3, 1) RETURNING id`, personID, listID, versionID)
	return dbGet[int64](t, db, `INSERT INTO aml_hits (screening_id, operation_id, operation_person_id, subject, list_id, version_id,
		list_name, entry_id, matched_name, score, reasons, entry, blocking)
		VALUES ($1, $2, $3, 'persona', $4, $5, $6, $7, 'ANA RUIZ SOTTO', 0.93, '{nombre parecido,"misma fecha de nacimiento"}', '{}', $8)
		RETURNING id`, screeningID, opID, personID, listID, versionID, listName, "QDi."+secure.NewToken(3), blocking)
}

// partnerGet calls the partner API with a secret key.
func partnerGet(t *testing.T, base, path, key string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := map[string]any{}
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return res.StatusCode, out
}

func resolution(decision, reason string) map[string]string {
	return map[string]string{"decision": decision, "reason": reason}
}

func TestTheComplianceOfficerRulesOnHitsAndAConfirmedBlockingHitStopsTheOperation(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaRevisa", "https://casarevisa.example")
	owner := e.inviteAsAdmin(t, p, "duena@casarevisa.example", "propietario")
	officer := e.inviteAsAdmin(t, p, "oficial@casarevisa.example", "cumplimiento")
	dev := e.invite(t, owner, "dev@casarevisa.example", "desarrollador")
	reader := e.invite(t, owner, "lee@casarevisa.example", "lectura")

	buyer := completedSession(t, e.db, p.id, amlPerson(t, e.db, true), true, "completed")
	seller := completedSession(t, e.db, p.id, amlPerson(t, e.db, true), true, "completed")
	body := operation(buyer, func(b map[string]any) {
		b["people"] = []map[string]any{{"role": "comprador", "sessionId": buyer}, {"role": "vendedor", "sessionId": seller}}
	})
	status, op, _ := officer.call("POST", "/api/socios/operations?mode=live", body)
	require.Equal(t, http.StatusCreated, status, op)
	opID := op["id"].(string)
	uploaded := seedHit(t, e.db, opID, 0, "Lista UIF de la inmobiliaria", true, false)
	un := seedHit(t, e.db, opID, 1, "Lista consolidada ONU", true, false)

	// The officer reads each person's screening (list, version, date, candidates) and hits.
	status, detail, _ := officer.call("GET", "/api/socios/operations/"+opID+"?mode=live", nil)
	require.Equal(t, http.StatusOK, status, detail)
	require.Equal(t, false, detail["stopped"])
	people := detail["people"].([]any)
	require.Len(t, people, 2)
	first := people[0].(map[string]any)["screening"].(map[string]any)
	lists := first["lists"].([]any)
	require.Len(t, lists, 1)
	require.Equal(t, float64(3), lists[0].(map[string]any)["version"])
	require.Equal(t, float64(1), lists[0].(map[string]any)["candidates"])
	require.Contains(t, lists[0].(map[string]any)["list"], "Lista UIF de la inmobiliaria")
	hit := first["hits"].([]any)[0].(map[string]any)
	require.Equal(t, "pendiente", hit["status"])
	require.Equal(t, "ANA RUIZ SOTTO", hit["matchedName"])
	require.InDelta(t, 0.93, hit["score"], 0.0001)
	require.Equal(t, []any{"nombre parecido", "misma fecha de nacimiento"}, hit["reasons"])

	status, pending, _ := officer.call("GET", "/api/socios/hits/pending?mode=live", nil)
	require.Equal(t, http.StatusOK, status, pending)
	require.Equal(t, float64(2), pending["count"])

	// desarrollador and lectura: 403 in Spanish on the file, the badge and the ruling, recorded.
	for _, m := range []*member{dev, reader} {
		status, out, _ := m.call("GET", "/api/socios/operations/"+opID+"?mode=live", nil)
		require.Equal(t, http.StatusForbidden, status, out)
		require.Contains(t, out["message"], "no permite esta acción")
		status, out, _ = m.call("GET", "/api/socios/hits/pending", nil)
		require.Equal(t, http.StatusForbidden, status, out)
		status, out, _ = m.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", uploaded), resolution("descartada", "No es la misma persona"))
		require.Equal(t, http.StatusForbidden, status, out)
		require.Equal(t, 2, e.auditCount(t, m.email, "partner_console.aml_file.read", "denied"), m.email)
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.hit.resolve", "denied"), m.email)
	}

	// Bad rulings: 400 in Spanish, nothing written.
	path := fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", uploaded)
	status, out, _ := officer.call("POST", path, resolution("descartada", " no  "))
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "Explica el motivo de la resolución (al menos 5 caracteres).", out["errors"].(map[string]any)["reason"])
	status, out, _ = officer.call("POST", path, resolution("tal vez", "No es la misma persona"))
	require.Equal(t, http.StatusBadRequest, status, out)
	status, out, _ = officer.call("POST", "/api/socios/hits/999999/resolution?mode=live", resolution("descartada", "No es la misma persona"))
	require.Equal(t, http.StatusNotFound, status, out)
	require.Equal(t, "pendiente", dbGet[string](t, e.db, `SELECT status FROM aml_hits WHERE id = $1`, uploaded))

	// The owner discards a blocking hit: recorded, audited, the operation goes on, no aviso.
	status, out, _ = owner.call("POST", path, resolution("descartada", "Fecha de nacimiento y CURP distintas a las de la lista"))
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "descartada", out["hit"].(map[string]any)["status"])
	require.Equal(t, "duena@casarevisa.example", out["hit"].(map[string]any)["resolvedBy"])
	require.Equal(t, false, out["operationStopped"])
	require.Nil(t, out["aviso"])
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM aml_avisos`))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM aml_operations WHERE stopped_at IS NOT NULL`))
	require.Equal(t, 1, e.auditCount(t, "duena@casarevisa.example", "partner_console.hit.resolve", "ok"))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM audit_events WHERE action = 'partner_console.hit.resolve' AND outcome = 'ok'
		AND target_id = $1 AND changes::text LIKE '%CURP distintas%'`, fmt.Sprint(uploaded)))

	// A ruling is never changed.
	status, out, _ = officer.call("POST", path, resolution("confirmada", "Lo pensé mejor, sí es"))
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "ya se resolvió")

	// The officer confirms the UN hit: the hit, the stop and the 24-hour aviso, one transaction.
	status, out, _ = officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", un), resolution("confirmada", "Nombre, fecha de nacimiento y nacionalidad coinciden con la ONU"))
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["operationStopped"])
	aviso := out["aviso"].(map[string]any)
	var row struct {
		ResolvedAt time.Time `db:"resolved_at"`
		StoppedAt  time.Time `db:"stopped_at"`
		DueAt      time.Time `db:"due_at"`
		Kind       string    `db:"kind"`
		TestMode   bool      `db:"test_mode"`
	}
	require.NoError(t, e.db.Get(&row, `SELECT h.resolved_at, o.stopped_at, a.due_at, a.kind, a.test_mode
		FROM aml_hits h JOIN aml_operations o ON o.id = h.operation_id JOIN aml_avisos a ON a.hit_id = h.id WHERE h.id = $1`, un))
	require.Equal(t, "sospechosa", row.Kind)
	require.False(t, row.TestMode)
	require.True(t, row.StoppedAt.Equal(row.ResolvedAt), "stopped at the confirmation: %v %v", row.StoppedAt, row.ResolvedAt)
	require.True(t, row.DueAt.Equal(row.ResolvedAt.Add(24*time.Hour)), "due 24 hours after: %v %v", row.DueAt, row.ResolvedAt)
	due, err := time.Parse(time.RFC3339Nano, aviso["dueAt"].(string))
	require.NoError(t, err)
	require.True(t, due.Equal(row.DueAt))
	require.WithinDuration(t, time.Now().Add(24*time.Hour), due, time.Minute)

	// A stopped operation refuses further rulings; its remaining hits leave the badge.
	late := seedHit(t, e.db, opID, 0, "Lista consolidada ONU", true, false)
	status, out, _ = officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", late), resolution("descartada", "No es la misma persona"))
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "detenida")
	status, pending, _ = officer.call("GET", "/api/socios/hits/pending?mode=live", nil)
	require.Equal(t, http.StatusOK, status, pending)
	require.Equal(t, float64(0), pending["count"])

	status, detail, _ = owner.call("GET", "/api/socios/operations/"+opID+"?mode=live", nil)
	require.Equal(t, http.StatusOK, status, detail)
	require.Equal(t, true, detail["stopped"])
	require.Contains(t, detail["stoppedReason"], "Lista consolidada ONU")

	// The partner API reads the same: each person's screening and the stopped state.
	status, got := partnerGet(t, e.base, "/api/partner/v1/operations/"+opID, p.secretKey)
	require.Equal(t, http.StatusOK, status, got)
	require.Equal(t, true, got["stopped"])
	second := got["people"].([]any)[1].(map[string]any)["screening"].(map[string]any)
	require.Equal(t, "confirmada", second["hits"].([]any)[0].(map[string]any)["status"])
	require.Equal(t, float64(3), second["lists"].([]any)[0].(map[string]any)["version"])
	status, list := partnerGet(t, e.base, "/api/partner/v1/operations", p.secretKey)
	require.Equal(t, http.StatusOK, status, list)
	require.Equal(t, true, list["data"].([]any)[0].(map[string]any)["stopped"])
}

func TestHitsOfTestAndLiveModeStayApartAndALockedFileRefusesRulings(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaModos", "https://casamodos.example")
	officer := e.inviteAsAdmin(t, p, "oficial@casamodos.example", "cumplimiento")
	uid := amlPerson(t, e.db, true)
	status, testOp, _ := officer.call("POST", "/api/socios/operations?mode=test", operation(completedSession(t, e.db, p.id, uid, false, "completed"), nil))
	require.Equal(t, http.StatusCreated, status, testOp)
	status, liveOp, _ := officer.call("POST", "/api/socios/operations?mode=live", operation(completedSession(t, e.db, p.id, uid, true, "completed"), nil))
	require.Equal(t, http.StatusCreated, status, liveOp)
	testHit := seedHit(t, e.db, testOp["id"].(string), 0, "Lista ONU (prueba)", true, true)
	liveHit := seedHit(t, e.db, liveOp["id"].(string), 0, "Lista consolidada ONU", true, false)

	// Live mode neither sees nor touches the test hit, and the other way round.
	status, out, _ := officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", testHit), resolution("confirmada", "Coincide con la lista"))
	require.Equal(t, http.StatusNotFound, status, out)
	status, out, _ = officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=test", liveHit), resolution("confirmada", "Coincide con la lista"))
	require.Equal(t, http.StatusNotFound, status, out)
	status, out, _ = officer.call("GET", "/api/socios/operations/"+testOp["id"].(string)+"?mode=live", nil)
	require.Equal(t, http.StatusNotFound, status, out)
	for mode, want := range map[string]int64{"live": liveHit, "test": testHit} {
		status, pending, _ := officer.call("GET", "/api/socios/hits/pending?mode="+mode, nil)
		require.Equal(t, http.StatusOK, status, pending)
		require.Equal(t, float64(1), pending["count"], mode)
		require.Equal(t, float64(want), pending["data"].([]any)[0].(map[string]any)["id"], mode)
	}
	status, got := partnerGet(t, e.base, "/api/partner/v1/operations/"+testOp["id"].(string), p.secretKey)
	require.Equal(t, http.StatusNotFound, status, got)

	// Confirming the test hit stops the test operation with a test aviso; the live one goes on.
	status, out, _ = officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=test", testHit), resolution("confirmada", "Coincide con la lista de prueba"))
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM aml_avisos WHERE test_mode`))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM aml_avisos WHERE NOT test_mode`))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM aml_operations WHERE NOT test_mode AND stopped_at IS NOT NULL`))

	// The person deleted their account: the file is kept, locked; a ruling is refused.
	_, err := e.db.Exec(`UPDATE aml_operation_people SET person_deleted_at = now() WHERE operation_id = $1`, liveOp["id"])
	require.NoError(t, err)
	status, out, _ = officer.call("POST", fmt.Sprintf("/api/socios/hits/%d/resolution?mode=live", liveHit), resolution("descartada", "No es la misma persona"))
	require.Equal(t, http.StatusConflict, status, out)
	require.True(t, strings.HasPrefix(out["message"].(string), "El expediente está bloqueado"), out["message"])
	require.Equal(t, "pendiente", dbGet[string](t, e.db, `SELECT status FROM aml_hits WHERE id = $1`, liveHit))
	status, detail, _ := officer.call("GET", "/api/socios/operations/"+liveOp["id"].(string)+"?mode=live", nil)
	require.Equal(t, http.StatusOK, status, detail)
	require.Equal(t, true, detail["people"].([]any)[0].(map[string]any)["screening"].(map[string]any)["locked"])
}
