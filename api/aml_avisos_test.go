package api_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/amlaviso"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 53 item 4: the avisos a business owes — umbral (the 17th of the next month, Mexico City),
// sin_operaciones (a complete month without an aviso-required operation, from the first
// operation's month), sospechosa (24 hours from a confirmed hit) — listed, exported and filed.

// avisosSetup is operationsSetup with the API's clock at now.
func avisosSetup(t *testing.T, now time.Time) *opEnv {
	t.Helper()
	e := setup(t, func(d *api.Deps) { d.Now = func() time.Time { return now } })
	e.addPartner(t, "pk_live_0000000000000000000a0a01", "https://casalista.example", true, "widget_auth")
	e.addPartner(t, "pk_live_0000000000000000000a0a02", "https://otra.example", true, "widget_auth")
	return &opEnv{env: e,
		partnerID: dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000a0a01'`),
		otherID:   dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = 'pk_live_0000000000000000000a0a02'`),
		live:      []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a01", true)},
		test:      []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a01", false)},
		other:     []string{"Authorization", "Bearer " + e.secretKey(t, "pk_live_0000000000000000000a0a02", true)},
	}
}

func (o *opEnv) avisos(t *testing.T, key []string) []map[string]any {
	t.Helper()
	r := o.send(t, anonymous(), "GET", "/api/partner/v1/avisos", nil, key...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	out := []map[string]any{}
	for _, a := range r.JSON(t)["data"].([]any) {
		out = append(out, a.(map[string]any))
	}
	return out
}

func (o *opEnv) recordOp(t *testing.T, key []string, session, kind, amount, date string) string {
	t.Helper()
	r := o.record(t, key, operation(session, func(b map[string]any) { b["kind"], b["amount"], b["date"] = kind, amount, date }))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON(t)["id"].(string)
}

// summary is each aviso as "kind period dueAt state".
func summary(avisos []map[string]any) []string {
	out := []string{}
	for _, a := range avisos {
		out = append(out, strings.Join([]string{a["kind"].(string), str(a["period"]), a["dueAt"].(string), a["state"].(string)}, " "))
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func TestAvisosAreDueByTheSeventeenthAndMonthsWithoutOperationsAreReported(t *testing.T) {
	t.Parallel()
	// 20 May 2026, noon in Mexico City: February to April are complete months.
	o := avisosSetup(t, time.Date(2026, 5, 20, 18, 0, 0, 0, time.UTC))
	session := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, true), true, "completed")

	// A sale at the aviso threshold (2026: 941,412.75) and a rent below its aviso threshold.
	sale := o.recordOp(t, o.live, session, "compraventa", "1000000.00", "2026-02-10")
	rent := o.recordOp(t, o.live, session, "arrendamiento", "200000", "2026-04-05")
	got := o.avisos(t, o.live)
	require.Equal(t, []string{
		"umbral 2026-02 2026-03-18T05:59:59Z vencido",
		"sin_operaciones 2026-03 2026-04-18T05:59:59Z vencido",
		"sin_operaciones 2026-04 2026-05-18T05:59:59Z vencido", // the rent is below its aviso threshold
	}, summary(got))
	require.Equal(t, sale, got[0]["operation"].(map[string]any)["id"])
	require.Equal(t, "Aviso por umbral", got[0]["kindText"])
	require.Equal(t, 0, countOf(t, o.db, `SELECT count(*) FROM aml_avisos WHERE operation_id = $1`, rent), "no aviso for the rent")

	// Listing again adds nothing; a sale recorded late for March replaces March's report.
	require.Len(t, o.avisos(t, o.live), 3)
	require.Equal(t, 3, countOf(t, o.db, `SELECT count(*) FROM aml_avisos WHERE partner_id = $1`, o.partnerID))
	o.recordOp(t, o.live, session, "intermediacion", "950000", "2026-03-31")
	require.Equal(t, []string{
		"umbral 2026-02 2026-03-18T05:59:59Z vencido",
		"umbral 2026-03 2026-04-18T05:59:59Z vencido",
		"sin_operaciones 2026-04 2026-05-18T05:59:59Z vencido",
	}, summary(o.avisos(t, o.live)))

	// Test mode: no avisos until a test operation, then only its own; the live list is unchanged.
	require.Empty(t, o.avisos(t, o.test))
	testSession := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, true), false, "completed")
	o.recordOp(t, o.test, testSession, "compraventa", "2000000", "2026-05-02")
	test := o.avisos(t, o.test)
	require.Equal(t, []string{"umbral 2026-05 2026-06-18T05:59:59Z pendiente"}, summary(test))
	require.Equal(t, false, test[0]["livemode"])
	require.Len(t, o.avisos(t, o.live), 3)
	require.Empty(t, o.avisos(t, o.other), "another business owes nothing of these")
}

// confirmedHit stores a screening, a confirmed blocking hit and its 24-hour aviso for the
// operation's first person, as the screening part does on a confirmation; it returns the aviso id.
func confirmedHit(t *testing.T, db *sqlx.DB, partnerID int64, testMode bool, opID string, confirmedAt time.Time) int64 {
	t.Helper()
	var person int64
	require.NoError(t, db.Get(&person, `SELECT id FROM aml_operation_people WHERE operation_id = $1 ORDER BY id LIMIT 1`, opID))
	var hit int64
	require.NoError(t, db.Get(&hit, `WITH s AS (INSERT INTO aml_screenings (operation_person_id, subject, screened_name, source, candidate_count)
			VALUES ($1, 'persona', 'ANA RUIZ', 'proveedor', 1) RETURNING id)
		INSERT INTO aml_hits (screening_id, operation_id, operation_person_id, subject, list_name, entry_id, matched_name, score,
			reasons, entry, blocking, status, resolution_reason, resolved_by_label, resolved_at)
		SELECT s.id, $2, $1, 'persona', 'Lista de Personas Bloqueadas (UIF)', 'LPB-1', 'Ana Ruiz Pérez', 0.97, '{nombre}', '{}',
			true, 'confirmada', 'Coincide nombre y fecha de nacimiento', 'oficial', $3 FROM s RETURNING id`, person, opID, confirmedAt))
	var aviso int64
	require.NoError(t, db.Get(&aviso, `INSERT INTO aml_avisos (partner_id, test_mode, kind, operation_id, hit_id, due_at)
		VALUES ($1, $2, 'sospechosa', $3, $4, $5) RETURNING id`, partnerID, testMode, opID, hit, confirmedAt.Add(24*time.Hour)))
	return aviso
}

func TestASuspiciousAvisoIsListedWithItsTwentyFourHours(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 20, 18, 0, 0, 0, time.UTC)
	o := avisosSetup(t, now)
	session := completedSession(t, o.db, o.partnerID, amlPerson(t, o.db, true), true, "completed")
	op := o.recordOp(t, o.live, session, "arrendamiento", "50000", "2026-05-19")
	confirmedHit(t, o.db, o.partnerID, false, op, now.Add(-2*time.Hour))
	got := o.avisos(t, o.live)
	require.Len(t, got, 1, "May is not complete: no report yet; the rent needs no umbral aviso")
	require.Equal(t, "sospechosa", got[0]["kind"])
	require.Equal(t, "2026-05-21T16:00:00Z", got[0]["dueAt"], "24 hours from the confirmation")
	require.Equal(t, "pendiente", got[0]["state"])
	require.Equal(t, "Coincidencia confirmada con «Ana Ruiz Pérez» en Lista de Personas Bloqueadas (UIF)", got[0]["alert"])
	require.Empty(t, o.avisos(t, o.test), "a live suspicious aviso is not in test mode")

	// Its export is urgent (prioridad 2) with the alert.
	r := o.send(t, anonymous(), "GET", "/api/partner/v1/avisos/"+got[0]["id"].(string)+"/export", nil, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	rows := readCSV(t, r.Body)
	require.Equal(t, "2", rows[1][col("prioridad")])
	require.Equal(t, "ARI", rows[1][col("clave_actividad")], "rent is reported as ARI")
	require.Contains(t, rows[1][col("descripcion_alerta")], "ANA RUIZ PEREZ")
}

func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	require.NoError(t, err, string(body))
	require.GreaterOrEqual(t, len(rows), 2, string(body))
	return rows
}

func col(name string) int {
	for i, c := range amlaviso.Columns {
		if c == name {
			return i
		}
	}
	panic("no column " + name)
}

func TestAnAvisoIsExportedWithEveryFieldAndFiledOnce(t *testing.T) {
	t.Parallel()
	o := avisosSetup(t, time.Date(2026, 5, 20, 18, 0, 0, 0, time.UTC))
	uid := amlPerson(t, o.db, true)
	_, err := o.db.Exec(`UPDATE users SET nombre = 'Ana López Núñez' WHERE id = $1`, uid)
	require.NoError(t, err)
	session := completedSession(t, o.db, o.partnerID, uid, true, "completed")
	// The person's signed declaration, shared with the business.
	store := &postgres.Store{DB: o.db, Documents: defaultTestDocumentKey}
	require.NoError(t, store.InTx(t.Context(), func(tx *sqlx.Tx) error {
		d, _, err := store.InsertAMLDeclaration(t.Context(), tx, postgres.NewAMLDeclaration{UserID: uid, Answers: expediente.Answers{
			Occupation: "Médica cirujana", Address: "Av. Juárez 10, Centro, CDMX", RFC: "GODE561231GR8", Nationality: "MEX",
			ForBeneficiary: true, Beneficiary: &expediente.Beneficiary{Name: "José Núñez", CURPOrRFC: "NUJO800101HDFXXX01",
				Relationship: "Hermano", BirthDate: expediente.Date{Year: 1980, Month: 1, Day: 1}},
			PEP: true, PEPPosition: "Regidora"}, Text: "texto", Method: "codigo", Evidence: map[string]any{"channel": "email"}, Now: time.Now()})
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO aml_declaration_shares (declaration_id, partner_id, partner_session_id) VALUES ($1, $2, $3)`, d.ID, o.partnerID, session)
		return err
	}))
	r := o.record(t, o.live, operation(session, func(b map[string]any) { b["amount"], b["cash"], b["date"] = "1000000.00", "50000", "2026-05-04" }))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	op := r.JSON(t)["id"].(string)
	got := o.avisos(t, o.live)
	require.Len(t, got, 1)
	id := got[0]["id"].(string)

	r = o.send(t, anonymous(), "GET", "/api/partner/v1/avisos/"+id+"/export", nil, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	rows := readCSV(t, r.Body)
	require.Equal(t, amlaviso.Columns, rows[0], "the documented columns, in order")
	require.Len(t, rows, 2, "one row per person")
	row := map[string]string{}
	for i, c := range amlaviso.Columns {
		row[c] = rows[1][i]
	}
	for k, v := range map[string]string{
		"referencia_aviso": "PS-AVISO-" + id, "tipo_aviso": "umbral", "mes_reportado": "202605", "clave_actividad": "INM",
		"prioridad": "1", "tipo_alerta": "100", "id_operacion": op, "fecha_operacion": "20260504", "tipo_operacion": "COMPRAVENTA",
		"figura_so": "INTERMEDIARIO", "referencia_inmueble": "CASA EN COYOACAN, LOTE 12", "valor_pactado": "1000000.00",
		"moneda": "MXN", "monto_efectivo": "50000.00", "figura_cliente": "COMPRADOR", "nombre": "ANA LOPEZ NUÑEZ",
		"rfc": "GODE561231GR8", "actividad_economica": "MEDICA CIRUJANA", "domicilio": "AV. JUAREZ 10, CENTRO, CDMX",
		"pais_nacionalidad": "MEX", "actua_por_cuenta_de_tercero": "SI", "bc_nombre": "JOSE NUÑEZ",
		"bc_fecha_nacimiento": "19800101", "bc_curp_rfc": "NUJO800101HDFXXX01", "bc_relacion": "HERMANO", "pep": "SI",
		"pep_cargo": "REGIDORA", "estado": "pendiente", "fecha_limite": "2026-06-17T23:59:59-06:00",
	} {
		require.Equal(t, v, row[k], k)
	}
	// Another business's key, or the test key: 404; a bad id: 400.
	for _, key := range [][]string{o.other, o.test} {
		r = o.send(t, anonymous(), "GET", "/api/partner/v1/avisos/"+id+"/export", nil, key...)
		require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
		r = o.send(t, anonymous(), "POST", "/api/partner/v1/avisos/"+id+"/filing", map[string]string{"acknowledgement": "X1"}, key...)
		require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	}
	r = o.send(t, anonymous(), "GET", "/api/partner/v1/avisos/abc/export", nil, o.live...)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))

	// Filing: a folio is required; once filed, a second filing is 409.
	r = o.send(t, anonymous(), "POST", "/api/partner/v1/avisos/"+id+"/filing", map[string]string{"acknowledgement": " "}, o.live...)
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "folio del acuse")
	r = o.send(t, anonymous(), "POST", "/api/partner/v1/avisos/"+id+"/filing", map[string]string{"acknowledgement": "SAT-2026-000123"}, o.live...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	filed := r.JSON(t)
	require.Equal(t, "presentado", filed["state"])
	require.Equal(t, "SAT-2026-000123", filed["acknowledgement"])
	require.Contains(t, filed["filedBy"], "llave sk_live_")
	require.Equal(t, 1, countOf(t, o.db, `SELECT count(*) FROM audit_events WHERE action = 'partner_api.aviso.file' AND target_id = $1`, id))
	r = o.send(t, anonymous(), "POST", "/api/partner/v1/avisos/"+id+"/filing", map[string]string{"acknowledgement": "SAT-2026-000999"}, o.live...)
	require.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	require.Contains(t, r.JSON(t)["message"], "ya está marcado como presentado")
	require.Equal(t, "SAT-2026-000123", dbGet[string](t, o.db, `SELECT acknowledgement FROM aml_avisos WHERE id = $1::bigint`, id))
	rows = readCSV(t, o.send(t, anonymous(), "GET", "/api/partner/v1/avisos/"+id+"/export", nil, o.live...).Body)
	require.Equal(t, "presentado", rows[1][col("estado")])
	require.Equal(t, "SAT-2026-000123", rows[1][col("folio_acuse")])
}
