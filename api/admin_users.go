package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Paging of the administrators' user list.
const (
	defaultUserPageSize = 50
	maxUserPageSize     = 500
)

func (s *Server) mountAdminUsers() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/users", s.listUsers, tag,
		option.Summary("Listar usuarios (administrador)"),
		option.Description("Sin parámetros devuelve la lista completa. Con page/pageSize pagina en el servidor; q busca "+
			"(sin distinguir mayúsculas) en nombre, id_validado, email y origen. El total está en la cabecera X-Total-Count."),
		option.Query("q", "Texto a buscar"), option.Query("page", "Página (desde 1)"),
		option.Query("pageSize", "Usuarios por página (máximo 500)"))
	fuego.Post(s.f, "/api/users", s.createUser, tag, option.Summary("Crear usuario validado (administrador)"),
		option.DefaultStatusCode(http.StatusCreated))
	fuego.Put(s.f, "/api/users/{id}", s.updateUser, tag, option.Summary("Editar usuario (administrador)"))
	fuego.Delete(s.f, "/api/users/{id}", s.deleteUser, tag,
		option.Summary("Eliminar la cuenta y sus datos personales (administrador, o la persona tras confirmar con un código)"))
}

func (s *Server) listUsers(c fuego.ContextNoBody) ([]UserJSON, error) {
	r := c.Request()
	if err := s.requireAdmin(r); err != nil {
		return nil, err
	}
	q := r.URL.Query()
	f := postgres.UserFilter{Query: q.Get("q")}
	if q.Has("page") || q.Has("pageSize") {
		page, size := atoiOr(q.Get("page"), 1), atoiOr(q.Get("pageSize"), defaultUserPageSize)
		if page < 1 || size < 1 {
			return nil, perfilseguro.FieldError("page", "Página no válida")
		}
		f.Limit = min(size, maxUserPageSize)
		f.Offset = (page - 1) * f.Limit
	}
	users, total, err := s.store.ListUsers(r.Context(), f)
	if err != nil {
		return nil, err
	}
	c.Response().Header().Set("X-Total-Count", strconv.Itoa(total))
	return mapped(users, toUserJSON), nil
}

func atoiOr(s string, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// vigencia is the validity in years, sent as a number (the spec) or a numeric string (form values).
type vigencia int

// UnmarshalJSON accepts 5 or "5"; anything else becomes an invalid value the validation reports.
func (v *vigencia) UnmarshalJSON(b []byte) error {
	n, err := strconv.Atoi(string(bytes.Trim(b, `"`)))
	if err != nil || bytes.Equal(b, []byte("null")) {
		n = -1
	}
	*v = vigencia(n)
	return nil
}

// AdminUserRequest is the admin user form (SPEC §7: nombre, email, origen, vigencia).
type AdminUserRequest struct {
	Nombre   string   `json:"nombre"`
	Email    string   `json:"email"`
	Origen   string   `json:"origen"`
	Vigencia vigencia `json:"vigencia"`
	// ConfirmRevalidation acknowledges that a new name annuls a validated person's biometric validation.
	ConfirmRevalidation bool `json:"confirmRevalidation,omitempty"`
}

// validate applies SPEC §5 'Admin user' rules and returns the record to store. keepOrigen is an
// origin the user already has and may keep although administrators cannot choose it (invitación).
func (req AdminUserRequest) validate(keepOrigen string) (postgres.AdminUser, error) {
	fields := map[string]string{}
	u := postgres.AdminUser{Nombre: strings.Join(strings.Fields(req.Nombre), " "), Origen: strings.TrimSpace(req.Origen),
		Vigencia: int(req.Vigencia)}
	if !perfilseguro.ValidateName(u.Nombre, 3) {
		fields["nombre"] = "El nombre debe tener al menos 3 caracteres"
	}
	if email := perfilseguro.NormalizeEmail(req.Email); email != "" {
		if !perfilseguro.ValidEmail(email) {
			fields["email"] = "Email inválido"
		}
		u.Email = &email
	}
	if u.Origen == "" {
		u.Origen = perfilseguro.OriginOther
	}
	if !slices.Contains(perfilseguro.AdminOrigins, u.Origen) && (keepOrigen == "" || u.Origen != keepOrigen) {
		fields["origen"] = "Selecciona un origen"
	}
	if u.Vigencia == 0 {
		u.Vigencia = 1
	}
	if u.Vigencia != 1 && u.Vigencia != 5 && u.Vigencia != 10 {
		fields["vigencia"] = "Selecciona una vigencia"
	}
	return u, fieldsError(fields, "nombre", "email", "origen", "vigencia")
}

func (s *Server) createUser(c fuego.ContextWithBody[AdminUserRequest]) (UserJSON, error) {
	r := c.Request()
	sess, req, err := adminRequest(s, c, guard{action: "user.create", targetKind: "user", roles: rolesManage})
	if err != nil {
		return UserJSON{}, err
	}
	u, err := req.validate("")
	if err != nil {
		return UserJSON{}, err
	}
	var created perfilseguro.User
	err = s.adminAction(r, sess, "user.create", "user", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		created, err = s.store.CreateUserAsAdmin(ctx, u, s.now())
		return strconv.FormatInt(created.ID, 10), userChanges(perfilseguro.User{}, created), err
	})
	if err != nil {
		return UserJSON{}, err
	}
	s.logger.InfoContext(r.Context(), "admin created user", "user_id", created.ID, "request_id", requestID(r.Context()))
	setStatus(c, http.StatusCreated)
	return toUserJSON(created), nil
}

func (s *Server) updateUser(c fuego.ContextWithBody[AdminUserRequest]) (UserJSON, error) {
	r := c.Request()
	ctx := r.Context()
	id, err := pathUserID(c)
	if err != nil {
		return UserJSON{}, err
	}
	sess, req, err := adminRequest(s, c, guard{action: "user.update", targetKind: "user", targetID: strconv.FormatInt(id, 10), roles: rolesManage})
	if err != nil {
		return UserJSON{}, err
	}
	current, err := s.store.UserByID(ctx, id)
	if err != nil {
		return UserJSON{}, err
	}
	keep := ""
	if current.Origen == perfilseguro.OriginInvitation {
		keep = perfilseguro.OriginInvitation
	}
	u, err := req.validate(keep)
	if err != nil {
		return UserJSON{}, err
	}
	// A new name or e-mail is who the account is and how it signs in: it needs the fresh passkey
	// confirmation a deletion needs, and a validated person's new name annuls the validation as
	// the person's own correction does (issue 54, item 22; account_changes.go tells the person).
	renamed := u.Nombre != current.Nombre
	if renamed && current.NameFromDocument {
		return UserJSON{}, postgres.ErrNameFromDocument // the identity document certifies it (issue 52)
	}
	annul := renamed && current.BiometricVerified && current.VerificationLevel >= perfilseguro.LevelBiometric
	if renamed || deref(u.Email) != deref(current.Email) {
		if _, err := s.authorize(r, guard{action: "user.update", targetKind: "user", targetID: strconv.FormatInt(id, 10),
			roles: rolesManage, fresh: true}); err != nil {
			return UserJSON{}, err
		}
	}
	if annul && !req.ConfirmRevalidation {
		return UserJSON{}, errAdminRenameAnnuls
	}
	var before, after perfilseguro.User
	err = s.adminAction(r, sess, "user.update", "user", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		before, after, err = s.store.UpdateUserAsAdmin(ctx, id, u)
		if err == nil && annul {
			_, after, err = s.store.RenameUser(ctx, id, u.Nombre, true, s.now())
		}
		if err == nil {
			err = s.recordAdminEdit(ctx, before, after)
		}
		return strconv.FormatInt(id, 10), userChanges(before, after), err
	})
	if err != nil {
		return UserJSON{}, err
	}
	s.public.forgetUser(id) // other replicas hear it from Postgres
	if passChanged(before, after) {
		s.rebuildPasses(ctx, after)
	}
	if annul {
		s.rebuildStatusList(ctx, fmt.Sprintf("annulled:%d:%d", id, s.now().UnixNano()))
	}
	return toUserJSON(after), nil
}

// errAdminRenameAnnuls: a validated person's new name needs confirmRevalidation (the panel asks).
var errAdminRenameAnnuls = &apiError{Status: http.StatusConflict, Body: ErrorBody{
	Message: "Esta persona tiene su identidad validada: si cambias su nombre, su validación biométrica dejará de ser válida y tendrá que validarse de nuevo. Confírmalo para continuar.",
	Errors:  map[string]string{"confirmRevalidation": "Confirma que el cambio de nombre anula la validación."}}}

// passChanged reports whether an edit changed what a wallet pass shows.
func passChanged(before, after perfilseguro.User) bool {
	sameDate := (before.FechaValidacion == nil) == (after.FechaValidacion == nil) &&
		(before.FechaValidacion == nil || before.FechaValidacion.Equal(*after.FechaValidacion))
	return before.Nombre != after.Nombre || before.Vigencia != after.Vigencia || !sameDate
}

// rebuildPasses enqueues both wallet pass builds for a user who may hold passes. It runs after the
// commit: the edit stands even if Redis is down (logged; the builds are idempotent and can be re-run).
func (s *Server) rebuildPasses(ctx context.Context, u perfilseguro.User) {
	if _, ok := jobs.PassDataFor(u, s.cfg.PublicBaseURL); !ok {
		return // no pass exists or can be built yet
	}
	for _, build := range []func(int64) (*asynq.Task, error){jobs.NewBuildApplePassTask, jobs.NewBuildGooglePassTask} {
		t, err := build(u.ID)
		if err := jobs.Enqueue(ctx, s.queue, t, err); err != nil {
			s.logger.ErrorContext(ctx, "enqueue pass rebuild", "user_id", u.ID, "error", err)
		}
	}
}

// DeleteUserResponse confirms a deletion (the spec's client does not read it).
type DeleteUserResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// deleteUser deletes an account: an administrator any, a person their own after a fresh
// confirmation code (the right of cancellation). Both are the same deletion (deleteAccount).
func (s *Server) deleteUser(c fuego.ContextNoBody) (DeleteUserResponse, error) {
	r := c.Request()
	id, err := pathUserID(c)
	if err != nil {
		return DeleteUserResponse{}, err
	}
	byAdmin := s.isAdmin(r)
	var sess *postgres.AdminSession
	if byAdmin {
		if sess, err = s.authorize(r, guard{action: "user.delete", targetKind: "user", targetID: strconv.FormatInt(id, 10),
			roles: rolesManage, fresh: true}); err != nil {
			return DeleteUserResponse{}, err
		}
	} else {
		if err := s.requireOwner(r, id); err != nil {
			return DeleteUserResponse{}, err
		}
		if err := s.requireFreshConfirmation(r); err != nil {
			return DeleteUserResponse{}, err
		}
	}
	who, err := s.store.UserByID(r.Context(), id)
	if err != nil {
		return DeleteUserResponse{}, err
	}
	if !byAdmin {
		// Recorded first: the request outlives the account (with its profile ID only).
		s.recordAnswered(r, id, perfilseguro.ArcoCancel, postgres.ArcoDeletionAsked)
	}
	pid := id
	event := postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorID: &pid, ActorLabel: who.IDValidado,
		Action: "user.delete.self", TargetKind: "user", TargetID: strconv.FormatInt(id, 10)}
	if byAdmin {
		event = adminEvent(sess.Admin, "user.delete", "user", strconv.FormatInt(id, 10), postgres.OutcomeOK)
		event.Changes = map[string]postgres.Change{"profileId": {Before: who.IDValidado}}
	}
	if err := s.deleteAccount(r, who, event); err != nil {
		return DeleteUserResponse{}, err
	}
	if byAdmin {
		s.logger.InfoContext(r.Context(), "admin deleted user", "user_id", id, "request_id", requestID(r.Context()))
		return DeleteUserResponse{Success: true, Message: "El usuario ha sido eliminado correctamente"}, nil
	}
	s.clearSessionCookie(c.Response())
	s.logger.InfoContext(r.Context(), "person deleted their account", "user_id", id, "request_id", requestID(r.Context()))
	return DeleteUserResponse{Success: true, Message: "Tu cuenta y tus datos personales fueron eliminados."}, nil
}

// deleteAccount removes a person's personal data and tokens for good, purges their queued jobs,
// voids their wallet passes and revokes their credentials. Payment receipts stay, detached. The
// deletion and event, its record, are written in one transaction.
func (s *Server) deleteAccount(r *http.Request, who perfilseguro.User, event postgres.AuditEvent) error {
	ctx, id := r.Context(), who.ID
	// Every address the person held, old ones included, for the jobs that still name them.
	addresses, err := s.store.AddressesOf(ctx, id)
	if err != nil {
		return err
	}
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		return event, s.store.DeleteUser(ctx, id)
	})
	if err != nil {
		return err
	}
	s.public.forgetUser(id) // at once here; other replicas hear it from Postgres
	// Jobs still queued with the person's contacts go too. The deletion stands if Redis is down
	// (logged): the jobs would find no code or token to send, only their payloads linger.
	if n, err := s.purgeQueuedJobsOf(ctx, append(addresses, who.Nombre)...); err != nil {
		s.logger.ErrorContext(ctx, "queued jobs of a deleted user not purged", "user_id", id, "purged", n, "error", err)
	} else if n > 0 {
		s.logger.InfoContext(ctx, "queued jobs of a deleted user purged", "user_id", id, "purged", n)
	}
	// Their wallet passes are voided (the tombstone was written with the deletion; the wallet
	// sweep queues this again if Redis is down now).
	if who.VerificationLevel >= perfilseguro.LevelBiometric || who.RevalidationRequiredAt != nil {
		t, err := jobs.NewVoidDeletedPassesTask(who.IDValidado)
		if err := jobs.Enqueue(ctx, s.queue, t, err); err != nil {
			s.logger.ErrorContext(ctx, "enqueue voiding of a deleted user's passes", "user_id", id, "error", err)
		}
	}
	s.rebuildStatusList(ctx, fmt.Sprintf("deleted:%d", id))
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// userChanges lists what an administrator changed on a user record (nothing secret is kept there).
func userChanges(before, after perfilseguro.User) map[string]postgres.Change {
	return diff(map[string][2]any{
		"nombre":   {before.Nombre, after.Nombre},
		"email":    {deref(before.Email), deref(after.Email)},
		"origen":   {before.Origen, after.Origen},
		"vigencia": {before.Vigencia, after.Vigencia},
		"nivel":    {before.VerificationLevel, after.VerificationLevel},
	})
}
