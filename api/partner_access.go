package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Mi Perfil › Plataformas con acceso: which partners a person shared with, what and when, and
// the withdrawal that stops every later answer to that partner (DECISIONS.md, "Partners").

// PartnerAccessResponse lists a person's grants, current first, and the businesses that keep an
// LFPIORPI file about them (issue 53 item 6): the business's name and until when, never the file.
type PartnerAccessResponse struct {
	Grants   []postgres.Grant `json:"grants"`
	AMLFiles []AMLFileKept    `json:"amlFiles" description:"Plataformas inmobiliarias que conservan un expediente de identificación sobre ti por la LFPIORPI, y hasta cuándo"`
}

// AMLFileKept is a business that must keep an anti-money-laundering file about the person.
type AMLFileKept struct {
	PartnerName string `json:"partnerName"`
	Until       string `json:"until" description:"Hasta qué día lo conserva (AAAA-MM-DD): 10 años desde la operación más reciente"`
}

func (s *Server) mountPartnerAccess() {
	tag := option.Tags("Privacidad")
	fuego.Get(s.f, "/api/users/{id}/partner-access", s.listPartnerAccess, tag,
		option.Summary("Plataformas con acceso: a quién compartiste tus datos, cuáles y cuándo"),
		option.AddError(429, "Demasiadas consultas", ErrorBody{}))
	fuego.Delete(s.f, "/api/users/{id}/partner-access/{grantId}", s.revokePartnerAccess, tag,
		option.Summary("Retirar el acceso de una plataforma: deja de recibir tus datos y se le avisa"),
		option.Path("grantId", "El acceso a retirar", param.Required()),
		option.AddError(404, "Ese acceso no existe o ya se retiró", ErrorBody{}))
}

func (s *Server) listPartnerAccess(c fuego.ContextNoBody) (PartnerAccessResponse, error) {
	var files []postgres.AMLFileKept
	grants, err := privacyRead(s, c, func(ctx context.Context, id int64) ([]postgres.Grant, error) {
		grants, err := s.store.UserGrants(ctx, id)
		if err == nil {
			files, err = s.store.AMLFilesAbout(ctx, id)
		}
		return grants, err
	})
	if err != nil {
		return PartnerAccessResponse{}, err
	}
	out := PartnerAccessResponse{Grants: grants, AMLFiles: []AMLFileKept{}}
	for _, f := range files {
		out.AMLFiles = append(out.AMLFiles, AMLFileKept{PartnerName: f.PartnerName, Until: f.Until.Format(time.DateOnly)})
	}
	return out, nil
}

func (s *Server) revokePartnerAccess(c fuego.ContextNoBody) (postgres.Grant, error) {
	r := c.Request()
	id, err := pathUserID(c)
	if err != nil {
		return postgres.Grant{}, err
	}
	grantID, err := strconv.ParseInt(c.PathParam("grantId"), 10, 64)
	if err != nil || grantID <= 0 {
		return postgres.Grant{}, perfilseguro.FieldError("grantId", "El acceso indicado no es válido.")
	}
	if err := s.requireOwner(r, id); err != nil {
		return postgres.Grant{}, err
	}
	g, deliveryID, err := s.store.RevokeGrant(r.Context(), id, grantID, s.now())
	if err != nil {
		return postgres.Grant{}, err
	}
	s.notifyDelivery(r.Context(), deliveryID)
	setStatus(c, http.StatusOK)
	return g, nil
}
