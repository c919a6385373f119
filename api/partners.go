package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// partnerKeyHeader identifies a partner on server-to-server widget calls (no Origin header).
const partnerKeyHeader = "X-Partner-Key"

// partnerCacheTTL bounds how long a partner change (deactivation) takes to apply to CORS.
const partnerCacheTTL = 10 * time.Second

type partnerCtxKey struct{}

// partnerFrom returns the partner a widget request came through (nil for our own app).
func partnerFrom(ctx context.Context) *postgres.Partner {
	p, _ := ctx.Value(partnerCtxKey{}).(*postgres.Partner)
	return p
}

var (
	errOriginRefused = httpError(http.StatusForbidden, "Origen no autorizado. Contacta al equipo técnico de Perfil Seguro para agregar tu dominio.")
	errNoPartnerKey  = httpError(http.StatusUnauthorized, "Falta la llave de tu plataforma (encabezado X-Partner-Key o Authorization: Bearer).")
	// errSecretKeyInBrowser: a secret key sent by a browser is exposed; refuse it loudly.
	errSecretKeyInBrowser = httpError(http.StatusUnauthorized,
		"No uses una llave secreta en el navegador: en tus páginas va la llave publicable (pk_live_… o pk_test_…).")
	errNoPermission = httpError(http.StatusForbidden, "Tu plataforma no tiene permiso para usar el widget (widget_auth).")
)

// widgetAccess guards /api/widget/*: our own app passes; browsers on an active partner's domain
// get CORS with credentials; servers present their partner key; anyone else is refused with no
// CORS grant. Each partner request is counted in Redis (flushed to Postgres by a job).
func (s *Server) widgetAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/widget/") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin != "" && s.isOwnOrigin(origin, r) {
			next.ServeHTTP(w, r)
			return
		}
		if r.URL.Path == "/api/widget/verify" && r.Method != http.MethodOptions {
			// The status lookup answers by secret key inside (widgetVerify); a browser on a
			// registered origin still gets CORS, and reads the answer without personal data.
			if p, _ := s.partnerByOrigin(r.Context(), origin); p != nil {
				w.Header().Set("Access-Control-Allow-Origin", origin)
				w.Header().Set("Access-Control-Allow-Credentials", "true")
			}
			next.ServeHTTP(w, r)
			return
		}
		caller, err := s.widgetPartner(r, origin)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if origin != "" {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		if r.Method == http.MethodOptions {
			s.preflight(w, r)
			return
		}
		s.countPartnerRequest(r.Context(), caller.partner.ID)
		ctx := context.WithValue(r.Context(), partnerCtxKey{}, caller.partner)
		ctx = context.WithValue(ctx, modeCtxKey{}, caller.mode)
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, secretCtxKey{}, caller.secret)))
	})
}

// widgetCaller is who calls a widget endpoint: the partner, the mode of the people its key acts
// on, and whether it proved itself with a secret key (server to server).
type widgetCaller struct {
	partner *postgres.Partner
	mode    int64
	secret  bool
}

type secretCtxKey struct{}

// calledWithSecretKey reports whether a widget call came with the partner's secret key.
func calledWithSecretKey(ctx context.Context) bool {
	ok, _ := ctx.Value(secretCtxKey{}).(bool)
	return ok
}

// widgetPartner identifies the partner of a widget call. A key, when sent, decides: a
// publishable key (or, without an Origin, a secret key from the partner's server) of an active
// partner, from that partner's registered origin when the call comes from a browser. Without a
// key the registered origin alone still admits the seed's integrations (docs/administration.md,
// upgrade note); every call is rate-limited and counted per partner. The mode is the key's (test
// keys act on the partner's test people).
func (s *Server) widgetPartner(r *http.Request, origin string) (widgetCaller, error) {
	ctx := r.Context()
	var c widgetCaller // without a key: the seed's integrations, live
	if key := bearerKey(r); key != "" {
		kind, _, _ := perfilseguro.ParsePartnerKey(key)
		if kind == perfilseguro.KeySecret && origin != "" {
			return widgetCaller{}, errSecretKeyInBrowser
		}
		if kind != perfilseguro.KeySecret {
			kind = perfilseguro.KeyPublishable
		}
		kp, err := s.partnerByKey(ctx, key, kind)
		if err != nil {
			return widgetCaller{}, err
		}
		if kp == nil {
			return widgetCaller{}, errPublishableKey
		}
		if origin != "" && !strings.EqualFold(origin, kp.Partner.Domain) {
			return widgetCaller{}, errOriginRefused
		}
		c = widgetCaller{partner: &kp.Partner, mode: keyMode(kp), secret: kind == perfilseguro.KeySecret}
	} else if origin != "" {
		p, err := s.partnerByOrigin(ctx, origin)
		if err != nil {
			return widgetCaller{}, err
		}
		if p == nil {
			return widgetCaller{}, errOriginRefused
		}
		c.partner = p
	} else {
		return widgetCaller{}, errNoPartnerKey
	}
	if !slices.Contains(c.partner.Permissions, postgres.PermissionWidgetAuth) {
		return widgetCaller{}, errNoPermission
	}
	return c, nil
}

// partnerByOrigin is the active partner whose registered origin a browser call comes from (nil
// when none, or when the call has no Origin), cached for partnerCacheTTL.
func (s *Server) partnerByOrigin(ctx context.Context, origin string) (*postgres.Partner, error) {
	if origin == "" {
		return nil, nil
	}
	return s.partners.get("o:"+origin, s.now(), func() (*postgres.Partner, error) {
		return s.store.ActivePartnerByOrigin(ctx, strings.ToLower(origin))
	})
}

// preflight answers a CORS preflight for the widget endpoints.
func (s *Server) preflight(w http.ResponseWriter, r *http.Request) {
	switch r.Header.Get("Access-Control-Request-Method") {
	case http.MethodGet, http.MethodPost:
	default:
		writeError(w, r, httpError(http.StatusMethodNotAllowed, "Método no permitido."))
		return
	}
	w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, "+partnerKeyHeader)
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

// countPartnerRequest counts one request of the partner (partner_usage.go: batched, never a
// Redis or database write per request).
func (s *Server) countPartnerRequest(_ context.Context, partnerID int64) {
	s.usage.add(partnerID)
}

func (s *Server) mountPartners() {
	s.mountPartnerWebhooks()
	tag := option.Tags("Widget")
	fuego.Post(s.f, "/api/widget/verify-code", s.widgetVerifyCode, tag,
		option.Summary("Verificar el código del widget"),
		option.Description("Verifica el código de 6 dígitos enviado por /api/widget/login. Usa el userId devuelto por el login, no el correo. nextStep: biometric_verification (nivel 1 alcanzado) o complete."),
		option.AddError(400, "Código con formato inválido, incorrecto o expirado", ErrorBody{}),
		option.AddError(429, "Demasiados intentos", ErrorBody{}),
		option.AddError(403, "Origen o socio no autorizado", ErrorBody{}))
	fuego.Get(s.f, "/api/widget/verify", s.widgetVerify, tag,
		option.Summary("Consultar el estado de validación por correo"),
		option.Query("email", "Correo electrónico del usuario", param.Required()),
		option.AddError(400, "Correo inválido", ErrorBody{}),
		option.AddError(403, "Origen o socio no autorizado", ErrorBody{}))
}

// WidgetVerifyCodeRequest is the widget's code check: the userId from login and the code.
type WidgetVerifyCodeRequest struct {
	UserID flexibleID `json:"userId"`
	Code   string     `json:"code"`
}

func (s *Server) widgetVerifyCode(c fuego.ContextWithBody[WidgetVerifyCodeRequest]) (VerifyCodeResponse, error) {
	r := c.Request()
	req, err := decodeJSON[WidgetVerifyCodeRequest](r)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	res, token, err := s.verify(r, VerifyCodeRequest{UserID: req.UserID, Code: req.Code})
	s.auditCodeSignIn(r, "person.signin.widget", int64(req.UserID), res, err)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	s.setSessionCookie(c.Response(), token)
	return res, nil
}

// WidgetStatus is the widget's status answer (SPEC §3).
type WidgetStatus struct {
	Valid     bool       `json:"valid"`
	Verified  bool       `json:"verified"`
	Name      string     `json:"name"`
	ProfileID string     `json:"profileId"`
	Vigencia  *time.Time `json:"vigencia"` // validity end
	Message   string     `json:"message"`
}

// Messages of a status lookup that names nobody: the same whether or not the e-mail exists.
const (
	msgLookupNeedsSecret = "Para consultar a una persona usa tu llave secreta desde tu servidor: solo verás a quien compartió su perfil con tu plataforma."
	msgLookupNotShared   = "No hay un perfil compartido con tu plataforma para ese correo electrónico."
)

// widgetVerify answers a person's status only to a partner's secret key, and only about a person
// who shared with that partner (a live grant in the key's mode), limited to what they shared.
// Anyone else gets the same shape with nobody's data, whether or not the e-mail exists.
func (s *Server) widgetVerify(c fuego.ContextNoBody) (WidgetStatus, error) {
	r := c.Request()
	ctx := r.Context()
	email := perfilseguro.NormalizeEmail(c.QueryParam("email"))
	if !perfilseguro.ValidEmail(email) {
		return WidgetStatus{}, perfilseguro.FieldError("email", "Correo electrónico no válido")
	}
	if bearerKey(r) == "" {
		return WidgetStatus{Message: msgLookupNeedsSecret}, nil
	}
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return WidgetStatus{}, err
	}
	notShared := WidgetStatus{Message: msgLookupNotShared}
	u, err := s.store.UserByEmail(ctx, email, keyMode(kp))
	if errors.Is(err, postgres.ErrUserNotFound) {
		return notShared, nil
	}
	if err != nil {
		return WidgetStatus{}, err
	}
	grant, err := s.store.CurrentGrant(ctx, kp.Partner.ID, kp.Key.Livemode, u.ID)
	if err != nil {
		return WidgetStatus{}, err
	}
	if grant == nil {
		return notShared, nil
	}
	s.recordPartnerLookup(r.WithContext(context.WithValue(ctx, partnerCtxKey{}, &kp.Partner)), u)
	until := u.ValidUntil()
	expired := until != nil && s.now().After(*until)
	verified := u.BiometricVerified && u.VerificationLevel >= perfilseguro.LevelBiometric && !expired && u.RevokedAt == nil
	msg := "Perfil encontrado. Verificación de identidad pendiente."
	switch {
	case u.RevokedAt != nil:
		msg = "La validación del perfil fue revocada."
	case expired:
		msg = "La validación del perfil expiró."
	case verified:
		msg = "Identidad verificada."
	}
	out := WidgetStatus{Valid: !expired && u.RevokedAt == nil, Verified: verified, Message: msg}
	if slices.Contains(grant.Claims, "name") {
		out.Name = u.Nombre
	}
	if slices.Contains(grant.Claims, "profileId") {
		out.ProfileID = u.IDValidado
	}
	if slices.Contains(grant.Claims, "validUntil") {
		out.Vigencia = until
	}
	return out, nil
}

// recordPartnerLookup logs a partner's lookup of a person's profile, so that the person sees
// which platform looked them up (Mi Perfil › Consultas a tu perfil).
func (s *Server) recordPartnerLookup(r *http.Request, u perfilseguro.User) {
	if s.lookupLog == nil {
		return
	}
	e := jobs.VerifyLogEntry{RequestID: newLookupID(), UserID: &u.ID, IDValidado: u.IDValidado, ScannedAt: s.now().UTC(),
		IP: clientIP(r), UserAgent: truncate(r.UserAgent(), 512), AccessType: jobs.AccessPartnerAPI, Granted: true,
		HTTPRequestID: requestID(r.Context())}
	if p := partnerFrom(r.Context()); p != nil {
		e.PartnerID = &p.ID
	}
	s.lookupLog.record(e)
}
