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
	"github.com/perfilseguro/perfilseguro/secure"
)

// AdminDeps holds what the admin area needs (filled in by cmd/perfilseguro).
// The password hash is Config.AdminPassHash (ADMIN_PASSWORD_HASH, or the development default).
type AdminDeps struct{}

// Administrator session and login protection.
const (
	adminCookie          = "ps_admin"       // HttpOnly, SameSite=Strict; the browser flags are only UI state
	adminSessionLifetime = 4 * time.Hour    // SPEC §9 'Admin session: 4 hours'
	adminMaxFailures     = 5                // wrong passwords from one IP before it is locked out
	adminLockout         = 15 * time.Minute // how long a locked-out IP waits; also the failure window
)

var (
	errAdminSignedOut = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "Inicia sesión como administrador para continuar.")
	errNotAdmin       = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Esta acción requiere una sesión de administrador.")
	errWrongPassword  = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "Contraseña incorrecta")
)

func (s *Server) mountAdmin(d AdminDeps) {
	tag := option.Tags("Administración")
	fuego.Post(s.f, "/api/admin/login", s.adminLogin, tag, option.Summary("Iniciar sesión de administrador (4 horas)"))
	fuego.Post(s.f, "/api/admin/logout", s.adminLogout, tag, option.Summary("Cerrar la sesión de administrador"))
	fuego.Get(s.f, "/api/admin/session", s.adminSession, tag, option.Summary("¿Hay una sesión de administrador vigente?"))
	s.mountAdminUsers()
	s.mountAdminLifecycle()
	s.mountAdminPartners()
	s.mountAdminArco()
}

// AdminLoginRequest is the administrator's password.
type AdminLoginRequest struct {
	Password string `json:"password"`
}

// AdminSessionResponse says whether an administrator session is live and until when.
type AdminSessionResponse struct {
	Success       bool       `json:"success"`
	Authenticated bool       `json:"authenticated"`
	ExpiresAt     *time.Time `json:"expiresAt,omitempty"`
	Message       string     `json:"message,omitempty"`
}

func (s *Server) adminLogin(c fuego.ContextWithBody[AdminLoginRequest]) (AdminSessionResponse, error) {
	r := c.Request()
	ctx := r.Context()
	ip := clientIP(r)
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
		if err := s.adminFailure(ctx, ip); err != nil {
			return AdminSessionResponse{}, err
		}
		return AdminSessionResponse{}, errWrongPassword
	}
	s.redis.Del(ctx, adminFailKey(ip))
	token := secure.NewToken(32)
	now := s.now()
	expires := now.Add(adminSessionLifetime)
	if err := s.store.InsertAdminSession(ctx, secure.HashToken(token), now, expires, ip); err != nil {
		return AdminSessionResponse{}, err
	}
	http.SetCookie(c.Response(), &http.Cookie{Name: adminCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteStrictMode, MaxAge: int(adminSessionLifetime.Seconds())})
	return AdminSessionResponse{Success: true, Authenticated: true, ExpiresAt: &expires, Message: "Acceso concedido"}, nil
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
	exp, err := s.adminExpiry(c.Request())
	if err != nil {
		return AdminSessionResponse{}, err
	}
	return AdminSessionResponse{Success: true, Authenticated: exp != nil, ExpiresAt: exp}, nil
}

// adminExpiry returns when the request's administrator session ends, or nil when it has none.
func (s *Server) adminExpiry(r *http.Request) (*time.Time, error) {
	ck, err := r.Cookie(adminCookie)
	if err != nil || len(ck.Value) != 64 {
		return nil, nil
	}
	return s.store.AdminSessionExpiry(r.Context(), secure.HashToken(ck.Value), s.now())
}

// isAdmin reports whether the request carries a live administrator session (errors count as no).
func (s *Server) isAdmin(r *http.Request) bool {
	exp, err := s.adminExpiry(r)
	if err != nil {
		s.logger.ErrorContext(r.Context(), "admin session lookup failed", "error", err)
		return false
	}
	return exp != nil
}

// requireAdmin allows only a live administrator session: 401 when there is none, 403 when the
// request carries only a user's sign-in.
func (s *Server) requireAdmin(r *http.Request) error {
	exp, err := s.adminExpiry(r)
	if err != nil {
		return err
	}
	if exp != nil {
		return nil
	}
	uid, err := s.sessionUserID(r)
	if err != nil {
		return err
	}
	if uid != 0 {
		return errNotAdmin
	}
	return errAdminSignedOut
}
