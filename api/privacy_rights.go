package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/phone"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The ARCO rights in self-service: access (a data export through a job), rectification (name
// and contact details) and cancellation (account deletion after a fresh confirmation code).
// Every exercise is recorded in arco_requests.

// Code purposes of this area (verification_codes.purpose).
const (
	purposeContactChange = "contact_change"
	purposeConfirmation  = "confirmation"
)

const (
	exportRequestsPerHour = 10
	rectificationsPerHour = 20
)

func (s *Server) mountPrivacyRights() {
	tag := option.Tags("Privacidad")
	fuego.Post(s.f, "/api/users/{id}/data-export", s.requestDataExport, tag, option.DefaultStatusCode(http.StatusAccepted),
		option.Summary("Pedir una copia de mis datos (ZIP por correo, una al día)"))
	fuego.Get(s.f, "/api/users/{id}/data-exports", s.listDataExports, tag, option.Summary("Mis copias de datos pedidas"))
	s.handle("GET /api/data-export", http.HandlerFunc(s.downloadDataExport),
		op("Privacidad", "Enlace del correo: descarga una sola vez el ZIP con los datos de la persona (vale 24 horas)",
			params(queryParam("token", "Token de 64 caracteres hexadecimales del enlace", true)),
			binary("200", "ZIP con datos.json y resumen.html", "application/zip"),
			text("404", "Página en español: el enlace no es válido", "text/html"),
			text("410", "Página en español: el enlace ya se usó o venció", "text/html")))
	fuego.Put(s.f, "/api/users/{id}/personal-data", s.rectifyName, tag,
		option.Summary("Corregir mi nombre (anula la validación biométrica si ya la tenía)"))
	fuego.Post(s.f, "/api/users/{id}/contact-change", s.requestContactChange, tag, option.DefaultStatusCode(http.StatusAccepted),
		option.Summary("Cambiar mi correo o teléfono: envía un código a la nueva dirección"))
	fuego.Post(s.f, "/api/users/{id}/contact-change/verify", s.verifyContactChange, tag,
		option.Summary("Confirmar el cambio de correo o teléfono con el código"))
	fuego.Post(s.f, "/api/users/{id}/confirmation-code", s.sendConfirmationCode, tag, option.DefaultStatusCode(http.StatusAccepted),
		option.Summary("Enviar un código para confirmar una acción delicada (eliminar mi cuenta, cambiar mi correo o teléfono)"),
		option.Query("via", "phone o email: a cuál de tus datos actuales va el código (por omisión el teléfono, o el correo si no tienes teléfono)"))
	fuego.Post(s.f, "/api/users/{id}/confirmation", s.confirmWithCode, tag,
		option.Summary("Confirmar con el código: permite eliminar la cuenta durante 5 minutos en esta sesión"))
	// The same confirmation with a fresh passkey assertion instead of a code (passkeys.go).
	fuego.Post(s.f, "/api/users/{id}/confirmation/passkey/options", s.passkeyConfirmationOptions, tag,
		option.Summary("Confirmar con una llave de acceso: opciones para navigator.credentials.get (solo mis llaves)"))
	fuego.Post(s.f, "/api/users/{id}/confirmation/passkey", s.confirmWithPasskey, tag,
		option.Summary("Confirmar con una llave de acceso: permite eliminar la cuenta durante 5 minutos en esta sesión"))
}

// DataExportRequested acknowledges an export request.
type DataExportRequested struct {
	ID      int64  `json:"id"`
	Message string `json:"message"`
}

var errExportNeedsEmail = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"Agrega un correo electrónico a tu cuenta para recibir la copia de tus datos.")

func (s *Server) requestDataExport(c fuego.ContextNoBody) (DataExportRequested, error) {
	r := c.Request()
	ctx := r.Context()
	u, err := s.ownerRecord(c, "export", exportRequestsPerHour)
	if err != nil {
		return DataExportRequested{}, err
	}
	if u.Email == nil || *u.Email == "" {
		return DataExportRequested{}, errExportNeedsEmail
	}
	now := s.now()
	token := secure.NewToken(32)
	expires := now.Add(perfilseguro.ExportLinkLifetime)
	var exportID int64
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		arco, err := s.store.AddArcoRequest(ctx, tx, postgres.NewArcoRequest{UserID: u.ID, Type: perfilseguro.ArcoAccess,
			Channel: perfilseguro.ArcoChannelApp, State: perfilseguro.ArcoInProgress, Details: postgres.ArcoExportAsked, Now: now})
		if err != nil {
			return err
		}
		exportID, err = s.store.AddDataExport(ctx, tx, u.ID, arco, perfilseguro.MexicoDay(now), secure.HashToken(token),
			s.sealer.Seal(token), now, expires)
		if err != nil {
			return err
		}
		task, err := jobs.NewBuildDataExportTask(jobs.BuildDataExportPayload{ExportID: exportID, ExpiresAt: expires})
		return s.enqueue(ctx, task, err)
	})
	if errors.Is(err, postgres.ErrExportToday) {
		return DataExportRequested{}, &apiError{Status: http.StatusTooManyRequests, Body: ErrorBody{Message: postgres.ErrExportToday.Message},
			RetryAfter: untilTomorrow(now)}
	}
	if err != nil {
		return DataExportRequested{}, err
	}
	setStatus(c, http.StatusAccepted)
	return DataExportRequested{ID: exportID,
		Message: "Estamos preparando tus datos. Te enviaremos un enlace a tu correo electrónico."}, nil
}

// DataExportJSON is one requested copy of the person's data.
type DataExportJSON struct {
	ID          int64      `json:"id"`
	Status      string     `json:"status" enum:"queued,ready,downloaded,expired,failed"`
	RequestedAt time.Time  `json:"requestedAt"`
	ReadyAt     *time.Time `json:"readyAt"`
	ExpiresAt   *time.Time `json:"expiresAt"`
}

func (s *Server) listDataExports(c fuego.ContextNoBody) ([]DataExportJSON, error) {
	list, err := privacyRead(s, c, s.store.DataExportsOf)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := make([]DataExportJSON, len(list))
	for i, e := range list {
		status := e.Status
		if (status == postgres.ExportQueued || status == postgres.ExportReady) && !now.Before(e.ExpiresAt) {
			status = postgres.ExportExpired // the retention run erases it within minutes
		}
		exp := e.ExpiresAt
		out[i] = DataExportJSON{ID: e.ID, Status: status, RequestedAt: e.RequestedAt, ReadyAt: e.ReadyAt, ExpiresAt: &exp}
	}
	return out, nil
}

// The pages of export links that cannot download.
var (
	exportLinkUnknown = linkPage{"Enlace no válido",
		"Este enlace de descarga no es válido. Revisa que lo hayas copiado completo o pide una nueva copia de tus datos en Mi Perfil."}
	exportLinkSpent = linkPage{"Enlace ya utilizado o vencido",
		"Este enlace de descarga ya se usó o venció: funciona una sola vez durante 24 horas y después el archivo se borra. Pide una nueva copia de tus datos en Mi Perfil."}
	exportLinkFailed = linkPage{"No pudimos preparar la descarga",
		"Ocurrió un error al preparar tu descarga. Intenta abrir el enlace nuevamente en unos minutos."}
)

// downloadDataExport serves an export once, from the e-mailed link.
func (s *Server) downloadDataExport(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if len(token) != 64 {
		renderLinkPage(w, http.StatusNotFound, exportLinkUnknown)
		return
	}
	archive, exp, err := s.store.TakeExportArchive(r.Context(), secure.HashToken(token), s.now())
	switch {
	case errors.Is(err, postgres.ErrExportLinkUnknown):
		renderLinkPage(w, http.StatusNotFound, exportLinkUnknown)
		return
	case errors.Is(err, postgres.ErrExportLinkSpent):
		renderLinkPage(w, http.StatusGone, exportLinkSpent)
		return
	case err != nil:
		s.logger.ErrorContext(r.Context(), "download data export", "error", err, "request_id", requestID(r.Context()))
		renderLinkPage(w, http.StatusInternalServerError, exportLinkFailed)
		return
	}
	name := "perfil-seguro-mis-datos-" + perfilseguro.MexicoDay(exp.RequestedAt).Format("2006-01-02") + ".zip"
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(archive)
}

// RectifyNameRequest is the person's corrected name.
type RectifyNameRequest struct {
	Nombre string `json:"nombre"`
	// ConfirmRevalidation acknowledges that a validated person's biometric validation is annulled.
	ConfirmRevalidation bool `json:"confirmRevalidation"`
}

var errRenameAnnuls = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"Si cambias tu nombre, tu validación biométrica dejará de ser válida y tendrás que validar tu identidad de nuevo. Confírmalo para continuar.")

func (s *Server) rectifyName(c fuego.ContextWithBody[RectifyNameRequest]) (UserJSON, error) {
	r := c.Request()
	ctx := r.Context()
	id, req, err := ownedRequest(s, c, "rectify", rectificationsPerHour)
	if err != nil {
		return UserJSON{}, err
	}
	nombre := strings.Join(strings.Fields(req.Nombre), " ")
	switch {
	case !perfilseguro.ValidateName(nombre, 3):
		return UserJSON{}, perfilseguro.FieldError("nombre", "El nombre completo debe tener al menos 3 caracteres")
	case len([]rune(nombre)) > 120:
		return UserJSON{}, perfilseguro.FieldError("nombre", "El nombre no puede exceder 120 caracteres")
	}
	current, err := s.store.UserByID(ctx, id)
	if err != nil {
		return UserJSON{}, err
	}
	if current.Nombre == nombre {
		return toUserJSON(current), nil
	}
	annul := current.BiometricVerified && current.VerificationLevel >= perfilseguro.LevelBiometric
	if annul && !req.ConfirmRevalidation {
		return UserJSON{}, errRenameAnnuls
	}
	_, after, err := s.store.RenameUser(ctx, id, nombre, annul, s.now())
	if err != nil {
		return UserJSON{}, err
	}
	// What was asked, not the names: the request outlives the account (issue 54, item 23).
	s.recordAnswered(r, id, perfilseguro.ArcoRectify, postgres.ArcoNameCorrected)
	s.public.forgetUser(id) // other replicas hear it from Postgres
	s.rebuildPasses(ctx, after)
	if annul {
		s.rebuildStatusList(ctx, fmt.Sprintf("annulled:%d:%d", id, s.now().UnixNano()))
	}
	return toUserJSON(after), nil
}

// recordAnswered logs an ARCO request the app answered at once. The change it records already
// stands, so a failure to log is reported, not returned.
func (s *Server) recordAnswered(r *http.Request, userID int64, typ, details string) {
	_, err := s.store.AddArcoRequest(r.Context(), s.db, postgres.NewArcoRequest{UserID: userID, Type: typ,
		Channel: perfilseguro.ArcoChannelApp, State: perfilseguro.ArcoDone, Details: details,
		Resolution: postgres.ArcoAnsweredInApp, Now: s.now()})
	if err != nil {
		s.logger.ErrorContext(r.Context(), "record arco request", "user_id", userID, "type", typ, "error", err)
	}
}

// ContactChangeRequest names the new e-mail or phone (one of them).
type ContactChangeRequest struct {
	Email       string `json:"email"`
	PhoneNumber string `json:"phoneNumber"`
}

// CodeSentResponse says where a code went; the code itself only outside production.
type CodeSentResponse struct {
	Message          string `json:"message"`
	Channel          string `json:"channel" enum:"email,phone"`
	VerificationCode string `json:"verificationCode,omitempty"`
}

var (
	errContactOne   = perfilseguro.FieldError("email", "Indica un correo electrónico o un número de teléfono nuevo, uno a la vez.")
	errContactSame  = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Ese dato ya es el de tu cuenta.")
	errContactTaken = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Ese correo electrónico o teléfono ya está registrado en otra cuenta.")
)

func (s *Server) requestContactChange(c fuego.ContextWithBody[ContactChangeRequest]) (CodeSentResponse, error) {
	r := c.Request()
	ctx := r.Context()
	id, req, err := ownedRequest(s, c, "rectify", rectificationsPerHour)
	if err != nil {
		return CodeSentResponse{}, err
	}
	email, rawPhone := perfilseguro.NormalizeEmail(req.Email), strings.TrimSpace(req.PhoneNumber)
	if (email == "") == (rawPhone == "") {
		return CodeSentResponse{}, errContactOne
	}
	if err := s.requireContactConfirmation(r); err != nil { // account_changes.go
		return CodeSentResponse{}, err
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return CodeSentResponse{}, err
	}
	cr := codeRequest{UserID: id, Purpose: purposeContactChange}
	var taken error
	if email != "" {
		if !perfilseguro.ValidEmail(email) {
			return CodeSentResponse{}, perfilseguro.FieldError("email", "Correo electrónico no válido")
		}
		if u.Email != nil && *u.Email == email {
			return CodeSentResponse{}, errContactSame
		}
		cr.Email = email
		_, taken = s.store.UserByEmail(ctx, email, u.Mode())
	} else {
		p, err := phone.NormalizeMX(rawPhone)
		if err != nil {
			return CodeSentResponse{}, perfilseguro.FieldError("phoneNumber", err.Error())
		}
		if u.PhoneNumber != nil && *u.PhoneNumber == p {
			return CodeSentResponse{}, errContactSame
		}
		cr.Phone = p
		_, taken = s.store.UserByPhone(ctx, p, u.Mode())
	}
	switch {
	case taken == nil:
		return CodeSentResponse{}, errContactTaken
	case !errors.Is(taken, postgres.ErrUserNotFound):
		return CodeSentResponse{}, taken
	}
	return s.sendPurposeCode(c, r, cr)
}

// sendPurposeCode applies the sending limits and the resend cooldown of the code's purpose,
// then stores and queues the code (retired if it cannot be queued).
func (s *Server) sendPurposeCode(c interface{ SetStatus(int) }, r *http.Request, cr codeRequest) (CodeSentResponse, error) {
	ctx := r.Context()
	if err := s.checkSendLimits(ctx, r, cr.Phone, cr.Email); err != nil {
		return CodeSentResponse{}, err
	}
	last, err := s.store.LatestCodeAt(ctx, cr.UserID, cr.Purpose)
	if err != nil {
		return CodeSentResponse{}, err
	}
	if err := checkCooldown(s.now(), last); err != nil {
		return CodeSentResponse{}, err
	}
	code, err := s.issueCode(ctx, nil, cr)
	if err != nil {
		return CodeSentResponse{}, err
	}
	res := CodeSentResponse{Message: sentMessage(cr.Phone), Channel: postgres.ChannelPhone}
	if cr.Phone == "" {
		res.Channel = postgres.ChannelEmail
	}
	if !s.cfg.Production() {
		res.VerificationCode = code
	}
	c.SetStatus(http.StatusAccepted)
	return res, nil
}

// CodeRequest carries a 6-digit code.
type CodeRequest struct {
	Code string `json:"code"`
}

// codeFromBody decodes {code}, checks its form and charges the verification limits.
func (s *Server) codeFromBody(r *http.Request, userID int64) (string, error) {
	req, err := decodeJSON[CodeRequest](r)
	if err != nil {
		return "", err
	}
	code := strings.TrimSpace(req.Code)
	if !validCodeFormat(code) {
		return "", errCodeFormat
	}
	if err := s.allow(r.Context(), limit{"verify:ip:" + clientIP(r), s.limits.VerifyPerIP},
		limit{"verify:user:" + fmt.Sprint(userID), s.limits.VerifyPerUser}); err != nil {
		return "", err
	}
	return code, nil
}

func (s *Server) verifyContactChange(c fuego.ContextWithBody[CodeRequest]) (UserJSON, error) {
	r := c.Request()
	ctx := r.Context()
	before, err := s.ownerRecord(c, "rectify", rectificationsPerHour)
	if err != nil {
		return UserJSON{}, err
	}
	id := before.ID
	match, err := s.enterCode(r, id, purposeContactChange, func(tx *sqlx.Tx, match postgres.ActiveCode) error {
		return s.applyContactChange(r, tx, before, match.Channel, match.Destination) // account_changes.go
	})
	if errors.Is(err, postgres.ErrAlreadyRegistered) {
		return UserJSON{}, errContactTaken
	}
	if err != nil {
		return UserJSON{}, err
	}
	changed := postgres.ArcoEmailChanged // what was asked, never the addresses (issue 54, item 23)
	if match.Channel == postgres.ChannelPhone {
		changed = postgres.ArcoPhoneChanged
	}
	s.recordAnswered(r, id, perfilseguro.ArcoRectify, changed)
	s.public.forgetUser(id)
	after, err := s.store.UserByID(ctx, id)
	if err != nil {
		return UserJSON{}, err
	}
	return toUserJSON(after), nil
}

// enterCode checks the code of purpose in the body, typed by the signed-in person id, and in one
// transaction uses it up and applies what it proves (then): a code works once, and nothing is
// applied without it.
func (s *Server) enterCode(r *http.Request, id int64, purpose string, then func(*sqlx.Tx, postgres.ActiveCode) error) (postgres.ActiveCode, error) {
	ctx := r.Context()
	code, err := s.codeFromBody(r, id)
	if err != nil {
		return postgres.ActiveCode{}, err
	}
	match, err := s.checkCodeFor(ctx, id, purpose, code)
	if err != nil {
		return postgres.ActiveCode{}, err
	}
	return match, s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		ok, err := s.store.ConsumeCode(ctx, tx, match)
		if err != nil {
			return err
		}
		if !ok {
			return errCodeNone
		}
		return then(tx, match)
	})
}

func (s *Server) sendConfirmationCode(c fuego.ContextNoBody) (CodeSentResponse, error) {
	u, err := s.ownerRecord(c, "confirm", rectificationsPerHour)
	if err != nil {
		return CodeSentResponse{}, err
	}
	cr := codeRequest{UserID: u.ID, Purpose: purposeConfirmation, Phone: deref(u.PhoneNumber)}
	switch via := c.QueryParam("via"); {
	case via != "" && via != "phone" && via != "email":
		return CodeSentResponse{}, perfilseguro.FieldError("via", "Elige phone o email")
	case via == "email" && deref(u.Email) == "", via == "phone" && cr.Phone == "":
		return CodeSentResponse{}, errNoSuchContact
	case via == "email" || cr.Phone == "": // one who lost the phone confirms from the e-mail (issue 54, item 21)
		cr.Phone, cr.Email = "", deref(u.Email)
	}
	return s.sendPurposeCode(c, c.Request(), cr)
}

var errNoSuchContact = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Tu cuenta no tiene ese dato: elige tu teléfono o tu correo actual.")

// ConfirmationResponse says until when the session may delete its account.
type ConfirmationResponse struct {
	ConfirmedUntil time.Time `json:"confirmedUntil"`
}

func (s *Server) confirmWithCode(c fuego.ContextWithBody[CodeRequest]) (ConfirmationResponse, error) {
	r := c.Request()
	id, err := s.ownerOf(c, "confirm", rectificationsPerHour)
	if err != nil {
		return ConfirmationResponse{}, err
	}
	now := s.now()
	_, err = s.enterCode(r, id, purposeConfirmation, func(tx *sqlx.Tx, _ postgres.ActiveCode) error {
		return s.store.ConfirmSession(r.Context(), tx, sessionHash(r), now)
	})
	if err != nil {
		return ConfirmationResponse{}, err
	}
	return ConfirmationResponse{ConfirmedUntil: now.Add(perfilseguro.ConfirmationLifetime)}, nil
}

// errNeedsConfirmation: deleting one's own account needs a code entered in the last minutes.
var errNeedsConfirmation = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
	"Confirma la eliminación con el código que te enviamos. La confirmación vale 5 minutos.")

// requireFreshConfirmation allows a sensitive action only to a session that entered a
// confirmation code within ConfirmationLifetime.
func (s *Server) requireFreshConfirmation(r *http.Request) error {
	at, err := s.store.SessionConfirmedAt(r.Context(), sessionHash(r))
	if err != nil {
		return err
	}
	if at == nil || s.now().Sub(*at) > perfilseguro.ConfirmationLifetime || s.now().Before(at.Add(-time.Minute)) {
		return errNeedsConfirmation
	}
	return nil
}

// sessionHash is the stored hash of the request's sign-in cookie ("" when there is none).
func sessionHash(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil || len(c.Value) != 64 {
		return ""
	}
	return secure.HashToken(c.Value)
}

// untilTomorrow is how many seconds are left of now's day in Mexico City (when the next daily
// export may be asked for).
func untilTomorrow(now time.Time) int {
	endOfDay := perfilseguro.AddBusinessDays(now, 0) // zero days: the end of now's own day
	return int(endOfDay.Sub(now).Seconds()) + 1
}
