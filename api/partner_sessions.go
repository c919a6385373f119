package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The partner API (v1): a partner's server opens a verification session with its secret key, the
// page hands the client secret to the drop-in (/widget/v1.js), the person verifies and decides in
// our hosted flow (hosted.go), and the partner reads the result here or from the webhook.

// sessionsPerHour bounds the sessions one partner opens per mode.
const sessionsPerHour = 1000

// sessionIDPattern is a session id: "vs_" and 24 hex characters.
var sessionIDPattern = regexp.MustCompile(`^vs_[0-9a-f]{24}$`)

var errBadSessionID = perfilseguro.FieldError("id", "El identificador de la sesión no es válido (vs_…).")

// SessionCreated is a new session: the client secret goes to the partner's page, once.
type SessionCreated struct {
	ID string `json:"id"`
	// ClientSecret opens the hosted flow once (PerfilSeguro(pk).verify(clientSecret)); never store it.
	ClientSecret string `json:"clientSecret"`
	// URL is the hosted flow with the publishable key and the client secret, to redirect the person
	// to (or send as a link): it opens as the drop-in's redirect variant. Empty when the platform
	// has no active publishable key of the session's mode.
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
	Livemode  bool      `json:"livemode"`
}

// SessionView is a session as its partner reads it.
type SessionView struct {
	ID            string   `json:"id"`
	Status        string   `json:"status" enum:"created,in_progress,completed,declined,expired,canceled"`
	Reference     string   `json:"reference"`
	Livemode      bool     `json:"livemode"`
	RequiredLevel int      `json:"requiredLevel"`
	Claims        []string `json:"claims" enum:"name,profileId,validUntil,level,givenName,familyName,birthdate,ageOver18,nationality,curp"` // asked for
	ReturnURL     string   `json:"returnUrl,omitempty"`
	// Shared are the claims as the person shared them (completed only); null once the person
	// withdrew your access or deleted their account (SharedReason says which).
	Shared *SharedClaims `json:"shared,omitzero" description:"Los datos que la persona compartió (solo en completed), solo los pedidos en claims: name (string), profileId (string), validUntil (fecha y hora RFC 3339 o null), level (entero), y de la identificación oficial que certifica el perfil: givenName y familyName (string, como aparecen en la identificación), birthdate (AAAA-MM-DD), ageOver18 (boolean, calculado el día en que se compartió), nationality (ISO 3166-1 alfa-3) y curp (string). Un dato de la identificación que no está disponible no va en shared y se lista en unavailableClaims. null si después retiró el acceso de tu plataforma o eliminó su cuenta: sharedReason dice cuál"`
	// UnavailableClaims are the asked claims of the identity document that Shared does not carry:
	// the profile was validated before Perfil Seguro read documents (its name was typed), or the
	// document does not carry them (a foreign passport has no CURP). Completed and shared only.
	UnavailableClaims []string `json:"unavailableClaims,omitzero" enum:"givenName,familyName,birthdate,ageOver18,nationality,curp" description:"Los datos de la identificación pedidos que no van en shared: el perfil se validó antes de que Perfil Seguro leyera la identificación (su nombre fue escrito por la persona) o la identificación no los trae (un pasaporte extranjero no tiene CURP). Solo en completed con shared; ausente si no falta ninguno"`
	// SharedReason is why a completed session's Shared is null; absent otherwise.
	SharedReason string `json:"sharedReason,omitempty" enum:"withdrawn,deleted" description:"Por qué shared es null en una sesión completed: withdrawn (la persona retiró el acceso de tu plataforma en Mi Perfil) o deleted (eliminó su cuenta). Ausente en otro caso"`
	// Proof is a compact JWS (typ perfilseguro-session+jwt, ES256) over the session and the shared
	// claims; check it with the keys at /.well-known/jwt-vc-issuer (completed only, and gone with
	// the shared claims).
	Proof string `json:"proof,omitempty"`
	// AMLProfile: the session asked for the know-your-client declaration.
	AMLProfile bool `json:"amlProfile"`
	// AMLDeclaration is the declaration the person shared (the newest version shared with you:
	// a later correction replaces it); absent once shared is null, as the other claims.
	AMLDeclaration *AMLDeclarationJSON `json:"amlDeclaration,omitempty" description:"La declaración de conocimiento del cliente que la persona firmó y compartió (amlProfile): versión, fecha de firma, método (passkey o codigo), SHA-256 del texto firmado y respuestas. Si después la corrige, aquí aparece la versión nueva (evento aml.declaration_updated). Ausente si shared es null"`
	CreatedAt      time.Time           `json:"createdAt"`
	ExpiresAt      time.Time           `json:"expiresAt"`
	EndedAt        *time.Time          `json:"endedAt,omitempty"`
}

// SharedClaims are the claims a person shared with a partner (name, profileId, validUntil, level).
type SharedClaims map[string]any

// sharedOf is what a completed session still holds of what the person shared: the claims, or null
// and the reason they are gone; nil and "" for any other status.
func sharedOf(v postgres.PartnerVerificationSession) (*SharedClaims, string) {
	if v.Status != perfilseguro.SessionCompleted {
		return nil, ""
	}
	if v.SharedReason != nil {
		return new(SharedClaims), *v.SharedReason
	}
	var shared SharedClaims
	_ = json.Unmarshal(v.Shared, &shared)
	return &shared, ""
}

// SessionList is one keyset page of sessions, newest first.
type SessionList struct {
	Data    []SessionView `json:"data"`
	HasMore bool          `json:"hasMore"`
}

func (s *Server) mountPartnerSessions() {
	tag := option.Tags("Socios")
	unauthorized := option.AddError(401, "Llave secreta no válida, revocada o de otro modo", ErrorBody{})
	fuego.Post(s.f, "/api/partner/v1/verification-sessions", s.createSession, tag, unauthorized,
		option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Abrir una sesión de verificación (llave secreta)"),
		option.Description("La persona verifica su identidad hasta requiredLevel (2: correo, 3: biométrico) en el flujo de Perfil Seguro "+
			"y decide si comparte los datos pedidos en claims (name, profileId, validUntil, level; y de su identificación oficial: givenName, familyName, "+
			"birthdate, ageOver18, nationality, curp, que la persona ve uno por uno antes de aceptar). El clientSecret se entrega a tu página "+
			"para PerfilSeguro(pk).verify(clientSecret); vale una vez y solo durante 1 hora (una sesión que nadie abrió en ese tiempo expira; "+
			"abierta, la persona tiene hasta 24 horas desde la creación para terminar). url abre el mismo flujo como redirección de página completa. "+
			"Una llave sk_test_ abre sesiones de prueba."),
		option.AddError(409, "En producción: el origen de la plataforma aún no está verificado (una llave sk_live_ lo requiere)", ErrorBody{}),
		option.AddError(429, "Demasiadas sesiones en una hora", ErrorBody{}))
	fuego.Get(s.f, "/api/partner/v1/verification-sessions", s.listSessions, tag, unauthorized,
		option.Summary("Listar sesiones de verificación, de la más reciente a la más antigua"),
		option.QueryInt("limit", "Cuántas por página (1 a 100; 20 si se omite)"),
		option.Query("startingAfter", "El id de la última sesión de la página anterior"))
	// Partners poll this one: a plain handler, without the framework's per-request flow, which was
	// a tenth of its CPU (make bench-sessions); documented with the same SessionView schema.
	s.handle("GET /api/partner/v1/verification-sessions/{id}", http.HandlerFunc(s.handleGetSession),
		op("Socios", "Consultar una sesión de verificación: estado y, si se completó, los datos compartidos y su prueba firmada",
			params(pathParam("id", "Identificador de la sesión (vs_…)", sessionIDPattern.String())),
			namedJSON("200", "La sesión", "SessionView", SessionView{}),
			errorAnswer("400", "Identificador no válido"),
			errorAnswer("401", "Llave secreta no válida, revocada o de otro modo"),
			errorAnswer("404", "La sesión no existe para esta llave")))
	fuego.Post(s.f, "/api/partner/v1/verification-sessions/{id}/cancel", s.cancelSession, tag, unauthorized,
		option.Summary("Cancelar una sesión abierta"),
		option.Path("id", "Identificador de la sesión (vs_…)", param.Required()),
		option.AddError(409, "La sesión ya terminó", ErrorBody{}))
}

func (s *Server) createSession(c fuego.ContextWithBody[perfilseguro.NewSession]) (SessionCreated, error) {
	r := c.Request()
	ctx := r.Context()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return SessionCreated{}, err
	}
	req, err := decodeJSON[perfilseguro.NewSession](r)
	if err != nil {
		return SessionCreated{}, err
	}
	if err := req.Validate(kp.Partner.Domain); err != nil {
		return SessionCreated{}, err
	}
	if kp.Key.Livemode {
		if err := s.requireProvenOrigin(ctx, kp.Partner.ID); err != nil {
			return SessionCreated{}, err
		}
	}
	mode := "live"
	if !kp.Key.Livemode {
		mode = "test"
	}
	if err := s.allow(ctx, limit{"sessions:" + mode + ":" + strconv.FormatInt(kp.Partner.ID, 10), sessionsPerHour}); err != nil {
		return SessionCreated{}, err
	}
	id := "vs_" + secure.NewToken(12)
	secret := id + "_secret_" + secure.NewToken(24)
	v, err := s.store.InsertSession(ctx, id, kp.Partner.ID, kp.Key.Livemode, req, secure.HashToken(secret), s.now())
	if err != nil {
		return SessionCreated{}, err
	}
	pk, err := s.store.CurrentPublishableKey(ctx, kp.Partner.ID, kp.Key.Livemode)
	if err != nil {
		return SessionCreated{}, err
	}
	setStatus(c, http.StatusCreated)
	return SessionCreated{ID: v.ID, ClientSecret: secret, URL: s.hostedURL(pk, secret),
		ExpiresAt: v.ExpiresAt, Livemode: v.Livemode}, nil
}

// hostedURL is the hosted flow of a session as a plain link or redirect: the drop-in's redirect
// variant (/conectar?pk=…&mode=redirect#clientSecret), which /api/hosted/open accepts as it is.
// "" without a publishable key of the session's mode: the flow cannot open without one.
func (s *Server) hostedURL(publishableKey, clientSecret string) string {
	if publishableKey == "" {
		return ""
	}
	return s.cfg.PublicBaseURL + "/conectar?" + url.Values{"pk": {publishableKey}, "mode": {"redirect"}}.Encode() + "#" + clientSecret
}

// partnerSessionTarget authenticates the partner's server and reads the session id of the path.
func (s *Server) partnerSessionTarget(c interface {
	PathParam(string) string
	Request() *http.Request
}) (*postgres.KeyedPartner, string, error) {
	kp, err := s.requireSecretKey(c.Request())
	if err != nil {
		return nil, "", err
	}
	id := c.PathParam("id")
	if !sessionIDPattern.MatchString(id) {
		return nil, "", errBadSessionID
	}
	return kp, id, nil
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request) {
	v, err := s.getSession(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) getSession(r *http.Request) (SessionView, error) {
	kp, id, err := s.partnerSessionTarget(plainParams{r})
	if err != nil {
		return SessionView{}, err
	}
	v, err := s.store.PartnerSession(r.Context(), kp.Partner.ID, kp.Key.Livemode, id)
	if err != nil {
		return SessionView{}, err
	}
	out := s.sessionView(v)
	out.AMLDeclaration, err = s.sessionDeclaration(r.Context(), v)
	return out, err
}

// plainParams gives a plain handler's request the path-parameter reader fuego's contexts have.
type plainParams struct{ r *http.Request }

func (p plainParams) PathParam(name string) string { return p.r.PathValue(name) }
func (p plainParams) Request() *http.Request       { return p.r }

func (s *Server) listSessions(c fuego.ContextNoBody) (SessionList, error) {
	r := c.Request()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return SessionList{}, err
	}
	size := 20
	if raw := r.URL.Query().Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 100 {
			return SessionList{}, perfilseguro.FieldError("limit", "limit debe ser un número de 1 a 100.")
		}
		size = n
	}
	after := r.URL.Query().Get("startingAfter")
	if after != "" && !sessionIDPattern.MatchString(after) {
		return SessionList{}, perfilseguro.FieldError("startingAfter", "startingAfter debe ser el id de una sesión (vs_…).")
	}
	rows, err := s.store.PartnerSessions(r.Context(), kp.Partner.ID, kp.Key.Livemode, after, size+1)
	if err != nil {
		return SessionList{}, err
	}
	page, more := pageOf(rows, size, s.sessionView)
	for i := range page {
		if page[i].AMLDeclaration, err = s.sessionDeclaration(r.Context(), rows[i]); err != nil {
			return SessionList{}, err
		}
	}
	return SessionList{Data: page, HasMore: more}, nil
}

func (s *Server) cancelSession(c fuego.ContextNoBody) (SessionView, error) {
	kp, id, err := s.partnerSessionTarget(c)
	if err != nil {
		return SessionView{}, err
	}
	v, err := s.store.CancelSession(c.Request().Context(), kp.Partner.ID, kp.Key.Livemode, id, s.now())
	if err != nil {
		return SessionView{}, err
	}
	return s.sessionView(v), nil
}

func (s *Server) sessionView(v postgres.PartnerVerificationSession) SessionView {
	out := SessionView{ID: v.ID, Status: v.StatusAt(s.now()), Reference: v.Reference, Livemode: v.Livemode,
		RequiredLevel: v.RequiredLevel, Claims: []string(v.Claims), CreatedAt: v.CreatedAt, ExpiresAt: v.ExpiresAt, EndedAt: v.EndedAt,
		AMLProfile: v.AMLProfile}
	if v.ReturnURL != nil {
		out.ReturnURL = *v.ReturnURL
	}
	out.Shared, out.SharedReason = sharedOf(v)
	if out.Shared != nil && out.SharedReason == "" {
		out.UnavailableClaims = perfilseguro.UnavailableClaims(out.Claims, *out.Shared)
	}
	if v.Proof != nil {
		out.Proof = *v.Proof
	}
	return out
}

// sharedClaims are the asked claims of a person, as the partner receives them; doc is the
// document that certifies the profile (nil for a typed name: its claims are null), now the day
// of sharing.
func sharedClaims(u perfilseguro.User, doc *perfilseguro.DocumentIdentity, asked []string, now time.Time) map[string]any {
	out := map[string]any{}
	for _, c := range asked {
		switch c {
		case "name":
			out[c] = u.Nombre
		case "profileId":
			out[c] = u.IDValidado
		case "validUntil":
			out[c] = u.ValidUntil()
		case "level":
			out[c] = u.VerificationLevel
		default:
			// A document claim the profile cannot give is left out (listed in unavailableClaims).
			if v := documentClaim(doc, c, now); v != nil && slices.Contains(perfilseguro.DocumentClaims, c) {
				out[c] = v
			}
		}
	}
	return out
}

// sessionProof signs what the person shared, bound to the session and the partner, so the partner
// can check it offline; "" when no issuer is configured (the claims still travel, unsigned).
func sessionProof(issuer *credential.Issuer, v postgres.HostedSession, shared map[string]any) (string, error) {
	if issuer == nil {
		return "", nil
	}
	claims := map[string]any{"sub": v.ID, "aud": v.PartnerKeyID, "reference": v.Reference, "livemode": v.Livemode,
		"required_level": v.RequiredLevel, "claims": shared}
	return issuer.SignSessionProof(claims)
}

// notifyDelivery queues a stored partner notification; if Redis is down the partner dispatch
// sweep sends it later (same task id: never twice).
func (s *Server) notifyDelivery(ctx context.Context, deliveryID int64) {
	if deliveryID == 0 {
		return
	}
	task, err := jobs.NewPartnerNotifyTask(deliveryID, 1)
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		s.logger.WarnContext(ctx, "enqueue partner notification", "delivery_id", deliveryID, "error", err)
	}
}
