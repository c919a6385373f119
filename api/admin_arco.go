package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// ARCO requests for the administrators: the open ones oldest first with the business days left
// to answer, one recorded from an e-mail, and their answers.

const maxArcoList = 500

func (s *Server) mountAdminArco() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/arco-requests", s.adminArcoRequests, tag,
		option.Summary("Solicitudes ARCO: abiertas (o todas), la más antigua primero, con los días hábiles restantes"),
		option.Query("state", "open (predeterminado) o all"))
	fuego.Post(s.f, "/api/admin/arco-requests", s.adminRecordArco, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Registrar una solicitud ARCO recibida por correo"))
	fuego.Put(s.f, "/api/admin/arco-requests/{id}", s.adminResolveArco, tag,
		option.Summary("Cambiar el estado de una solicitud ARCO (en proceso, atendida o rechazada)"))
}

// AdminArcoRequestJSON is an ARCO request as the administrators see it.
type AdminArcoRequestJSON struct {
	ArcoRequestJSON
	ProfileID        string  `json:"profileId"`
	Nombre           *string `json:"nombre"` // nil once the account is deleted
	Details          *string `json:"details"`
	Resolution       *string `json:"resolution"`
	BusinessDaysLeft int     `json:"businessDaysLeft"` // negative: overdue
}

func (s *Server) adminArcoJSON(a postgres.ArcoRequest) AdminArcoRequestJSON {
	return AdminArcoRequestJSON{ArcoRequestJSON: arcoJSON(a), ProfileID: a.ProfileID, Nombre: a.Nombre,
		Details: a.Details, Resolution: a.Resolution, BusinessDaysLeft: perfilseguro.BusinessDaysBetween(s.now(), a.DueAt)}
}

func (s *Server) adminArcoRequests(c fuego.ContextNoBody) ([]AdminArcoRequestJSON, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesPrivacy...); err != nil {
		return nil, err
	}
	state := r.URL.Query().Get("state")
	if state != "" && state != "open" && state != "all" {
		return nil, perfilseguro.FieldError("state", "Estado no válido: usa open o all")
	}
	list, err := s.store.ArcoRequests(r.Context(), state == "all", maxArcoList)
	if err != nil {
		return nil, err
	}
	return mapped(list, s.adminArcoJSON), nil
}

// AdminArcoCreateRequest is a request that arrived by e-mail.
type AdminArcoCreateRequest struct {
	ProfileID string `json:"profileId"`
	Type      string `json:"type" enum:"acceso,rectificacion,cancelacion,oposicion"`
	Details   string `json:"details"`
}

func (s *Server) adminRecordArco(c fuego.ContextWithBody[AdminArcoCreateRequest]) (AdminArcoRequestJSON, error) {
	r := c.Request()
	ctx := r.Context()
	sess, req, err := adminRequest(s, c, guard{action: "arco.create", targetKind: "arco", roles: rolesPrivacy})
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	fields := map[string]string{}
	req.ProfileID = strings.ToUpper(strings.TrimSpace(req.ProfileID))
	if !perfilseguro.ValidProfileID(req.ProfileID) {
		fields["profileId"] = "ID de perfil no válido"
	}
	if !slices.Contains(perfilseguro.ArcoTypes, req.Type) {
		fields["type"] = "Tipo no válido: acceso, rectificacion, cancelacion u oposicion"
	}
	details := strings.TrimSpace(req.Details)
	if n := utf8.RuneCountInString(details); n < 5 || n > 2000 {
		fields["details"] = "Describe la solicitud (de 5 a 2000 caracteres)"
	}
	if err := fieldsError(fields, "profileId", "type", "details"); err != nil {
		return AdminArcoRequestJSON{}, err
	}
	u, err := s.store.UserByProfileID(ctx, req.ProfileID)
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	var id int64
	err = s.adminAction(r, sess, "arco.create", "arco", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		id, err = s.store.AddArcoRequest(ctx, s.store.Ext(ctx), postgres.NewArcoRequest{UserID: u.ID, Type: req.Type,
			Channel: perfilseguro.ArcoChannelEmail, Details: details, Now: s.now()})
		return strconv.FormatInt(id, 10), map[string]postgres.Change{"type": {After: req.Type}, "profileId": {After: req.ProfileID}}, err
	})
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	s.logger.InfoContext(ctx, "admin recorded arco request", "arco_id", id, "user_id", u.ID, "request_id", requestID(ctx))
	a, err := s.store.ArcoRequestByID(ctx, id)
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	setStatus(c, http.StatusCreated)
	return s.adminArcoJSON(a), nil
}

// AdminArcoResolveRequest moves a request on, with the answer given.
type AdminArcoResolveRequest struct {
	State      string `json:"state" enum:"en_proceso,atendida,rechazada"`
	Resolution string `json:"resolution"`
}

func (s *Server) adminResolveArco(c fuego.ContextWithBody[AdminArcoResolveRequest]) (AdminArcoRequestJSON, error) {
	r := c.Request()
	id, err := pathID(c, perfilseguro.FieldError("id", "ID de solicitud no válido"))
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	sess, req, err := adminRequest(s, c, guard{action: "arco.resolve", targetKind: "arco", targetID: strconv.FormatInt(id, 10), roles: rolesPrivacy})
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	fields := map[string]string{}
	if !slices.Contains([]string{perfilseguro.ArcoInProgress, perfilseguro.ArcoDone, perfilseguro.ArcoRejected}, req.State) {
		fields["state"] = "Estado no válido: en_proceso, atendida o rechazada"
	}
	resolution := strings.TrimSpace(req.Resolution)
	if n := utf8.RuneCountInString(resolution); n < 5 || n > 2000 {
		fields["resolution"] = "Escribe la respuesta dada (de 5 a 2000 caracteres)"
	}
	if err := fieldsError(fields, "state", "resolution"); err != nil {
		return AdminArcoRequestJSON{}, err
	}
	var a postgres.ArcoRequest
	err = s.adminAction(r, sess, "arco.resolve", "arco", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		a, err = s.store.ResolveArcoRequest(ctx, id, req.State, resolution, s.now())
		return strconv.FormatInt(id, 10), map[string]postgres.Change{"state": {After: req.State}}, err
	})
	if err != nil {
		return AdminArcoRequestJSON{}, err
	}
	s.logger.InfoContext(r.Context(), "admin answered arco request", "arco_id", id, "state", req.State, "request_id", requestID(r.Context()))
	return s.adminArcoJSON(a), nil
}
