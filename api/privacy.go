package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The person's side of their data (LFPDPPP): consents, ARCO requests and who looked them up.
// The slow or sensitive rights (export, rectification, deletion) are in privacy_rights.go.

// consentChangesPerHour limits a person's consent decisions (reads: Limits.PrivacyReadsPerUser).
const consentChangesPerHour = 30

func (s *Server) mountPrivacy() {
	tag := option.Tags("Privacidad")
	fuego.Get(s.f, "/api/users/{id}/consents", s.listConsents, tag,
		option.Summary("Consentimientos de la persona: estado actual por finalidad e historial"))
	fuego.Post(s.f, "/api/users/{id}/consents", s.recordConsent, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Otorgar o retirar un consentimiento (el biométrico, el aviso, o una finalidad secundaria)"))
	fuego.Get(s.f, "/api/users/{id}/arco-requests", s.ownArcoRequests, tag,
		option.Summary("Solicitudes ARCO de la persona, con su fecha límite"))
	fuego.Get(s.f, "/api/users/{id}/consultations", s.consultations, tag,
		option.Summary("Consultas al perfil de la persona (fecha y canal; nunca la dirección IP de quien consultó)"),
		option.Query("limit", "Cuántas por página (1 a 100; 20 si se omite)"),
		option.Query("before", "Cursor nextCursor de la página anterior"))
	s.mountPrivacyRights()
}

// ConsentJSON is the state of one purpose, or one decision of the history.
type ConsentJSON struct {
	Purpose       string     `json:"purpose" enum:"privacy_notice,biometric,partner_notifications,reminders"`
	Granted       bool       `json:"granted"`
	NoticeVersion *string    `json:"noticeVersion"`
	RecordedAt    *time.Time `json:"recordedAt"` // nil: a secondary purpose never decided on (it holds)
	Current       bool       `json:"current"`    // recorded under the notice version in force
	Secondary     bool       `json:"secondary"`  // the person may object without losing the service
}

// ConsentsResponse is each purpose's current state and the whole history, newest first.
type ConsentsResponse struct {
	NoticeVersion string        `json:"noticeVersion"`
	Consents      []ConsentJSON `json:"consents"`
	History       []ConsentJSON `json:"history"`
}

func consentJSON(c postgres.Consent) ConsentJSON {
	v, at := c.NoticeVersion, c.RecordedAt
	return ConsentJSON{Purpose: c.Purpose, Granted: c.Granted, NoticeVersion: &v, RecordedAt: &at,
		Current: v == perfilseguro.PrivacyNoticeVersion, Secondary: perfilseguro.IsSecondaryPurpose(c.Purpose)}
}

// ownerOf checks the path's user is the signed-in person and charges a per-person limit.
// ownedRequest is ownerOf (the signed-in owner of the path's {id}, within scope's hourly limit)
// followed by decoding the request body.
func ownedRequest[T any](s *Server, c fuego.ContextWithBody[T], scope string, perHour int) (int64, T, error) {
	var req T
	id, err := s.ownerOf(c, scope, perHour)
	if err != nil {
		return 0, req, err
	}
	req, err = decodeJSON[T](c.Request())
	return id, req, err
}

func (s *Server) ownerOf(c interface {
	PathParam(string) string
	Request() *http.Request
}, scope string, perHour int) (int64, error) {
	id, err := pathUserID(c)
	if err != nil {
		return 0, err
	}
	if err := s.requireOwner(c.Request(), id); err != nil {
		return 0, err
	}
	if err := s.allow(c.Request().Context(), limit{scope + ":user:" + strconv.FormatInt(id, 10), perHour}); err != nil {
		return 0, err
	}
	return id, nil
}

// privacyRead answers what load reads of the signed-in owner of the path's {id}, within
// Limits.PrivacyReadsPerUser reads an hour: the reads of the privacy pages share that limit.
func privacyRead[T any](s *Server, c fuego.ContextNoBody, load func(context.Context, int64) (T, error)) (T, error) {
	id, err := s.ownerOf(c, "privacy-read", s.limits.PrivacyReadsPerUser)
	if err != nil {
		var none T
		return none, err
	}
	return load(c.Request().Context(), id)
}

// ownerRecord is ownerOf followed by reading the owner's user record.
func (s *Server) ownerRecord(c interface {
	PathParam(string) string
	Request() *http.Request
}, scope string, perHour int) (perfilseguro.User, error) {
	id, err := s.ownerOf(c, scope, perHour)
	if err != nil {
		return perfilseguro.User{}, err
	}
	return s.store.UserByID(c.Request().Context(), id)
}

func (s *Server) listConsents(c fuego.ContextNoBody) (ConsentsResponse, error) {
	history, err := privacyRead(s, c, s.store.ConsentHistory)
	if err != nil {
		return ConsentsResponse{}, err
	}
	res := ConsentsResponse{NoticeVersion: perfilseguro.PrivacyNoticeVersion, History: []ConsentJSON{}}
	latest := map[string]ConsentJSON{}
	for _, h := range history {
		j := consentJSON(h)
		res.History = append(res.History, j)
		if _, seen := latest[h.Purpose]; !seen {
			latest[h.Purpose] = j
		}
	}
	for _, p := range perfilseguro.ConsentPurposes {
		j, ok := latest[p]
		if !ok {
			// Never decided: a secondary purpose holds until objected to; a primary one is missing.
			secondary := perfilseguro.IsSecondaryPurpose(p)
			j = ConsentJSON{Purpose: p, Granted: secondary, Current: secondary, Secondary: secondary}
		}
		res.Consents = append(res.Consents, j)
	}
	return res, nil
}

// ConsentRequest grants (the default) or withdraws consent for one purpose.
type ConsentRequest struct {
	Purpose string `json:"purpose" enum:"privacy_notice,biometric,partner_notifications,reminders"`
	Granted *bool  `json:"granted"`
}

var (
	errBadPurpose       = perfilseguro.FieldError("purpose", "Finalidad no válida. Usa privacy_notice, biometric, partner_notifications o reminders.")
	errNoticeIsRequired = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"El aviso de privacidad es necesario para usar Perfil Seguro. Si no estás de acuerdo, puedes eliminar tu cuenta en Mis datos.")
)

func (s *Server) recordConsent(c fuego.ContextWithBody[ConsentRequest]) (ConsentJSON, error) {
	r := c.Request()
	ctx := r.Context()
	id, req, err := ownedRequest(s, c, "consent", consentChangesPerHour)
	if err != nil {
		return ConsentJSON{}, err
	}
	req.Purpose = strings.TrimSpace(req.Purpose)
	if !perfilseguro.ValidConsentPurpose(req.Purpose) {
		return ConsentJSON{}, errBadPurpose
	}
	granted := req.Granted == nil || *req.Granted
	if !granted && req.Purpose == perfilseguro.PurposePrivacyNotice {
		return ConsentJSON{}, errNoticeIsRequired
	}
	var saved postgres.Consent
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		saved, err = s.store.AddConsent(ctx, tx, postgres.NewConsent{UserID: id, Purpose: req.Purpose, Granted: granted,
			NoticeVersion: perfilseguro.PrivacyNoticeVersion, IP: clientIP(r), UserAgent: truncate(r.UserAgent(), 512)})
		if err != nil || granted || !perfilseguro.IsSecondaryPurpose(req.Purpose) {
			return err
		}
		// Objecting to a secondary use is the right of opposition, answered at once.
		_, err = s.store.AddArcoRequest(ctx, tx, postgres.NewArcoRequest{UserID: id, Type: perfilseguro.ArcoOppose,
			Channel: perfilseguro.ArcoChannelApp, State: perfilseguro.ArcoDone, Details: req.Purpose,
			Resolution: postgres.ArcoObjectionDone, Now: s.now()})
		return err
	})
	if err != nil {
		return ConsentJSON{}, err
	}
	setStatus(c, http.StatusCreated)
	return consentJSON(saved), nil
}

// errNoBiometricConsent: the biometric check waits for the express consent (LFPDPPP, sensitive data).
var errNoBiometricConsent = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"Falta tu consentimiento expreso para el tratamiento de tus datos biométricos. Acéptalo en Mi Perfil para iniciar la verificación.")

// requireBiometricConsent refuses the biometric check until the person's express consent for the
// notice in force is recorded.
func (s *Server) requireBiometricConsent(r *http.Request, userID int64) error {
	ok, err := s.store.HasConsent(r.Context(), userID, perfilseguro.PurposeBiometric, perfilseguro.PrivacyNoticeVersion)
	if err != nil {
		return err
	}
	if !ok {
		return errNoBiometricConsent
	}
	return nil
}

// ArcoRequestJSON is one ARCO request as its person sees it.
type ArcoRequestJSON struct {
	ID         int64      `json:"id"`
	Type       string     `json:"type" enum:"acceso,rectificacion,cancelacion,oposicion"`
	State      string     `json:"state" enum:"recibida,en_proceso,atendida,rechazada"`
	Channel    string     `json:"channel" enum:"app,correo"`
	ReceivedAt time.Time  `json:"receivedAt"`
	DueAt      time.Time  `json:"dueAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
}

func arcoJSON(a postgres.ArcoRequest) ArcoRequestJSON {
	return ArcoRequestJSON{ID: a.ID, Type: a.Type, State: a.State, Channel: a.Channel, ReceivedAt: a.ReceivedAt,
		DueAt: a.DueAt, ResolvedAt: a.ResolvedAt}
}

func (s *Server) ownArcoRequests(c fuego.ContextNoBody) ([]ArcoRequestJSON, error) {
	list, err := privacyRead(s, c, s.store.ArcoRequestsOf)
	if err != nil {
		return nil, err
	}
	return mapped(list, arcoJSON), nil
}

// ConsultationJSON is one lookup of the person's profile: when and through which channel.
type ConsultationJSON struct {
	At          time.Time `json:"at"`
	Channel     string    `json:"channel" enum:"public_page,partner_api"`
	PartnerName *string   `json:"partnerName"`
}

// ConsultationsResponse is one page, newest first; nextCursor asks for the next one.
type ConsultationsResponse struct {
	Items      []ConsultationJSON `json:"items"`
	NextCursor *string            `json:"nextCursor"`
}

var errBadCursor = perfilseguro.FieldError("before", "Cursor no válido")

func (s *Server) consultations(c fuego.ContextNoBody) (ConsultationsResponse, error) {
	id, err := s.ownerOf(c, "privacy-read", s.limits.PrivacyReadsPerUser)
	if err != nil {
		return ConsultationsResponse{}, err
	}
	q := c.Request().URL.Query()
	size := atoiOr(q.Get("limit"), 20)
	if size < 1 || size > 100 {
		return ConsultationsResponse{}, perfilseguro.FieldError("limit", "El límite debe estar entre 1 y 100")
	}
	var beforeAt time.Time
	var beforeID int64
	if cur := q.Get("before"); cur != "" {
		micros, rowID, ok := strings.Cut(cur, "_")
		us, err1 := strconv.ParseInt(micros, 10, 64)
		rid, err2 := strconv.ParseInt(rowID, 10, 64)
		if !ok || err1 != nil || err2 != nil || us <= 0 || rid <= 0 {
			return ConsultationsResponse{}, errBadCursor
		}
		beforeAt, beforeID = time.UnixMicro(us), rid
	}
	rows, err := s.store.Consultations(c.Request().Context(), id, beforeAt, beforeID, size+1)
	if err != nil {
		return ConsultationsResponse{}, err
	}
	res := ConsultationsResponse{Items: []ConsultationJSON{}}
	for i, r := range rows {
		if i == size {
			last := rows[size-1]
			next := strconv.FormatInt(last.At.UnixMicro(), 10) + "_" + strconv.FormatInt(last.ID, 10)
			res.NextCursor = &next
			break
		}
		res.Items = append(res.Items, ConsultationJSON{At: r.At, Channel: r.Channel, PartnerName: r.PartnerName})
	}
	return res, nil
}
