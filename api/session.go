package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/secure"
)

// sessionCookie holds the opaque sign-in token (HttpOnly; the browser's userId is only UI state).
const sessionCookie = "ps_session"

// sessionLifetime is how long a sign-in lasts.
const sessionLifetime = 30 * 24 * time.Hour

var (
	errNotSignedIn = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "No has iniciado sesión o tu sesión expiró. Inicia sesión nuevamente.")
	errNotYours    = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "No tienes permiso para acceder a este perfil.")
)

// setSessionCookie sends the session token to the browser.
func (s *Server) setSessionCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteLaxMode, MaxAge: int(sessionLifetime.Seconds())})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", HttpOnly: true,
		Secure: s.cfg.Production(), SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// openSession starts a sign-in session for userID inside tx and returns its token (the cookie's
// value). Every way of signing in (a code, a passkey) goes through here.
func (s *Server) openSession(ctx context.Context, tx *sqlx.Tx, r *http.Request, userID int64) (string, error) {
	token := secure.NewToken(32)
	err := s.store.InsertUserSession(ctx, tx, userID, secure.HashToken(token), s.now().Add(sessionLifetime), clientIP(r), r.UserAgent())
	return token, err
}

// sessionUserID returns the signed-in user's id, or 0.
func (s *Server) sessionUserID(r *http.Request) (int64, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || len(c.Value) != 64 {
		return 0, nil
	}
	return s.store.UserIDForSession(r.Context(), secure.HashToken(c.Value))
}

// requireUser returns the signed-in user's id or 401.
func (s *Server) requireUser(r *http.Request) (int64, error) {
	id, err := s.sessionUserID(r)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, errNotSignedIn
	}
	return id, nil
}

// requireOwner allows only the signed-in owner of userID: 401 when signed out, 403 for anyone else.
func (s *Server) requireOwner(r *http.Request, userID int64) error {
	id, err := s.requireUser(r)
	if err != nil {
		return err
	}
	if id != userID {
		return errNotYours
	}
	return nil
}

// sameOrigin guards cookie-authenticated state changes against cross-site requests (CSRF):
// a browser always sends Origin on cross-site POST/PUT/DELETE, so a foreign one is refused.
func (s *Server) sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		// Partner widget calls are governed by CORS; provider webhooks by their signature; wallets
		// (OpenID4VCI, OpenID4VP) present their own tokens and proofs, never the session cookie.
		if strings.HasPrefix(r.URL.Path, "/api/widget/") || strings.HasPrefix(r.URL.Path, "/api/webhooks/") ||
			strings.HasPrefix(r.URL.Path, "/api/oid4vci/") || strings.HasPrefix(r.URL.Path, "/api/oid4vp/") {
			next.ServeHTTP(w, r)
			return
		}
		origin := r.Header.Get("Origin")
		if origin != "" && sentSecretKey(r) {
			writeError(w, r, errSecretKeyInBrowser) // a partner's secret key in a browser: say so
			return
		}
		if origin != "" && !s.isOwnOrigin(origin, r) {
			writeError(w, r, httpError(http.StatusForbidden, "Origen de la solicitud no permitido."))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) isOwnOrigin(origin string, r *http.Request) bool {
	if origin == s.cfg.PublicBaseURL {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}
