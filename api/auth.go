package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/phone"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// registrationTokenLifetime bounds the registration session token (SPEC: 64 characters).
const registrationTokenLifetime = time.Hour

func (s *Server) mountAuth() {
	tag := option.Tags("Autenticación")
	fuego.Post(s.f, "/api/register", s.register, tag, option.Summary("Registrar y enviar código por WhatsApp"),
		option.DefaultStatusCode(http.StatusCreated))
	fuego.Post(s.f, "/api/verify-code", s.verifyCode, tag, option.Summary("Verificar código (registro o inicio de sesión)"))
	fuego.Post(s.f, "/api/login", s.login, tag, option.Summary("Iniciar sesión: enviar código"))
	fuego.Post(s.f, "/api/logout", s.logout, tag, option.Summary("Cerrar sesión"))
	fuego.Get(s.f, "/api/auth/status", s.authStatus, tag, option.Summary("Estado de la sesión"))
	s.mountWidgetAuth()
}

// RegisterRequest is the registration form.
type RegisterRequest struct {
	FullName    string `json:"fullName"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phoneNumber"`
	// Plan is the paid plan chosen on the landing page, carried through registration.
	Plan string `json:"plan,omitempty" enum:"one_year,five_years"`
}

// RegisterResponse answers a registration: the token to verify the code with.
type RegisterResponse struct {
	OK               bool   `json:"ok"`
	SessionToken     string `json:"sessionToken"`
	Message          string `json:"message"`
	VerificationCode string `json:"verificationCode,omitempty"` // outside production only
}

// validate applies SPEC §5 (shared schema) and normalizes the fields.
func (req *RegisterRequest) validate() error {
	fields := map[string]string{}
	req.FullName = strings.Join(strings.Fields(req.FullName), " ")
	if !perfilseguro.ValidateName(req.FullName, 3) {
		fields["fullName"] = "El nombre completo debe tener al menos 3 caracteres"
	}
	req.Email = perfilseguro.NormalizeEmail(req.Email)
	if !perfilseguro.ValidEmail(req.Email) {
		fields["email"] = "Correo electrónico no válido"
	}
	p, err := phone.NormalizeMX(req.PhoneNumber)
	if err != nil {
		fields["phoneNumber"] = err.Error()
	}
	req.PhoneNumber = p
	if req.Plan != "" && req.Plan != perfilseguro.PlanOneYear && req.Plan != perfilseguro.PlanFiveYears {
		fields["plan"] = msgUnknownPlan
	}
	return fieldsError(fields, "fullName", "email", "phoneNumber", "plan")
}

// fieldsError builds one EINVALID error whose message is the first failing field in order.
func fieldsError(fields map[string]string, order ...string) error {
	if len(fields) == 0 {
		return nil
	}
	for _, f := range order {
		if m, ok := fields[f]; ok {
			return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: m, Fields: fields}
		}
	}
	return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: "Datos inválidos", Fields: fields}
}

// flowRequest decodes and checks a sign-up or sign-in body and finds the flow's mode: live, or a
// partner's test people (testmode.go).
func flowRequest[T any, P interface {
	*T
	validate() error
}](s *Server, r *http.Request) (T, int64, error) {
	req, err := decodeValid[T, P](r)
	if err != nil {
		return req, 0, err
	}
	mode, err := s.flowMode(r)
	return req, mode, err
}

func (s *Server) register(c fuego.ContextWithBody[RegisterRequest]) (RegisterResponse, error) {
	r := c.Request()
	ctx := r.Context()
	req, mode, err := flowRequest[RegisterRequest](s, r)
	if err != nil {
		return RegisterResponse{}, err
	}
	// The limits come first: a 409 tells whether an address has an account, so asking is charged
	// to the caller's address and to the e-mail and phone as a code sent would be (issue 54, item 25).
	if err := s.checkSendLimits(ctx, r, req.PhoneNumber, req.Email); err != nil {
		return RegisterResponse{}, err
	}
	if err := s.conflict(r, req.Email, req.PhoneNumber, mode); err != nil {
		return RegisterResponse{}, err
	}
	token := secure.NewToken(32)
	var code string
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		id, _, err := s.store.InsertUser(ctx, tx, postgres.NewUser{Nombre: req.FullName, Email: &req.Email, Phone: &req.PhoneNumber, Plan: req.Plan,
			TestPartner: mode})
		if err != nil {
			return err
		}
		if err := s.store.RecordConsent(ctx, tx, id, perfilseguro.PrivacyNoticeVersion, clientIP(r), r.UserAgent()); err != nil {
			return err
		}
		if err := s.store.InsertSessionToken(ctx, tx, id, secure.HashToken(token), s.now().Add(registrationTokenLifetime)); err != nil {
			return err
		}
		code, err = s.issueCode(ctx, tx, codeRequest{UserID: id, Phone: req.PhoneNumber, Purpose: "register"})
		return err
	})
	if errors.Is(err, postgres.ErrAlreadyRegistered) {
		return RegisterResponse{}, s.conflict(r, req.Email, req.PhoneNumber, mode) // lost a race: answer the 409 with the id
	}
	if err != nil {
		return RegisterResponse{}, err
	}
	setStatus(c, http.StatusCreated)
	res := RegisterResponse{OK: true, SessionToken: token, Message: "Te hemos enviado un código de verificación por WhatsApp."}
	if !s.cfg.Production() || mode != perfilseguro.Live {
		res.VerificationCode = code // a test person sees it too: nobody's real phone is involved
	}
	return res, nil
}

// conflict answers 409 when the e-mail or phone already has an account of the mode. Its
// existingUserId (SPEC §7) is not the account's id: it is a new registration attempt's number
// (registerattempt.go), which only POST /api/verify-code takes, with the code of the sign-in
// that follows.
func (s *Server) conflict(r *http.Request, email, phoneE164 string, mode int64) error {
	ctx := r.Context()
	id, err := s.store.RegisteredUserID(ctx, email, phoneE164, mode)
	if err != nil || id == 0 {
		return err
	}
	attempt, err := s.newRegisterAttempt(ctx, id)
	if err != nil {
		return err
	}
	ae := toAPIError(postgres.ErrAlreadyRegistered)
	ae.Body.Extra = map[string]any{"existingUserId": attempt}
	return ae
}

// flexibleID accepts a user id sent as a JSON number or string (browser storage keeps strings).
type flexibleID int64

func (f *flexibleID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return &json.UnmarshalTypeError{Value: "userId", Field: "userId"}
	}
	*f = flexibleID(n)
	return nil
}

// VerifyCodeRequest verifies a code: sessionToken+code (registration) or userId+code (sign-in).
type VerifyCodeRequest struct {
	SessionToken string     `json:"sessionToken,omitempty"`
	UserID       flexibleID `json:"userId,omitempty"`
	Code         string     `json:"code"`
}

// VerifyData is the spec's data object of a verification.
type VerifyData struct {
	UserID            int64  `json:"userId"`
	Verified          bool   `json:"verified"`
	VerificationLevel int    `json:"verification_level"`
	VerificationType  string `json:"verificationType"`
	NextStep          string `json:"nextStep"`
}

// VerifyCodeResponse answers a successful verification; the session cookie is set with it.
type VerifyCodeResponse struct {
	Success   bool       `json:"success"`
	Verified  bool       `json:"verified"`
	Message   string     `json:"message"`
	UserID    int64      `json:"userId"`
	ProfileID string     `json:"profileId"`
	Data      VerifyData `json:"data"`
}

func (s *Server) verifyCode(c fuego.ContextWithBody[VerifyCodeRequest]) (VerifyCodeResponse, error) {
	r := c.Request()
	req, err := decodeJSON[VerifyCodeRequest](r)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	sent, err := s.resolveRegisterAttempt(r.Context(), &req)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	res, token, err := s.verify(r, req)
	s.auditCodeSignIn(r, "person.signin.code", sent, res, err)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	s.setSessionCookie(c.Response(), token)
	return res, nil
}

// verify checks a code and starts a session; shared by the app and the partner widget.
func (s *Server) verify(r *http.Request, req VerifyCodeRequest) (VerifyCodeResponse, string, error) {
	ctx := r.Context()
	req.Code = strings.TrimSpace(req.Code)
	if !validCodeFormat(req.Code) {
		return VerifyCodeResponse{}, "", errCodeFormat
	}
	userID := int64(req.UserID)
	tokenHash := ""
	if req.SessionToken != "" {
		tokenHash = secure.HashToken(req.SessionToken)
		id, err := s.store.UserIDForSessionToken(ctx, tokenHash)
		if err != nil {
			return VerifyCodeResponse{}, "", err
		}
		if id == 0 {
			return VerifyCodeResponse{}, "", perfilseguro.FieldError("sessionToken", "La sesión de registro expiró. Por favor inicia el registro nuevamente.")
		}
		userID = id
	}
	if userID == 0 {
		return VerifyCodeResponse{}, "", perfilseguro.FieldError("userId", "Falta el usuario a verificar. Por favor inicia sesión nuevamente.")
	}
	if err := s.allow(ctx, limit{"verify:ip:" + clientIP(r), s.limits.VerifyPerIP},
		limit{"verify:user:" + strconv.FormatInt(userID, 10), s.limits.VerifyPerUser}); err != nil {
		return VerifyCodeResponse{}, "", err
	}
	code, err := s.checkCode(ctx, userID, req.Code)
	if err != nil {
		return VerifyCodeResponse{}, "", err
	}
	var session string
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		ok, err := s.store.ConsumeCode(ctx, tx, code)
		if err != nil {
			return err
		}
		if !ok {
			return errCodeNone
		}
		if code.Channel == postgres.ChannelPhone {
			if err := s.store.MarkPhoneVerified(ctx, tx, userID); err != nil {
				return err
			}
		}
		if tokenHash != "" {
			if err := s.store.UseSessionToken(ctx, tx, tokenHash); err != nil {
				return err
			}
		}
		session, err = s.openSession(ctx, tx, r, userID)
		return err
	})
	if err != nil {
		return VerifyCodeResponse{}, "", err
	}
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return VerifyCodeResponse{}, "", err
	}
	return signedInResponse(u, code.Channel), session, nil
}

// signedInResponse answers every sign-in the same way (a code, or a passkey: verificationType
// "passkey"), so the app stores the user the same way.
func signedInResponse(u perfilseguro.User, verificationType string) VerifyCodeResponse {
	return VerifyCodeResponse{Success: true, Verified: true, Message: "Tu identidad ha sido verificada correctamente.",
		UserID: u.ID, ProfileID: u.IDValidado, Data: VerifyData{UserID: u.ID, Verified: true,
			VerificationLevel: u.VerificationLevel, VerificationType: verificationType, NextStep: nextStep(u)}}
}

// nextStep tells a client what the user can do next.
func nextStep(u perfilseguro.User) string {
	switch {
	case !u.IsPhoneVerified:
		return "verify_code"
	case !u.BiometricVerified:
		return "biometric_verification"
	default:
		return "complete"
	}
}

// LoginRequest asks for a sign-in code by e-mail, phone or both.
type LoginRequest struct {
	Email       string `json:"email,omitempty"`
	PhoneNumber string `json:"phoneNumber,omitempty"`
}

// LoginResponse tells which user must now enter the code.
type LoginResponse struct {
	Success bool   `json:"success"`
	UserID  int64  `json:"userId"`
	Message string `json:"message"`
}

// validate applies SPEC §5 'Login' and normalizes.
func (req *LoginRequest) validate() error {
	req.Email = perfilseguro.NormalizeEmail(req.Email)
	req.PhoneNumber = strings.TrimSpace(req.PhoneNumber)
	if req.Email == "" && req.PhoneNumber == "" {
		return perfilseguro.FieldError("email", "Debes proporcionar email o número de teléfono")
	}
	fields := map[string]string{}
	if req.Email != "" && !perfilseguro.ValidEmail(req.Email) {
		fields["email"] = "Correo electrónico no válido"
	}
	if req.PhoneNumber != "" {
		p, err := phone.Normalize(req.PhoneNumber)
		if err != nil {
			fields["phoneNumber"] = err.Error()
		}
		req.PhoneNumber = p
	}
	return fieldsError(fields, "email", "phoneNumber")
}

var (
	errNoAccount = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos una cuenta con esos datos. Regístrate para continuar.")
	errMismatch  = perfilseguro.Errorf(perfilseguro.ECONFLICT, "El correo electrónico y el número de teléfono pertenecen a cuentas distintas.")
)

// findAccount finds the one user of the mode matching the given e-mail and/or phone (nil when none does).
func (s *Server) findAccount(r *http.Request, email, phoneE164 string, mode int64) (*postgres.Account, error) {
	found, err := s.store.AccountsByContact(r.Context(), email, phoneE164, mode)
	switch {
	case err != nil:
		return nil, err
	case len(found) > 1:
		return nil, errMismatch
	case len(found) == 0:
		return nil, nil
	}
	return &found[0], nil
}

// ownedDestinations keeps only the e-mail and phone the account itself holds: a code must never
// go to an address the requester typed but the account does not own (that would hand the
// account to whoever knows its phone number or e-mail).
func ownedDestinations(a postgres.Account, email, phoneE164 string) (string, string) {
	if a.Email == nil || *a.Email != email {
		email = ""
	}
	if a.Phone == nil || *a.Phone != phoneE164 {
		phoneE164 = ""
	}
	return email, phoneE164
}

// sentMessage says where the code went.
func sentMessage(phoneE164 string) string {
	if phoneE164 != "" {
		return "Te hemos enviado un código de verificación por WhatsApp."
	}
	return "Te hemos enviado un código de verificación a tu correo electrónico."
}

func (s *Server) login(c fuego.ContextWithBody[LoginRequest]) (LoginResponse, error) {
	r := c.Request()
	ctx := r.Context()
	req, mode, err := flowRequest[LoginRequest](s, r)
	if err != nil {
		return LoginResponse{}, err
	}
	if err := s.checkSendLimits(ctx, r, req.PhoneNumber, req.Email); err != nil {
		return LoginResponse{}, err
	}
	// Finding the account, the resend cooldown and storing the code are one statement.
	now, code := s.now(), secure.NewCode()
	sc := storedCode{Code: code, ExpiresAt: now.Add(codeLifetime), Mode: mode}
	sic := postgres.SignInCode{Email: req.Email, Phone: req.PhoneNumber, IssuedBefore: now.Add(-resendCooldown),
		Purpose: "login", ExpiresAt: sc.ExpiresAt, Mode: mode}
	if req.PhoneNumber != "" {
		sic.PhoneHash = s.coder.Hash(req.PhoneNumber, code)
	}
	if req.Email != "" {
		sic.EmailHash = s.coder.Hash(req.Email, code)
	}
	found, err := s.store.IssueSignInCode(ctx, sic)
	switch {
	case err != nil:
		return LoginResponse{}, err
	case len(found) > 1:
		return LoginResponse{}, errMismatch
	case len(found) == 0:
		return LoginResponse{}, errNoAccount
	}
	u := found[0]
	if u.CodeID == nil { // no code stored: the cooldown (judged by the statement with the same now)
		if err := checkCooldown(now, u.PendingSince); err != nil {
			return LoginResponse{}, err
		}
		return LoginResponse{}, fmt.Errorf("sign-in code for user %d not stored", u.ID)
	}
	sc.ID = *u.CodeID
	sc.Email, sc.Phone = ownedDestinations(u.Account, req.Email, req.PhoneNumber)
	sc.Channel = postgres.ChannelPhone // the table the statement chose: phone when the account holds it
	if sc.Phone == "" {
		sc.Channel = postgres.ChannelEmail
	}
	if err := s.queueCode(ctx, false, sc); err != nil {
		return LoginResponse{}, err
	}
	return LoginResponse{Success: true, UserID: u.ID, Message: sentMessage(sc.Phone)}, nil
}

// LogoutResponse confirms the session is over.
type LogoutResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func (s *Server) logout(c fuego.ContextNoBody) (LogoutResponse, error) {
	r := c.Request()
	if ck, err := r.Cookie(sessionCookie); err == nil && ck.Value != "" {
		if err := s.store.RevokeUserSession(r.Context(), secure.HashToken(ck.Value)); err != nil {
			return LogoutResponse{}, err
		}
	}
	s.clearSessionCookie(c.Response())
	return LogoutResponse{Success: true, Message: "Sesión cerrada"}, nil
}

// AuthStatus describes the signed-in user.
type AuthStatus struct {
	Authenticated     bool   `json:"authenticated"`
	UserID            int64  `json:"userId"`
	ProfileID         string `json:"profileId"`
	VerificationLevel int    `json:"verificationLevel"`
	BiometricVerified bool   `json:"biometricVerified"`
}

func (s *Server) authStatus(c fuego.ContextNoBody) (AuthStatus, error) {
	id, err := s.requireUser(c.Request())
	if err != nil {
		return AuthStatus{}, err
	}
	u, err := s.store.UserByID(c.Request().Context(), id)
	if err != nil {
		return AuthStatus{}, err
	}
	return AuthStatus{Authenticated: true, UserID: u.ID, ProfileID: u.IDValidado,
		VerificationLevel: u.VerificationLevel, BiometricVerified: u.BiometricVerified}, nil
}
