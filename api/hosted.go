package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The hosted flow's calls: our own page at /conectar (a popup, or the whole tab on phones) takes
// the client secret once and gets a flow token of its own, which it keeps in sessionStorage (first
// party: it works with third-party cookies blocked). The person signs in or registers on our
// pages as usual; the decision needs their session cookie. Nothing here answers a partner.

// flowTokenHeader carries the hosted flow's token.
const flowTokenHeader = "X-Flow-Token"

var flowTokenPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

var (
	errFlowToken = perfilseguro.Errorf(perfilseguro.ENOTFOUND,
		"Esta verificación ya no está abierta en esta ventana. Vuelve a la página de la plataforma e inicia de nuevo.")
	errSessionNotOpen = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Esta solicitud de verificación ya no es válida (ya se usó, terminó o no es de esta plataforma). Vuelve a la página de la plataforma e inicia de nuevo.")
	errOpenerOrigin = httpError(http.StatusForbidden, "Esta solicitud de verificación no pertenece a la página que la abrió.")
	// errPartnerDisconnected answers a decision in a flow of a deactivated partner (issue 54 item 4).
	errPartnerDisconnected = perfilseguro.Errorf(perfilseguro.ECONFLICT, "%s", msgPartnerDisconnected)
)

// msgPartnerDisconnected is what an open flow of a deactivated partner says.
const msgPartnerDisconnected = "Esta plataforma ya no está conectada con Perfil Seguro: no se compartirá ningún dato con ella. Puedes cerrar esta ventana."

// HostedOpenRequest is what the drop-in passes to our page.
type HostedOpenRequest struct {
	ClientSecret   string `json:"clientSecret"`
	PublishableKey string `json:"publishableKey"`
	// OpenerOrigin is the origin of the partner page that opened the flow (document.referrer),
	// when the browser tells it: it must be the partner's registered origin.
	OpenerOrigin string `json:"openerOrigin,omitempty"`
}

// HostedClaim is one claim the partner asks for, as the person reads it.
type HostedClaim struct {
	Key   string `json:"key" enum:"name,profileId,validUntil,level,givenName,familyName,birthdate,ageOver18,nationality,curp"`
	Label string `json:"label"`
	// Value is the person's value, shown before they decide (signed in only).
	Value any `json:"value,omitempty"`
	// Unavailable: a claim of the identity document this profile cannot give (its name was typed,
	// or the document lacks it); it is not shared (signed in only).
	Unavailable bool `json:"unavailable,omitempty"`
}

// HostedView is the session as the hosted page shows it.
type HostedView struct {
	ID            string        `json:"id"`
	Status        string        `json:"status" enum:"created,in_progress,completed,declined,expired,canceled"`
	PartnerName   string        `json:"partnerName"`
	PartnerOrigin string        `json:"partnerOrigin"` // the only origin postMessage may target
	RequiredLevel int           `json:"requiredLevel"`
	Livemode      bool          `json:"livemode"`
	Claims        []HostedClaim `json:"claims"`
	ReturnURL     string        `json:"returnUrl,omitempty"`
	SignedIn      bool          `json:"signedIn"`
	Level         int           `json:"level"`
	// Blocker says, in Spanish, what the person must do before sharing ("" when they can share).
	Blocker string `json:"blocker"`
	// Disconnected: the partner was deactivated after the flow opened; nothing can be shared, and
	// Blocker says so.
	Disconnected bool `json:"disconnected,omitempty"`
	// SignOutToContinue: the signed-in account is of the other mode (a live account in a test
	// session, or the reverse); the page offers to sign out.
	SignOutToContinue bool `json:"signOutToContinue,omitempty"`
	// AMLProfile: the partner asks for the know-your-client declaration; the person signs it (or
	// confirms their current version) before sharing (aml_declaration.go).
	AMLProfile bool `json:"amlProfile,omitempty"`
	// AMLDeclaration is the person's current signed version (signed in, amlProfile only).
	AMLDeclaration *AMLDeclarationJSON `json:"amlDeclaration,omitempty"`
	// UserID is the signed-in person's id, for the declaration's calls (amlProfile, nothing blocking).
	UserID int64 `json:"userId,omitempty"`
}

// HostedOpened is an opened flow: its token, and the session.
type HostedOpened struct {
	FlowToken string     `json:"flowToken"`
	Session   HostedView `json:"session"`
	// OpenerConfirmed: the browser named the page that opened the flow, and it is the partner's
	// registered origin. When false (a page that hides its referrer, a link sent by other means)
	// the hosted page names the partner and its domain with a warning before "Compartir".
	OpenerConfirmed bool `json:"openerConfirmed"`
}

// HostedDecisionRequest is the person's answer.
type HostedDecisionRequest struct {
	Share bool `json:"share"`
	// Claims are the claims the screen showed the person as shared (those not unavailable): what
	// they agree to. Sharing a birth date or a CURP requires it to name them; when given, it must
	// be exactly what would be shared (else 409: the screen is out of date).
	Claims []string `json:"claims,omitzero" enum:"name,profileId,validUntil,level,givenName,familyName,birthdate,ageOver18,nationality,curp" description:"Los datos que la pantalla mostró como compartidos y la persona acepta. Obligatorio para compartir birthdate o curp; si se envía, debe ser exactamente lo que se compartirá"`
	// AMLDeclarationVersion is the version of the declaration the person signed or confirmed as
	// still true (amlProfile sessions: required to share; it must be their current version).
	AMLDeclarationVersion int `json:"amlDeclarationVersion,omitempty" description:"En una sesión con amlProfile: la versión de la declaración que la persona firmó o confirmó como vigente; obligatoria para compartir y debe ser la vigente"`
}

var (
	errDeclarationMissing = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Antes de compartir, responde y firma tu declaración de conocimiento del cliente.")
	errDeclarationOutdated = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Tu declaración cambió desde que la revisaste en esta pantalla. Revísala de nuevo y confirma que sigue siendo cierta.")
)

// errConsentChanged answers a decision whose screen did not show what would be shared.
var errConsentChanged = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"Los datos que se compartirían no son los que viste en esta pantalla. Revísalos de nuevo y vuelve a elegir.")

func (s *Server) mountHosted() {
	tag := option.Tags("Flujo de verificación")
	fuego.Post(s.f, "/api/hosted/open", s.hostedOpen, tag,
		option.Summary("Abrir el flujo de verificación de una plataforma con su clientSecret (una sola vez)"),
		option.AddError(401, "Llave publicable no válida", ErrorBody{}),
		option.AddError(403, "La página que abrió el flujo no es la de la plataforma", ErrorBody{}),
		option.AddError(409, "La solicitud ya se usó, terminó o no es de esta plataforma", ErrorBody{}),
		option.AddError(429, "Demasiados intentos", ErrorBody{}))
	fuego.Get(s.f, "/api/hosted/session", s.hostedSession, tag,
		option.Summary("La sesión que tiene abierta este flujo (encabezado X-Flow-Token)"),
		option.Header(flowTokenHeader, "El token del flujo que devolvió /api/hosted/open"),
		option.AddError(404, "El flujo no está abierto", ErrorBody{}))
	fuego.Post(s.f, "/api/hosted/decision", s.hostedDecision, tag,
		option.Summary("Compartir o no compartir los datos pedidos con la plataforma"),
		option.Header(flowTokenHeader, "El token del flujo que devolvió /api/hosted/open"),
		option.AddError(401, "Compartir requiere haber iniciado sesión", ErrorBody{}),
		option.AddError(404, "El flujo no está abierto", ErrorBody{}),
		option.AddError(409, "Aún no puedes compartir, o la sesión ya terminó", ErrorBody{}))
}

func (s *Server) hostedOpen(c fuego.ContextWithBody[HostedOpenRequest]) (HostedOpened, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeJSON[HostedOpenRequest](r)
	if err != nil {
		return HostedOpened{}, err
	}
	if err := s.allow(ctx, limit{"hosted:ip:" + clientIP(r), 120}); err != nil {
		return HostedOpened{}, err
	}
	kp, err := s.partnerByKey(ctx, strings.TrimSpace(req.PublishableKey), perfilseguro.KeyPublishable)
	if err != nil {
		return HostedOpened{}, err
	}
	if kp == nil {
		return HostedOpened{}, errPublishableKey
	}
	if kp.Key.Livemode { // the origin may have changed since the session was made (item 12)
		if err := s.requireProvenOrigin(ctx, kp.Partner.ID); err != nil {
			return HostedOpened{}, err
		}
	}
	if req.OpenerOrigin != "" {
		if o, ok := postgres.NormalizeOrigin(req.OpenerOrigin); !ok || o != kp.Partner.Domain {
			return HostedOpened{}, errOpenerOrigin
		}
	}
	id, _, _ := strings.Cut(req.ClientSecret, "_secret_")
	if !sessionIDPattern.MatchString(id) {
		return HostedOpened{}, errSessionNotOpen
	}
	token := secure.NewToken(32)
	h, err := s.store.OpenSession(ctx, secure.HashToken(req.ClientSecret), secure.HashToken(token), kp.Partner.ID, kp.Key.Livemode, s.now())
	if err == postgres.ErrSessionClosed {
		return HostedOpened{}, errSessionNotOpen
	}
	if err != nil {
		return HostedOpened{}, err
	}
	view, err := s.hostedView(r, h)
	if err != nil {
		return HostedOpened{}, err
	}
	return HostedOpened{FlowToken: token, Session: view, OpenerConfirmed: req.OpenerOrigin != ""}, nil
}

// flowSession reads the session of the flow token the request carries.
func (s *Server) flowSession(r *http.Request) (postgres.HostedSession, string, error) {
	token := r.Header.Get(flowTokenHeader)
	if !flowTokenPattern.MatchString(token) {
		return postgres.HostedSession{}, "", errFlowToken
	}
	hash := secure.HashToken(token)
	h, err := s.store.FlowSession(r.Context(), hash)
	if err == postgres.ErrSessionNotFound {
		return postgres.HostedSession{}, "", errFlowToken
	}
	return h, hash, err
}

func (s *Server) hostedSession(c fuego.ContextNoBody) (HostedView, error) {
	h, _, err := s.flowSession(c.Request())
	if err != nil {
		return HostedView{}, err
	}
	return s.hostedView(c.Request(), h)
}

// hostedView shows the session to the person; signed in, with their values and what still stands
// between them and sharing.
func (s *Server) hostedView(r *http.Request, h postgres.HostedSession) (HostedView, error) {
	v := HostedView{ID: h.ID, Status: h.StatusAt(s.now()), PartnerName: h.PartnerName, PartnerOrigin: h.PartnerDomain,
		RequiredLevel: h.RequiredLevel, Livemode: h.Livemode, AMLProfile: h.AMLProfile}
	if h.ReturnURL != nil {
		v.ReturnURL = *h.ReturnURL
	}
	if !h.PartnerActive { // nothing of the person is read, nothing can be shared
		v.Disconnected, v.Blocker = true, msgPartnerDisconnected
		for _, c := range h.Claims {
			v.Claims = append(v.Claims, HostedClaim{Key: c, Label: perfilseguro.SessionClaimLabels[c]})
		}
		return v, nil
	}
	uid, err := s.sessionUserID(r)
	if err != nil {
		return HostedView{}, err
	}
	var values map[string]any
	var unavailable []string
	if uid != 0 {
		u, err := s.store.UserByID(r.Context(), uid)
		if err != nil {
			return HostedView{}, err
		}
		v.SignedIn, v.Level = true, u.VerificationLevel
		v.Blocker, v.SignOutToContinue = s.blockerFor(u, h)
		var doc *perfilseguro.DocumentIdentity
		if v.Blocker == "" { // the document is opened only for a person who can share
			if doc, err = s.profileDocument(r.Context(), u, h.Claims); err != nil {
				return HostedView{}, err
			}
		}
		values = sharedClaims(u, doc, h.Claims, s.now())
		if v.Blocker == "" { // a person who must first validate may still get them
			unavailable = perfilseguro.UnavailableClaims(h.Claims, values)
			if h.AMLProfile {
				v.UserID = u.ID
				d, err := s.store.CurrentAMLDeclaration(r.Context(), u.ID, !h.Livemode)
				if err != nil {
					return HostedView{}, err
				}
				if d != nil {
					j := declarationJSON(*d)
					v.AMLDeclaration = &j
				}
			}
		}
	} else {
		v.Blocker = "Inicia sesión o regístrate para continuar."
	}
	for _, c := range h.Claims {
		v.Claims = append(v.Claims, HostedClaim{Key: c, Label: perfilseguro.SessionClaimLabels[c], Value: values[c],
			Unavailable: slices.Contains(unavailable, c)})
	}
	return v, nil
}

// shareBlocker is what a person must still do before sharing at the required level ("" if nothing).
func shareBlocker(u perfilseguro.User, required int, now time.Time) string {
	switch {
	case u.RevokedAt != nil:
		return "Tu validación fue revocada: no puedes compartirla. Escribe a soporte si crees que es un error."
	case required >= perfilseguro.LevelEmail && u.VerificationLevel < perfilseguro.LevelEmail:
		return "Primero verifica tu correo electrónico desde Mi Perfil."
	case required >= perfilseguro.LevelBiometric && !(u.BiometricVerified && u.VerificationLevel >= perfilseguro.LevelBiometric):
		return "Primero completa tu verificación biométrica desde Mi Perfil."
	case required >= perfilseguro.LevelBiometric && u.ValidUntil() != nil && now.After(*u.ValidUntil()):
		return "Tu validación expiró: renuévala desde Mi Perfil para poder compartirla."
	}
	return ""
}

// decideAs fills in who decides and, when they share, what and its proof. A person of the other
// mode (a live account in a test session, or the reverse) may decline, as nobody: no link is kept
// between the two; they cannot share.
// agreed are the claims the person's screen showed as shared (HostedDecisionRequest.Claims).
// amlVersion is the declaration version the person confirmed (amlProfile sessions).
func (s *Server) decideAs(ctx context.Context, uid int64, h postgres.HostedSession, d *postgres.SessionDecision, agreed []string, amlVersion int) error {
	u, err := s.store.UserByID(ctx, uid)
	if err != nil {
		return err
	}
	blocker, otherMode := s.blockerFor(u, h)
	if !otherMode {
		d.UserID = uid
	}
	if !d.Share {
		return nil
	}
	if blocker != "" {
		return perfilseguro.Errorf(perfilseguro.ECONFLICT, "%s", blocker)
	}
	doc, err := s.profileDocument(ctx, u, h.Claims)
	if err != nil {
		return err
	}
	shared := sharedClaims(u, doc, h.Claims, s.now())
	// The person agrees to what the screen showed: a birth date or a CURP only when it named them,
	// and, when it says what it showed, exactly what is shared.
	granted := grantedClaims(h.Claims, shared)
	for _, c := range granted {
		if slices.Contains(perfilseguro.SensitiveClaims, c) && !slices.Contains(agreed, c) {
			return errConsentChanged
		}
	}
	if agreed != nil && !sameClaims(agreed, granted) {
		return errConsentChanged
	}
	d.Granted = granted
	if h.AMLProfile {
		cur, err := s.store.CurrentAMLDeclaration(ctx, uid, !h.Livemode)
		switch {
		case err != nil:
			return err
		case cur == nil:
			return errDeclarationMissing
		case cur.Version != amlVersion:
			return errDeclarationOutdated
		}
		d.AMLDeclarationID = cur.ID
	}
	if d.Shared, err = json.Marshal(shared); err != nil {
		return err
	}
	d.Proof, err = sessionProof(s.issuer, h, shared)
	return err
}

// sameClaims tells whether two lists name the same claims, in any order.
func sameClaims(a, b []string) bool {
	return slices.Equal(compactSorted(a), compactSorted(b))
}

func compactSorted(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// HostedDecision is the session after the person decided.
type HostedDecision struct {
	ID     string `json:"id"`
	Status string `json:"status" enum:"completed,declined"`
	// RedirectURL sends a full-page flow back to the partner (returnUrl with the session and status).
	RedirectURL string `json:"redirectUrl,omitempty"`
}

func (s *Server) hostedDecision(c fuego.ContextWithBody[HostedDecisionRequest]) (HostedDecision, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeJSON[HostedDecisionRequest](r)
	if err != nil {
		return HostedDecision{}, err
	}
	h, hash, err := s.flowSession(r)
	if err != nil {
		return HostedDecision{}, err
	}
	if !h.PartnerActive {
		return HostedDecision{}, errPartnerDisconnected
	}
	d := postgres.SessionDecision{FlowHash: hash, Share: req.Share, Now: s.now()}
	uid, err := s.sessionUserID(r)
	if err != nil {
		return HostedDecision{}, err
	}
	if req.Share && uid == 0 {
		return HostedDecision{}, errNotSignedIn
	}
	if uid != 0 {
		if err := s.decideAs(ctx, uid, h, &d, req.Claims, req.AMLDeclarationVersion); err != nil {
			return HostedDecision{}, err
		}
	}
	v, deliveryID, err := s.store.DecideSession(ctx, d)
	if err == postgres.ErrSessionClosed {
		return HostedDecision{}, errSessionNotOpen
	}
	if err != nil {
		return HostedDecision{}, err
	}
	s.notifyDelivery(ctx, deliveryID)
	out := HostedDecision{ID: v.ID, Status: v.Status}
	if v.ReturnURL != nil {
		u, err := url.Parse(*v.ReturnURL)
		if err == nil {
			q := u.Query()
			q.Set("perfilseguro_session", v.ID)
			q.Set("perfilseguro_status", v.Status)
			u.RawQuery = q.Encode()
			out.RedirectURL = u.String()
		}
	}
	return out, nil
}
