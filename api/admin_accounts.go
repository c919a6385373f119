package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Named administrators: an administrador invites others (a single-use enrolment link, shown
// once), changes roles and disables accounts, never leaving the panel without an active administrador.

func (s *Server) mountAdminAccounts() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/admins", s.listAdmins, tag, option.Summary("Listar administradores (rol administrador)"))
	fuego.Post(s.f, "/api/admin/admins", s.inviteAdmin, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Invitar a un administrador: crea la cuenta y devuelve su enlace de registro (una vez, 24 horas)"))
	fuego.Put(s.f, "/api/admin/admins/{id}", s.changeAdminRole, tag,
		option.Summary("Cambiar el rol de un administrador (confirmación reciente con llave)"))
	fuego.Post(s.f, "/api/admin/admins/{id}/disable", s.disableAdmin, tag,
		option.Summary("Desactivar a un administrador y cerrar sus sesiones (nunca el último administrador activo)"))
	fuego.Post(s.f, "/api/admin/admins/{id}/enrolment", s.reissueEnrolment, tag,
		option.Summary("Nuevo enlace de registro de llave para un administrador (una vez, 24 horas)"))
}

// AdminInviteRequest is a new administrator.
type AdminInviteRequest struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role" enum:"administrador,soporte,finanzas"`
}

// AdminRoleRequest is an administrator's new role.
type AdminRoleRequest struct {
	Role string `json:"role" enum:"administrador,soporte,finanzas"`
}

// AdminEnrolmentResponse shows an enrolment link once; it is not stored in clear and not shown again.
type AdminEnrolmentResponse struct {
	Admin        postgres.Admin `json:"admin"`
	EnrolmentURL string         `json:"enrolmentUrl"`
	ExpiresAt    time.Time      `json:"expiresAt"`
	Message      string         `json:"message"`
}

// EnrolmentLink returns a new enrolment token, its hash (what is stored) and the link to share.
func EnrolmentLink(publicBaseURL string) (token, hash, link string) {
	token = secure.NewToken(32)
	return token, secure.HashToken(token), publicBaseURL + "/admin-enrol?token=" + token
}

func pathAdminID(c interface{ PathParam(string) string }) (int64, error) {
	return pathID(c, perfilseguro.FieldError("id", "ID de administrador no válido"))
}

func (s *Server) listAdmins(c fuego.ContextNoBody) ([]postgres.Admin, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesManage...); err != nil {
		return nil, err
	}
	return s.store.Admins(r.Context())
}

func (s *Server) inviteAdmin(c fuego.ContextWithBody[AdminInviteRequest]) (AdminEnrolmentResponse, error) {
	r := c.Request()
	sess, req, err := adminRequest(s, c, guard{action: "admin.create", targetKind: "admin", roles: rolesManage, fresh: true})
	if err != nil {
		return AdminEnrolmentResponse{}, err
	}
	_, hash, link := EnrolmentLink(s.cfg.PublicBaseURL)
	expires := s.now().Add(adminEnrolLifetime)
	by := sess.Admin.ID
	var a postgres.Admin
	err = s.adminAction(r, sess, "admin.create", "admin", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		a, err = s.store.CreateAdmin(ctx, perfilseguro.NewAdmin{Email: req.Email, Name: req.Name, Role: req.Role,
			CreatedBy: &by}, hash, expires)
		return strconv.FormatInt(a.ID, 10), map[string]postgres.Change{
			"email": {After: a.Email}, "name": {After: a.Name}, "role": {After: a.Role}}, err
	})
	if err != nil {
		return AdminEnrolmentResponse{}, err
	}
	setStatus(c, http.StatusCreated)
	return AdminEnrolmentResponse{Admin: a, EnrolmentURL: link, ExpiresAt: expires,
		Message: "Comparte este enlace solo con " + a.Name + ". Funciona una vez, durante 24 horas."}, nil
}

func (s *Server) changeAdminRole(c fuego.ContextWithBody[AdminRoleRequest]) (postgres.Admin, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathAdminID, guard{action: "admin.role", targetKind: "admin", roles: rolesManage, fresh: true})
	if err != nil {
		return postgres.Admin{}, err
	}
	req, err := decodeJSON[AdminRoleRequest](r)
	if err != nil {
		return postgres.Admin{}, err
	}
	if !isRole(req.Role) {
		return postgres.Admin{}, perfilseguro.FieldError("role", "Rol no válido: administrador, soporte o finanzas")
	}
	var after postgres.Admin
	err = s.adminAction(r, sess, "admin.role", "admin", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		before, changed, err := s.store.SetAdminRole(ctx, id, req.Role)
		after = changed
		return target, diff(map[string][2]any{"role": {before.Role, after.Role}}), err
	})
	if err != nil {
		return postgres.Admin{}, err
	}
	return after, nil
}

func isRole(role string) bool {
	for _, r := range perfilseguro.AdminRoles {
		if r == role {
			return true
		}
	}
	return false
}

func (s *Server) disableAdmin(c fuego.ContextNoBody) (postgres.Admin, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathAdminID, guard{action: "admin.disable", targetKind: "admin", roles: rolesManage, fresh: true})
	if err != nil {
		return postgres.Admin{}, err
	}
	var a postgres.Admin
	err = s.adminAction(r, sess, "admin.disable", "admin", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		a, err = s.store.DisableAdmin(ctx, id, s.now())
		return target, nil, err
	})
	if err != nil {
		return postgres.Admin{}, err
	}
	return a, nil
}

func (s *Server) reissueEnrolment(c fuego.ContextNoBody) (AdminEnrolmentResponse, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathAdminID, guard{action: "admin.enrolment", targetKind: "admin", roles: rolesManage, fresh: true})
	if err != nil {
		return AdminEnrolmentResponse{}, err
	}
	_, hash, link := EnrolmentLink(s.cfg.PublicBaseURL)
	expires := s.now().Add(adminEnrolLifetime)
	var a postgres.Admin
	err = s.adminAction(r, sess, "admin.enrolment", "admin", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		if err := s.store.NewAdminEnrolment(ctx, id, hash, expires); err != nil {
			return "", nil, err
		}
		var err error
		a, err = s.store.AdminByID(ctx, id)
		return target, nil, err
	})
	if err != nil {
		return AdminEnrolmentResponse{}, err
	}
	return AdminEnrolmentResponse{Admin: a, EnrolmentURL: link, ExpiresAt: expires,
		Message: "Comparte este enlace solo con " + a.Name + ". Funciona una vez, durante 24 horas; los enlaces anteriores que no se usaron ya no funcionan."}, nil
}
