package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/passkey"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Partner users sign in with passkeys only, through the same machinery as administrators
// (admin_passkeys.go): an enrolment link registers the first passkey (passkey.Owner{Kind:
// "partner"}, user handle "partner:<id>") and opens a session; later a discoverable passkey
// does; there are no passwords.

// Console sign-ins from one address per hour: ceremonies begun, and answers checked.
const (
	partnerSignInOptionsPerIP = 60
	partnerSignInPerIP        = 30
)

var (
	errPartnerPasskeyUnknown = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED,
		"No reconocemos esta llave de acceso en la consola de socios. Usa la que registraste con tu enlace o pide uno nuevo.")
	errPartnerPasskeyCloned = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Bloqueamos esta llave de acceso porque parece copiada. Pide un enlace nuevo a quien administra tu plataforma.")
	errPartnerEnrolToken = perfilseguro.FieldError("token", "Falta el enlace de registro. Ábrelo tal como lo recibiste.")
)

func partnerOwner(u postgres.PartnerUser, partnerName string) passkey.Owner {
	display := u.Name
	if partnerName != "" {
		display += " · " + partnerName
	}
	return passkey.Owner{Kind: passkey.KindPartner, ID: u.ID, Name: u.Email, DisplayName: display}
}

// PartnerEnrolInfo is whom an enrolment link is for.
type PartnerEnrolInfo struct {
	Email       string `json:"email"`
	Name        string `json:"name"`
	Role        string `json:"role" enum:"propietario,desarrollador,cumplimiento,lectura"`
	PartnerName string `json:"partnerName"`
}

// PartnerEnrolRequest names the enrolment link (its token).
type PartnerEnrolRequest struct {
	Token string `json:"token"`
}

// PartnerEnrolVerifyRequest is the new passkey for an enrolment link.
type PartnerEnrolVerifyRequest struct {
	Token      string                `json:"token"`
	Name       string                `json:"name,omitempty"`
	Credential PasskeyCredentialJSON `json:"credential"`
}

// ConsoleSessionResponse says whether a console session is open, and until when.
type ConsoleSessionResponse struct {
	Success       bool       `json:"success"`
	Authenticated bool       `json:"authenticated"`
	ExpiresAt     *time.Time `json:"expiresAt,omitempty"`
	Message       string     `json:"message"`
}

func (s *Server) mountPartnerConsolePasskeys() {
	fuego.Get(s.f, "/api/socios/enrol", s.consoleEnrolInfo, consoleTag,
		option.Query("token", "Token del enlace de registro", param.Required()),
		option.Summary("A quién corresponde un enlace de registro de la consola de socios (410 si ya se usó o venció)"))
	fuego.Post(s.f, "/api/socios/enrol/options", s.consoleEnrolOptions, consoleTag,
		option.Summary("Opciones para registrar la llave de acceso de una persona de la plataforma con su enlace (cookie ps_webauthn)"))
	fuego.Post(s.f, "/api/socios/enrol/verify", s.consoleEnrolVerify, consoleTag,
		option.Summary("Registrar la llave de acceso (el enlace queda usado) y abrir la sesión de la consola (8 horas)"))
	fuego.Post(s.f, "/api/socios/passkey/options", s.consoleSignInOptions, consoleTag,
		option.Summary("Opciones para entrar a la consola de socios con llave de acceso (cookie ps_webauthn)"))
	fuego.Post(s.f, "/api/socios/passkey/verify", s.consoleSignIn, consoleTag,
		option.Summary("Entrar a la consola de socios con llave de acceso (sesión de 8 horas en la cookie ps_partner)"))
	fuego.Post(s.f, "/api/socios/logout", s.consoleSignOut, consoleTag, option.Summary("Cerrar la sesión de la consola de socios"))
}

func (s *Server) partnerEnrolment(r *http.Request, token string) (postgres.PartnerEnrolment, error) {
	if strings.TrimSpace(token) == "" {
		return postgres.PartnerEnrolment{}, errPartnerEnrolToken
	}
	if !validToken(token) {
		return postgres.PartnerEnrolment{}, postgres.ErrPartnerEnrolmentNotUsable
	}
	return s.store.PartnerEnrolmentByToken(r.Context(), secure.HashToken(token), s.now())
}

// partnerEnrolling is the partner user an enrolment link (its token) is for, and the passkey
// service that enrols them.
func (s *Server) partnerEnrolling(r *http.Request, token string) (postgres.PartnerEnrolment, *passkey.Service, error) {
	en, err := s.partnerEnrolment(r, token)
	if err != nil {
		return postgres.PartnerEnrolment{}, nil, err
	}
	if !en.PartnerActive {
		return postgres.PartnerEnrolment{}, nil, errPartnerOff
	}
	svc, err := s.passkeyService()
	return en, svc, err
}

func (s *Server) consoleEnrolInfo(c fuego.ContextNoBody) (PartnerEnrolInfo, error) {
	consoleNoStore(c)
	en, err := s.partnerEnrolment(c.Request(), c.QueryParam("token"))
	if err != nil {
		return PartnerEnrolInfo{}, err
	}
	return PartnerEnrolInfo{Email: en.Email, Name: en.Name, Role: en.Role, PartnerName: en.PartnerName}, nil
}

func (s *Server) consoleEnrolOptions(c fuego.ContextWithBody[PartnerEnrolRequest]) (PasskeyOptionsJSON, error) {
	r := c.Request()
	req, err := decodeJSON[PartnerEnrolRequest](r)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	en, svc, err := s.partnerEnrolling(r, req.Token)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginRegistration(r.Context(), partnerOwner(en.PartnerUser, en.PartnerName), s.ceremonyKey(c.Response(), r)))
}

func (s *Server) consoleEnrolVerify(c fuego.ContextWithBody[PartnerEnrolVerifyRequest]) (ConsoleSessionResponse, error) {
	consoleNoStore(c)
	r := c.Request()
	req, err := decodeJSON[enrolVerifyBody](r)
	if err != nil {
		return ConsoleSessionResponse{}, err
	}
	en, svc, err := s.partnerEnrolling(r, req.Token)
	if err != nil {
		return ConsoleSessionResponse{}, err
	}
	e := s.partnerUserEvent(r, en.PartnerUser, "partner_console.enrol")
	e.TargetKind, e.TargetID = "partner_user", strconv.FormatInt(en.ID, 10)
	// The link is used and the passkey stored in one transaction, as an administrator's
	// (admin_passkeys.go): of two requests with one link, one stores a passkey, the other is 410.
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		if _, err := s.store.ConsumePartnerEnrolment(ctx, secure.HashToken(req.Token), s.now()); err != nil {
			return postgres.AuditEvent{}, err
		}
		if _, err := svc.FinishRegistration(ctx, partnerOwner(en.PartnerUser, en.PartnerName), passkey.SessionKeyFrom(r), req.Credential, req.Name); err != nil {
			return postgres.AuditEvent{}, err
		}
		return e, nil
	})
	if err != nil {
		e.Outcome = postgres.OutcomeFailed
		s.audit(r, e)
		return ConsoleSessionResponse{}, err
	}
	return s.startPartnerSession(c.Response(), r, en.PartnerUser)
}

func (s *Server) consoleSignInOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	if err := s.allow(r.Context(), limit{"socios:options:ip:" + clientIP(r), partnerSignInOptionsPerIP}); err != nil {
		return PasskeyOptionsJSON{}, err
	}
	svc, err := s.passkeyService()
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginLogin(r.Context(), passkey.KindPartner, s.ceremonyKey(c.Response(), r)))
}

func (s *Server) consoleSignIn(c fuego.ContextWithBody[PasskeyCredentialJSON]) (ConsoleSessionResponse, error) {
	consoleNoStore(c)
	r := c.Request()
	ctx := r.Context()
	if err := s.allow(ctx, limit{"socios:signin:ip:" + clientIP(r), partnerSignInPerIP}); err != nil {
		return ConsoleSessionResponse{}, err
	}
	raw, err := decodeJSON[json.RawMessage](r)
	if err != nil {
		return ConsoleSessionResponse{}, err
	}
	svc, err := s.passkeyService()
	if err != nil {
		return ConsoleSessionResponse{}, err
	}
	failed := postgres.AuditEvent{ActorKind: postgres.ActorPartnerUser, Action: "partner_console.signin.passkey", Outcome: postgres.OutcomeFailed}
	owner, _, err := svc.FinishLogin(ctx, passkey.KindPartner, passkey.SessionKeyFrom(r), raw)
	switch {
	case errors.Is(err, passkey.ErrUnknownCredential):
		err = errPartnerPasskeyUnknown
	case errors.Is(err, passkey.ErrCloned):
		err = errPartnerPasskeyCloned
	}
	if err != nil {
		s.audit(r, s.withRequest(r, failed))
		return ConsoleSessionResponse{}, err
	}
	u, err := s.store.PartnerUserForSignIn(ctx, owner.ID)
	if err != nil {
		s.audit(r, s.withRequest(r, failed))
		return ConsoleSessionResponse{}, errPartnerPasskeyUnknown
	}
	if u.DisabledAt != nil || !u.PartnerActive {
		e := s.partnerUserEvent(r, u.PartnerUser, "partner_console.signin.passkey")
		e.Outcome = postgres.OutcomeDenied
		s.audit(r, e)
		if u.DisabledAt != nil {
			return ConsoleSessionResponse{}, errPartnerUserOff
		}
		return ConsoleSessionResponse{}, errPartnerOff
	}
	res, err := s.startPartnerSession(c.Response(), r, u.PartnerUser)
	if err != nil {
		return ConsoleSessionResponse{}, err
	}
	s.audit(r, s.partnerUserEvent(r, u.PartnerUser, "partner_console.signin.passkey"))
	return res, nil
}

// startPartnerSession opens a console session for u and sets its cookie.
func (s *Server) startPartnerSession(w http.ResponseWriter, r *http.Request, u postgres.PartnerUser) (ConsoleSessionResponse, error) {
	token := secure.NewToken(32)
	now := s.now()
	expires := now.Add(perfilseguro.PartnerSessionLifetime)
	if err := s.store.InsertPartnerConsoleSession(r.Context(), postgres.PartnerConsoleSessionStart{TokenHash: secure.HashToken(token),
		UserID: u.ID, Created: now, Expires: expires, IP: clientIP(r), UserAgent: r.UserAgent()}); err != nil {
		return ConsoleSessionResponse{}, err
	}
	http.SetCookie(w, &http.Cookie{Name: partnerCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteLaxMode, MaxAge: int(perfilseguro.PartnerSessionLifetime.Seconds())})
	return ConsoleSessionResponse{Success: true, Authenticated: true, ExpiresAt: &expires, Message: "Entraste a la consola de socios."}, nil
}

func (s *Server) consoleSignOut(c fuego.ContextNoBody) (ConsoleSessionResponse, error) {
	consoleNoStore(c)
	r := c.Request()
	if ck, err := r.Cookie(partnerCookie); err == nil && validToken(ck.Value) {
		if sess, err := s.partnerSessionOf(r); err == nil && sess != nil {
			s.audit(r, s.partnerEvent(r, sess, "partner_console.signout"))
		}
		if err := s.store.RevokePartnerConsoleSession(r.Context(), secure.HashToken(ck.Value), s.now()); err != nil {
			return ConsoleSessionResponse{}, err
		}
	}
	http.SetCookie(c.Response(), &http.Cookie{Name: partnerCookie, Value: "", Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteLaxMode, MaxAge: -1})
	return ConsoleSessionResponse{Success: true, Message: "Cerraste tu sesión de la consola."}, nil
}
