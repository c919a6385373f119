package api

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// maxRevocationReason is the longest reason an administrator may give (profile_events, users).
const maxRevocationReason = 500

// revocationReason reads the body's motivo (RevokeRequest and LiftRevocationRequest are alike)
// with its spaces folded, and checks it is given (missing: the message when it is not) and no
// longer than maxRevocationReason.
func revocationReason(r *http.Request, missing string) (string, error) {
	req, err := decodeJSON[RevokeRequest](r)
	if err != nil {
		return "", err
	}
	reason := strings.Join(strings.Fields(req.Motivo), " ")
	switch {
	case reason == "":
		return "", perfilseguro.FieldError("motivo", missing)
	case utf8.RuneCountInString(reason) > maxRevocationReason:
		return "", perfilseguro.FieldError("motivo", "El motivo no puede exceder 500 caracteres")
	}
	return reason, nil
}

// revocationChange is how revoking and lifting a revocation begin: the administrator allowed to
// act on the path's user (with a fresh passkey confirmation), the reason in the body, and the
// audit event, carrying that reason, that the change's own transaction writes.
type revocationChange struct {
	admin  postgres.Admin
	ip     string // the administrator's address
	userID int64
	reason string
	audit  postgres.AuditEvent
}

// revocation is the change as postgres.Revoke records it.
func (rc revocationChange) revocation() postgres.Revocation {
	return postgres.Revocation{UserID: rc.userID, Reason: rc.reason, ActorIP: rc.ip, AdminID: rc.admin.ID,
		AdminLabel: rc.admin.Label(), Audit: &rc.audit}
}

// lift is the change as postgres.LiftRevocation records it, then running inside its transaction.
func (rc revocationChange) lift(then func(tx *sqlx.Tx, eventID int64) error) postgres.RevocationLift {
	return postgres.RevocationLift{UserID: rc.userID, Reason: rc.reason, ActorIP: rc.ip, AdminID: rc.admin.ID,
		AdminLabel: rc.admin.Label(), Audit: &rc.audit, Then: then}
}

// beginRevocationChange authorizes action and reads its reason (missing: the message when none is given).
func (s *Server) beginRevocationChange(c interface {
	PathParam(string) string
	Request() *http.Request
}, action, missing string) (revocationChange, error) {
	r := c.Request()
	sess, id, target, err := s.authorizeOn(c, pathUserID, guard{action: action, targetKind: "user", roles: rolesManage, fresh: true})
	if err != nil {
		return revocationChange{}, err
	}
	reason, err := revocationReason(r, missing)
	if err != nil {
		return revocationChange{}, err
	}
	e := s.withRequest(r, adminEvent(sess.Admin, action, "user", target, postgres.OutcomeOK))
	e.Changes = map[string]postgres.Change{"motivo": {After: reason}}
	return revocationChange{admin: sess.Admin, ip: clientIP(r), userID: id, reason: reason, audit: e}, nil
}

func (s *Server) mountAdminLifecycle() {
	tag := option.Tags("Administración")
	fuego.Post(s.f, "/api/admin/users/{id}/revoke", s.revokeProfile, tag,
		option.Summary("Revocar la validación de un perfil con un motivo, sin eliminar la cuenta (administrador)"))
	fuego.Post(s.f, "/api/admin/users/{id}/lift-revocation", s.liftRevocation, tag,
		option.Summary("Levantar la revocación de un perfil con un motivo: la validación revocada no vuelve, la persona "+
			"puede iniciar una nueva verificación biométrica y se le avisa por correo (solo administrador)"),
		option.AddError(http.StatusConflict, "El perfil no está revocado", ErrorBody{}))
	fuego.Get(s.f, "/api/admin/users/{id}/lifecycle", s.profileLifecycle, tag,
		option.Summary("Historial del perfil: expiración, revocación y su levantamiento, quién y cuándo (administrador)"))
}

// errRevoked is the 409 of every start of a new validation (biometric check, checkout) while a
// revocation stands: only an administrador lifts it (DECISIONS.md, Revocation), so it names support.
func (s *Server) errRevoked() error {
	return perfilseguro.Errorf(perfilseguro.ECONFLICT, "Tu validación fue revocada: no puedes iniciar una nueva verificación "+
		"hasta que soporte revise tu caso. Escríbenos a %s.", s.cfg.SupportEmail)
}

// RevokeRequest is the administrator's reason for a revocation.
type RevokeRequest struct {
	Motivo string `json:"motivo"`
}

func (s *Server) revokeProfile(c fuego.ContextWithBody[RevokeRequest]) (UserJSON, error) {
	r := c.Request()
	rc, err := s.beginRevocationChange(c, "user.revoke", "El motivo de la revocación es requerido")
	if err != nil {
		return UserJSON{}, err
	}
	id := rc.userID
	u, err := s.store.Revoke(r.Context(), rc.revocation())
	if err != nil {
		return UserJSON{}, err
	}
	s.public.forgetUser(id) // at once here; other replicas hear it from Postgres
	s.rebuildPasses(r.Context(), u)
	s.rebuildStatusList(r.Context(), fmt.Sprintf("revoked:%d", id))
	s.logger.InfoContext(r.Context(), "admin revoked profile", "user_id", id, "request_id", requestID(r.Context()))
	return toUserJSON(u), nil
}

// LiftRevocationRequest is the administrador's reason for lifting a revocation.
type LiftRevocationRequest struct {
	Motivo string `json:"motivo"`
}

// liftRevocation ends a revocation: its event, the audit row and the person's e-mail job are
// written in one transaction (Redis down: nothing changes, 503). The revoked validation does not
// come back; the person may start a new biometric check (postgres.LiftRevocation).
func (s *Server) liftRevocation(c fuego.ContextWithBody[LiftRevocationRequest]) (UserJSON, error) {
	r := c.Request()
	rc, err := s.beginRevocationChange(c, "user.revoke.lift", "El motivo para levantar la revocación es requerido")
	if err != nil {
		return UserJSON{}, err
	}
	id := rc.userID
	ctx := r.Context()
	u, err := s.store.LiftRevocation(ctx, rc.lift(func(_ *sqlx.Tx, eventID int64) error {
		task, err := jobs.NewSendLiftNoticeTask(eventID)
		return s.enqueue(ctx, task, err)
	}))
	if err != nil {
		return UserJSON{}, err
	}
	s.public.forgetUser(id) // at once here; other replicas hear it from Postgres
	s.rebuildPasses(ctx, u)
	s.logger.InfoContext(ctx, "admin lifted revocation", "user_id", id, "request_id", requestID(ctx))
	return toUserJSON(u), nil
}

// LifecycleEventJSON is one step of a profile's lifecycle.
type LifecycleEventJSON struct {
	Tipo   string  `json:"tipo" enum:"expired,revoked,renewed,lifted"`
	Motivo *string `json:"motivo"`
	Quien  string  `json:"quien" enum:"system,admin"`
	// Administrador is the e-mail of the administrator who acted (nil: the system, or before named administrators).
	Administrador *string   `json:"administrador"`
	IP            *string   `json:"ip"` // the administrator's address
	Fecha         time.Time `json:"fecha"`
}

// LifecycleResponse is a profile's lifecycle, newest first.
type LifecycleResponse struct {
	Events []LifecycleEventJSON `json:"events"`
}

func (s *Server) profileLifecycle(c fuego.ContextNoBody) (LifecycleResponse, error) {
	r := c.Request()
	if err := s.requireAdmin(r); err != nil {
		return LifecycleResponse{}, err
	}
	id, err := pathUserID(c)
	if err != nil {
		return LifecycleResponse{}, err
	}
	if _, err := s.store.UserByID(r.Context(), id); err != nil {
		return LifecycleResponse{}, err
	}
	events, err := s.store.ProfileEvents(r.Context(), id)
	if err != nil {
		return LifecycleResponse{}, err
	}
	out := LifecycleResponse{Events: make([]LifecycleEventJSON, len(events))}
	for i, e := range events {
		out.Events[i] = LifecycleEventJSON{Tipo: e.Kind, Motivo: e.Reason, Quien: e.Actor, Administrador: e.AdminName,
			IP: e.ActorIP, Fecha: e.CreatedAt}
	}
	return out, nil
}
