package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// consentless registers a person without the biometric consent signedUp gives.
func (e *lvEnv) consentless(t *testing.T) *lvClient {
	t.Helper()
	c := e.signedUp(t)
	_, err := e.db.Exec(`DELETE FROM consents WHERE user_id = $1 AND purpose = 'biometric'`, c.id)
	require.NoError(t, err)
	return c
}

func (c *lvClient) path(format string) string { return fmt.Sprintf(format, c.id) }

func TestBiometricCheckWaitsForTheExpressConsent(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	e.runWorker(t) // the provider session is created by the job
	a, b := e.consentless(t), e.signedUp(t)

	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "consentimiento expreso")
	require.Contains(t, out["message"], "biométricos")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_sessions WHERE user_id = $1`, a.id), "no session was started")

	// Listed as missing: the notice accepted at registration, the biometric consent not yet.
	status, out, _ = a.call("GET", a.path("/api/users/%d/consents"), nil)
	require.Equal(t, http.StatusOK, status, out)
	states := map[string]map[string]any{}
	for _, c := range out["consents"].([]any) {
		m := c.(map[string]any)
		states[m["purpose"].(string)] = m
	}
	require.Equal(t, true, states["privacy_notice"]["granted"])
	require.Equal(t, true, states["privacy_notice"]["current"])
	require.Equal(t, false, states["biometric"]["granted"])
	require.Equal(t, true, states["reminders"]["granted"], "a secondary purpose holds until objected to")
	require.Nil(t, states["reminders"]["recordedAt"])

	// Only the owner records it; malformed bodies and unknown purposes get a Spanish 400.
	status, _, _ = b.call("POST", a.path("/api/users/%d/consents"), map[string]string{"purpose": "biometric"})
	require.Equal(t, http.StatusForbidden, status)
	status, _, _ = e.anonymous(t).call("POST", a.path("/api/users/%d/consents"), map[string]string{"purpose": "biometric"})
	require.Equal(t, http.StatusUnauthorized, status)
	status, out, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]string{"purpose": "marketing"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["message"], "Finalidad no válida")
	status, out, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]any{"purpose": "biometric", "extra": 1})
	require.Equal(t, http.StatusBadRequest, status, out)
	status, out, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]any{"purpose": "privacy_notice", "granted": false})
	require.Equal(t, http.StatusConflict, status)
	require.Contains(t, out["message"], "aviso de privacidad es necesario")

	status, out, res := a.call("POST", a.path("/api/users/%d/consents"), map[string]string{"purpose": "biometric"})
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, "biometric", out["purpose"])
	require.Equal(t, perfilseguro.PrivacyNoticeVersion, out["noticeVersion"])
	require.NotNil(t, res)
	var rec struct {
		IP, UA, Version string
	}
	require.NoError(t, e.db.QueryRow(`SELECT ip_address, user_agent, notice_version FROM consents
		WHERE user_id = $1 AND purpose = 'biometric' ORDER BY id DESC LIMIT 1`, a.id).Scan(&rec.IP, &rec.UA, &rec.Version))
	require.Equal(t, "127.0.0.1", rec.IP)
	require.Contains(t, rec.UA, "Go-http-client")
	require.Equal(t, perfilseguro.PrivacyNoticeVersion, rec.Version)

	// Now it answers as before (payments are off here: the check starts).
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	require.NotEmpty(t, out["verificationUrl"])

	// A consent given under an older notice does not count.
	_, err := e.db.Exec(`UPDATE consents SET notice_version = '2025-01' WHERE user_id = $1`, a.id)
	require.NoError(t, err)
	status, _, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status)
	status, out, _ = a.call("GET", a.path("/api/users/%d/consents"), nil)
	require.Equal(t, http.StatusOK, status)
	for _, c := range out["consents"].([]any) {
		if m := c.(map[string]any); m["purpose"] == "privacy_notice" {
			require.Equal(t, false, m["current"], "an old notice version asks for consent again")
		}
	}
}

func TestConsentChangesAreRateLimited(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	last := 0
	for i := 0; i < 31; i++ {
		last, _, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]any{"purpose": "reminders", "granted": i%2 == 0})
	}
	require.Equal(t, http.StatusTooManyRequests, last)
}

func TestObjectingToASecondaryUseIsRecordedAndStopsIt(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	status, out, _ := a.call("POST", a.path("/api/users/%d/consents"), map[string]any{"purpose": "reminders", "granted": false})
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, false, out["granted"])

	status, list, _ := a.call("GET", a.path("/api/users/%d/arco-requests"), nil)
	require.Equal(t, http.StatusOK, status)
	_ = list
	var arco struct{ Type, State string }
	require.NoError(t, e.db.QueryRow(`SELECT type, state FROM arco_requests WHERE user_id = $1`, a.id).Scan(&arco.Type, &arco.State))
	require.Equal(t, "oposicion", arco.Type)
	require.Equal(t, "atendida", arco.State)

	// A validated person near expiry who objected gets no reminder recorded.
	_, err := e.db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true,
		fecha_validacion = now() - interval '1 year' + interval '5 days' WHERE id = $1`, a.id)
	require.NoError(t, err)
	w := e.worker()
	task, err := jobs.NewRecordRemindersTask("t1")
	require.NoError(t, err)
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	reminders := countOf(t, e.db, `SELECT count(*) FROM expiry_reminders WHERE user_id = $1`, a.id)
	require.Zero(t, reminders)

	// Switched back on, the reminders come.
	status, _, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]any{"purpose": "reminders", "granted": true})
	require.Equal(t, http.StatusCreated, status)
	task, _ = jobs.NewRecordRemindersTask("t2")
	require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
	reminders = countOf(t, e.db, `SELECT count(*) FROM expiry_reminders WHERE user_id = $1`, a.id)
	require.Equal(t, 2, reminders, "e-mail and WhatsApp, 7 days ahead")
}

// runExport processes the queued export job of exportID as the worker would.
func (e *lvEnv) runExport(t *testing.T, exportID int64) {
	t.Helper()
	insp := asynq.NewInspector(e.opt)
	defer insp.Close()
	info, err := insp.GetTaskInfo(jobs.QueueDefault, fmt.Sprintf("%s:%d", jobs.TypeBuildDataExport, exportID))
	require.NoError(t, err)
	require.NoError(t, e.worker().Handler().ProcessTask(context.Background(), asynq.NewTask(info.Type, info.Payload)))
}

var exportLink = regexp.MustCompile(`/api/data-export\?token=([0-9a-f]{64})`)

func TestDataExportIsOneADayAndItsLinkDownloadsOnlyTheirDataOnce(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a, b := e.signedUp(t), e.signedUp(t)
	var aEmail, bEmail, bPhone string
	require.NoError(t, e.db.Get(&aEmail, `SELECT email FROM users WHERE id = $1`, a.id))
	require.NoError(t, e.db.QueryRow(`SELECT email, phone_number FROM users WHERE id = $1`, b.id).Scan(&bEmail, &bPhone))
	// b looked a up on the public page: a sees it, and b's address never appears in a's data.
	_, err := e.db.Exec(`INSERT INTO verification_logs (user_id, id_validado, ip_address, user_agent, granted, request_id)
		SELECT id, id_validado, '198.51.100.77', 'Navegador de Bruno', true, 'lookup-1' FROM users WHERE id = $1`, a.id)
	require.NoError(t, err)

	status, _, _ := b.call("POST", a.path("/api/users/%d/data-export"), nil)
	require.Equal(t, http.StatusForbidden, status)
	status, out, _ := a.call("POST", a.path("/api/users/%d/data-export"), nil)
	require.Equal(t, http.StatusAccepted, status, out)
	exportID := int64(out["id"].(float64))
	status, out, res := a.call("POST", a.path("/api/users/%d/data-export"), nil)
	require.Equal(t, http.StatusTooManyRequests, status, out)
	require.Contains(t, out["message"], "hoy")
	require.NotEmpty(t, res.Header.Get("Retry-After"))

	e.runExport(t, exportID)
	var mail string
	require.NoError(t, e.db.Get(&mail, `SELECT body_text FROM dev_messages WHERE recipient = $1 AND channel = 'email'
		AND subject LIKE '%copia de datos%'`, aEmail))
	m := exportLink.FindStringSubmatch(mail)
	require.NotNil(t, m, mail)
	status, out, _ = a.call("GET", a.path("/api/users/%d/data-exports"), nil)
	require.Equal(t, http.StatusOK, status)

	// Anyone holding the link downloads it, once.
	dl := e.anonymous(t)
	status, body, res := dl.call("GET", "/api/data-export?token="+m[1], nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "application/zip", res.Header.Get("Content-Type"))
	raw := body["_raw"].(string)
	zr, err := zip.NewReader(bytes.NewReader([]byte(raw)), int64(len(raw)))
	require.NoError(t, err)
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	require.Contains(t, files, "datos.json")
	require.Contains(t, files, "resumen.html")
	var doc struct {
		Datos map[string]json.RawMessage `json:"datos"`
	}
	require.NoError(t, json.Unmarshal([]byte(files["datos.json"]), &doc))
	for _, section := range []string{"perfil", "consentimientos", "verificaciones_biometricas", "pagos", "invitaciones_enviadas",
		"invitaciones_recibidas", "pases", "credenciales", "consultas_a_tu_perfil", "sesiones", "solicitudes_arco"} {
		require.Contains(t, doc.Datos, section)
	}
	require.Contains(t, string(doc.Datos["perfil"]), aEmail)
	require.Contains(t, string(doc.Datos["consentimientos"]), "biometric")
	require.Contains(t, string(doc.Datos["consultas_a_tu_perfil"]), "public_page")
	for _, leak := range []string{bEmail, bPhone, "198.51.100.77", "Navegador de Bruno", "code_hash", "token_hash"} {
		require.NotContains(t, files["datos.json"], leak)
		require.NotContains(t, files["resumen.html"], leak)
	}
	require.Contains(t, files["resumen.html"], "Tus datos en Perfil Seguro")
	require.Contains(t, files["resumen.html"], aEmail)

	status, out, _ = dl.call("GET", "/api/data-export?token="+m[1], nil)
	require.Equal(t, http.StatusGone, status, "single use")
	require.Contains(t, out["_raw"], "ya se usó o venció")
	status, _, _ = dl.call("GET", "/api/data-export?token="+strings.Repeat("0", 64), nil)
	require.Equal(t, http.StatusNotFound, status)
	status, _, _ = dl.call("GET", "/api/data-export?token=abc", nil)
	require.Equal(t, http.StatusNotFound, status)
	archive := dbGet[[]byte](t, e.db, `SELECT COALESCE(archive, '') FROM data_exports WHERE id = $1`, exportID)
	require.Empty(t, archive, "the archive is erased once downloaded")
	state := dbGet[string](t, e.db, `SELECT state FROM arco_requests WHERE user_id = $1 AND type = 'acceso'`, a.id)
	require.Equal(t, "atendida", state)
}

func TestADataExportThatCannotBeQueuedLeavesNothing(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	e.queue.setDead(true)
	status, out, _ := a.call("POST", a.path("/api/users/%d/data-export"), nil)
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Zero(t, countOf(t, e.db, `SELECT (SELECT count(*) FROM data_exports) + (SELECT count(*) FROM arco_requests)`))
	e.queue.setDead(false)
	status, out, _ = a.call("POST", a.path("/api/users/%d/data-export"), nil)
	require.Equal(t, http.StatusAccepted, status, out, "the day's export was not spent")
}

func TestOwnDeletionNeedsAFreshCodeAndKeepsOnlyTheReceipt(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a, b := e.signedUp(t), e.signedUp(t)
	profileID := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, a.id)
	_, err := e.db.Exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key, paid_at)
		VALUES ($1, 'one_year', 1, 29900, 'devsim', 'paid', 'k-del', now())`, a.id)
	require.NoError(t, err)

	status, out, _ := a.call("DELETE", a.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusForbidden, status, out)
	require.Contains(t, out["message"], "Confirma la eliminación")
	status, _, _ = b.call("DELETE", a.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusForbidden, status)

	status, out, _ = a.call("POST", a.path("/api/users/%d/confirmation-code"), nil)
	require.Equal(t, http.StatusAccepted, status, out)
	code := out["verificationCode"].(string)
	status, out, _ = a.call("POST", a.path("/api/users/%d/confirmation-code"), nil)
	require.Equal(t, http.StatusTooManyRequests, status, "resend cooldown")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	status, out, _ = a.call("POST", a.path("/api/users/%d/confirmation"), map[string]string{"code": wrong})
	require.Equal(t, http.StatusBadRequest, status, out)
	status, out, _ = a.call("POST", a.path("/api/users/%d/confirmation"), map[string]string{"code": "12"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "El código debe tener 6 dígitos", out["message"])
	// The confirmation code never signs anyone in.
	status, _, _ = e.anonymous(t).call("POST", "/api/verify-code", map[string]any{"userId": a.id, "code": code})
	require.NotEqual(t, http.StatusOK, status)
	status, out, _ = a.call("POST", a.path("/api/users/%d/confirmation"), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, status, out)
	require.NotEmpty(t, out["confirmedUntil"])

	status, out, res := a.call("DELETE", a.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Contains(t, res.Header.Get("Set-Cookie"), "Max-Age=0")
	var users, receipts, consents int
	require.NoError(t, e.db.Get(&users, `SELECT count(*) FROM users WHERE id = $1`, a.id))
	require.Zero(t, users)
	require.NoError(t, e.db.Get(&receipts, `SELECT count(*) FROM payments WHERE user_id IS NULL AND idempotency_key = 'k-del' AND amount_centavos = 29900`))
	require.Equal(t, 1, receipts, "the receipt stays, detached")
	require.NoError(t, e.db.Get(&consents, `SELECT count(*) FROM consents WHERE profile_id = $1 AND user_id IS NULL AND account_deleted_at IS NOT NULL`, profileID))
	require.GreaterOrEqual(t, consents, 2, "consents are kept blocked for the legal period")
	var arcoType, arcoState string
	require.NoError(t, e.db.QueryRow(`SELECT type, state FROM arco_requests WHERE profile_id = $1`, profileID).Scan(&arcoType, &arcoState))
	require.Equal(t, "cancelacion", arcoType)
	require.Equal(t, "atendida", arcoState)
	status, _, _ = a.call("GET", a.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusUnauthorized, status, "signed out: the session went with the account")
}

func TestAConfirmationOlderThanFiveMinutesDoesNotDelete(t *testing.T) {
	t.Parallel()
	clk := newClock()
	e := lvSetup(t, withClock(clk))
	a := e.signedUp(t)
	_, out, _ := a.call("POST", a.path("/api/users/%d/confirmation-code"), nil)
	status, out, _ := a.call("POST", a.path("/api/users/%d/confirmation"), map[string]string{"code": out["verificationCode"].(string)})
	require.Equal(t, http.StatusOK, status, out)
	clk.Advance(6 * time.Minute)
	status, _, _ = a.call("DELETE", a.path("/api/users/%d"), nil)
	require.Equal(t, http.StatusForbidden, status)
}

func TestConsultationsListLookupsWithoutAddressesPagedNewestFirst(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a, b := e.signedUp(t), e.signedUp(t)
	_, err := e.db.Exec(`INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_casalista', 'CasaLista', 'casalista.mx')`)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO verification_logs (user_id, id_validado, scanned_at, ip_address, user_agent, access_type, granted, request_id, partner_id)
		SELECT u.id, u.id_validado, now() - make_interval(mins => g), '203.0.113.' || g, 'UA ' || g,
			CASE WHEN g % 2 = 0 THEN 'partner_api' ELSE 'public_page' END, true, 'r-' || u.id || '-' || g,
			CASE WHEN g % 2 = 0 THEN (SELECT id FROM api_keys WHERE key_id = 'pk_casalista') END
		FROM users u, generate_series(1, 25) g WHERE u.id = $1`, a.id)
	require.NoError(t, err)

	status, _, _ := b.call("GET", a.path("/api/users/%d/consultations"), nil)
	require.Equal(t, http.StatusForbidden, status)
	status, out, _ := a.call("GET", a.path("/api/users/%d/consultations")+"?limit=10", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.NotContains(t, out["_raw"], "203.0.113")
	require.NotContains(t, out["_raw"], "UA ")
	items := out["items"].([]any)
	require.Len(t, items, 10)
	first := items[0].(map[string]any)
	require.Equal(t, "public_page", first["channel"], "1 minute ago, the newest")
	second := items[1].(map[string]any)
	require.Equal(t, "partner_api", second["channel"])
	require.Equal(t, "CasaLista", second["partnerName"])

	seen := len(items)
	cursor := out["nextCursor"].(string)
	for cursor != "" {
		status, out, _ = a.call("GET", a.path("/api/users/%d/consultations")+"?limit=10&before="+cursor, nil)
		require.Equal(t, http.StatusOK, status, out)
		seen += len(out["items"].([]any))
		cursor, _ = out["nextCursor"].(string)
	}
	require.Equal(t, 25, seen, "every lookup once across the pages")
	status, out, _ = a.call("GET", a.path("/api/users/%d/consultations")+"?before=nonsense", nil)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "Cursor no válido", out["message"])
	status, _, _ = a.call("GET", a.path("/api/users/%d/consultations")+"?limit=1000", nil)
	require.Equal(t, http.StatusBadRequest, status)
}

func TestANewNameAfterLevel3AnnulsTheValidationOnlyWhenConfirmed(t *testing.T) {
	t.Parallel()
	e, a := lvSetup(t).withWorkerAndPerson(t)
	status, out, _ := a.call("PUT", a.path("/api/users/%d/personal-data"), map[string]any{"nombre": "  Elena   Márquez Ruiz "})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "Elena Márquez Ruiz", out["nombre"], "below level 3 the name just changes")
	status, out, _ = a.call("PUT", a.path("/api/users/%d/personal-data"), map[string]any{"nombre": "E"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "El nombre completo debe tener al menos 3 caracteres", out["message"])

	_, err := e.db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = now() WHERE id = $1`, a.id)
	require.NoError(t, err)
	_, err = e.db.Exec(`INSERT INTO credentials (user_id, status_idx, expires_at) VALUES ($1, 7, now() + interval '1 year')`, a.id)
	require.NoError(t, err)
	status, out, _ = a.call("PUT", a.path("/api/users/%d/personal-data"), map[string]any{"nombre": "Elena Ruiz"})
	require.Equal(t, http.StatusConflict, status)
	require.Contains(t, out["message"], "tendrás que validar tu identidad de nuevo")
	status, out, _ = a.call("PUT", a.path("/api/users/%d/personal-data"), map[string]any{"nombre": "Elena Ruiz", "confirmRevalidation": true})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "Elena Ruiz", out["nombre"])
	require.Equal(t, 2.0, out["verificationLevel"])
	require.Equal(t, false, out["biometricVerified"])
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM credentials WHERE user_id = $1 AND revoked_at IS NOT NULL`, a.id))
	// The consent stands; the new check may start at once (not paid again).
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, 2, countOf(t, e.db, `SELECT count(*) FROM arco_requests WHERE user_id = $1 AND type = 'rectificacion'`, a.id))
}

func TestAContactChangeIsProvedByACodeToTheNewAddress(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a, b := e.signedUp(t), e.signedUp(t)
	bEmail := dbGet[string](t, e.db, `SELECT email FROM users WHERE id = $1`, b.id)
	// First a confirmation from the current contact (account_changes_test.go tests it).
	_, out, _ := a.call("POST", a.path("/api/users/%d/confirmation-code"), nil)
	status, out, _ := a.call("POST", a.path("/api/users/%d/confirmation"), map[string]string{"code": out["verificationCode"].(string)})
	require.Equal(t, http.StatusOK, status, out)

	status, out, _ = a.call("POST", a.path("/api/users/%d/contact-change"), map[string]string{"email": bEmail})
	require.Equal(t, http.StatusConflict, status, out)
	require.Contains(t, out["message"], "ya está registrado")
	status, out, _ = a.call("POST", a.path("/api/users/%d/contact-change"), map[string]string{"email": "no-es-correo"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "Correo electrónico no válido", out["message"])
	status, _, _ = a.call("POST", a.path("/api/users/%d/contact-change"), map[string]string{"email": "x@example.com", "phoneNumber": "5512345678"})
	require.Equal(t, http.StatusBadRequest, status)

	status, out, _ = a.call("POST", a.path("/api/users/%d/contact-change"), map[string]string{"email": "Nueva.Elena@Example.com"})
	require.Equal(t, http.StatusAccepted, status, out)
	require.Equal(t, "email", out["channel"])
	code := out["verificationCode"].(string)
	dest := dbGet[string](t, e.db, `SELECT destination FROM email_verification_codes WHERE user_id = $1 AND purpose = 'contact_change'`, a.id)
	require.Equal(t, "nueva.elena@example.com", dest, "the code goes to the new address")

	status, _, _ = b.call("POST", a.path("/api/users/%d/contact-change/verify"), map[string]string{"code": code})
	require.Equal(t, http.StatusForbidden, status)
	status, out, _ = a.call("POST", a.path("/api/users/%d/contact-change/verify"), map[string]string{"code": code})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "nueva.elena@example.com", out["email"])
	status, _, _ = a.call("POST", a.path("/api/users/%d/contact-change/verify"), map[string]string{"code": code})
	require.Equal(t, http.StatusBadRequest, status, "the code works once")
}

func TestAdministratorsSeeOpenArcoRequestsOldestFirstWithDaysLeft(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	a := e.signedUp(t)
	profileID := dbGet[string](t, e.db, `SELECT id_validado FROM users WHERE id = $1`, a.id)
	admin := e.anonymous(t)
	status, out, _ := admin.call("POST", "/api/admin/login", map[string]string{"password": config.DevAdminPassword})
	require.Equal(t, http.StatusOK, status, out)

	status, _, _ = a.call("GET", "/api/admin/arco-requests", nil)
	require.Equal(t, http.StatusForbidden, status, "a person is not an administrator")
	status, _, _ = e.anonymous(t).call("GET", "/api/admin/arco-requests", nil)
	require.Equal(t, http.StatusUnauthorized, status)
	status, out, _ = admin.call("POST", "/api/admin/arco-requests", map[string]string{"profileId": profileID, "type": "acceso", "details": "x"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["errors"], "details")
	status, _, _ = admin.call("POST", "/api/admin/arco-requests", map[string]string{"profileId": "PS-0000-0000-00", "type": "acceso", "details": "Pide sus datos"})
	require.Equal(t, http.StatusNotFound, status)
	status, out, _ = admin.call("POST", "/api/admin/arco-requests", map[string]string{"profileId": profileID, "type": "rectificacion",
		"details": "Escribió a privacidad@ pidiendo corregir su apellido"})
	require.Equal(t, http.StatusCreated, status, out)
	require.Equal(t, "correo", out["channel"])
	require.Equal(t, "recibida", out["state"])
	require.InDelta(t, 20, out["businessDaysLeft"], 1)
	id := int64(out["id"].(float64))
	// An older one, received 30 calendar days ago, is overdue and listed first.
	_, err := e.db.Exec(`INSERT INTO arco_requests (user_id, profile_id, type, channel, received_at, due_at)
		VALUES ($1, $2, 'acceso', 'correo', now() - interval '30 days', now() - interval '2 days')`, a.id, profileID)
	require.NoError(t, err)
	status, out, _ = admin.call("GET", "/api/admin/arco-requests", nil)
	require.Equal(t, http.StatusOK, status)
	var list []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out["_raw"].(string)), &list))
	require.Len(t, list, 2)
	require.Equal(t, "acceso", list[0]["type"])
	require.Less(t, list[0]["businessDaysLeft"].(float64), 0.0)

	status, _, _ = admin.call("PUT", fmt.Sprintf("/api/admin/arco-requests/%d", id), map[string]string{"state": "atendida", "resolution": "ok"})
	require.Equal(t, http.StatusBadRequest, status)
	status, out, _ = admin.call("PUT", fmt.Sprintf("/api/admin/arco-requests/%d", id), map[string]string{"state": "atendida", "resolution": "Apellido corregido"})
	require.Equal(t, http.StatusOK, status, out)
	require.NotNil(t, out["resolvedAt"])
	status, _, _ = admin.call("PUT", fmt.Sprintf("/api/admin/arco-requests/%d", id), map[string]string{"state": "rechazada", "resolution": "Otra vez"})
	require.Equal(t, http.StatusConflict, status)
	status, out, _ = admin.call("GET", "/api/admin/arco-requests", nil)
	require.Equal(t, http.StatusOK, status)
	require.NoError(t, json.Unmarshal([]byte(out["_raw"].(string)), &list))
	require.Len(t, list, 1, "answered ones leave the open list")
}

func TestTheNoticeDataComeFromTheCode(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	status, out, _ := e.anonymous(t).call("GET", "/api/legal", nil)
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "2026-11-28.2", out["version"], "the notice that names the LFPIORPI declaration and file (issue 53)")
	require.Equal(t, "2026-11-28", out["date"])
	require.Equal(t, "privacidad@perfilseguro.mx", out["privacyEmail"])
	require.Equal(t, "Perfil Seguro, S.A. de C.V.", out["legalName"])
	require.Len(t, out["retention"], 12) // with the audit trail (0017), wallet presentations (0019), partners' test sessions (0020), test people (0022), ARCO requests (0029) and LFPIORPI files (issue 53)
	require.Equal(t, "arco_requests", out["retention"].([]any)[10].(map[string]any)["key"])
	aml := out["retention"].([]any)[11].(map[string]any)
	require.Equal(t, "aml_files", aml["key"])
	require.Contains(t, aml["period"], "10 años desde la operación, aun si eliminas tu cuenta (LFPIORPI, art. 18, reformado el 16 de julio de 2025)")
	require.Len(t, out["secondaryPurposes"], 2)
	require.Len(t, out["primaryPurposes"], len(perfilseguro.PrimaryPurposes))
	for _, p := range out["primaryPurposes"].([]any) {
		m := p.(map[string]any)
		require.NotEmpty(t, m["label"])
		require.NotEmpty(t, m["description"])
	}
}

// TestTheNoticeNamesTheIdentityDocumentsData (issue 52 item 9): the notice served to the full and
// the simplified pages says that level 3 certifies the document's data, keeps the keyed hash for
// "one ID, one profile" as a necessary purpose, and keeps both while the profile exists.
func TestTheNoticeNamesTheIdentityDocumentsData(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	status, out, _ := e.anonymous(t).call("GET", "/api/legal", nil)
	require.Equal(t, http.StatusOK, status, out)
	purposes := map[string]string{}
	for _, p := range out["primaryPurposes"].([]any) {
		m := p.(map[string]any)
		purposes[m["label"].(string)] = m["description"].(string)
	}
	require.Contains(t, purposes["Validar tu identidad"], "validamos lo que dice tu identificación")
	require.Contains(t, purposes["Validar tu identidad"], "CURP")
	require.Contains(t, purposes, "Una identificación, un perfil")
	require.Contains(t, purposes["Una identificación, un perfil"], "huella cifrada de tu CURP")
	account := out["retention"].([]any)[0].(map[string]any)
	require.Equal(t, "account", account["key"])
	require.Contains(t, account["data"], "identificación oficial")
	require.Contains(t, account["data"], "huella cifrada")
	require.Equal(t, "Mientras tu cuenta exista; se borra al eliminarla", account["period"])
}

// TestTheNoticeNamesTheAuthorityOfThe2025Law: since 21 March 2025 the Secretaría Anticorrupción y
// Buen Gobierno does what the INAI did for private parties; the notice names it and its website
// instead of "la autoridad competente".
func TestTheNoticeNamesTheAuthorityOfThe2025Law(t *testing.T) {
	t.Parallel()
	e := lvSetup(t)
	status, out, _ := e.anonymous(t).call("GET", "/api/legal", nil)
	require.Equal(t, http.StatusOK, status, out)
	authority, ok := out["authority"].(map[string]any)
	require.True(t, ok, out)
	require.Equal(t, "Secretaría Anticorrupción y Buen Gobierno", authority["name"])
	require.Equal(t, "https://www.gob.mx/buengobierno", authority["url"])
	require.NotContains(t, out["_raw"], "autoridad competente")
	require.NotContains(t, out["_raw"], "INAI")
}

// TestAcceptancesOfTheOldNoticeAreAskedAgain: a person who accepted the notice of "2026-11-26" (the
// one before it named the identity document's data, issue 52) is asked for the new one in Mi Perfil, and the biometric check
// waits until they accept it and give the biometric consent again.
func TestAcceptancesOfTheOldNoticeAreAskedAgain(t *testing.T) {
	t.Parallel()
	const previous = "2026-11-26"
	require.NotEqual(t, previous, perfilseguro.PrivacyNoticeVersion, "the version was bumped")
	e, a := lvSetup(t).withWorkerAndPerson(t)
	_, err := e.db.Exec(`UPDATE consents SET notice_version = $2 WHERE user_id = $1`, a.id, previous)
	require.NoError(t, err)

	states := func() (string, map[string]map[string]any) {
		status, out, _ := a.call("GET", a.path("/api/users/%d/consents"), nil)
		require.Equal(t, http.StatusOK, status, out)
		m := map[string]map[string]any{}
		for _, c := range out["consents"].([]any) {
			c := c.(map[string]any)
			m[c["purpose"].(string)] = c
		}
		return out["noticeVersion"].(string), m
	}
	version, s := states()
	require.Equal(t, perfilseguro.PrivacyNoticeVersion, version)
	// Mi Perfil's "Actualizamos nuestro aviso de privacidad" card shows while the notice is not current.
	require.Equal(t, true, s["privacy_notice"]["granted"])
	require.Equal(t, false, s["privacy_notice"]["current"], "accepted under the old version: asked again")
	require.Equal(t, previous, s["privacy_notice"]["noticeVersion"])
	require.Equal(t, false, s["biometric"]["current"])
	status, out, _ := a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusConflict, status, out)

	for _, purpose := range []string{"privacy_notice", "biometric"} {
		status, out, _ = a.call("POST", a.path("/api/users/%d/consents"), map[string]string{"purpose": purpose})
		require.Equal(t, http.StatusCreated, status, out)
		require.Equal(t, perfilseguro.PrivacyNoticeVersion, out["noticeVersion"])
	}
	_, s = states()
	require.Equal(t, true, s["privacy_notice"]["current"])
	require.Equal(t, true, s["biometric"]["current"])
	status, out, _ = a.call("POST", "/api/start-verification", map[string]any{"userId": a.id})
	require.Equal(t, http.StatusOK, status, out)
}
