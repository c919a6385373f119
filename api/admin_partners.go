package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (s *Server) mountAdminPartners() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/partners", s.listPartners, tag, option.Summary("Listar socios (api_keys)"))
	fuego.Post(s.f, "/api/admin/partners", s.createPartner, tag, option.Summary("Crear socio: responde sus llaves publicables y una primera llave secreta de prueba y de producción, que solo se muestran esta vez"),
		option.DefaultStatusCode(http.StatusCreated))
	fuego.Post(s.f, "/api/admin/partners/{id}/deactivate", s.deactivatePartner, tag,
		option.Summary("Desactivar socio: sus llaves, su consola, sus flujos abiertos y sus notificaciones se detienen"))
	fuego.Post(s.f, "/api/admin/partners/{id}/activate", s.activatePartner, tag,
		option.Summary("Reactivar socio: sus llaves y su consola vuelven a funcionar (409 si otra plataforma tomó su origen)"))
	fuego.Delete(s.f, "/api/admin/partners/{id}", s.deletePartner, tag, option.Summary("Eliminar socio"))
	fuego.Post(s.f, "/api/admin/partners/{id}/users", s.invitePartnerUserAsAdmin, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Invitar a una persona del socio a su consola (/socios): devuelve su enlace de registro una sola vez, válido 7 días"))
}

// invitePartnerUserAsAdmin gives a partner its first console user (or another one); the audit
// event names the administrator, in the same transaction as the new account.
func (s *Server) invitePartnerUserAsAdmin(c fuego.ContextWithBody[PartnerUserInviteRequest]) (PartnerEnrolmentResponse, error) {
	consoleNoStore(c)
	r := c.Request()
	sess, id, _, err := s.authorizeOn(c, pathPartnerID, guard{action: "partner.user.invite", targetKind: "partner", roles: rolesManage, fresh: true})
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	out, err := s.invitePartnerUser(r, id, sess.Admin.Label(), s.withRequest(r, adminEvent(sess.Admin, "partner.user.invite", "", "", postgres.OutcomeOK)))
	if err != nil {
		return PartnerEnrolmentResponse{}, err
	}
	setStatus(c, http.StatusCreated)
	return out, nil
}

// PartnerRequest is the partner creation form (SPEC §5 'Partner creation').
type PartnerRequest struct {
	PartnerName string   `json:"partnerName"`
	Domain      string   `json:"domain"`
	Permissions []string `json:"permissions,omitempty"`
	CreatedBy   string   `json:"createdBy,omitempty"`
	Notes       string   `json:"notes,omitempty"`
}

func (s *Server) listPartners(c fuego.ContextNoBody) ([]postgres.Partner, error) {
	if _, err := s.requireRole(c.Request(), rolesManage...); err != nil {
		return nil, err
	}
	return s.store.Partners(c.Request().Context())
}

// createPartner answers the new partner with its first keys; the secret keys appear only here.
func (s *Server) createPartner(c fuego.ContextWithBody[PartnerRequest]) (postgres.CreatedPartner, error) {
	r := c.Request()
	sess, req, err := adminRequest(s, c, guard{action: "partner.create", targetKind: "partner", roles: rolesManage, fresh: true})
	if err != nil {
		return postgres.CreatedPartner{}, err
	}
	np := postgres.NewPartner{PartnerName: req.PartnerName, Domain: req.Domain, Permissions: req.Permissions,
		CreatedBy: req.CreatedBy, Notes: req.Notes, Ours: s.cfg.OwnOrigins()}
	if err := np.Normalize(); err != nil {
		return postgres.CreatedPartner{}, err
	}
	var p postgres.CreatedPartner
	err = s.adminAction(r, sess, "partner.create", "partner", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		p, err = s.store.CreatePartner(ctx, np)
		return strconv.FormatInt(p.ID, 10), map[string]postgres.Change{"partnerName": {After: p.PartnerName}, "domain": {After: p.Domain}}, err
	})
	if err != nil {
		return postgres.CreatedPartner{}, err
	}
	s.logger.InfoContext(r.Context(), "admin created partner", "partner_id", p.ID, "domain", p.Domain)
	setStatus(c, http.StatusCreated)
	return p, nil
}

var errBadPartnerID = perfilseguro.FieldError("id", "ID de socio no válido")

func pathPartnerID(c interface{ PathParam(string) string }) (int64, error) {
	return pathID(c, errBadPartnerID)
}

func (s *Server) deactivatePartner(c fuego.ContextNoBody) (postgres.Partner, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathPartnerID, guard{action: "partner.disable", targetKind: "partner", roles: rolesManage})
	if err != nil {
		return postgres.Partner{}, err
	}
	var p postgres.Partner
	err = s.adminAction(r, sess, "partner.disable", "partner", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		p, err = s.store.DeactivatePartner(ctx, id)
		return target, nil, err
	})
	if err != nil {
		return postgres.Partner{}, err
	}
	return p, nil
}

func (s *Server) activatePartner(c fuego.ContextNoBody) (postgres.Partner, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathPartnerID, guard{action: "partner.enable", targetKind: "partner", roles: rolesManage})
	if err != nil {
		return postgres.Partner{}, err
	}
	var p postgres.Partner
	err = s.adminAction(r, sess, "partner.enable", "partner", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		p, err = s.store.ActivatePartner(ctx, id)
		return target, nil, err
	})
	if err != nil {
		return postgres.Partner{}, err
	}
	return p, nil
}

// DeletePartnerResponse confirms a partner deletion.
type DeletePartnerResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func (s *Server) deletePartner(c fuego.ContextNoBody) (DeletePartnerResponse, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathPartnerID, guard{action: "partner.delete", targetKind: "partner", roles: rolesManage, fresh: true})
	if err != nil {
		return DeletePartnerResponse{}, err
	}
	err = s.adminAction(r, sess, "partner.delete", "partner", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		return target, nil, s.store.DeletePartner(ctx, id)
	})
	if err != nil {
		return DeletePartnerResponse{}, err
	}
	return DeletePartnerResponse{Success: true, Message: "Socio eliminado"}, nil
}
