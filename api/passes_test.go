package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hibiken/asynq"
	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/provider/googlewallet"
)

func TestQRImageEncodesThePublicLinkAndIsCacheable(t *testing.T) {
	t.Parallel()
	e := setup(t)
	// Any well-formed ID gets its QR without a database lookup (decision: no 404 for unknown IDs).
	res, body := get(t, e.srv.Client(), e.srv.URL+"/api/qr/PS-1234-5678-90.png")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "image/png", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Cache-Control"), "public")
	require.Contains(t, res.Header.Get("Cache-Control"), "max-age=604800")
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)

	img, err := png.Decode(bytes.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, 300, img.Bounds().Dx())
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	require.NoError(t, err)
	text, err := gozxingqr.NewQRCodeReader().Decode(bmp, nil)
	require.NoError(t, err)
	require.Equal(t, testBaseURL+"/verify/PS-1234-5678-90", text.GetText())

	res, body = get(t, e.srv.Client(), e.srv.URL+"/api/qr/PS-1234-5678-90.png", "If-None-Match", etag)
	require.Equal(t, http.StatusNotModified, res.StatusCode)
	require.Empty(t, body)

	res, body = get(t, e.srv.Client(), e.srv.URL+"/api/qr/PS-1234-5678-90.png?size=150")
	require.Equal(t, http.StatusOK, res.StatusCode)
	img, err = png.Decode(bytes.NewReader(body))
	require.NoError(t, err)
	require.Equal(t, 150, img.Bounds().Dx())
	require.NotEqual(t, etag, res.Header.Get("ETag"))

	for _, path := range []string{"/api/qr/PS-1234-5678.png", "/api/qr/PS-1234-5678-90", "/api/qr/PS-1234-5678-90.jpg",
		"/api/qr/ps-1234-5678-90.png", "/api/qr/PS-1234-5678-90.png?size=5000"} {
		res, body := get(t, e.srv.Client(), e.srv.URL+path)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, path)
		require.NotContains(t, res.Header.Get("Cache-Control"), "public", path)
		if !strings.Contains(path, "size") {
			require.Contains(t, string(body), "ID de perfil no válido", path)
		}
	}
}

type verifyBody struct {
	Profile struct {
		Nombre            string     `json:"nombre"`
		Telefono          *string    `json:"telefono"`
		Email             *string    `json:"email"`
		Origen            string     `json:"origen"`
		ID                string     `json:"id"`
		NivelVerificacion int        `json:"nivel_verificacion"`
		Verificado        bool       `json:"verificado"`
		Expirado          bool       `json:"expirado"`
		FechaValidacion   *time.Time `json:"fecha_validacion"`
		FechaExpiracion   *time.Time `json:"fecha_expiracion"`
		VigenciaAnos      int        `json:"vigencia_anos"`
	} `json:"profile"`
	VerificationDetails *struct {
		SessionID         string     `json:"session_id"`
		Ambiente          string     `json:"ambiente"`
		FechaVerificacion *time.Time `json:"fecha_verificacion"`
		Scores            struct {
			Overall   *float64 `json:"overall"`
			FaceMatch *float64 `json:"face_match"`
			Document  *float64 `json:"document"`
			Liveness  *float64 `json:"liveness"`
		} `json:"scores"`
	} `json:"verification_details"`
	Timestamp time.Time `json:"timestamp"`
}

func (e *env) verify(t *testing.T, profileID string) (int, verifyBody, string) {
	t.Helper()
	res, body := get(t, e.srv.Client(), e.srv.URL+"/api/verify/"+profileID)
	var v verifyBody
	if res.StatusCode == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, &v))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	}
	return res.StatusCode, v, string(body)
}

func TestPublicVerificationMasksContactsAndComputesExpiry(t *testing.T) {
	t.Parallel()
	e := setup(t)
	now := time.Now()
	recent := now.AddDate(0, -2, 0)
	old := now.AddDate(-2, 0, 0)
	cases := []struct {
		name         string
		s            seeded
		level        int
		verified     bool
		expired      bool
		expiresYears int
	}{
		{"expired level 3", seeded{Level: 3, Validated: &old, Vigencia: 1}, 3, true, true, 1},
		{"verified level 3 for 5 years", seeded{Level: 3, Validated: &old, Vigencia: 5}, 3, true, false, 5},
		{"level 2", seeded{Level: 2}, 2, false, false, 0},
		{"level 1", seeded{Level: 1}, 1, false, false, 0},
		{"level 0", seeded{Level: 0}, 0, false, false, 0},
		{"level 3 validated recently", seeded{Level: 3, Validated: &recent, Vigencia: 1}, 3, true, false, 1},
	}
	for i, c := range cases {
		c.s.Email = "maria." + strings.ReplaceAll(c.name, " ", "") + "@gmail.com"
		c.s.Phone = "+52551234" + strconv.Itoa(5670+i)
		id, pid := seedUser(t, e.db, c.s)
		_ = id
		status, v, _ := e.verify(t, pid)
		require.Equal(t, http.StatusOK, status, c.name)
		p := v.Profile
		require.Equal(t, pid, p.ID, c.name)
		require.Equal(t, "María Fernanda López", p.Nombre)
		require.Equal(t, "Otro", p.Origen)
		require.Equal(t, c.level, p.NivelVerificacion, c.name)
		require.Equal(t, c.verified, p.Verificado, c.name)
		require.Equal(t, c.expired, p.Expirado, c.name)
		require.Equal(t, max(c.s.Vigencia, 1), p.VigenciaAnos, c.name)
		require.NotNil(t, p.Email)
		require.Equal(t, "m•••@gmail.com", *p.Email, c.name)
		require.NotNil(t, p.Telefono)
		require.Equal(t, "+52 •• •••• "+c.s.Phone[len(c.s.Phone)-4:], *p.Telefono)
		if c.s.Validated == nil {
			require.Nil(t, p.FechaValidacion)
			require.Nil(t, p.FechaExpiracion)
		} else {
			require.WithinDuration(t, *c.s.Validated, *p.FechaValidacion, time.Millisecond)
			require.WithinDuration(t, c.s.Validated.AddDate(c.expiresYears, 0, 0), *p.FechaExpiracion, time.Millisecond)
		}
		require.Nil(t, v.VerificationDetails, "no biometric session yet")
		require.WithinDuration(t, time.Now(), v.Timestamp, 10*time.Second)
	}
}

func TestPublicVerificationShowsTheLatestSession(t *testing.T) {
	t.Parallel()
	e := setup(t)
	validated := time.Now().Add(-time.Hour)
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	_, err := e.db.Exec(`INSERT INTO verification_sessions (user_id, session_id, verification_status, overall_score,
		face_match_score, document_score, liveness_score, environment, created_at, completed_at)
		VALUES ($1, 'old-session', 'Declined', 10, 20, 30, 40, 'sandbox', now() - interval '2 days', now() - interval '2 days'),
		       ($1, 'new-session', 'Approved', 97.5, 98.25, 96, 99, 'production', now() - interval '1 hour', now() - interval '1 hour')`, id)
	require.NoError(t, err)
	status, v, _ := e.verify(t, pid)
	require.Equal(t, http.StatusOK, status)
	d := v.VerificationDetails
	require.NotNil(t, d)
	require.Equal(t, "new-session", d.SessionID)
	require.Equal(t, "production", d.Ambiente)
	require.InDelta(t, 97.5, *d.Scores.Overall, 0.001)
	require.InDelta(t, 98.25, *d.Scores.FaceMatch, 0.001)
	require.InDelta(t, 96, *d.Scores.Document, 0.001)
	require.InDelta(t, 99, *d.Scores.Liveness, 0.001)
	require.WithinDuration(t, time.Now().Add(-time.Hour), *d.FechaVerificacion, time.Minute)
}

func TestPublicVerificationRejectsMalformedAndUnknownIDs(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, bad := range []string{"123", "PS-1234-5678-9", "PS-12345678-90", "PS-1234-5678-90x", "%20PS-1234-5678-90"} {
		status, _, body := e.verify(t, bad)
		require.Equal(t, http.StatusBadRequest, status, bad)
		require.Contains(t, body, "ID de perfil no válido", bad)
	}
	status, _, body := e.verify(t, "PS-0000-0000-00")
	require.Equal(t, http.StatusNotFound, status)
	require.Contains(t, body, "No se encontró ningún perfil con ese ID.")
}

func TestPublicVerificationIsLoggedByTheJobNotInline(t *testing.T) {
	t.Parallel()
	e := setup(t)
	validated := time.Now().AddDate(0, -1, 0)
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})

	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/api/verify/"+pid, nil)
	req.Header.Set("User-Agent", "Escáner QR/1.0")
	req.Header.Set("X-Request-Id", "abcdef0123456789")
	res, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	status, _, _ := e.verify(t, "PS-0000-0000-01") // unknown: logged as refused
	require.Equal(t, http.StatusNotFound, status)

	count := func() int {
		return countOf(t, e.db, `SELECT count(*) FROM verification_logs`)
	}
	require.Equal(t, 0, count(), "the response path writes nothing")

	var tasks []*asynq.TaskInfo
	entries := func() int {
		n := 0
		for _, task := range tasks {
			var p jobs.VerifyLogPayload
			require.NoError(t, json.Unmarshal(task.Payload, &p))
			n += len(p.Entries)
		}
		return n
	}
	require.Eventually(t, func() bool { tasks = e.pendingTasks(t, jobs.QueueLow); return entries() == 2 },
		5*time.Second, 20*time.Millisecond)
	w := e.worker(t)
	for _, task := range tasks {
		require.Equal(t, jobs.TypeVerifyLog, task.Type)
		require.Equal(t, jobs.TypeVerifyLog+":", task.ID[:len(jobs.TypeVerifyLog)+1])
		// Twice: a retried task writes each row once.
		for range 2 {
			require.NoError(t, w.Handler().ProcessTask(context.Background(), asynq.NewTask(task.Type, task.Payload)))
		}
	}
	require.Equal(t, 2, count())

	type logRow struct {
		UserID     *int64  `db:"user_id"`
		IDValidado string  `db:"id_validado"`
		IP         string  `db:"ip_address"`
		UA         string  `db:"user_agent"`
		Access     string  `db:"access_type"`
		Granted    bool    `db:"granted"`
		Reason     *string `db:"reason"`
		Extra      *string `db:"additional_data"`
	}
	var rows []logRow
	require.NoError(t, e.db.Select(&rows, `SELECT user_id, id_validado, ip_address, user_agent, access_type, granted,
		reason, additional_data::text AS additional_data FROM verification_logs ORDER BY granted DESC`))
	require.NotNil(t, rows[0].UserID)
	require.Equal(t, id, *rows[0].UserID)
	require.Equal(t, pid, rows[0].IDValidado)
	require.Equal(t, "127.0.0.1", rows[0].IP)
	require.Equal(t, "Escáner QR/1.0", rows[0].UA)
	require.Equal(t, "public_page", rows[0].Access)
	require.True(t, rows[0].Granted)
	require.Nil(t, rows[0].Reason)
	require.Contains(t, *rows[0].Extra, "abcdef0123456789")
	require.Nil(t, rows[1].UserID)
	require.False(t, rows[1].Granted)
	require.Equal(t, "not_found", *rows[1].Reason)
}

func TestPublicVerificationAnswersWhenRedisIsDown(t *testing.T) {
	t.Parallel()
	e := setup(t, withDeadQueue)
	validated := time.Now()
	_, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	status, v, _ := e.verify(t, pid)
	require.Equal(t, http.StatusOK, status)
	require.True(t, v.Profile.Verificado)
}

func TestWalletCallsAreOwnerOnly(t *testing.T) {
	t.Parallel()
	e := setup(t)
	validated := time.Now()
	owner, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	other, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	for _, kind := range []string{"apple", "google"} {
		path := e.srv.URL + "/api/wallet/" + kind + "/"
		res, body := get(t, e.srv.Client(), path+itoa(owner))
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, kind)
		require.Contains(t, string(body), `"error"`)
		res, body = get(t, e.signedIn(t, other), path+itoa(owner))
		require.Equal(t, http.StatusForbidden, res.StatusCode, kind)
		require.NotContains(t, string(body), "pkpass")
		res, _ = get(t, e.signedIn(t, owner), path+"abc")
		require.Equal(t, http.StatusBadRequest, res.StatusCode, kind)
	}
	require.Empty(t, e.pendingTasks(t, jobs.QueueDefault), "refused calls build nothing")
}

func TestWalletCallsRefuseUsersBelowLevel3(t *testing.T) {
	t.Parallel()
	e := setup(t)
	id, _ := seedUser(t, e.db, seeded{Level: 2})
	c := e.signedIn(t, id)
	for _, kind := range []string{"apple", "google"} {
		res, body := get(t, c, e.srv.URL+"/api/wallet/"+kind+"/"+itoa(id))
		require.Equal(t, http.StatusConflict, res.StatusCode, kind)
		require.Contains(t, res.Header.Get("Content-Type"), "application/json")
		var b map[string]any
		require.NoError(t, json.Unmarshal(body, &b))
		require.Equal(t, false, b["success"])
		require.Contains(t, b["error"], "nivel 3")
		require.Equal(t, b["error"], b["message"])
	}
}

func TestApplePassIsBuiltByTheWorkerAndServed(t *testing.T) {
	t.Parallel()
	e := setup(t, patientWallet)
	e.runWorker(t)
	validated := time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC)
	id, pid := seedUser(t, e.db, seeded{Name: "María  Fernanda López", Level: 3, Validated: &validated, Vigencia: 5})
	res, body := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Equal(t, "application/vnd.apple.pkpass", res.Header.Get("Content-Type"))
	cd := res.Header.Get("Content-Disposition")
	require.Contains(t, cd, "attachment")
	require.Contains(t, cd, `filename="PerfilSeguroMar_aFernandaL_pez.pkpass"`)
	require.Contains(t, cd, "filename*=utf-8''PerfilSeguroMar%C3%ADaFernandaL%C3%B3pez.pkpass")

	files := unzip(t, body)
	var pass struct {
		SerialNumber string `json:"serialNumber"`
		Barcodes     []struct {
			Message string `json:"message"`
			Format  string `json:"format"`
		} `json:"barcodes"`
		ExpirationDate string `json:"expirationDate"`
	}
	require.NoError(t, json.Unmarshal(files["pass.json"], &pass))
	require.Equal(t, pid, pass.SerialNumber)
	require.Equal(t, testBaseURL+"/verify/"+pid, pass.Barcodes[0].Message)
	require.Equal(t, "PKBarcodeFormatQR", pass.Barcodes[0].Format)
	require.Contains(t, pass.ExpirationDate, "2031-03-07")

	// The stored signature verifies over manifest.json with the development chain.
	verifyPassSignature(t, files)

	// Served from storage: a second call does not rebuild.
	builtAt := dbGet[time.Time](t, e.db, `SELECT built_at FROM wallet_passes WHERE user_id = $1 AND kind = 'apple'`, id)
	res, again := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, body, again)
	builtAt2 := dbGet[time.Time](t, e.db, `SELECT built_at FROM wallet_passes WHERE user_id = $1 AND kind = 'apple'`, id)
	require.Equal(t, builtAt, builtAt2)

	// A change of the pass data rebuilds it.
	_, err := e.db.Exec(`UPDATE users SET nombre = 'María López' WHERE id = $1`, id)
	require.NoError(t, err)
	res, rebuilt := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotEqual(t, body, rebuilt)
	require.Contains(t, res.Header.Get("Content-Disposition"), "PerfilSeguroMar%C3%ADaL%C3%B3pez.pkpass")
	require.Contains(t, string(unzip(t, rebuilt)["pass.json"]), "María López")
}

func TestWalletPassNotReadyAnswers202AndQueuesABuild(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) { d.Passes.BuildWait = 300 * time.Millisecond })
	validated := time.Now()
	id, _ := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	c := e.signedIn(t, id)
	res, body := get(t, c, e.srv.URL+"/api/wallet/apple/"+itoa(id))
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "application/json")
	require.Contains(t, string(body), "Tu pase se está generando")
	res, body = get(t, c, e.srv.URL+"/api/wallet/google/"+itoa(id))
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	require.JSONEq(t, `{"success":false,"message":"Tu pase se está generando. Intenta nuevamente en unos segundos."}`, string(body))
	types := map[string]bool{}
	for _, task := range e.pendingTasks(t, jobs.QueueDefault) {
		types[task.Type] = true
	}
	require.Equal(t, map[string]bool{jobs.TypeBuildApplePass: true, jobs.TypeBuildGooglePass: true}, types)
}

func TestGoogleWalletLinkIsASignedSaveJWT(t *testing.T) {
	t.Parallel()
	e := setup(t, patientWallet)
	e.runWorker(t)
	validated := time.Now().Add(-time.Hour)
	id, pid := seedUser(t, e.db, seeded{Level: 3, Validated: &validated})
	res, body := get(t, e.signedIn(t, id), e.srv.URL+"/api/wallet/google/"+itoa(id))
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var b struct {
		Success        bool   `json:"success"`
		AddToWalletURL string `json:"addToWalletUrl"`
		Message        string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(body, &b))
	require.True(t, b.Success)
	require.NotEmpty(t, b.Message)
	require.True(t, strings.HasPrefix(b.AddToWalletURL, googlewallet.SaveURLPrefix), b.AddToWalletURL)

	_, _, dir := passSigners(t)
	key, err := googlewallet.EnsureDevKey(dir)
	require.NoError(t, err)
	claims := jwt.MapClaims{}
	tok, err := jwt.ParseWithClaims(strings.TrimPrefix(b.AddToWalletURL, googlewallet.SaveURLPrefix), claims,
		func(*jwt.Token) (any, error) { return &key.PublicKey, nil }, jwt.WithValidMethods([]string{"RS256"}))
	require.NoError(t, err)
	require.True(t, tok.Valid)
	require.Equal(t, googlewallet.DevServiceAccountEmail, claims["iss"])
	require.Equal(t, "google", audience(claims))
	require.Equal(t, "savetowallet", claims["typ"])
	require.Equal(t, []any{testBaseURL}, claims["origins"])
	raw, _ := json.Marshal(claims["payload"])
	require.Contains(t, string(raw), `"genericObjects"`)
	require.Contains(t, string(raw), testBaseURL+"/verify/"+pid)

	// A JWT signed by another key does not verify.
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	_, err = jwt.Parse(strings.TrimPrefix(b.AddToWalletURL, googlewallet.SaveURLPrefix),
		func(*jwt.Token) (any, error) { return &other.PublicKey, nil })
	require.ErrorIs(t, err, jwt.ErrTokenSignatureInvalid)
}

func audience(c jwt.MapClaims) string {
	switch v := c["aud"].(type) {
	case string:
		return v
	case []any:
		if len(v) == 1 {
			s, _ := v[0].(string)
			return s
		}
	}
	return ""
}

func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		require.NoError(t, err)
	}
	for _, name := range []string{"pass.json", "manifest.json", "signature", "icon.png", "logo.png"} {
		require.Contains(t, files, name)
	}
	return files
}

func itoa(n int64) string { return strconvFormat(n) }

// patientWallet lets wallet calls wait long enough for the worker on a slow (race-detector, loaded) machine;
// a pass that is ready is still answered at once.
func patientWallet(d *api.Deps) { d.Passes.BuildWait = 30 * time.Second }
