package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/passkey"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Administrators' passkeys run through the passkey package (passkey.Owner{Kind: "admin"}), with
// the same ceremony cookie (ps_webauthn), single-use 5-minute challenges and refusals as the
// people's (passkeys.go).

func adminOwner(a postgres.Admin) passkey.Owner {
	return passkey.Owner{Kind: passkey.KindAdmin, ID: a.ID, Name: a.Email, DisplayName: a.Name}
}

// AdminEnrolInfo is whom an enrolment link is for.
type AdminEnrolInfo struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role" enum:"administrador,soporte,finanzas"`
}

// AdminEnrolRequest names the enrolment link (its token).
type AdminEnrolRequest struct {
	Token string `json:"token"`
}

// AdminEnrolVerifyRequest is the new passkey for an enrolment link.
type AdminEnrolVerifyRequest struct {
	Token      string                `json:"token"`
	Name       string                `json:"name,omitempty"`
	Credential PasskeyCredentialJSON `json:"credential"`
}

// AdminReauthResponse says until when destructive actions are allowed.
type AdminReauthResponse struct {
	Success    bool       `json:"success"`
	FreshUntil *time.Time `json:"freshUntil"`
	Message    string     `json:"message"`
}

func (s *Server) mountAdminPasskeys() {
	k := adminPasskeys{s: s}
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/enrol", k.enrolInfo, tag, option.Query("token", "Token del enlace de registro", param.Required()),
		option.Summary("A quién corresponde un enlace de registro de administrador (410 si ya se usó o venció)"))
	fuego.Post(s.f, "/api/admin/enrol/options", k.enrolOptions, tag,
		option.Summary("Opciones para registrar la llave de acceso de un administrador con su enlace (cookie ps_webauthn)"))
	fuego.Post(s.f, "/api/admin/enrol/verify", k.enrolVerify, tag,
		option.Summary("Registrar la llave de acceso del administrador (el enlace queda usado) y abrir su sesión"))
	fuego.Post(s.f, "/api/admin/passkey/options", k.loginOptions, tag,
		option.Summary("Opciones para entrar al panel con llave de acceso (cookie ps_webauthn)"))
	fuego.Post(s.f, "/api/admin/passkey/verify", k.loginVerify, tag,
		option.Summary("Entrar al panel con llave de acceso (sesión de 4 horas, 30 minutos sin uso)"))
	fuego.Post(s.f, "/api/admin/reauth/options", k.reauthOptions, tag,
		option.Summary("Opciones para confirmar con tu llave antes de una acción delicada"))
	fuego.Post(s.f, "/api/admin/reauth", k.reauth, tag,
		option.Summary("Confirmar con tu llave: las acciones delicadas quedan permitidas 5 minutos"))
}

type adminPasskeys struct{ s *Server }

func (k adminPasskeys) enrolment(r *http.Request, token string) (postgres.Admin, error) {
	if len(token) != 64 {
		return postgres.Admin{}, postgres.ErrEnrolmentNotUsable
	}
	return k.s.store.AdminEnrolment(r.Context(), secure.HashToken(token), k.s.now())
}

// enrolling is the administrator an enrolment link (its token) is for, and the passkey service
// that enrols them.
func (k adminPasskeys) enrolling(r *http.Request, token string) (postgres.Admin, *passkey.Service, error) {
	a, err := k.enrolment(r, token)
	if err != nil {
		return postgres.Admin{}, nil, err
	}
	svc, err := k.s.passkeyService()
	return a, svc, err
}

func (k adminPasskeys) enrolInfo(c fuego.ContextNoBody) (AdminEnrolInfo, error) {
	a, err := k.enrolment(c.Request(), c.QueryParam("token"))
	if err != nil {
		return AdminEnrolInfo{}, err
	}
	return AdminEnrolInfo{Email: a.Email, Name: a.Name, Role: a.Role}, nil
}

func (k adminPasskeys) enrolOptions(c fuego.ContextWithBody[AdminEnrolRequest]) (PasskeyOptionsJSON, error) {
	r := c.Request()
	req, err := decodeJSON[AdminEnrolRequest](r)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	a, svc, err := k.enrolling(r, req.Token)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginRegistration(r.Context(), adminOwner(a), k.s.ceremonyKey(c.Response(), r)))
}

func (k adminPasskeys) enrolVerify(c fuego.ContextWithBody[AdminEnrolVerifyRequest]) (AdminSessionResponse, error) {
	r := c.Request()
	req, err := decodeJSON[enrolVerifyBody](r)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	a, svc, err := k.enrolling(r, req.Token)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	target := strconv.FormatInt(a.ID, 10)
	// The link is used and the passkey stored in one transaction (issue 54 item 26): of two
	// requests with one link the second waits on the first's lock of the link and then finds it
	// used (410), so one link stores one passkey; a passkey that cannot be stored leaves the link
	// unused.
	err = k.s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		if _, err := k.s.store.ConsumeAdminEnrolment(ctx, k.s.store.Ext(ctx), secure.HashToken(req.Token), k.s.now()); err != nil {
			return postgres.AuditEvent{}, err
		}
		if _, err := svc.FinishRegistration(ctx, adminOwner(a), passkey.SessionKeyFrom(r), req.Credential, req.Name); err != nil {
			return postgres.AuditEvent{}, err
		}
		return adminEvent(a, "admin.enrol", "admin", target, postgres.OutcomeOK), nil
	})
	if err != nil {
		k.s.audit(r, adminEvent(a, "admin.enrol", "admin", target, postgres.OutcomeFailed))
		return AdminSessionResponse{}, err
	}
	return k.s.startAdminSession(c.Response(), r, a, true, false)
}

func (k adminPasskeys) loginOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	svc, err := k.s.passkeyService()
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginLogin(r.Context(), passkey.KindAdmin, k.s.ceremonyKey(c.Response(), r)))
}

func (k adminPasskeys) loginVerify(c fuego.ContextWithBody[PasskeyCredentialJSON]) (AdminSessionResponse, error) {
	r := c.Request()
	ctx := r.Context()
	ip := clientIP(r)
	if err := k.s.adminLockedOut(ctx, ip); err != nil {
		return AdminSessionResponse{}, err
	}
	if err := k.s.allow(ctx, limit{"admin:login:ip:" + ip, k.s.limits.AdminLoginPerIP}); err != nil {
		return AdminSessionResponse{}, err
	}
	svc, err := k.s.passkeyService()
	if err != nil {
		return AdminSessionResponse{}, err
	}
	raw, err := decodeJSON[json.RawMessage](r)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	fail := func(a postgres.Admin, err error) (AdminSessionResponse, error) {
		e := adminEvent(a, "admin.signin.passkey", "", "", postgres.OutcomeFailed)
		if a.ID == 0 {
			e.ActorID = nil
		}
		k.s.audit(r, e)
		if ferr := k.s.adminFailure(ctx, ip); ferr != nil {
			return AdminSessionResponse{}, ferr
		}
		return AdminSessionResponse{}, err
	}
	owner, _, err := svc.FinishLogin(ctx, passkey.KindAdmin, passkey.SessionKeyFrom(r), raw)
	if err != nil {
		return fail(postgres.Admin{}, err)
	}
	a, err := k.s.store.AdminByID(ctx, owner.ID)
	if err != nil {
		return fail(postgres.Admin{}, errAdminSignedOut)
	}
	if a.DisabledAt != nil {
		return fail(a, perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Tu cuenta de administrador está desactivada."))
	}
	k.s.redis.Del(ctx, adminFailKey(ip))
	res, err := k.s.startAdminSession(c.Response(), r, a, true, false)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	k.s.audit(r, adminEvent(a, "admin.signin.passkey", "", "", postgres.OutcomeOK))
	return res, nil
}

func (k adminPasskeys) reauthOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	sess, err := k.s.requireRole(r, rolesAny...)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	svc, err := k.s.passkeyService()
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginAssertion(r.Context(), adminOwner(sess.Admin), k.s.ceremonyKey(c.Response(), r)))
}

func (k adminPasskeys) reauth(c fuego.ContextWithBody[PasskeyCredentialJSON]) (AdminReauthResponse, error) {
	r := c.Request()
	sess, err := k.s.requireRole(r, rolesAny...)
	if err != nil {
		return AdminReauthResponse{}, err
	}
	svc, err := k.s.passkeyService()
	if err != nil {
		return AdminReauthResponse{}, err
	}
	raw, err := decodeJSON[json.RawMessage](r)
	if err != nil {
		return AdminReauthResponse{}, err
	}
	if _, err := svc.FinishAssertion(r.Context(), adminOwner(sess.Admin), passkey.SessionKeyFrom(r), raw); err != nil {
		k.s.audit(r, adminEvent(sess.Admin, "admin.reauth", "", "", postgres.OutcomeFailed))
		return AdminReauthResponse{}, err
	}
	now := k.s.now()
	if err := k.s.store.MarkAdminAsserted(r.Context(), sess.ID, now); err != nil {
		return AdminReauthResponse{}, err
	}
	k.s.audit(r, adminEvent(sess.Admin, "admin.reauth", "", "", postgres.OutcomeOK))
	sess.AssertedAt = &now
	return AdminReauthResponse{Success: true, FreshUntil: k.s.freshUntil(sess), Message: "Listo, confirmado."}, nil
}
