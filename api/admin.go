package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/redis/go-redis/v9"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// AdminDeps holds what the admin area needs (filled in by cmd/perfilseguro).
// The development password hash is Config.AdminPassHash (development and test only).
// Administrators' passkeys use the server's passkey service (passkeys.go).
type AdminDeps struct{}

// Administrator session and login protection.
const (
	adminCookie          = "ps_admin"       // HttpOnly, SameSite=Strict; the browser flags are only UI state
	adminSessionLifetime = 4 * time.Hour    // SPEC §9 'Admin session: 4 hours' (absolute)
	adminIdleTimeout     = 30 * time.Minute // a session unused this long ends
	adminFreshWindow     = 5 * time.Minute  // destructive actions want a passkey assertion this recent
	adminMaxFailures     = 5                // wrong passwords from one IP before it is locked out
	adminLockout         = 15 * time.Minute // how long a locked-out IP waits; also the failure window
	adminEnrolLifetime   = 24 * time.Hour   // an enrolment link works once, within this time
)

var (
	errAdminSignedOut  = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "Inicia sesión como administrador para continuar.")
	errNotAdmin        = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Esta acción requiere una sesión de administrador.")
	errWrongPassword   = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "Contraseña incorrecta")
	errPasswordRefused = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "En producción el panel se abre solo con tu llave de acceso.")
	errDevAdminOff     = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "La cuenta de administrador de desarrollo está desactivada.")
)

func (s *Server) mountAdmin(d AdminDeps) {
	tag := option.Tags("Administración")
	fuego.Post(s.f, "/api/admin/login", s.adminLogin, tag, option.Summary("Iniciar sesión con la contraseña de desarrollo (solo fuera de producción)"),
		option.Description("Abre una sesión del administrador de desarrollo ("+perfilseguro.DevAdminEmail+"). En producción "+
			"responde 403: el panel se abre con la llave de acceso (POST /api/admin/passkey/options y /verify)."))
	fuego.Post(s.f, "/api/admin/logout", s.adminLogout, tag, option.Summary("Cerrar la sesión de administrador"))
	fuego.Get(s.f, "/api/admin/session", s.adminSession, tag,
		option.Summary("Sesión de administrador vigente: quién es, su rol y hasta cuándo vale la última confirmación con llave"))
	s.mountAdminUsers()
	s.mountAdminLifecycle()
	s.mountAdminIdentityReviews()
	s.mountAdminPartners()
	s.mountAdminArco()
	s.mountAdminAccounts()
	s.mountAdminPasskeys()
	s.mountAdminAML()
	s.mountAudit()
}

// AdminLoginRequest is the development password.
type AdminLoginRequest struct {
	Password string `json:"password"`
}

// AdminMeJSON is the signed-in administrator.
type AdminMeJSON struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role" enum:"administrador,soporte,finanzas"`
}

// AdminSessionResponse says whether an administrator session is live, whose, and until when.
type AdminSessionResponse struct {
	Success       bool         `json:"success"`
	Authenticated bool         `json:"authenticated"`
	ExpiresAt     *time.Time   `json:"expiresAt,omitempty"`
	Message       string       `json:"message,omitempty"`
	Admin         *AdminMeJSON `json:"admin,omitempty"`
	// FreshUntil is until when destructive actions need no new passkey confirmation.
	FreshUntil *time.Time `json:"freshUntil,omitempty"`
	// PasswordSession marks a development-password session (it counts as fresh outside production).
	PasswordSession bool `json:"passwordSession,omitempty"`
}

func (s *Server) adminLogin(c fuego.ContextWithBody[AdminLoginRequest]) (AdminSessionResponse, error) {
	r := c.Request()
	ctx := r.Context()
	ip := clientIP(r)
	if s.cfg.Production() || s.cfg.AdminPassHash == "" {
		s.audit(r, postgres.AuditEvent{ActorKind: postgres.ActorAdmin, Action: "admin.signin.password", Outcome: postgres.OutcomeDenied})
		return AdminSessionResponse{}, errPasswordRefused
	}
	if err := s.adminLockedOut(ctx, ip); err != nil {
		return AdminSessionResponse{}, err
	}
	if err := s.allow(ctx, limit{"admin:login:ip:" + ip, s.limits.AdminLoginPerIP}); err != nil {
		return AdminSessionResponse{}, err
	}
	req, err := decodeJSON[AdminLoginRequest](r)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	if strings.TrimSpace(req.Password) == "" {
		return AdminSessionResponse{}, perfilseguro.FieldError("password", "La contraseña es requerida")
	}
	if !CheckAdminPassword(s.cfg.AdminPassHash, req.Password) {
		s.audit(r, postgres.AuditEvent{ActorKind: postgres.ActorAdmin, ActorLabel: perfilseguro.DevAdminEmail,
			Action: "admin.signin.password", Outcome: postgres.OutcomeFailed})
		if err := s.adminFailure(ctx, ip); err != nil {
			return AdminSessionResponse{}, err
		}
		return AdminSessionResponse{}, errWrongPassword
	}
	s.redis.Del(ctx, adminFailKey(ip))
	// The password opens the seeded development administrator's account (created here if the
	// database is new, e.g. in the API tests).
	a, err := s.store.EnsureAdmin(ctx, perfilseguro.DevAdminEmail, "Administrador de desarrollo", perfilseguro.RoleAdministrator)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	if a.DisabledAt != nil {
		s.audit(r, adminEvent(a, "admin.signin.password", "", "", postgres.OutcomeDenied))
		return AdminSessionResponse{}, errDevAdminOff
	}
	res, err := s.startAdminSession(c.Response(), r, a, false, true)
	if err != nil {
		return AdminSessionResponse{}, err
	}
	s.audit(r, adminEvent(a, "admin.signin.password", "", "", postgres.OutcomeOK))
	return res, nil
}

// startAdminSession opens a session for a (asserted: with a passkey just now) and sets its cookie.
func (s *Server) startAdminSession(w http.ResponseWriter, r *http.Request, a postgres.Admin, asserted, devPassword bool) (AdminSessionResponse, error) {
	token := secure.NewToken(32)
	now := s.now()
	expires := now.Add(adminSessionLifetime)
	if err := s.store.InsertAdminSession(r.Context(), postgres.AdminSessionStart{TokenHash: secure.HashToken(token),
		AdminID: a.ID, Created: now, Expires: expires, IP: clientIP(r), UserAgent: r.UserAgent(),
		Asserted: asserted, DevPassword: devPassword}); err != nil {
		return AdminSessionResponse{}, err
	}
	http.SetCookie(w, &http.Cookie{Name: adminCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteStrictMode, MaxAge: int(adminSessionLifetime.Seconds())})
	sess := &postgres.AdminSession{ExpiresAt: expires, LastSeenAt: now, DevPassword: devPassword, Admin: a}
	if asserted {
		sess.AssertedAt = &now
	}
	res := s.adminSessionJSON(sess)
	res.Message = "Acceso concedido"
	return res, nil
}

func (s *Server) adminSessionJSON(sess *postgres.AdminSession) AdminSessionResponse {
	if sess == nil {
		return AdminSessionResponse{Success: true}
	}
	res := AdminSessionResponse{Success: true, Authenticated: true, ExpiresAt: &sess.ExpiresAt,
		Admin:           &AdminMeJSON{ID: sess.Admin.ID, Email: sess.Email, Name: sess.Name, Role: sess.Role},
		PasswordSession: sess.DevPassword}
	if until := s.freshUntil(sess); until != nil {
		res.FreshUntil = until
	}
	return res
}

// An address's failure counter and lock share a hash tag (one Redis Cluster slot).
func adminFailKey(ip string) string { return "admin:{" + ip + "}:fail" }
func adminLockKey(ip string) string { return "admin:{" + ip + "}:lock" }

// adminLockedOut refuses an IP that failed too often recently (Redis down fails closed).
func (s *Server) adminLockedOut(ctx context.Context, ip string) error {
	ttl, err := s.redis.PTTL(ctx, adminLockKey(ip)).Result()
	if err != nil {
		return fmt.Errorf("admin lockout: %v: %w", err, errUnavailable)
	}
	if ttl <= 0 { // -2: no key; -1 cannot happen (always set with an expiry)
		return nil
	}
	secs := int((ttl + time.Second - 1) / time.Second)
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: secs, Body: ErrorBody{
		Message: fmt.Sprintf("Demasiados intentos fallidos. Intenta nuevamente en %s.", humanWait(secs))}}
}

// adminFailure counts a wrong password; the adminMaxFailures-th within the window locks the IP out.
func (s *Server) adminFailure(ctx context.Context, ip string) error {
	var n *redis.IntCmd
	_, err := s.redis.TxPipelined(ctx, func(p redis.Pipeliner) error {
		n = p.Incr(ctx, adminFailKey(ip))
		p.Expire(ctx, adminFailKey(ip), adminLockout)
		return nil
	})
	if err != nil {
		return fmt.Errorf("admin failure: %v: %w", err, errUnavailable)
	}
	if n.Val() >= adminMaxFailures {
		s.logger.WarnContext(ctx, "admin login locked out", "ip", ip, "failures", n.Val())
		if err := s.redis.Set(ctx, adminLockKey(ip), "1", adminLockout).Err(); err != nil {
			return fmt.Errorf("admin lockout: %v: %w", err, errUnavailable)
		}
		s.redis.Del(ctx, adminFailKey(ip))
	}
	return nil
}

func (s *Server) adminLogout(c fuego.ContextNoBody) (AdminSessionResponse, error) {
	r := c.Request()
	if ck, err := r.Cookie(adminCookie); err == nil && len(ck.Value) == 64 {
		if err := s.store.RevokeAdminSession(r.Context(), secure.HashToken(ck.Value), s.now()); err != nil {
			return AdminSessionResponse{}, err
		}
	}
	http.SetCookie(c.Response(), &http.Cookie{Name: adminCookie, Value: "", Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteStrictMode, MaxAge: -1})
	return AdminSessionResponse{Success: true, Authenticated: false, Message: "Sesión de administrador cerrada"}, nil
}

func (s *Server) adminSession(c fuego.ContextNoBody) (AdminSessionResponse, error) {
	sess, err := s.adminSessionOf(c.Request())
	if err != nil {
		return AdminSessionResponse{}, err
	}
	return s.adminSessionJSON(sess), nil
}

// adminSessionOf returns the request's live administrator session, or nil when it has none
// (idle for adminIdleTimeout, past its absolute end, revoked, or its administrator disabled).
func (s *Server) adminSessionOf(r *http.Request) (*postgres.AdminSession, error) {
	ck, err := r.Cookie(adminCookie)
	if err != nil || len(ck.Value) != 64 {
		return nil, nil
	}
	return s.store.AdminSessionByToken(r.Context(), secure.HashToken(ck.Value), s.now(), adminIdleTimeout)
}

// isAdmin reports whether the request carries a live administrator session of any role (errors count as no).
func (s *Server) isAdmin(r *http.Request) bool {
	sess, err := s.adminSessionOf(r)
	if err != nil {
		s.logger.ErrorContext(r.Context(), "admin session lookup failed", "error", err)
		return false
	}
	return sess != nil
}

// requireAdmin allows a live administrator session of any role: 401 when there is none, 403
// when the request carries only a user's sign-in.
func (s *Server) requireAdmin(r *http.Request) error {
	_, err := s.requireRole(r, perfilseguro.AdminRoles...)
	return err
}
