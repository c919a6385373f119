package worker_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// unzipExport returns the archive's files by name.
func unzipExport(t *testing.T, archive []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		rc.Close()
		files[f.Name] = string(b)
	}
	return files
}

// jsonKeys walks a JSON value and returns the path of every object key ("datos.pagos.monto"),
// list positions left out.
func jsonKeys(prefix string, v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			out[path] = true
			jsonKeys(path, child, out)
		}
	case []any:
		for _, child := range x {
			jsonKeys(prefix, child, out)
		}
	}
}

type dictionary struct {
	Claves  map[string]string            `json:"claves"`
	Valores map[string]map[string]string `json:"valores"`
}

// fullPerson is a person with a record in every section of the export: invited, validated,
// paying by card, looked up on the public page and by a partner, with a request and a reminder.
func fullPerson(t *testing.T) (*postgres.Store, int64) {
	t.Helper()
	db, _ := pgtest.New(t)
	exec := func(q string, args ...any) {
		t.Helper()
		_, err := db.Exec(q, args...)
		require.NoError(t, err, q)
	}
	var partner, inviter, user int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_live_x', 'CasaLista', 'casalista.mx') RETURNING id`))
	require.NoError(t, db.Get(&inviter, `INSERT INTO users (nombre, email, id_validado) VALUES ('Ana López', 'ana@example.com', 'PS-1000-2000-30') RETURNING id`))
	require.NoError(t, db.Get(&user, `INSERT INTO users (nombre, email, phone_number, id_validado, origen, invited_by, partner_id,
		verification_level, is_phone_verified, is_email_verified, biometric_verified, fecha_validacion, vigencia, plan)
		VALUES ('Rosa Díaz', 'rosa@example.com', '+525512345678', 'PS-1111-2222-33', 'invitación', $1, $2, 3, true, true, true,
			'2026-11-24T18:00:00Z', 1, 'one_year') RETURNING id`, inviter, partner))
	exec(`INSERT INTO consents (user_id, purpose, granted, notice_version, accepted_at, ip_address, user_agent) VALUES
		($1, 'privacy_notice', true, '2026-11-26', '2026-11-24T18:00:00Z', '203.0.113.9', 'Firefox'),
		($1, 'biometric', true, '2026-11-26', '2026-11-24T18:01:00Z', '203.0.113.9', 'Firefox'),
		($1, 'partner_notifications', false, '2026-11-26', '2026-11-24T18:02:00Z', '203.0.113.9', 'Firefox')`, user)
	exec(`INSERT INTO verification_sessions (user_id, provider, session_id, verification_status, overall_score, face_match_score,
		document_score, liveness_score, environment, completed_at)
		VALUES ($1, 'didit', 'sess-1', 'Approved', 92.5, 88, 95, 99, 'production', '2026-11-24T18:10:00Z')`, user)
	exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, currency, provider, idempotency_key, payment_method, status, paid_at)
		VALUES ($1, 'one_year', 1, 29900, 'mxn', 'stripe', 'idem-1', 'card', 'paid', '2026-11-24T18:05:00Z')`, user)
	exec(`INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, status, expires_at)
		VALUES ($1, 'beto@example.com', 'Beto Ruiz', 'ABCDEFGHJKMN', 'tok-1', 'client', 'pending', '2026-12-24T18:00:00Z')`, user)
	exec(`INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, status, expires_at,
		accepted_user_id, accepted_at)
		VALUES ($1, 'rosa@example.com', 'Rosa Díaz', 'BCDEFGHJKMNP', 'tok-2', 'broker', 'accepted', '2026-12-24T18:00:00Z', $2, '2026-11-20T18:00:00Z')`,
		inviter, user)
	exec(`INSERT INTO wallet_passes (user_id, kind, data_hash) VALUES ($1, 'apple', repeat('a', 64)), ($1, 'google', repeat('b', 64))`, user)
	exec(`INSERT INTO credentials (user_id, status_idx, issued_at, expires_at) VALUES ($1, 7, '2026-11-24T18:20:00Z', '2027-11-24T18:00:00Z')`, user)
	exec(`INSERT INTO verification_logs (user_id, id_validado, ip_address, user_agent, access_type, granted, reason, partner_id, scanned_at) VALUES
		($1, 'PS-1111-2222-33', '198.51.100.1', 'x', 'public_page', true, NULL, NULL, '2026-11-25T18:00:00Z'),
		($1, 'PS-1111-2222-33', '198.51.100.1', 'x', 'partner_api', true, NULL, $2, '2026-11-25T19:00:00Z'),
		($1, 'PS-1111-2222-33', '198.51.100.1', 'x', 'public_page', true, 'expired', NULL, '2026-11-25T20:00:00Z')`, user, partner)
	exec(`INSERT INTO user_sessions (token_hash, user_id, expires_at, ip_address, user_agent)
		VALUES (repeat('c', 64), $1, '2026-12-24T18:00:00Z', '203.0.113.9', 'Firefox')`, user)
	exec(`INSERT INTO arco_requests (user_id, profile_id, type, state, channel, due_at)
		VALUES ($1, 'PS-1111-2222-33', 'acceso', 'en_proceso', 'app', '2026-12-22T23:59:59-06:00')`, user)
	exec(`INSERT INTO expiry_reminders (user_id, valid_until, days_before, channel, sent_at)
		VALUES ($1, '2027-11-24T18:00:00Z', 30, 'whatsapp', '2027-10-25T18:00:00Z')`, user)
	exec(`INSERT INTO webauthn_credentials (user_id, credential_id, public_key, name, backup_state)
		VALUES ($1, '\x01', '\x02', 'Mi teléfono', true)`, user)
	return &postgres.Store{DB: db}, user
}

// rawCodes are codes the tables hold that a person must never read in resumen.html.
var rawCodes = []string{"one_year", "five_years", "privacy_notice", "partner_notifications", "public_page", "partner_api",
	"Approved", "Declined", "In Review", "card", "oxxo", "paid", "apple", "google", "whatsapp", "en_proceso", "rectificacion",
	"client", "broker", "accepted", "pending", "didit", "production", "invitación", "expired", "true", "false"}

// TestTheExportSummaryReadsLikeALetter: the summary of a person with data in every section shows
// Spanish labels, codes in words, the notice's groups and Mexico City times; never a column name
// or a stored code. datos.json keeps its keys, each described in diccionario.json.
func TestTheExportSummaryReadsLikeALetter(t *testing.T) {
	t.Parallel()
	store, user := fullPerson(t)
	data, err := store.PersonalData(context.Background(), user)
	require.NoError(t, err)
	archive, err := worker.BuildExportArchive(data, time.Date(2026, 11, 26, 7, 30, 0, 0, time.UTC))
	require.NoError(t, err)
	files := unzipExport(t, archive)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	require.Equal(t, []string{"datos.json", "diccionario.json", "resumen.html"}, names)

	// datos.json: machine keys as before, every section filled here.
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(files["datos.json"]), &doc))
	datos := doc["datos"].(map[string]any)
	for _, section := range []string{"perfil", "consentimientos", "verificaciones_biometricas", "pagos", "invitaciones_enviadas",
		"invitaciones_recibidas", "pases", "credenciales", "consultas_a_tu_perfil", "sesiones", "solicitudes_arco", "recordatorios",
		"llaves_de_acceso"} {
		require.NotEmpty(t, datos[section], section)
	}
	require.Equal(t, "one_year", datos["perfil"].(map[string]any)["plan"], "datos.json keeps the stored codes")

	// diccionario.json: every key of datos.json described in Spanish.
	var dict dictionary
	require.NoError(t, json.Unmarshal([]byte(files["diccionario.json"]), &dict))
	keys := map[string]bool{}
	jsonKeys("", doc, keys)
	require.Greater(t, len(keys), 100)
	for k := range keys {
		require.NotEmpty(t, strings.TrimSpace(dict.Claves[k]), "datos.json key %q has no description in diccionario.json", k)
	}
	require.Equal(t, "Validación 1 año", dict.Valores["datos.perfil.plan"]["one_year"])
	require.Equal(t, "Página pública / QR", dict.Valores["datos.consultas_a_tu_perfil.canal"]["public_page"])

	page := files["resumen.html"]
	// No column name: every snake_case key of datos.json, and the section keys.
	for k := range keys {
		last := k[strings.LastIndex(k, ".")+1:]
		if strings.Contains(last, "_") {
			require.NotContains(t, page, last, "resumen.html shows the column name %q", last)
		}
	}
	// No stored code, as a whole word.
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " ")
	for _, code := range rawCodes {
		require.NotRegexp(t, `(^|[^\pL_])`+regexp.QuoteMeta(code)+`($|[^\pL_])`, text, "resumen.html shows the code %q", code)
	}

	for _, want := range []string{
		// The notice's groups.
		"Identificación y contacto", "Resultados de la verificación biométrica (datos personales sensibles)",
		"Tu validación y tus documentos digitales", "Pagos", "Datos técnicos", "Tus consentimientos y solicitudes",
		// Labels, plans as the app names them, purposes as the notice names them.
		"ID de perfil", "Última actualización", "Verificación biométrica aprobada", "Validación 1 año", "Nivel 3 (verificación biométrica)",
		"Invitación de otra persona", "Aviso de privacidad", "Avisos a plataformas aliadas", "No, lo retiraste",
		// Channels as Mi Perfil names them, statuses in words.
		"Página pública / QR", "API de CasaLista", "Validación vencida", "Aprobada", "Tarjeta", "Pagado", "$299.00 MXN",
		"Apple Wallet", "Google Wallet", "WhatsApp", "Acceso", "En proceso", "Mi Perfil", "Cliente", "Pendiente", "Aceptada",
		// Scores with what they measure.
		"Coincidencia facial", "88 de 100", "Cuánto se parece tu rostro a la foto de tu identificación", "Autenticidad del documento",
		"Prueba de vida",
		// Dates in Mexico City time, and the page says so.
		"hora de la Ciudad de México (America/Mexico_City)", "26/11/2026 01:30", "24/11/2026 12:05",
	} {
		require.Contains(t, page, want)
	}
	require.NotContains(t, page, "24/11/2026 18:05", "a UTC time")
}

// TestEveryKeyOfTheExportQueryIsDescribed reads the export query (postgres.PersonalData) and
// requires a description of each key it names, so a section that is empty in a test is covered too.
func TestEveryKeyOfTheExportQueryIsDescribed(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../postgres/privacy.go")
	require.NoError(t, err)
	body := string(src)
	start := strings.Index(body, "func (s *Store) PersonalData(")
	require.Positive(t, start)
	query := body[start:]
	query = query[:strings.Index(query, "`\n")]

	archive, err := worker.BuildExportArchive(json.RawMessage(`{}`), time.Now())
	require.NoError(t, err)
	var dict dictionary
	require.NoError(t, json.Unmarshal([]byte(unzipExport(t, archive)["diccionario.json"]), &dict))

	sectionRE := regexp.MustCompile(`'(\w+)', \(SELECT`)
	aliasRE := regexp.MustCompile(`\bAS (\w+)`)
	bounds := sectionRE.FindAllStringSubmatchIndex(query, -1)
	require.GreaterOrEqual(t, len(bounds), 13)
	checked := 0
	for i, b := range bounds {
		section := query[b[2]:b[3]]
		end := len(query)
		if i+1 < len(bounds) {
			end = bounds[i+1][0]
		}
		require.NotEmpty(t, dict.Claves["datos."+section], "section %q has no description", section)
		for _, m := range aliasRE.FindAllStringSubmatch(query[b[1]:end], -1) {
			require.NotEmpty(t, dict.Claves["datos."+section+"."+m[1]], "key %s.%s of the export query has no description", section, m[1])
			checked++
		}
	}
	require.Greater(t, checked, 60)
}

// TestTheExportShowsTheIdentityDocumentInWords (issue 52 item 9): the person's own identity
// document is in datos.json with its sealed fields opened (number, CURP, address in full: the
// person is entitled to them) and in resumen.html in words; without the document-data key the
// export fails rather than show sealed text.
func TestTheExportShowsTheIdentityDocumentInWords(t *testing.T) {
	t.Parallel()
	keyless, user := fullPerson(t)
	store := &postgres.Store{DB: keyless.DB, Documents: docKey}
	ctx := context.Background()
	var vid int64
	require.NoError(t, store.DB.Get(&vid, `SELECT id FROM verification_sessions WHERE user_id = $1`, user))
	doc := perfilseguro.DocumentIdentity{DocumentType: perfilseguro.DocumentINE, IssuingCountry: "MEX", IssuingState: "Ciudad de México",
		DocumentNumber: "IDMEX2031456789", PersonalNumber: "DIPR880314MDFZRS05", GivenNames: "ROSA", FirstSurname: "DÍAZ",
		SecondSurname: "PÉREZ", FullName: "ROSA DÍAZ PÉREZ", DateOfBirth: time.Date(1988, 3, 14, 0, 0, 0, 0, time.UTC), Sex: "F",
		Nationality: "MEX", IssueDate: time.Date(2021, 6, 10, 0, 0, 0, 0, time.UTC), ExpiryDate: time.Date(2031, 12, 31, 0, 0, 0, 0, time.UTC),
		Address: "Calle Sur 124 115, Ampliación Asturias, 06890 Cuauhtémoc, CDMX"}
	require.NoError(t, store.StoreDocument(ctx, store.DB, vid, doc))
	_, err := store.DB.Exec(`UPDATE verification_sessions SET identity_verdict = 'match' WHERE id = $1;`, vid)
	require.NoError(t, err)
	_, err = store.DB.Exec(`UPDATE users SET identity_verification_id = $2, name_source = 'document', document_expires_on = '2031-12-31',
		nombre = 'Rosa Díaz Pérez' WHERE id = $1`, user, vid)
	require.NoError(t, err)

	data, err := store.PersonalData(ctx, user)
	require.NoError(t, err)
	archive, err := worker.BuildExportArchive(data, time.Date(2026, 11, 28, 7, 30, 0, 0, time.UTC))
	require.NoError(t, err)
	files := unzipExport(t, archive)

	var out map[string]any
	require.NoError(t, json.Unmarshal([]byte(files["datos.json"]), &out))
	datos := out["datos"].(map[string]any)
	docs := datos["documentos_de_identidad"].([]any)
	require.Len(t, docs, 1)
	d := docs[0].(map[string]any)
	require.Equal(t, "DIPR880314MDFZRS05", d["curp"], "the person's own CURP, opened")
	require.Equal(t, "IDMEX2031456789", d["numero"])
	require.Equal(t, doc.Address, d["domicilio"])
	require.Equal(t, "1988-03-14", d["fecha_nacimiento"])
	require.Equal(t, "ine", d["tipo"], "datos.json keeps the stored codes")
	require.Equal(t, true, d["huella_guardada"])
	require.Equal(t, true, d["certifica_tu_perfil"])
	require.Equal(t, "document", datos["perfil"].(map[string]any)["nombre_tomado_de"])
	require.NotContains(t, files["datos.json"], "doc_", "no column name")
	var dict dictionary
	require.NoError(t, json.Unmarshal([]byte(files["diccionario.json"]), &dict))
	keys := map[string]bool{}
	jsonKeys("", out, keys)
	for k := range keys {
		require.NotEmpty(t, strings.TrimSpace(dict.Claves[k]), "datos.json key %q has no description", k)
	}

	page := files["resumen.html"]
	for _, want := range []string{
		"Datos de tu identificación oficial", "Lo que leímos de tu identificación", "Credencial para votar (INE)", "México",
		"ROSA", "DÍAZ", "PÉREZ", "14/03/1988", "Mujer", "Mexicana", "10/06/2021", "31/12/2031",
		"IDMEX2031456789", "DIPR880314MDFZRS05", "Ampliación Asturias", "Coincide con tu registro",
		"Huella para «una identificación, un perfil»", "Valida tu perfil",
		"De dónde viene tu nombre", "Tu identificación oficial", "Tu identificación vence el",
	} {
		require.Contains(t, page, want)
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " ")
	for _, code := range []string{"ine", "match", "document", "MEX"} {
		require.NotRegexp(t, `(^|[^\pL_])`+regexp.QuoteMeta(code)+`($|[^\pL_])`, text, "resumen.html shows the code %q", code)
	}

	// The sealed text never stands in for the data: without the key there is no export.
	_, err = keyless.PersonalData(ctx, user)
	require.ErrorIs(t, err, postgres.ErrNoDocumentKey)
}
