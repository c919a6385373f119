package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// Issue 53 item 3 (uploads): the console's Listas takes a business's own list as CSV or XLSX with
// its columns mapped, keeps every version, refuses a malformed file with nothing imported, and
// queues the re-screen of every file in the import's transaction.

// upload posts a multipart form (fields and, when data is not nil, the file) as m.
func (m *member) upload(t *testing.T, path string, fields map[string]string, fileName string, data []byte) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		require.NoError(t, w.WriteField(k, v))
	}
	if data != nil {
		f, err := w.CreateFormFile("file", fileName)
		require.NoError(t, err)
		_, err = f.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	req, err := http.NewRequest("POST", m.e.base+path, &buf)
	require.NoError(t, err)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := m.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := map[string]any{}
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return res.StatusCode, out
}

// rescreens lists the reasons of the queued aml:rescreen tasks.
func rescreens(t *testing.T, opt asynq.RedisClientOpt) []string {
	t.Helper()
	insp := asynq.NewInspector(opt)
	tasks, err := insp.ListPendingTasks(jobs.QueueLow)
	if err != nil {
		return nil // the queue does not exist yet: nothing was queued
	}
	var out []string
	for _, task := range tasks {
		if task.Type == jobs.TypeAMLRescreen {
			var p jobs.AMLRescreenPayload
			require.NoError(t, json.Unmarshal(task.Payload, &p))
			out = append(out, p.Reason)
		}
	}
	return out
}

// oddCSV is a list as a business might receive it: semicolons, Windows-1252, its own headers.
var oddCSV = []byte("Folio;Apellidos;Nombre(s);F. Nac.;Otros nombres\r\n" +
	"UIF-001;P\xe9rez G\xf3mez;Jos\xe9 Luis;03/04/1970;Pepe P\xe9rez|El Contador\r\n" +
	"UIF-002;Ruiz Soto;Ana Mar\xeda;;\r\n")

func oddXLSX(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	rows := [][]any{{"Clave", "Nombre completo del sujeto", "Nacimiento", "RFC"},
		{"X-9", "Ramón Castillo Ibarra", "1966-11-02", "CAIR661102AB1"},
		{"X-10", "Lucía Fernández Ortega", "", ""}}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		require.NoError(t, f.SetSheetRow("Sheet1", cell, &r))
	}
	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	return buf.Bytes()
}

func TestListsAreUploadedWithMappedColumnsVersionedAndQueueTheRescreen(t *testing.T) {
	t.Parallel()
	e := consoleSetup(t)
	p := e.newPlatform(t, "CasaListas", "https://casalistas.example")
	owner := e.inviteAsAdmin(t, p, "duena@casalistas.example", "propietario")
	officer := e.inviteAsAdmin(t, p, "oficial@casalistas.example", "cumplimiento")
	dev := e.invite(t, owner, "dev@casalistas.example", "desarrollador")
	reader := e.invite(t, owner, "lee@casalistas.example", "lectura")

	// The preview reads the header and proposes a mapping, importing nothing.
	status, prev := officer.upload(t, "/api/socios/screening-lists/preview?mode=live", nil, "uif.csv", oddCSV)
	require.Equal(t, http.StatusOK, status, prev)
	require.Equal(t, []any{"Folio", "Apellidos", "Nombre(s)", "F. Nac.", "Otros nombres"}, prev["columns"])
	require.Len(t, prev["sample"], 2)
	sug := prev["suggested"].(map[string]any)
	require.Equal(t, "Apellidos", sug["surnamesColumn"])
	require.Equal(t, "Nombre(s)", sug["givenNamesColumn"])
	require.Equal(t, "Folio", sug["referenceColumn"])
	require.Equal(t, "Otros nombres", sug["aliasesColumn"])
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM screening_list_versions`))

	// The CSV with its odd columns, mapped.
	csvForm := map[string]string{"name": "UIF personas bloqueadas", "surnamesColumn": "Apellidos", "givenNamesColumn": "Nombre(s)",
		"birthDateColumn": "F. Nac.", "aliasesColumn": "Otros nombres", "referenceColumn": "Folio"}
	status, out := officer.upload(t, "/api/socios/screening-lists?mode=live", csvForm, "uif-2026-03.csv", oddCSV)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, float64(1), out["version"])
	require.Equal(t, float64(2), out["entries"])
	require.Equal(t, true, out["rescreenQueued"])
	listID := int64(out["listId"].(float64))
	require.Equal(t, "José Luis Pérez Gómez", dbGet[string](t, e.db, `SELECT name FROM screening_entries e
		JOIN screening_list_versions v ON v.id = e.version_id WHERE v.list_id = $1 AND e.entry_id = 'UIF-001'`, listID))
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM screening_lists WHERE id = $1 AND owner_id = $2 AND NOT test_mode AND kind = 'uif_upload'`, listID, p.id))
	require.Equal(t, 1, e.auditCount(t, "oficial@casalistas.example", "partner_console.screening_list.upload", "ok"))

	// The XLSX with other odd columns, by the owner.
	status, out = owner.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "Lista del corporativo",
		"nameColumn": "Nombre completo del sujeto", "birthDateColumn": "Nacimiento", "identifierColumn": "RFC", "referenceColumn": "Clave"},
		"corporativo.xlsx", oddXLSX(t))
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, float64(2), out["entries"])
	xlsxID := int64(out["listId"].(float64))
	require.Equal(t, "Ramón Castillo Ibarra", dbGet[string](t, e.db, `SELECT name FROM screening_entries e
		JOIN screening_list_versions v ON v.id = e.version_id WHERE v.list_id = $1 AND e.entry_id = 'X-9'`, xlsxID))

	// The same CSV again adds nothing; a changed one is version 2.
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", csvForm, "uif-2026-03.csv", oddCSV)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, false, out["created"])
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", csvForm, "uif-2026-04.csv",
		append(append([]byte{}, oddCSV...), []byte("UIF-003;Luna Vega;Marta;1980;\r\n")...))
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, float64(2), out["version"])
	require.ElementsMatch(t, []string{e.rescreenReason(t, listID, 1), e.rescreenReason(t, listID, 2),
		e.rescreenReason(t, xlsxID, 1)}, rescreens(t, e.opt), "one re-screen per new version, none for the identical file")

	// Every version listed with its date, file name, checksum and entries.
	status, lists, _ := officer.call("GET", "/api/socios/screening-lists?mode=live", nil)
	require.Equal(t, http.StatusOK, status, lists)
	var uif map[string]any
	for _, l := range lists["data"].([]any) {
		if l.(map[string]any)["name"] == "UIF personas bloqueadas" {
			uif = l.(map[string]any)
		}
	}
	require.NotNil(t, uif, lists)
	versions := uif["versions"].([]any)
	require.Len(t, versions, 2)
	require.Equal(t, float64(2), versions[0].(map[string]any)["version"])
	require.Equal(t, "uif-2026-04.csv", versions[0].(map[string]any)["fileName"])
	require.Equal(t, float64(3), versions[0].(map[string]any)["entries"])
	require.Len(t, versions[1].(map[string]any)["sha256"], 64)

	// A malformed file: 400 with the Spanish reason, nothing imported, nothing queued.
	before := e.count(t, `SELECT count(*) FROM screening_list_versions`)
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", csvForm, "rota.csv",
		[]byte("Folio;Apellidos;Nombre(s)\r\nUIF-9;\"Pérez;Ana\r\n"))
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["message"], "No se importó la lista")
	require.Contains(t, out["message"], "comillas")
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "X", "nameColumn": "Nombre"},
		"uif.csv", oddCSV)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["message"], "esa columna no está en el encabezado")
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "X", "nameColumn": "Nombre"},
		"falso.xlsx", []byte("PK\x03\x04 no es un libro"))
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["message"], "no es un libro de Excel")
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "  "}, "uif.csv", oddCSV)
	require.Equal(t, http.StatusBadRequest, status, out)
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "Sin archivo"}, "", nil)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, before, e.count(t, `SELECT count(*) FROM screening_list_versions`))
	require.Len(t, rescreens(t, e.opt), 3)

	// desarrollador and lectura: 403, recorded.
	for _, m := range []*member{dev, reader} {
		status, out = m.upload(t, "/api/socios/screening-lists?mode=live", csvForm, "uif.csv", oddCSV)
		require.Equal(t, http.StatusForbidden, status, out)
		status, lists, _ = m.call("GET", "/api/socios/screening-lists", nil)
		require.Equal(t, http.StatusForbidden, status, lists)
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.screening_list.upload", "denied"), m.email)
		require.Equal(t, 1, e.auditCount(t, m.email, "partner_console.screening_list.read", "denied"), m.email)
	}

	// A test-mode upload is a test list: live mode does not list it.
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=test", csvForm, "uif.csv", oddCSV)
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, float64(1), out["version"])
	require.Equal(t, 1, e.count(t, `SELECT count(*) FROM screening_lists WHERE id = $1 AND test_mode`, int64(out["listId"].(float64))))
	status, lists, _ = officer.call("GET", "/api/socios/screening-lists?mode=test", nil)
	require.Equal(t, http.StatusOK, status, lists)
	require.Len(t, lists["data"], 1)
	status, lists, _ = officer.call("GET", "/api/socios/screening-lists?mode=live", nil)
	require.Equal(t, http.StatusOK, status, lists)
	require.Len(t, lists["data"], 2)

	// Redis down: 503 and nothing imported.
	before = e.count(t, `SELECT count(*) FROM screening_list_versions`)
	e.queue.setDead(true)
	status, out = officer.upload(t, "/api/socios/screening-lists?mode=live", map[string]string{"name": "Otra lista", "nameColumn": "Nombre completo del sujeto"},
		"corporativo.xlsx", oddXLSX(t))
	e.queue.setDead(false)
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Equal(t, before, e.count(t, `SELECT count(*) FROM screening_list_versions`))
	require.Equal(t, 0, e.count(t, `SELECT count(*) FROM screening_lists WHERE name = 'Otra lista'`))
}

// rescreenReason is the re-screen queued for a list's version (the reason the worker's sweep also uses).
func (e *consoleEnv) rescreenReason(t *testing.T, listID int64, version int) string {
	t.Helper()
	id := int64(e.count(t, `SELECT id FROM screening_list_versions WHERE list_id = $1 AND version = $2`, listID, version))
	return jobs.AMLRescreenReason(id)
}
