package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// person is one test identity with unique contact data.
type person struct {
	Name, Email, Phone string
}

func newPerson() person {
	n := rand.IntN(90_000_000) + 10_000_000
	return person{Name: "Ana López", Email: fmt.Sprintf("ana%d@example.com", n), Phone: fmt.Sprintf("55%d", n)}
}

// browser is a cookie-keeping client against the test server.
type browser struct {
	t    *testing.T
	e    *env
	http *http.Client
}

func (e *env) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, e: e, http: &http.Client{Jar: jar}}
}

// browserSetup is setup with one browser on it.
func browserSetup(t *testing.T) (*env, *browser) {
	t.Helper()
	e := setup(t)
	return e, e.browser(t)
}

// codeRefused sends body to /api/verify-code and expects a 400 that says message.
func (b *browser) codeRefused(body any, message string) {
	b.t.Helper()
	status, out := b.call("POST", "/api/verify-code", body)
	require.Equal(b.t, http.StatusBadRequest, status)
	require.Equal(b.t, message, out["message"])
}

// call sends JSON (when body is not nil) and decodes the JSON answer.
func (b *browser) call(method, path string, body any) (int, map[string]any) {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, err := http.NewRequest(method, b.e.srv.URL+path, rd)
	require.NoError(b.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set("Origin", b.e.srv.URL) // as a browser on our own app does
	}
	res, err := b.http.Do(req)
	require.NoError(b.t, err)
	defer res.Body.Close()
	out := map[string]any{}
	raw, _ := io.ReadAll(res.Body)
	if len(raw) > 0 && raw[0] == '{' {
		require.NoError(b.t, json.Unmarshal(raw, &out), string(raw))
	}
	return res.StatusCode, out
}

// register registers p and returns the registration answer.
func (b *browser) register(p person) map[string]any {
	b.t.Helper()
	status, out := b.call("POST", "/api/register", map[string]string{"fullName": p.Name, "email": p.Email, "phoneNumber": p.Phone})
	require.Equal(b.t, http.StatusCreated, status, out)
	return out
}

// signUp registers p and verifies the code: the browser is then signed in. Returns the user id.
func (b *browser) signUp(p person) int64 {
	b.t.Helper()
	reg := b.register(p)
	status, out := b.call("POST", "/api/verify-code", map[string]string{"sessionToken": reg["sessionToken"].(string), "code": reg["verificationCode"].(string)})
	require.Equal(b.t, http.StatusOK, status, out)
	return int64(out["userId"].(float64))
}

func TestRegisterVerifyAndReadOwnProfile(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	p := newPerson()
	reg := b.register(p)
	require.Equal(t, true, reg["ok"])
	require.Len(t, reg["sessionToken"], 64)
	require.Regexp(t, `^[0-9]{6}$`, reg["verificationCode"])

	// The code was queued for WhatsApp delivery on the critical queue, sealed (not in clear).
	insp := asynq.NewInspector(e.asynqOpt)
	tasks, err := insp.ListPendingTasks(jobs.QueueCritical)
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	require.Equal(t, jobs.TypeSendOTP, tasks[0].Type)
	require.NotContains(t, string(tasks[0].Payload), reg["verificationCode"].(string))

	// Before verification: no session.
	status, _ := b.call("GET", "/api/auth/status", nil)
	require.Equal(t, http.StatusUnauthorized, status)

	status, out := b.call("POST", "/api/verify-code", map[string]string{"sessionToken": reg["sessionToken"].(string), "code": reg["verificationCode"].(string)})
	require.Equal(t, http.StatusOK, status, out)
	data := out["data"].(map[string]any)
	require.Equal(t, float64(1), data["verification_level"])
	require.Equal(t, "phone", data["verificationType"])
	require.Equal(t, "biometric_verification", data["nextStep"])
	id := int64(out["userId"].(float64))

	status, me := b.call("GET", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusOK, status, me)
	require.Equal(t, p.Name, me["nombre"])
	require.Equal(t, p.Email, me["email"])
	require.Equal(t, "+52"+p.Phone, me["phoneNumber"])
	require.Equal(t, "Otro", me["origen"])
	require.Equal(t, float64(1), me["verificationLevel"])
	require.Regexp(t, `^PS-\d{4}-\d{4}-\d{2}$`, me["profileId"])
	require.Equal(t, me["profileId"], me["id_validado"])

	status, vs := b.call("GET", fmt.Sprintf("/api/users/%d/verification-status", id), nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, float64(1), vs["verificationLevel"])
	require.Equal(t, false, vs["biometricVerified"])
	require.Equal(t, false, vs["biometric_verified"])

	// Search finds one's own profile by profile ID, e-mail and registration token.
	for _, q := range []string{"profileId=" + me["profileId"].(string), "email=" + p.Email, "sessionToken=" + reg["sessionToken"].(string)} {
		status, found := b.call("GET", "/api/users/search?"+q, nil)
		require.Equal(t, http.StatusOK, status, q)
		require.Equal(t, float64(id), found["id"], q)
	}

	// Consent was recorded.
	require.Equal(t, 1, countOf(t, e.db, `SELECT count(*) FROM consents WHERE user_id = $1 AND notice_version <> ''`, id))
}

func TestRegistrationValidationMessages(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	cases := []struct {
		body  map[string]string
		field string
		msg   string
	}{
		{map[string]string{"fullName": "Al", "email": "a@example.com", "phoneNumber": "5512345678"}, "fullName", "El nombre completo debe tener al menos 3 caracteres"},
		{map[string]string{"fullName": "Ana López", "email": "no-es-correo", "phoneNumber": "5512345678"}, "email", "Correo electrónico no válido"},
		{map[string]string{"fullName": "Ana López", "email": "a@example.com", "phoneNumber": "55123"}, "phoneNumber", "El número de teléfono debe tener al menos 10 dígitos"},
		{map[string]string{"fullName": "Ana López", "email": "a@example.com", "phoneNumber": "55-abc-45678"}, "phoneNumber", "El número de teléfono solo debe contener números y opcionalmente un signo +"},
	}
	for _, c := range cases {
		status, out := b.call("POST", "/api/register", c.body)
		require.Equal(t, http.StatusBadRequest, status, c.msg)
		require.Equal(t, c.msg, out["message"])
		require.Equal(t, c.msg, out["errors"].(map[string]any)[c.field])
	}
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users`), "nothing half-written")
}

func TestRegistrationConflictReturnsExistingUser(t *testing.T) {
	t.Parallel()
	_, b := browserSetup(t)
	p := newPerson()
	id := b.signUp(p)
	other := newPerson()
	for _, body := range []map[string]string{
		{"fullName": "Otra Persona", "email": p.Email, "phoneNumber": other.Phone},
		{"fullName": "Otra Persona", "email": other.Email, "phoneNumber": "+52 " + p.Phone},
	} {
		status, out := b.call("POST", "/api/register", body)
		require.Equal(t, http.StatusConflict, status)
		require.Equal(t, "El correo electrónico o el número de teléfono ya está registrado.", out["message"])
		require.NotEqual(t, float64(id), out["existingUserId"], "a registration attempt's number, never the account's id (issue 54, item 25)")
		require.GreaterOrEqual(t, out["existingUserId"], 1e15)
	}
	// The conflict flow: widget login sends a new code with a registration token.
	status, out := b.call("POST", "/api/widget/login", map[string]string{"email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, true, out["codeRequested"])
	require.Equal(t, false, out["isNewUser"])
	require.Equal(t, "verify_code", out["nextStep"])
	require.NotEqual(t, float64(id), out["userId"], "the sign-in attempt's id, never the person's (issue 54, item 7)")
	require.Len(t, out["sessionToken"], 64)
}

func TestWrongCodesKillTheCodeAtTheFifthAttempt(t *testing.T) {
	t.Parallel()
	_, b := browserSetup(t)
	reg := b.register(newPerson())
	good := reg["verificationCode"].(string)
	wrong := fmt.Sprintf("%06d", (mustAtoi(good)+1)%1_000_000)
	tok := reg["sessionToken"].(string)
	for i := 1; i <= 4; i++ {
		status, out := b.call("POST", "/api/verify-code", map[string]string{"sessionToken": tok, "code": wrong})
		require.Equal(t, http.StatusBadRequest, status)
		require.Equal(t, "Código de verificación incorrecto", out["message"], "attempt %d", i)
	}
	b.codeRefused(map[string]string{"sessionToken": tok, "code": wrong}, "Demasiados intentos fallidos. Solicita un nuevo código.")
	// Even the right code is now refused.
	b.codeRefused(map[string]string{"sessionToken": tok, "code": good}, "El código expiró o ya no es válido. Solicita un nuevo código.")
}

func TestCodeWorksOnceAndExpires(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	p := newPerson()
	reg := b.register(p)
	body := map[string]string{"sessionToken": reg["sessionToken"].(string), "code": reg["verificationCode"].(string)}
	status, _ := b.call("POST", "/api/verify-code", body)
	require.Equal(t, http.StatusOK, status)
	status, out := b.call("POST", "/api/verify-code", body)
	require.Equal(t, http.StatusBadRequest, status, "reuse refused")
	require.Equal(t, "La sesión de registro expiró. Por favor inicia el registro nuevamente.", out["message"])

	// Sign in by phone, then let the code expire.
	status, login := b.call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusOK, status, login)
	uid := login["userId"]
	_, err := e.db.Exec(`UPDATE verification_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND NOT is_used`, uid)
	require.NoError(t, err)
	code := e.lastCode(t, int64(uid.(float64)))
	b.codeRefused(map[string]any{"userId": uid, "code": code}, "El código expiró o ya no es válido. Solicita un nuevo código.")
}

func TestVerifyCodeFormat(t *testing.T) {
	t.Parallel()
	_, b := browserSetup(t)
	for _, code := range []string{"", "12345", "1234567", "12a456"} {
		b.codeRefused(map[string]any{"userId": 1, "code": code}, "El código debe tener 6 dígitos")
	}
}

func TestLoginByPhoneOrEmailAndCooldown(t *testing.T) {
	t.Parallel()
	now := time.Now()
	clock := &now
	e := setup(t, func(d *api.Deps) { d.Now = func() time.Time { return *clock } })
	b := e.browser(t)
	p := newPerson()
	id := b.signUp(p)

	status, out := b.call("POST", "/api/login", map[string]string{})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "Debes proporcionar email o número de teléfono", out["errors"].(map[string]any)["email"])

	status, out = b.call("POST", "/api/login", map[string]string{"email": "  " + strings.ToUpper(p.Email) + " "})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, float64(id), out["userId"])
	require.Equal(t, "Te hemos enviado un código de verificación a tu correo electrónico.", out["message"])

	// A second request within 60 s is refused with a Spanish wait message and Retry-After.
	status, out = b.call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Contains(t, out["message"], "Podrás solicitar uno nuevo en")

	// After the cooldown the phone code goes out, and the e-mail code sent before is retired? No:
	// each channel keeps its newest code; the phone code signs in.
	*clock = now.Add(61 * time.Second)
	_, err := e.db.Exec(`UPDATE email_verification_codes SET created_at = created_at - interval '61 seconds'`)
	require.NoError(t, err)
	status, out = b.call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusOK, status, out)
	require.Equal(t, "Te hemos enviado un código de verificación por WhatsApp.", out["message"])
	code := e.lastCode(t, id)
	status, out = b.call("POST", "/api/verify-code", map[string]any{"userId": fmt.Sprint(id), "code": code})
	require.Equal(t, http.StatusOK, status, out)

	status, out = b.call("POST", "/api/login", map[string]string{"email": "nadie@example.com"})
	require.Equal(t, http.StatusNotFound, status)
	require.Contains(t, out["message"], "No encontramos una cuenta")
}

// The worker sends a sign-in code's first attempt unchecked only when the code was committed
// before its job was queued; registration queues inside its transaction, so its job must not say so.
func TestOnlySignInJobsSayTheirCodeWasCommittedFirst(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	p := newPerson()
	id := b.signUp(p)
	require.True(t, e.lastDelivery(t, id).CommittedAt.IsZero(), "registration: queued inside the transaction")

	before := time.Now()
	status, out := e.browser(t).call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusOK, status, out)
	job := e.lastDelivery(t, id)
	require.Equal(t, "+52"+p.Phone, job.Destination)
	require.WithinDuration(t, before, job.CommittedAt, 5*time.Second, "sign-in: queued after the commit")
}

func TestPerIPSendLimit(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.SendPerIP = 3 }))
	b := e.browser(t)
	for range 3 {
		b.register(newPerson())
	}
	p := newPerson()
	status, out := b.call("POST", "/api/register", map[string]string{"fullName": p.Name, "email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Contains(t, out["message"], "Demasiadas solicitudes")
}

func TestARefusedRequestUsesUpNoOtherLimit(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.SendPerIP = 3; l.SendPerPhone = 1 }))
	b := e.browser(t)
	first := newPerson()
	b.register(first) // IP 1 of 3, phone 1 of 1
	status, out := b.call("POST", "/api/widget/login", map[string]string{"phoneNumber": first.Phone})
	require.Equal(t, http.StatusTooManyRequests, status, "the phone's limit refuses")
	require.Contains(t, out["message"], "Demasiadas solicitudes. Intenta nuevamente en")
	// The refused request was not charged to the IP: two more people may still register from it.
	b.register(newPerson())
	b.register(newPerson())
	p := newPerson()
	status, _ = b.call("POST", "/api/register", map[string]string{"fullName": p.Name, "email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusTooManyRequests, status, "the fourth from the IP is refused")
}

func TestPerPhoneSendLimitAndVerifyLimit(t *testing.T) {
	t.Parallel()
	e := setup(t, withLimits(func(l *api.Limits) { l.SendPerPhone = 1; l.VerifyPerIP = 2 }))
	b := e.browser(t)
	p := newPerson()
	reg := b.register(p)
	status, _ := b.call("POST", "/api/widget/login", map[string]string{"phoneNumber": p.Phone})
	require.Equal(t, http.StatusTooManyRequests, status, "second code to the same phone within the hour")
	for range 2 {
		status, _ = b.call("POST", "/api/verify-code", map[string]string{"sessionToken": reg["sessionToken"].(string), "code": "000000"})
		require.Equal(t, http.StatusBadRequest, status)
	}
	status, _ = b.call("POST", "/api/verify-code", map[string]string{"sessionToken": reg["sessionToken"].(string), "code": "000000"})
	require.Equal(t, http.StatusTooManyRequests, status, "verify attempts per IP are limited too")
}

func TestUsersCannotReadOrActOnOthers(t *testing.T) {
	t.Parallel()
	e := setup(t)
	alice, bob := e.browser(t), e.browser(t)
	aliceP, bobP := newPerson(), newPerson()
	aliceID := alice.signUp(aliceP)
	bobID := bob.signUp(bobP)

	for _, path := range []string{fmt.Sprintf("/api/users/%d", bobID), fmt.Sprintf("/api/users/%d/verification-status", bobID)} {
		status, out := alice.call("GET", path, nil)
		require.Equal(t, http.StatusForbidden, status, path)
		require.NotContains(t, fmt.Sprint(out), bobP.Email)
		require.NotContains(t, fmt.Sprint(out), bobP.Phone)
	}
	status, _ := alice.call("GET", "/api/users/search?email="+bobP.Email, nil)
	require.Equal(t, http.StatusUnauthorized, status)

	anon := e.browser(t)
	status, _ = anon.call("GET", fmt.Sprintf("/api/users/%d", aliceID), nil)
	require.Equal(t, http.StatusUnauthorized, status)
	status, _ = anon.call("GET", "/api/users/search?email="+aliceP.Email, nil)
	require.Equal(t, http.StatusUnauthorized, status)
}

func TestLogoutRevokesTheSessionOnTheServer(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	id := b.signUp(newPerson())
	// Keep a copy of the cookie as an attacker who stole it would.
	u, _ := http.NewRequest("GET", e.srv.URL, nil)
	stolen := b.http.Jar.Cookies(u.URL)
	require.NotEmpty(t, stolen)

	status, _ := b.call("POST", "/api/logout", nil)
	require.Equal(t, http.StatusOK, status)
	status, _ = b.call("GET", "/api/auth/status", nil)
	require.Equal(t, http.StatusUnauthorized, status)

	replay := e.browser(t)
	replay.http.Jar.SetCookies(u.URL, stolen)
	status, _ = replay.call("GET", fmt.Sprintf("/api/users/%d", id), nil)
	require.Equal(t, http.StatusUnauthorized, status, "a revoked token is dead even if kept")
}

func TestSessionCookieIsHttpOnlyAndLax(t *testing.T) {
	t.Parallel()
	e, b := browserSetup(t)
	reg := b.register(newPerson())
	raw, _ := json.Marshal(map[string]string{"sessionToken": reg["sessionToken"].(string), "code": reg["verificationCode"].(string)})
	res, err := http.Post(e.srv.URL+"/api/verify-code", "application/json", strings.NewReader(string(raw)))
	require.NoError(t, err)
	res.Body.Close()
	c := cookieNamed(res, "ps_session")
	require.NotNil(t, c)
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	require.Len(t, c.Value, 64)
	stored := countOf(t, e.db, `SELECT count(*) FROM user_sessions WHERE token_hash = $1`, c.Value)
	require.Zero(t, stored, "only the hash is stored")
}

func TestRedisDownDuringRegistrationLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	e := setup(t, withDeadQueue)
	b := e.browser(t)
	p := newPerson()
	status, out := b.call("POST", "/api/register", map[string]string{"fullName": p.Name, "email": p.Email, "phoneNumber": p.Phone})
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Contains(t, out["message"], "no está disponible")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM users`))
}

func TestLoginWithQueueDownLeavesNoCodeThatBlocksARetry(t *testing.T) {
	t.Parallel()
	queue := &lvQueue{}
	e := setup(t, func(d *api.Deps) { queue.live = d.Queue; d.Queue = queue })
	b := e.browser(t)
	p := newPerson()
	id := b.signUp(p)

	queue.setDead(true)
	status, out := b.call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusServiceUnavailable, status, out)
	require.Contains(t, out["message"], "no está disponible")
	require.Zero(t, countOf(t, e.db, `SELECT count(*) FROM verification_codes WHERE user_id = $1 AND NOT is_used`, id), "the code that could not be queued is retired")

	// Redis is back: the person may ask again at once (no cooldown from the failed attempt).
	queue.setDead(false)
	status, out = b.call("POST", "/api/login", map[string]string{"phoneNumber": "+52" + p.Phone})
	require.Equal(t, http.StatusOK, status, out)
	status, out = b.call("POST", "/api/verify-code", map[string]any{"userId": fmt.Sprint(id), "code": e.lastCode(t, id)})
	require.Equal(t, http.StatusOK, status, out)
}

func TestLoginWithAnotherAccountsEmailAndPhoneIsRefused(t *testing.T) {
	t.Parallel()
	_, b := browserSetup(t)
	ana, luis := newPerson(), newPerson()
	b.signUp(ana)
	b.signUp(luis)
	status, out := b.call("POST", "/api/login", map[string]string{"email": ana.Email, "phoneNumber": "+52" + luis.Phone})
	require.Equal(t, http.StatusConflict, status, out)
	require.Equal(t, "El correo electrónico y el número de teléfono pertenecen a cuentas distintas.", out["message"])
}

func TestStrictJSONDecoding(t *testing.T) {
	t.Parallel()
	e := setup(t)
	res, body := e.do(t, "POST", "/api/login", "text/plain", `{"email":"a@example.com"}`)
	require.Equal(t, http.StatusUnsupportedMediaType, res.StatusCode, body)
	res, body = e.do(t, "POST", "/api/login", "application/json", `{"email":"a@example.com","admin":true}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, "Campo no permitido")
	res, _ = e.do(t, "POST", "/api/login", "application/json", `{"email":`+`"`+strings.Repeat("a", 70_000)+`"}`)
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
	res, body = e.do(t, "POST", "/api/login", "application/json", strings.Repeat("[", 40)+strings.Repeat("]", 40))
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, "anidación")
	res, _ = e.do(t, "POST", "/api/login", "application/json", `{"email": 5}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	res, _ = e.do(t, "POST", "/api/login", "application/json", `{"email":"a@example.com"} {}`)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
}

func TestForeignOriginCannotChangeState(t *testing.T) {
	t.Parallel()
	e := setup(t)
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/logout", nil)
	req.Header.Set("Origin", "https://evil.example")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode)
}

func mustAtoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

var _ = context.Background

func TestCreatedAnswersAreJSON(t *testing.T) {
	t.Parallel()
	e := setup(t)
	p := newPerson()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/register", strings.NewReader(
		fmt.Sprintf(`{"fullName":%q,"email":%q,"phoneNumber":%q}`, p.Name, p.Email, p.Phone)))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "application/json")
}

func TestProductionCookiesAreSecureAndCodesStayHidden(t *testing.T) {
	t.Parallel()
	e := setup(t, func(d *api.Deps) { d.Config.Env = "production" })
	b := e.browser(t)
	p := newPerson()
	reg := b.register(p)
	require.NotContains(t, reg, "verificationCode", "no test code in production")
	uid := dbGet[int64](t, e.db, `SELECT id FROM users WHERE email = $1`, p.Email)
	raw, _ := json.Marshal(map[string]string{"sessionToken": reg["sessionToken"].(string), "code": e.lastCode(t, uid)})
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/verify-code", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotEmpty(t, res.Cookies())
	for _, c := range res.Cookies() {
		require.True(t, c.Secure, c.Name)
		require.True(t, c.HttpOnly, c.Name)
	}
	require.Contains(t, res.Header.Get("Strict-Transport-Security"), "max-age=")
	res2, _ := e.do(t, "GET", "/dev/inbox", "", "")
	require.Equal(t, http.StatusNotFound, res2.StatusCode, "no development inbox in production")
}
