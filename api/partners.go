package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// partnerKeyHeader carries a partner's key on widget calls (Authorization: Bearer works too).
const partnerKeyHeader = "X-Partner-Key"

// partnerCacheTTL bounds how long a partner change (deactivation) takes to apply to CORS.
const partnerCacheTTL = 10 * time.Second

// widgetVerifyPath is the status lookup: a secret-key route, answered only to servers.
const widgetVerifyPath = "/api/widget/verify"

// The deprecation of the seed's Origin-only widget calls (RFC 9745 and RFC 8594): since
// 2026-01-01 such a call is refused; the headers tell the developer where the change is explained
// until the date after which the hint stops (the /integration page's "llamadas heredadas").
const (
	originOnlyDeprecation = "@1767225600" // 2026-01-01T00:00:00Z
	originOnlySunset      = "Wed, 31 Mar 2027 00:00:00 GMT"
	originOnlyLink        = `</integration#llamadas-heredadas>; rel="deprecation"`
)

type partnerCtxKey struct{}

// partnerFrom returns the partner a widget request came through (nil for our own app).
func partnerFrom(ctx context.Context) *postgres.Partner {
	p, _ := ctx.Value(partnerCtxKey{}).(*postgres.Partner)
	return p
}

var (
	errOriginRefused = httpError(http.StatusForbidden, "Origen no autorizado. Contacta al equipo técnico de Perfil Seguro para agregar tu dominio.")
	errNoPartnerKey  = httpError(http.StatusUnauthorized, "Falta la llave de tu plataforma (encabezado X-Partner-Key o Authorization: Bearer).")
	// errOriginOnly: a registered origin without a key no longer identifies a partner.
	errOriginOnly = httpError(http.StatusUnauthorized,
		"Se requiere la llave publicable de tu plataforma en el encabezado X-Partner-Key: tu dominio ya no basta para identificarla. "+
			"Consulta tus llaves en la consola de socios (/socios).")
	// errSecretKeyInBrowser: a secret key sent by a browser (any request with an Origin header) is
	// exposed; refuse it loudly.
	errSecretKeyInBrowser = httpError(http.StatusUnauthorized,
		"No uses una llave secreta en el navegador: llama a esta API desde tu servidor (sin encabezado Origin). "+
			"En tus páginas va la llave publicable (pk_live_… o pk_test_…).")
	// errSecretRoutePreflight: a browser asked to call a secret-key route.
	errSecretRoutePreflight = httpError(http.StatusForbidden,
		"Esta consulta se hace solo desde tu servidor, con tu llave secreta: no acepta llamadas del navegador.")
	errNoPermission = httpError(http.StatusForbidden, "Tu plataforma no tiene permiso para usar el widget (widget_auth).")
)

// sentSecretKey reports whether r carries something meant as a secret key (well-formed or not).
func sentSecretKey(r *http.Request) bool {
	return strings.HasPrefix(bearerKey(r), "sk_")
}

// widgetAccess guards /api/widget/*. Every call that acts for a partner carries its key
// (DECISIONS.md: Origin never acts as a partner): a publishable key from the browser, on the
// partner's registered origin, gets CORS with credentials; a secret key is accepted only without
// an Origin header (from a server), and its routes never answer with CORS. Our own app passes.
// Each partner request is counted (partner_usage.go); a call on Origin alone counts nothing.
func (s *Server) widgetAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/widget/") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin != "" && !validOrigin(origin) {
			writeError(w, r, errBadOrigin) // before any lookup: nothing of it is kept
			return
		}
		if origin != "" && sentSecretKey(r) {
			writeError(w, r, errSecretKeyInBrowser)
			return
		}
		if origin != "" && s.isOwnOrigin(origin, r) {
			next.ServeHTTP(w, r)
			return
		}
		if r.URL.Path == widgetVerifyPath {
			// The status lookup answers by secret key inside (widgetVerify), to servers only.
			if r.Method == http.MethodOptions {
				writeError(w, r, errSecretRoutePreflight)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodOptions {
			s.widgetPreflight(w, r, origin)
			return
		}
		caller, err := s.widgetPartner(w, r, origin)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if origin != "" {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		s.countPartnerRequest(r.Context(), caller.partner.ID)
		ctx := context.WithValue(r.Context(), partnerCtxKey{}, caller.partner)
		ctx = context.WithValue(ctx, modeCtxKey{}, caller.mode)
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, secretCtxKey{}, caller.secret)))
	})
}

// widgetPreflight grants a CORS preflight to the registered origin of an active partner allowed
// to use the widget. It acts for nobody: the call that follows must still carry the key.
func (s *Server) widgetPreflight(w http.ResponseWriter, r *http.Request, origin string) {
	p, err := s.partnerByOrigin(r.Context(), origin)
	switch {
	case err != nil:
		writeError(w, r, err)
		return
	case p == nil:
		writeError(w, r, errOriginRefused)
		return
	case !slices.Contains(p.Permissions, postgres.PermissionWidgetAuth):
		writeError(w, r, errNoPermission)
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Set("Access-Control-Allow-Credentials", "true")
	s.preflight(w, r)
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

// widgetPartner identifies the partner of a widget call by its key: a publishable key (from the
// partner's registered origin when the call comes from a browser) or, from a server, a secret
// key, of an active partner allowed to use the widget. The mode is the key's (test keys act on
// the partner's test people). A registered origin without a key is refused with the deprecation
// headers (docs/partners.md); it acts for nobody and sends nothing.
func (s *Server) widgetPartner(w http.ResponseWriter, r *http.Request, origin string) (widgetCaller, error) {
	ctx := r.Context()
	key := bearerKey(r)
	if key == "" {
		return widgetCaller{}, s.originOnly(w, r, origin)
	}
	kind := perfilseguro.KeyPublishable
	if sentSecretKey(r) { // only without an Origin header (widgetAccess)
		kind = perfilseguro.KeySecret
	}
	kp, err := s.partnerByKey(ctx, key, kind)
	if err != nil {
		return widgetCaller{}, err
	}
	if kp == nil && kind == perfilseguro.KeySecret {
		return widgetCaller{}, errSecretKey
	}
	if kp == nil {
		return widgetCaller{}, errPublishableKey
	}
	if origin != "" && !strings.EqualFold(origin, kp.Partner.Domain) {
		return widgetCaller{}, errOriginRefused
	}
	if !slices.Contains(kp.Partner.Permissions, postgres.PermissionWidgetAuth) {
		return widgetCaller{}, errNoPermission
	}
	if kp.Key.Livemode { // a live key acts only on a proven origin, as sessions and the hosted flow do
		if err := s.requireProvenOrigin(ctx, kp.Partner.ID); err != nil {
			return widgetCaller{}, err
		}
	}
	return widgetCaller{partner: &kp.Partner, mode: keyMode(kp), secret: kind == perfilseguro.KeySecret}, nil
}

// originOnly is the refusal of a widget call without a key. When the Origin is a partner's, the
// call is one the seed's integrations made: it gets the Spanish explanation, readable by the
// partner's page (CORS), with the deprecation headers pointing at the integration guide.
func (s *Server) originOnly(w http.ResponseWriter, r *http.Request, origin string) error {
	if origin == "" {
		return errNoPartnerKey
	}
	p, err := s.partnerByOrigin(r.Context(), origin)
	if err != nil {
		return err
	}
	if p == nil {
		return errOriginRefused
	}
	if !slices.Contains(p.Permissions, postgres.PermissionWidgetAuth) {
		return errNoPermission // its origin never acted for it: nothing deprecated to point at
	}
	h := w.Header()
	h.Set("Deprecation", originOnlyDeprecation)
	h.Set("Sunset", originOnlySunset)
	h.Set("Link", originOnlyLink)
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", "Deprecation, Sunset, Link")
	s.logger.InfoContext(r.Context(), "widget call on origin alone refused", "partner", p.ID, "path", r.URL.Path)
	return errOriginOnly
}

// partnerByOrigin is the active partner whose registered origin a browser call comes from (nil
// when none, or when the call has no Origin). Only registered origins are cached (origincache.go).
func (s *Server) partnerByOrigin(ctx context.Context, origin string) (*postgres.Partner, error) {
	if origin == "" || origin == "null" || !validOrigin(origin) {
		return nil, nil
	}
	origin = strings.ToLower(origin)
	return s.origins.get(origin, s.now(), func() (*postgres.Partner, error) {
		return s.store.ActivePartnerByOrigin(ctx, origin)
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
		option.Description("Verifica el código de 6 dígitos enviado por /api/widget/login. Usa el userId devuelto por el login (identifica ese intento, no a la persona; vale solo aquí y con la misma llave), no el correo. nextStep: biometric_verification (nivel 1 alcanzado) o complete."),
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

// widgetVerifyCode checks the code of a widget sign-in attempt: the userId is the attempt's id
// that /api/widget/login returned to the same caller. The answer names the attempt, never the
// person's internal id.
func (s *Server) widgetVerifyCode(c fuego.ContextWithBody[WidgetVerifyCodeRequest]) (VerifyCodeResponse, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeJSON[WidgetVerifyCodeRequest](r)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	if !validCodeFormat(strings.TrimSpace(req.Code)) {
		return VerifyCodeResponse{}, errCodeFormat
	}
	attempt := int64(req.UserID)
	if attempt < minWidgetAttempt {
		return VerifyCodeResponse{}, errWidgetAttempt
	}
	secret := s.attemptToken(ctx, attempt)
	userID, err := s.store.UserIDForSessionToken(ctx, secure.HashToken(secret))
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	if userID == 0 {
		return VerifyCodeResponse{}, errWidgetAttempt
	}
	res, token, err := s.verify(r, VerifyCodeRequest{SessionToken: secret, Code: req.Code})
	s.auditCodeSignIn(r, "person.signin.widget", userID, res, err)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	s.setSessionCookie(c.Response(), token)
	res.UserID, res.Data.UserID = attempt, attempt
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
// Anyone else gets the same shape with nobody's data, whether or not the e-mail exists: one
// statement decides, and an account that never shared costs what an unknown e-mail costs. Each
// secret key has a lookup budget (allowLookup).
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
	if err := s.allowLookup(ctx, kp.Key.ID); err != nil {
		return WidgetStatus{}, err
	}
	userID, claims, err := s.store.SharedUserByEmail(ctx, kp.Partner.ID, kp.Key.Livemode, email, keyMode(kp))
	if err != nil {
		return WidgetStatus{}, err
	}
	if userID == 0 {
		return WidgetStatus{Message: msgLookupNotShared}, nil
	}
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return WidgetStatus{}, err
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
	if slices.Contains(claims, "name") {
		out.Name = u.Nombre
	}
	if slices.Contains(claims, "profileId") {
		out.ProfileID = u.IDValidado
	}
	if slices.Contains(claims, "validUntil") {
		out.Vigencia = until
	}
	return out, nil
}

// allowLookup charges one status lookup to a secret key: Limits.WidgetLookupsPerMinute a minute
// after a burst of WidgetLookupBurst, across replicas; past it, 429 with Retry-After. Redis down
// fails closed (503), as the other abuse limits do.
func (s *Server) allowLookup(ctx context.Context, keyID int64) error {
	perMinute, burst := s.limits.WidgetLookupsPerMinute, max(s.limits.WidgetLookupBurst, 1)
	if perMinute <= 0 {
		return nil // a test turned it off
	}
	key := "rate:{rl}:widget:lookup:" + strconv.FormatInt(keyID, 10)
	res, err := gcra.Run(ctx, s.redis, []string{key}, perMinute, 60, burst).Slice()
	if err != nil || len(res) != 2 {
		return fmt.Errorf("lookup limit: %v %v: %w", res, err, errUnavailable)
	}
	if allowed, _ := res[0].(int64); allowed == 1 {
		return nil
	}
	wait, _ := res[1].(string)
	secs, err := strconv.ParseFloat(wait, 64)
	if err != nil {
		return fmt.Errorf("lookup limit: retry-after %q: %w", wait, errUnavailable)
	}
	retry := max(int(math.Ceil(secs)), 1)
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: retry, Body: ErrorBody{
		Message: fmt.Sprintf("Tu llave secreta alcanzó su límite de %d consultas por minuto. Intenta nuevamente en %s.", perMinute, humanWait(retry))}}
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
