package api

import (
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// A platform's team in the console: everyone reads it; a propietario invites (a single-use
// enrolment link, shown once, valid 7 days), changes roles, disables accounts and issues new
// links, never leaving the platform without an active propietario. An administrator can invite
// too, from the panel (POST /api/admin/partners/{id}/users, admin_partners.go).

// PartnerUserInviteRequest is a new member of a platform's team.
type PartnerUserInviteRequest struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role" enum:"propietario,desarrollador,cumplimiento,lectura"`
}

// PartnerUserRoleRequest is a team member's new role.
type PartnerUserRoleRequest struct {
	Role string `json:"role" enum:"propietario,desarrollador,cumplimiento,lectura"`
}

// PartnerEnrolmentResponse shows an enrolment link once; it is not stored in clear and not shown again.
type PartnerEnrolmentResponse struct {
	User         postgres.PartnerUser `json:"user"`
	EnrolmentURL string               `json:"enrolmentUrl"`
	ExpiresAt    time.Time            `json:"expiresAt"`
	Message      string               `json:"message"`
}

var errDisableSelf = perfilseguro.Errorf(perfilseguro.ECONFLICT, "No puedes desactivar tu propia cuenta: pídeselo a otro propietario.")

func (s *Server) mountPartnerConsoleTeam() {
	id := option.Path("id", "Identificador de la persona", param.Required())
	fuego.Get(s.f, "/api/socios/users", s.consoleUsers, consoleTag, option.Summary("El equipo de tu plataforma en la consola"))
	fuego.Post(s.f, "/api/socios/users", s.consoleInvite, consoleTag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Invitar a una persona (propietario): devuelve su enlace de registro una sola vez, válido 7 días"))
	fuego.Put(s.f, "/api/socios/users/{id}", s.consoleSetRole, consoleTag, id,
		option.Summary("Cambiar el rol de una persona del equipo (propietario)"))
	fuego.Post(s.f, "/api/socios/users/{id}/disable", s.consoleDisableUser, consoleTag, id,
		option.Summary("Desactivar a una persona del equipo y cerrar sus sesiones (propietario; nunca el último propietario)"))
	fuego.Post(s.f, "/api/socios/users/{id}/enrolment", s.consoleNewEnrolment, consoleTag, id,
		option.Summary("Nuevo enlace de registro de llave para una persona del equipo (propietario; una vez, 7 días)"))
}

// partnerEnrolmentLink returns a new enrolment token's hash (what is stored) and the link to share.
func (s *Server) partnerEnrolmentLink() (hash, link string) {
	token := secure.NewToken(32)
	return secure.HashToken(token), s.cfg.PublicBaseURL + "/socios/registro?token=" + token
}

func enrolmentMessage(u postgres.PartnerUser) string {
	return "Comparte este enlace solo con " + u.Name + ". Funciona una vez, durante 7 días; no volverás a verlo."
}

// invitePartnerUser creates a team member and their first enrolment link, with the audit event e.
func (s *Server) invitePartnerUser(r *http.Request, partnerID int64, invitedBy string, e postgres.AuditEvent) (PartnerEnrolmentResponse, error) {
	req, err := decodeJSON[PartnerUserInviteRequest](r)
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	hash, link := s.partnerEnrolmentLink()
	expires := s.now().Add(perfilseguro.PartnerEnrolLifetime)
	u, err := s.store.CreatePartnerUser(r.Context(), perfilseguro.NewPartnerUser{PartnerID: partnerID, Email: req.Email, Name: req.Name,
		Role: req.Role, InvitedBy: invitedBy}, hash, expires, e)
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	return PartnerEnrolmentResponse{User: u, EnrolmentURL: link, ExpiresAt: expires, Message: enrolmentMessage(u)}, nil
}

func (s *Server) consoleUsers(c fuego.ContextNoBody) ([]postgres.PartnerUser, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return nil, err
	}
	return s.store.PartnerUsers(r.Context(), sess.PartnerID)
}

func (s *Server) consoleInvite(c fuego.ContextWithBody[PartnerUserInviteRequest]) (PartnerEnrolmentResponse, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerManageTeam, audit: "partner_console.user.invite", targetKind: "partner_user"})
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	out, err := s.invitePartnerUser(r, sess.PartnerID, sess.Email, s.partnerEvent(r, sess, "partner_console.user.invite"))
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	setStatus(c, http.StatusCreated)
	return out, nil
}

func (s *Server) consoleSetRole(c fuego.ContextWithBody[PartnerUserRoleRequest]) (postgres.PartnerUser, error) {
	r := c.Request()
	sess, id, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerManageTeam, audit: "partner_console.user.role",
		targetKind: "partner_user"})
	if err != nil {
		return postgres.PartnerUser{}, err
	}
	req, err := decodeJSON[PartnerUserRoleRequest](r)
	if err != nil {
		return postgres.PartnerUser{}, err
	}
	_, after, err := s.store.SetPartnerUserRole(r.Context(), sess.PartnerID, id, req.Role, s.partnerEvent(r, sess, "partner_console.user.role"))
	return after, err
}

func (s *Server) consoleDisableUser(c fuego.ContextNoBody) (postgres.PartnerUser, error) {
	r := c.Request()
	sess, id, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerManageTeam, audit: "partner_console.user.disable",
		targetKind: "partner_user"})
	if err != nil {
		return postgres.PartnerUser{}, err
	}
	if id == sess.ID {
		return postgres.PartnerUser{}, errDisableSelf
	}
	return s.store.DisablePartnerUser(r.Context(), sess.PartnerID, id, s.now(), s.partnerEvent(r, sess, "partner_console.user.disable"))
}

func (s *Server) consoleNewEnrolment(c fuego.ContextNoBody) (PartnerEnrolmentResponse, error) {
	r := c.Request()
	sess, id, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerManageTeam, audit: "partner_console.user.enrolment",
		targetKind: "partner_user"})
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	hash, link := s.partnerEnrolmentLink()
	expires := s.now().Add(perfilseguro.PartnerEnrolLifetime)
	u, err := s.store.NewPartnerUserEnrolment(r.Context(), sess.PartnerID, id, hash, expires, s.partnerEvent(r, sess, "partner_console.user.enrolment"))
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	return PartnerEnrolmentResponse{User: u, EnrolmentURL: link, ExpiresAt: expires,
		Message: enrolmentMessage(u) + " Los enlaces anteriores que no se usaron ya no funcionan."}, nil
}
