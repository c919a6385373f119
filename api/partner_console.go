package api

import (
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The partner console (/socios, issue 36 item 7): a partner's people sign in with a passkey only
// (partner_console_passkeys.go) and hold a session in the ps_partner cookie. Every route below
// /api/socios/ answers for the signed-in user's own partner and nobody else's; what each role may
// do is perfilseguro.PartnerRoleAllows, checked here on every call (the console only hides). Every
// change is an audit event with actor_kind partner_user, written in the change's transaction.
// State changes come through sameOrigin (a foreign Origin is refused).

// partnerCookie holds the console session token (HttpOnly, SameSite=Lax, Secure in production).
const partnerCookie = "ps_partner"

// consoleTag groups the console's operations in the OpenAPI document.
var consoleTag = option.Tags("Consola de socios")

var (
	errPartnerSignedOut = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "Inicia sesión en la consola de socios para continuar.")
	errPartnerUserOff   = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Tu cuenta de la consola está desactivada. Pide ayuda a quien administra tu plataforma.")
	errConsoleBadID = perfilseguro.FieldError("id", "Identificador no válido")
	// errPartnerOff answers every console call of a deactivated partner, and its sign-in.
	errPartnerOff = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Tu plataforma está desactivada en Perfil Seguro: la consola, sus llaves y sus notificaciones no funcionan hasta que la reactivemos. Escribe a soporte si crees que es un error.")
)

func errPartnerRole(role string) error {
	return perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Tu rol (%s) no permite esta acción. Pide a un propietario de tu plataforma que la haga o que cambie tu rol.", role)
}

// ConsolePartnerJSON is the signed-in user's platform.
type ConsolePartnerJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Domain   string `json:"domain"` // the allowed origin
	IsActive bool   `json:"isActive"`
}

// ConsoleMeResponse is who is signed in to the console, for which platform, and what they may do.
type ConsoleMeResponse struct {
	User      postgres.PartnerUser `json:"user"`
	Partner   ConsolePartnerJSON   `json:"partner"`
	Actions   []string             `json:"actions"` // read, keys, webhook, origin, resend, team, operations, compliance
	ExpiresAt time.Time            `json:"expiresAt"`
}

func (s *Server) mountPartnerConsole() {
	s.mountPartnerConsolePasskeys()
	fuego.Get(s.f, "/api/socios/me", s.consoleMe, consoleTag,
		option.Summary("Quién usa la consola de socios: su cuenta, su plataforma y lo que su rol permite"))
	s.mountPartnerConsoleIntegration()
	s.mountPartnerConsoleData()
	s.mountPartnerConsoleOrigin()
	s.mountPartnerConsoleTeam()
	s.mountPartnerConsoleOperations()
	s.mountPartnerConsoleAMLReview()
	s.mountPartnerConsoleLists()
}

// consoleNoStore keeps an answer out of every cache (secrets, links and sessions go through here).
func consoleNoStore(c interface{ SetHeader(string, string) }) {
	c.SetHeader("Cache-Control", "no-store")
}

// partnerSessionOf returns the request's live console session, or nil when it has none.
func (s *Server) partnerSessionOf(r *http.Request) (*postgres.PartnerConsoleSession, error) {
	ck, err := r.Cookie(partnerCookie)
	if err != nil || !validToken(ck.Value) {
		return nil, nil
	}
	return s.store.PartnerConsoleSessionByToken(r.Context(), secure.HashToken(ck.Value), s.now())
}

// validToken reports whether v looks like a console token (secure.NewToken(32)).
func validToken(v string) bool { return secure.IsToken(v, 32) }

// consoleGuard describes a console call: what it does (audit name, empty for reads) and the
// action the role must allow.
type consoleGuard struct {
	action     perfilseguro.PartnerAction
	audit      string // e.g. "partner_console.key.create"; a refusal is recorded under it
	targetKind string
	targetID   string
}

// requirePartner returns the request's console session when its role allows g.action: 401 with
// no session, 403 for a deactivated partner (errPartnerOff) or a role that does not (recorded as
// denied when the call is a change).
func (s *Server) requirePartner(r *http.Request, g consoleGuard) (*postgres.PartnerConsoleSession, error) {
	sess, err := s.partnerSessionOf(r)
	if err != nil {
		return nil, err
	}
	if sess == nil {
		return nil, errPartnerSignedOut
	}
	if !sess.PartnerActive {
		return nil, errPartnerOff
	}
	if !perfilseguro.PartnerRoleAllows(sess.Role, g.action) {
		if g.audit != "" {
			e := s.partnerEvent(r, sess, g.audit)
			e.TargetKind, e.TargetID, e.Outcome = g.targetKind, g.targetID, postgres.OutcomeDenied
			s.audit(r, e)
		}
		return nil, errPartnerRole(sess.Role)
	}
	return sess, nil
}

// partnerEvent is an audit event whose actor is the session's partner user, with the request's
// address, browser and time; the store names the target and the changes.
func (s *Server) partnerEvent(r *http.Request, sess *postgres.PartnerConsoleSession, action string) postgres.AuditEvent {
	return s.partnerUserEvent(r, sess.PartnerUser, action)
}

func (s *Server) partnerUserEvent(r *http.Request, u postgres.PartnerUser, action string) postgres.AuditEvent {
	id := u.ID
	return s.withRequest(r, postgres.AuditEvent{ActorKind: postgres.ActorPartnerUser, ActorID: &id, ActorLabel: u.Label(),
		Action: action, Outcome: postgres.OutcomeOK})
}

// pathConsoleID reads a positive numeric {id}.
// consoleCall begins a console route: its answer is never cached (consoleNoStore), and the call
// needs a session allowed g (requirePartner).
func (s *Server) consoleCall(c interface {
	SetHeader(string, string)
	Request() *http.Request
}, g consoleGuard) (*postgres.PartnerConsoleSession, error) {
	consoleNoStore(c)
	return s.requirePartner(c.Request(), g)
}

// consoleRequest is consoleCall followed by decoding the request body (decodeJSON).
func consoleRequest[T any](s *Server, c fuego.ContextWithBody[T], g consoleGuard) (*postgres.PartnerConsoleSession, T, error) {
	var req T
	sess, err := s.consoleCall(c, g)
	if err != nil {
		return nil, req, err
	}
	req, err = decodeJSON[T](c.Request())
	return sess, req, err
}

// consoleReadInMode is a read of the console (PartnerRead) with the ?mode it is asked for
// (consoleMode: otherwise when omitted).
func (s *Server) consoleReadInMode(c interface {
	SetHeader(string, string)
	Request() *http.Request
}, otherwise string) (*postgres.PartnerConsoleSession, string, error) {
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return nil, "", err
	}
	mode, err := consoleMode(c.Request(), otherwise)
	return sess, mode, err
}

// consoleCallOn is consoleCall for a call on the row in {id}, the target its refusal is audited
// with; it returns the session and the row's id.
func (s *Server) consoleCallOn(c interface {
	SetHeader(string, string)
	PathParam(string) string
	Request() *http.Request
}, g consoleGuard) (*postgres.PartnerConsoleSession, int64, error) {
	g.targetID = c.PathParam("id")
	sess, err := s.consoleCall(c, g)
	if err != nil {
		return nil, 0, err
	}
	id, err := pathConsoleID(c)
	return sess, id, err
}

func pathConsoleID(c interface{ PathParam(string) string }) (int64, error) {
	return pathID(c, errConsoleBadID)
}

func (s *Server) consoleMe(c fuego.ContextNoBody) (ConsoleMeResponse, error) {
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return ConsoleMeResponse{}, err
	}
	actions := []string{}
	for _, a := range perfilseguro.PartnerRoleActions(sess.Role) {
		actions = append(actions, string(a))
	}
	return ConsoleMeResponse{User: sess.PartnerUser, Actions: actions, ExpiresAt: sess.ExpiresAt,
		Partner: ConsolePartnerJSON{ID: sess.PartnerID, Name: sess.PartnerName, Domain: sess.PartnerDomain, IsActive: sess.PartnerActive}}, nil
}
