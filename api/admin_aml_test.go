package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// The UMA and thresholds tables: every administrator role reads them, only administrador
// writes, every write is in the Bitácora with what it changed, and a value without its source
// or not positive is refused in Spanish.
func TestAdministratorsMaintainTheAMLTables(t *testing.T) {
	t.Parallel()
	e, admin := adminSetup(t)
	now := time.Now()
	soporte := e.roleClient(t, perfilseguro.RoleSupport, true, now)
	id, _ := seedUser(t, e.db, seeded{Level: 3})
	person := e.signedIn(t, id)

	// Reading: the seeded values with their sources.
	r := e.send(t, soporte, "GET", "/api/admin/aml/uma", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var umas []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &umas))
	require.Equal(t, float64(2026), umas[0]["year"])
	require.Equal(t, "117.31", umas[0]["dailyValue"])
	require.Equal(t, "2026-02-01", umas[0]["validFrom"])
	require.Contains(t, umas[0]["source"], "INEGI")

	r = e.send(t, soporte, "GET", "/api/admin/aml/thresholds", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var ths []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &ths))
	require.Len(t, ths, 4)
	rent := ths[3]
	require.Equal(t, "arrendamiento", rent["activity"])
	require.Equal(t, "Arrendamiento", rent["activityText"])
	require.Equal(t, float64(1605), rent["identificationUma"])
	require.Equal(t, true, rent["identificationStrict"])
	require.Equal(t, true, rent["monthly"])
	require.Contains(t, rent["source"], "fr. XV")
	require.NotEmpty(t, rent["identificationPesos"], "in pesos with today's UMA")

	// Writing: soporte and a person are refused; the refusal of soporte is recorded.
	uma := map[string]any{"year": 2027, "dailyValue": "121.05", "source": "INEGI, comunicado de enero de 2027"}
	threshold := map[string]any{"activity": "desarrollo", "validFrom": "2025-07-17", "identificationUma": 8025,
		"avisoUma": 8025, "source": "LFPIORPI art. 17 fr. V Bis, DOF 16/07/2025"}
	for _, c := range []struct {
		path string
		body map[string]any
	}{{"/api/admin/aml/uma", uma}, {"/api/admin/aml/thresholds", threshold}} {
		r = e.send(t, soporte, "PUT", c.path, c.body)
		require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
		require.Equal(t, "Tu rol (soporte) no permite esta acción.", r.JSON(t)["message"])
		r = e.send(t, person, "PUT", c.path, c.body)
		require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
		r = e.send(t, anonymous(), "PUT", c.path, c.body)
		require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
	}
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'admin.aml.uma' AND outcome = 'denied'`))
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'admin.aml.threshold' AND outcome = 'denied'`))
	r = e.send(t, person, "GET", "/api/admin/aml/uma", nil)
	require.Equal(t, http.StatusForbidden, r.Status)

	// The administrator adds 2027 and corrects a threshold; both are audited with their changes.
	r = e.send(t, admin, "PUT", "/api/admin/aml/uma", uma)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := r.JSON(t)
	require.Equal(t, "121.05", got["dailyValue"])
	require.Equal(t, "2027-02-01", got["validFrom"], "1 February by default")
	require.Equal(t, 12105, dbGet[int](t, e.db, `SELECT (daily_value * 100)::int FROM uma_values WHERE year = 2027`))
	changes := dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'admin.aml.uma' AND outcome = 'ok' AND target_id = '2027'`)
	require.Contains(t, changes, `"121.05"`)
	require.Equal(t, "aml_uma", dbGet[string](t, e.db, `SELECT target_kind FROM audit_events WHERE action = 'admin.aml.uma' AND outcome = 'ok'`))

	r = e.send(t, admin, "PUT", "/api/admin/aml/uma", map[string]any{"year": 2025, "dailyValue": "113.14", "source": "INEGI 2025, revisado"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	changes = dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'admin.aml.uma' AND target_id = '2025'`)
	require.Contains(t, changes, "revisado")
	require.NotContains(t, changes, "dailyValue", "only what changed")

	r = e.send(t, admin, "PUT", "/api/admin/aml/thresholds", threshold)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(8025), r.JSON(t)["identificationUma"])
	changes = dbGet[string](t, e.db, `SELECT changes::text FROM audit_events WHERE action = 'admin.aml.threshold' AND outcome = 'ok'`)
	require.Contains(t, changes, `"identificationUma": {"after": 8025, "before": 0}`)
	require.Equal(t, "desarrollo 2025-07-17", dbGet[string](t, e.db, `SELECT target_id FROM audit_events WHERE action = 'admin.aml.threshold' AND outcome = 'ok'`))
	require.Equal(t, 4, countOf(t, e.db, `SELECT count(*) FROM aml_thresholds`))

	// Refusals in Spanish, and nothing written.
	for _, c := range []struct {
		path  string
		body  map[string]any
		field string
		msg   string
	}{
		{"/api/admin/aml/uma", map[string]any{"year": 2028, "dailyValue": "125.00", "source": "  "}, "source",
			"Indica la fuente del valor (comunicado del INEGI o publicación en el DOF)"},
		{"/api/admin/aml/uma", map[string]any{"year": 2028, "dailyValue": "0", "source": "INEGI"}, "dailyValue",
			"El valor diario de la UMA debe ser mayor que cero"},
		{"/api/admin/aml/uma", map[string]any{"year": 2028, "dailyValue": "-125.00", "source": "INEGI"}, "dailyValue",
			"El valor diario de la UMA debe ser mayor que cero"},
		{"/api/admin/aml/uma", map[string]any{"year": 2028, "dailyValue": "1,25", "source": "INEGI"}, "dailyValue",
			"Escribe el valor diario en pesos con hasta dos decimales, por ejemplo 117.31"},
		{"/api/admin/aml/thresholds", map[string]any{"activity": "compraventa", "validFrom": "2026-01-01", "identificationUma": 0,
			"avisoUma": 8025, "source": ""}, "source", "Indica la fuente legal (ley, artículo, fracción y fecha del DOF)"},
		{"/api/admin/aml/thresholds", map[string]any{"activity": "compraventa", "validFrom": "2026-01-01", "identificationUma": 0,
			"avisoUma": 0, "source": "DOF"}, "avisoUma", "El umbral de aviso debe ser mayor que cero"},
		{"/api/admin/aml/thresholds", map[string]any{"activity": "compraventa", "validFrom": "2026-01-01", "identificationUma": -1,
			"avisoUma": 8025, "source": "DOF"}, "identificationUma", "El umbral de identificación no puede ser negativo (0 significa siempre)"},
		{"/api/admin/aml/thresholds", map[string]any{"activity": "permuta", "validFrom": "2026-01-01", "identificationUma": 0,
			"avisoUma": 8025, "source": "DOF"}, "activity", "Actividad no válida: compraventa, intermediacion, desarrollo o arrendamiento"},
		{"/api/admin/aml/thresholds", map[string]any{"activity": "compraventa", "validFrom": "17/07/2025", "identificationUma": 0,
			"avisoUma": 8025, "source": "DOF"}, "validFrom", "La fecha de inicio debe tener el formato AAAA-MM-DD"},
	} {
		r = e.send(t, admin, "PUT", c.path, c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%v: %s", c.body, r.Body)
		body := r.JSON(t)
		require.Equal(t, c.msg, body["message"], "%v", c.body)
		require.Contains(t, body["errors"], c.field)
	}
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM uma_values WHERE year = 2028`))
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM aml_thresholds WHERE valid_from = '2026-01-01'`))
}
