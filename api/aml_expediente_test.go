package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 53 items 5 and 6: a person's LFPIORPI file, assembled from the operation's rows, is
// downloaded as a PDF or JSON by the business's cumplimiento or propietario (each download
// recorded and printed in the file's own trail); desarrollador and lectura are refused and
// recorded. After the person deletes their account the file stays, locked: readable by the
// business's officer and by an administrator acting on an authority's request, until its
// retention ends and the daily purge takes it.

const fileDocumentName = "MARÍA JOSÉ DE LA GARZA RUIZ"

// fileEnv is a platform whose officer recorded a sale with one person who has a signed
// declaration, two screenings (one with a discarded hit) and a filed threshold aviso.
type fileEnv struct {
	*consoleEnv
	p                  platform
	owner, officer     *member
	dev, reader        *member
	uid                int64
	email, phone       string
	opID               string
	personID           int64
	declID, unsharedID int64
}

func fileSetup(t *testing.T) *fileEnv {
	t.Helper()
	e := consoleSetup(t)
	f := &fileEnv{consoleEnv: e}
	f.p = e.newPlatform(t, "Inmobiliaria Expediente", "https://expediente.example")
	f.owner = e.inviteAsAdmin(t, f.p, "duena@expediente.example", "propietario")
	f.officer = e.inviteAsAdmin(t, f.p, "oficial@expediente.example", "cumplimiento")
	f.dev = e.invite(t, f.owner, "dev@expediente.example", "desarrollador")
	f.reader = e.invite(t, f.owner, "lee@expediente.example", "lectura")

	f.uid = amlPerson(t, e.db, true)
	require.NoError(t, e.db.Get(&f.email, `SELECT email FROM users WHERE id = $1`, f.uid))
	require.NoError(t, e.db.Get(&f.phone, `SELECT phone_number FROM users WHERE id = $1`, f.uid))
	seal := defaultTestDocumentKey.Sealer.Seal
	_, err := e.db.Exec(`UPDATE verification_sessions SET provider = 'didit', doc_type = 'ine', doc_issuing_country = 'MEX',
			doc_given_names = 'MARÍA JOSÉ', doc_first_surname = 'DE LA GARZA', doc_second_surname = 'RUIZ', doc_full_name = $2,
			doc_birth_date = '1985-03-02', doc_sex = 'F', doc_nationality = 'MEX', doc_expiry_date = '2031-12-31',
			doc_curp_sealed = $3, doc_number_sealed = $4, document_read_at = now(),
			face_match_score = 97.5, liveness_score = 99, document_score = 95, identity_verdict = 'match',
			identity_findings = '{"verdict":"match","findings":[],"registry":[{"Registry":"mex_curp","Field":"personal_number","Result":"match"}]}'
		WHERE user_id = $1`, f.uid, fileDocumentName, seal("GARM850302MDFRZR09"), seal("IDMEX2044556677"))
	require.NoError(t, err)
	_, err = e.db.Exec(`UPDATE users SET nombre = 'María José de la Garza Ruiz' WHERE id = $1`, f.uid)
	require.NoError(t, err)

	session := completedSession(t, e.db, f.p.id, f.uid, true, "completed")
	status, out, _ := f.officer.call("POST", "/api/socios/operations?mode=live", operation(session, func(b map[string]any) {
		b["amount"] = "950000.00"
	}))
	require.Equal(t, http.StatusCreated, status, out)
	f.opID = out["id"].(string)
	f.personID = int64(out["people"].([]any)[0].(map[string]any)["id"].(float64))

	// A signed declaration shared with the business, and one that was not.
	answers, _ := json.Marshal(expediente.Answers{Occupation: "Arquitecta independiente", Address: "Av. Universidad 1200, Coyoacán",
		RFC: "GARM850302AB1"})
	decl := func(version int) int64 {
		return dbGet[int64](t, e.db, `INSERT INTO aml_declarations (user_id, test_mode, version, answers_sealed, text_sealed, text_sha256,
				method, evidence, signed_at)
			VALUES ($1, false, $2, $3, $4, repeat('a', 64), 'passkey', '{}', now() - interval '1 day') RETURNING id`,
			f.uid, version, seal(string(answers)), seal("Declaro bajo protesta de decir verdad…"))
	}
	f.declID, f.unsharedID = decl(1), decl(2)
	_, err = e.db.Exec(`INSERT INTO aml_declaration_shares (declaration_id, partner_id) VALUES ($1, $2)`, f.declID, f.p.id)
	require.NoError(t, err)

	// Two lists screened, a discarded hit on the UN's, and a filed threshold aviso.
	list := func(name, kind string, version int) (int64, int64) {
		l := dbGet[int64](t, e.db, `INSERT INTO screening_lists (name, kind) VALUES ($1, $2) RETURNING id`, name, kind)
		v := dbGet[int64](t, e.db, `INSERT INTO screening_list_versions (list_id, version, source, sha256, entry_count)
			VALUES ($1, $2, 'fixture.xml', repeat('b', 64), 10) RETURNING id`, l, version)
		return l, v
	}
	un, unV := list("Lista consolidada del Consejo de Seguridad de la ONU", "un", 7)
	uif, uifV := list("Lista de Personas Bloqueadas UIF", "un", 3)
	screen := func(l, v int64, n int) int64 {
		return dbGet[int64](t, e.db, `INSERT INTO aml_screenings (operation_person_id, subject, screened_name, source, list_id, version_id,
			candidate_count) VALUES ($1, 'persona', 'María José de la Garza Ruiz', 'lista', $2, $3, $4) RETURNING id`, f.personID, l, v, n)
	}
	sc := screen(un, unV, 1)
	screen(uif, uifV, 0)
	_, err = e.db.Exec(`INSERT INTO aml_hits (screening_id, operation_id, operation_person_id, subject, list_id, version_id, list_name,
			entry_id, matched_name, score, reasons, entry, blocking, status, resolution_reason, resolved_by_label, resolved_at)
		VALUES ($1, $2, $3, 'persona', $4, $5, 'Lista consolidada del Consejo de Seguridad de la ONU', 'QDi.999', 'Maria Garza',
			0.81, '{"Nombre parecido"}', '{}', true, 'descartada', 'Fecha de nacimiento distinta: 1962 contra 1985',
			'oficial@expediente.example', now())`, sc, f.opID, f.personID, un, unV)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO aml_avisos (partner_id, test_mode, kind, operation_id, period, due_at, filed_at, acknowledgement, filed_by_label)
		VALUES ($1, false, 'umbral', $2, '2026-03-01', '2026-04-17 23:59:00-06', now(), 'ACUSE-2026-0042', 'oficial@expediente.example')`,
		f.p.id, f.opID)
	require.NoError(t, err)
	return f
}

func (f *fileEnv) path(format, mode string) string {
	return fmt.Sprintf("/api/socios/operations/%s/people/%d/expediente?format=%s&mode=%s", f.opID, f.personID, format, mode)
}

// download fetches the file as m and fails unless it is a 200 of the format asked.
func (f *fileEnv) download(t *testing.T, m *member, format string) []byte {
	t.Helper()
	status, out, res := m.call("GET", f.path(format, "live"), nil)
	require.Equal(t, http.StatusOK, status, out["_raw"])
	require.Equal(t, map[string]string{"pdf": "application/pdf", "json": "application/json"}[format], res.Header.Get("Content-Type"))
	require.Equal(t, fmt.Sprintf(`attachment; filename="expediente-%s-persona-%d.%s"`, f.opID, f.personID, format),
		res.Header.Get("Content-Disposition"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	return []byte(out["_raw"].(string))
}

// flatPDF is the PDF's text with wrapped lines and columns joined.
func flatPDF(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	require.NoError(t, err, "pdftotext is missing: run scripts/ensure-tools.sh --test (Debian's poppler-utils)")
	path := filepath.Join(t.TempDir(), "expediente.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.Command(bin, "-enc", "UTF-8", path, "-").CombinedOutput()
	require.NoError(t, err, "pdftotext: %s", out)
	return strings.Join(strings.Fields(string(out)), " ")
}

// screenshotFirstPage writes the PDF's first page to e2e/screenshots/expediente-primera-pagina.png
// with pdftoppm when EXPEDIENTE_SCREENSHOT=1 (the picture in the repository is of this file).
func screenshotFirstPage(t *testing.T, pdf []byte) {
	t.Helper()
	if os.Getenv("EXPEDIENTE_SCREENSHOT") != "1" {
		return
	}
	bin, err := exec.LookPath("pdftoppm")
	require.NoError(t, err, "pdftoppm is missing (poppler-utils)")
	path := filepath.Join(t.TempDir(), "expediente.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out := filepath.Join("..", "e2e", "screenshots", "expediente-primera-pagina")
	res, err := exec.Command(bin, "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile", path, out).CombinedOutput()
	require.NoError(t, err, "pdftoppm: %s", res)
}

func TestTheOfficerDownloadsAPersonsFileAndEachDownloadIsInIt(t *testing.T) {
	t.Parallel()
	f := fileSetup(t)

	pdf := f.download(t, f.officer, "pdf")
	screenshotFirstPage(t, pdf)
	text := flatPDF(t, pdf)
	for _, want := range []string{fileDocumentName, "Inmobiliaria Expediente", "Credencial para votar", "••••••••••••••ZR09",
		"Arquitecta independiente", "Lista consolidada del Consejo de Seguridad de la ONU", "7 (SHA-256 bbbbbbbbbbbb…)",
		"Lista de Personas Bloqueadas UIF", "3 (SHA-256 bbbbbbbbbbbb…)", "Maria Garza", "Descartada", "Fecha de nacimiento distinta: 1962 contra 1985",
		"Aviso por umbral", "ACUSE-2026-0042", "Registró la operación " + f.opID, "Descargó el expediente (PDF)", "RENAPO"} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "GARM850302MDFRZR09", "the CURP is masked")

	raw := f.download(t, f.owner, "json")
	var file expediente.File
	require.NoError(t, json.Unmarshal(raw, &file))
	require.Equal(t, fileDocumentName, file.Person.DocumentName)
	require.Equal(t, "1985-03-02", file.Person.BirthDate.String())
	require.Len(t, file.Declarations, 1, "only the version shared with the business")
	require.Equal(t, "Arquitecta independiente", file.Declarations[0].Answers.Occupation)
	require.Len(t, file.Screenings, 2)
	require.Equal(t, "7 (SHA-256 bbbbbbbbbbbb…)", file.Screenings[0].ListVersion)
	require.Len(t, file.Screenings[0].Candidates, 1)
	require.Equal(t, expediente.Discarded, file.Screenings[0].Candidates[0].Resolution.Decision)
	require.Equal(t, "Fecha de nacimiento distinta: 1962 contra 1985", file.Screenings[0].Candidates[0].Resolution.Reason)
	require.Empty(t, file.Screenings[1].Candidates)
	require.Len(t, file.Avisos, 1)
	require.Equal(t, expediente.AvisoThreshold, file.Avisos[0].Kind)
	require.True(t, file.Operation.Thresholds.Identify)
	require.NotEmpty(t, file.Risk.Level, "the risk from aml.AssessRisk")
	require.Equal(t, "2036-03-10", file.RetentionUntil.String())
	var downloads []string
	for _, a := range file.Audit {
		if strings.HasPrefix(a.Action, "Descargó") {
			downloads = append(downloads, a.Actor+": "+a.Action)
		}
	}
	require.Equal(t, []string{"oficial@expediente.example (cumplimiento): Descargó el expediente (PDF): Consulta del área de cumplimiento",
		"duena@expediente.example (propietario): Descargó el expediente (JSON): Consulta del área de cumplimiento"}, downloads,
		"the copy lists every download, its own included")
	require.Equal(t, 2, f.count(t, `SELECT count(*) FROM aml_file_accesses WHERE operation_person_id = $1`, f.personID))
	require.Equal(t, 1, f.auditCount(t, "oficial@expediente.example", "partner_console.aml_file.download", "ok"))

	// desarrollador and lectura: 403 in Spanish, recorded as denied, nothing read.
	for _, m := range []*member{f.dev, f.reader} {
		status, out, _ := m.call("GET", f.path("pdf", "live"), nil)
		require.Equal(t, http.StatusForbidden, status, out)
		require.Contains(t, out["message"], "no permite esta acción")
		require.Equal(t, 1, f.auditCount(t, m.email, "partner_console.aml_file.download", "denied"), m.email)
	}
	require.Equal(t, 2, f.count(t, `SELECT count(*) FROM aml_file_accesses`))

	// Test mode never reads a live file; another platform never reads this one; bad input is 400.
	status, out, _ := f.officer.call("GET", f.path("pdf", "test"), nil)
	require.Equal(t, http.StatusNotFound, status, out)
	require.Equal(t, "Esa persona no está en la operación.", out["message"])
	other := f.newPlatform(t, "Otra Inmobiliaria", "https://otra-expediente.example")
	stranger := f.inviteAsAdmin(t, other, "oficial@otra-expediente.example", "cumplimiento")
	status, out, _ = stranger.call("GET", f.path("pdf", "live"), nil)
	require.Equal(t, http.StatusNotFound, status, out)
	status, out, _ = f.officer.call("GET", f.path("docx", "live"), nil)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["_raw"], "El formato debe ser pdf o json.")
	status, out, _ = f.officer.call("GET", "/api/socios/operations/op_x/people/1/expediente", nil)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, 2, f.count(t, `SELECT count(*) FROM aml_file_accesses`))
}

func TestADeletedPersonsFileStaysLockedForTheOfficerAndAnAuthority(t *testing.T) {
	t.Parallel()
	f := fileSetup(t)
	store := postgres.Store{DB: f.db, Documents: defaultTestDocumentKey}
	require.NoError(t, store.DeleteUser(context.Background(), f.uid))

	// The file is locked; the declaration it cites stays (no longer the person's), the other went.
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_operation_people WHERE id = $1 AND person_deleted_at IS NOT NULL
		AND user_id IS NULL AND identity_sealed IS NOT NULL`, f.personID))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_declarations WHERE id = $1 AND user_id IS NULL`, f.declID))
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM aml_declarations WHERE id = $1`, f.unsharedID))
	require.Equal(t, 0, f.count(t, `SELECT count(*) FROM users WHERE id = $1`, f.uid))

	// Everything else of the person is gone: their e-mail and phone are nowhere; the name only in the file.
	holding := f.tablesHolding(t, []string{f.email, f.phone, "María José de la Garza Ruiz"})
	for table, found := range holding {
		require.Contains(t, []string{"aml_operation_people", "aml_screenings"}, table, "%s still holds %v", table, found)
		require.Equal(t, []string{"María José de la Garza Ruiz"}, found, table)
	}

	// The officer still reads it, with the declaration and the lock in its trail.
	text := flatPDF(t, f.download(t, f.officer, "pdf"))
	for _, want := range []string{fileDocumentName, "Arquitecta independiente", "La persona eliminó su cuenta; el expediente queda bloqueado",
		"Lista consolidada del Consejo de Seguridad de la ONU"} {
		require.Contains(t, text, want)
	}

	// An administrator, on an authority's request only: refused without its reference, then read.
	path := fmt.Sprintf("/api/admin/aml/operations/%s/people/%d/expediente", f.opID, f.personID)
	status, out, _ := f.admin.call("POST", path, map[string]string{"authority": "Unidad de Inteligencia Financiera"})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["_raw"], "número de oficio")
	status, out, _ = f.admin.call("POST", path, map[string]string{"reference": "UIF/110/2026/0042"})
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Contains(t, out["_raw"], "autoridad que requiere")
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_file_accesses`), "the officer's download only")

	status, out, res := f.admin.call("POST", path, map[string]string{"authority": "Unidad de Inteligencia Financiera",
		"reference": "UIF/110/2026/0042", "format": "json"})
	require.Equal(t, http.StatusOK, status, out["_raw"])
	require.Equal(t, "application/json", res.Header.Get("Content-Type"))
	var file expediente.File
	require.NoError(t, json.Unmarshal([]byte(out["_raw"].(string)), &file))
	require.Equal(t, fileDocumentName, file.Person.DocumentName)
	last := file.Audit[len(file.Audit)-1]
	require.Equal(t, "Descargó el expediente (JSON) a petición de Unidad de Inteligencia Financiera, oficio UIF/110/2026/0042", last.Action)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_file_accesses WHERE actor_kind = 'admin'
		AND authority = 'Unidad de Inteligencia Financiera' AND authority_reference = 'UIF/110/2026/0042'`))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM audit_events WHERE action = 'aml_file.authority_download' AND outcome = 'ok'
		AND target_kind = 'aml_file' AND changes->'oficio'->>'after' = 'UIF/110/2026/0042'`))

	// A person's deletion: nothing new can be linked to the file (no account to add).
	status, out, _ = f.admin.call("POST", fmt.Sprintf("/api/admin/aml/operations/%s/people/%d/expediente", f.opID, f.personID+999),
		map[string]string{"authority": "FGR", "reference": "FGR/1"})
	require.Equal(t, http.StatusNotFound, status, out)
}

func TestFilesPastTheirRetentionArePurgedWithWhatTheyKept(t *testing.T) {
	t.Parallel()
	f := fileSetup(t)
	store := postgres.Store{DB: f.db, Documents: defaultTestDocumentKey}
	ctx := context.Background()
	f.download(t, f.officer, "json")
	require.NoError(t, store.DeleteUser(ctx, f.uid))

	// Still within retention: the daily run keeps it.
	res, err := store.ApplyRetention(ctx, time.Now())
	require.NoError(t, err)
	require.Zero(t, res["aml_files"])
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM aml_operations WHERE id = $1`, f.opID))

	// Ten years later (the day after retention_until): the operation and all it kept go.
	_, err = f.db.Exec(`UPDATE aml_operations SET operation_date = '2015-06-01', retention_until = '2025-06-01' WHERE id = $1`, f.opID)
	require.NoError(t, err)
	res, err = store.ApplyRetention(ctx, time.Now())
	require.NoError(t, err)
	require.EqualValues(t, 1, res["aml_files"])
	for _, q := range []string{`SELECT count(*) FROM aml_operations`, `SELECT count(*) FROM aml_operation_people`,
		`SELECT count(*) FROM aml_screenings`, `SELECT count(*) FROM aml_hits`, `SELECT count(*) FROM aml_avisos`,
		`SELECT count(*) FROM aml_file_accesses`, `SELECT count(*) FROM aml_file_declarations`, `SELECT count(*) FROM aml_declarations`} {
		require.Zero(t, f.count(t, q), q)
	}
}

func TestMiPerfilNamesTheBusinessesKeepingAFileAndTheExportHasTheDeclarations(t *testing.T) {
	t.Parallel()
	f := fileSetup(t)
	ctx := context.Background()

	// The export: every version of the person's declarations, the answers in words.
	store := postgres.Store{DB: f.db, Documents: defaultTestDocumentKey}
	raw, err := store.PersonalData(ctx, f.uid)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(raw, &doc))
	decls := doc["declaraciones_lfpiorpi"].([]any)
	require.Len(t, decls, 2, "both versions, shared or not")
	first := decls[0].(map[string]any)
	require.EqualValues(t, 1, first["version"])
	require.Equal(t, "Arquitecta independiente", first["ocupacion"])
	require.Equal(t, "Llave de acceso (passkey)", first["firmada_con"])
	require.Equal(t, "No", first["persona_politicamente_expuesta"])
	require.Equal(t, "Inmobiliaria Expediente", first["compartida_con"])
	require.NotEmpty(t, first["firmada_el"])
	require.Equal(t, "", decls[1].(map[string]any)["compartida_con"])

	// Mi Perfil › Plataformas con acceso: the business and the day, live files only.
	c := f.signedUp(t)
	live := completedSession(t, f.db, f.p.id, c.id, true, "completed")
	test := completedSession(t, f.db, f.p.id, c.id, false, "completed")
	status, out, _ := c.call("GET", fmt.Sprintf("/api/users/%d/partner-access", c.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Empty(t, out["amlFiles"])
	status, out, _ = f.officer.call("POST", "/api/socios/operations?mode=test", operation(test, nil))
	require.Equal(t, http.StatusCreated, status, out)
	status, out, _ = c.call("GET", fmt.Sprintf("/api/users/%d/partner-access", c.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Empty(t, out["amlFiles"], "a test operation is no file kept about the person")
	status, out, _ = f.officer.call("POST", "/api/socios/operations?mode=live", operation(live, func(b map[string]any) { b["date"] = "2026-02-01" }))
	require.Equal(t, http.StatusCreated, status, out)
	status, out, _ = c.call("GET", fmt.Sprintf("/api/users/%d/partner-access", c.id), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, []any{map[string]any{"partnerName": "Inmobiliaria Expediente", "until": "2036-02-01"}}, out["amlFiles"])
}

func TestOnlyAnAdministratorWithAFreshPasskeyReadsAFileForAnAuthority(t *testing.T) {
	t.Parallel()
	e := setup(t)
	now := time.Now()
	path := "/api/admin/aml/operations/op_0123456789abcdef01234567/people/1/expediente"
	body := map[string]string{"authority": "Unidad de Inteligencia Financiera", "reference": "UIF/110/2026/0042"}

	// soporte: not its role; an administrador without a recent passkey: asked to confirm. Both recorded.
	r := e.send(t, e.roleClient(t, perfilseguro.RoleSupport, true, now), "POST", path, body)
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	r = e.send(t, e.roleClient(t, perfilseguro.RoleAdministrator, false, now), "POST", path, body)
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	require.NotEmpty(t, r.JSON(t)["errors"].(map[string]any)["reauth"])
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM audit_events WHERE action = 'aml_file.authority_download' AND outcome = 'denied'`))

	// Fresh: the file that does not exist is a 404, in Spanish.
	r = e.send(t, e.roleClient(t, perfilseguro.RoleAdministrator, true, now), "POST", path, body)
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	require.Equal(t, "Esa persona no está en la operación.", r.JSON(t)["message"])
}
