package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Issue 53 item 4: each operation's risk from the weights table, shown to propietario and
// cumplimiento; the console's Avisos for those roles only (others 403, recorded).

func riskOf(t *testing.T, op map[string]any) (string, float64, []string) {
	t.Helper()
	r, ok := op["risk"].(map[string]any)
	require.True(t, ok, "a risk: %v", op)
	keys := []string{}
	for _, f := range r["factors"].([]any) {
		keys = append(keys, f.(map[string]any)["key"].(string))
	}
	return r["level"].(string), r["score"].(float64), keys
}

func TestTheConsoleShowsEachOperationsRiskAndItsAvisosToComplianceOnly(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaLista", "https://casalista.example")
	owner := e.inviteAsAdmin(t, p, "duena@casalista.example", "propietario")
	officer := e.inviteAsAdmin(t, p, "oficial@casalista.example", "cumplimiento")
	dev := e.invite(t, owner, "dev@casalista.example", "desarrollador")
	reader := e.invite(t, owner, "lee@casalista.example", "lectura")
	uid := amlPerson(t, e.db, true)
	session := completedSession(t, e.db, p.id, uid, true, "completed")

	// A sale at the aviso threshold with cash: efectivo 25 + monto_aviso 15 = 40, medio (cut-offs 25 and 50).
	body := operation(session, func(b map[string]any) { b["amount"], b["cash"], b["date"] = "1000000.00", "150000", "2026-02-10" })
	status, out, _ := officer.call("POST", "/api/socios/operations?mode=live", body)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, "150000.00", out["cash"])
	level, score, keys := riskOf(t, out)
	require.Equal(t, "medio", level)
	require.Equal(t, float64(40), score)
	require.Equal(t, []string{"efectivo", "monto_aviso"}, keys)
	opID := out["id"].(string)

	// More cash than the amount is refused.
	status, out, _ = officer.call("POST", "/api/socios/operations?mode=live", operation(session, func(b map[string]any) { b["cash"] = "4000000" }))
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "El monto en efectivo no puede ser mayor que el de la operación", out["errors"].(map[string]any)["cash"])

	// The person's document says another nationality: +10 = 50, alto. Lectura sees no risk.
	_, err := e.db.Exec(`UPDATE aml_operation_people SET nationality = 'USA' WHERE operation_id = $1`, opID)
	require.NoError(t, err)
	status, page, _ := officer.call("GET", "/api/socios/operations?mode=live", nil)
	require.Equal(t, http.StatusOK, status, page)
	level, score, keys = riskOf(t, page["data"].([]any)[0].(map[string]any))
	require.Equal(t, "alto", level)
	require.Equal(t, float64(50), score)
	require.Equal(t, []string{"efectivo", "monto_aviso", "nacionalidad_extranjera"}, keys)
	status, page, _ = reader.call("GET", "/api/socios/operations?mode=live", nil)
	require.Equal(t, http.StatusOK, status, page)
	require.Nil(t, page["data"].([]any)[0].(map[string]any)["risk"], "compliance data")

	// The cut-offs are data: raised by an administrator, the same operation is medio.
	status, out, _ = e.admin.call("PUT", "/api/admin/aml/risk-weights", map[string]any{"key": "corte_alto", "weight": 60,
		"source": "Ajuste del oficial de cumplimiento, acta 3/2026"})
	require.Equal(t, http.StatusOK, status, out)
	status, page, _ = owner.call("GET", "/api/socios/operations?mode=live", nil)
	require.Equal(t, http.StatusOK, status, page)
	level, _, _ = riskOf(t, page["data"].([]any)[0].(map[string]any))
	require.Equal(t, "medio", level)

	// Avisos: desarrollador and lectura are refused, recorded as denied.
	for _, m := range []*member{dev, reader} {
		status, out, _ = m.call("GET", "/api/socios/avisos?mode=live", nil)
		require.Equal(t, http.StatusForbidden, status, out)
		require.Contains(t, out["message"], "no permite esta acción")
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.aviso.list", "denied"))
		status, out, _ = m.call("GET", "/api/socios/avisos/1/export?mode=live", nil)
		require.Equal(t, http.StatusForbidden, status, out)
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.aviso.export", "denied"))
		status, out, _ = m.call("POST", "/api/socios/avisos/1/filing?mode=live", map[string]string{"acknowledgement": "A1"})
		require.Equal(t, http.StatusForbidden, status, out)
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.aviso.file", "denied"))
	}
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM aml_avisos WHERE filed_at IS NOT NULL`))

	// The officer lists them: the sale's umbral aviso first (February's, overdue), then the reports.
	status, list, _ := officer.call("GET", "/api/socios/avisos?mode=live", nil)
	require.Equal(t, http.StatusOK, status, list)
	avisos := list["data"].([]any)
	first := avisos[0].(map[string]any)
	require.Equal(t, "umbral", first["kind"])
	require.Equal(t, "vencido", first["state"])
	require.Equal(t, opID, first["operation"].(map[string]any)["id"])
	for _, a := range avisos[1:] {
		require.Equal(t, "sin_operaciones", a.(map[string]any)["kind"], "March onwards had no operation")
	}
	id := first["id"].(string)
	status, out, res := officer.call("GET", "/api/socios/avisos/"+id+"/export?mode=live", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	require.True(t, strings.HasPrefix(out["_raw"].(string), "referencia_aviso,tipo_aviso,mes_reportado"), out["_raw"])
	require.Equal(t, 1, e.auditCount(t, "oficial@casalista.example", "partner_console.aviso.export", "ok"))
	// Another mode does not reach it.
	status, out, _ = officer.call("GET", "/api/socios/avisos/"+id+"/export?mode=test", nil)
	require.Equal(t, http.StatusNotFound, status, out)
	status, list, _ = officer.call("GET", "/api/socios/avisos?mode=test", nil)
	require.Equal(t, http.StatusOK, status, list)
	require.Empty(t, list["data"], "no test operations, no test avisos")

	// The owner files it; the officer's second filing is 409.
	status, out, _ = owner.call("POST", "/api/socios/avisos/"+id+"/filing?mode=live", map[string]string{"acknowledgement": "SAT/2026/555"})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "presentado", out["state"])
	require.Equal(t, "duena@casalista.example", out["filedBy"])
	require.Equal(t, 1, e.auditCount(t, "duena@casalista.example", "partner_console.aviso.file", "ok"))
	status, out, _ = officer.call("POST", "/api/socios/avisos/"+id+"/filing?mode=live", map[string]string{"acknowledgement": "SAT/2026/556"})
	require.Equal(t, http.StatusConflict, status, out)
	status, list, _ = officer.call("GET", "/api/socios/avisos?mode=live", nil)
	require.Equal(t, http.StatusOK, status, list)
	last := list["data"].([]any)[len(list["data"].([]any))-1].(map[string]any)
	require.Equal(t, "presentado", last["state"], "filed avisos come after the pending ones")
}

func TestAdministratorsKeepTheRiskWeightsWithTheirSource(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	soporte := e.roleClient(t, perfilseguro.RoleSupport, true, time.Now())

	r := e.send(t, soporte, "GET", "/api/admin/aml/risk-weights", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &rows))
	require.Len(t, rows, 9)
	require.Equal(t, "coincidencia_confirmada", rows[0]["key"])
	require.Equal(t, float64(100), rows[0]["weight"])
	require.Equal(t, "corte_alto", rows[8]["key"])
	require.Equal(t, "corte", rows[8]["kind"])
	for _, row := range rows {
		require.NotEmpty(t, row["source"], row["key"])
		require.NotEmpty(t, row["keyText"], row["key"])
	}

	change := map[string]any{"key": "pep", "weight": 60, "source": "Política interna: PEP siempre riesgo alto"}
	r = e.send(t, soporte, "PUT", "/api/admin/aml/risk-weights", change)
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'admin.aml.risk_weight' AND outcome = 'denied'`))

	for _, c := range []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"key": "pep", "weight": 60, "source": " "}, "source", "Indica la fuente"},
		{map[string]any{"key": "pep", "weight": 1001, "source": "x"}, "weight", "entre 0 y 1000"},
		{map[string]any{"key": "edad", "weight": 1, "source": "x"}, "key", "Factor no válido"},
		{map[string]any{"key": "corte_alto", "weight": 25, "source": "x"}, "weight", "mayor que el de riesgo medio (25)"},
		{map[string]any{"key": "corte_medio", "weight": 50, "source": "x"}, "weight", "menor que el de riesgo alto (50)"},
		{map[string]any{"key": "corte_medio", "weight": 0, "source": "x"}, "weight", "mayor que 0"},
	} {
		r = e.send(t, admin, "PUT", "/api/admin/aml/risk-weights", c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
		require.Contains(t, r.JSON(t)["errors"].(map[string]any)[c.field], c.msg)
	}
	require.Equal(t, 40, dbGet[int](t, e.db, `SELECT weight FROM aml_risk_weights WHERE key = 'pep'`), "nothing written")

	r = e.send(t, admin, "PUT", "/api/admin/aml/risk-weights", change)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(60), r.JSON(t)["weight"])
	require.NotNil(t, r.JSON(t)["updatedBy"])
	changes := dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'admin.aml.risk_weight' AND outcome = 'ok' AND target_id = 'pep'`)
	require.Contains(t, changes, `"before": 40`)
	require.Contains(t, changes, "Política interna")
}
