package api

import (
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// What the console reads of a platform's activity — its verification sessions (with only what
// each person shared) and its monthly usage — and the platform's allowed origin.

// usageMonths is how many months the usage page shows.
const usageMonths = 12

// ConsoleSession is one verification session as the console lists it: no proof, no return URL,
// no person beyond the claims they shared.
type ConsoleSession struct {
	ID            string   `json:"id"`
	Status        string   `json:"status" enum:"created,in_progress,completed,declined,expired,canceled"`
	Reference     string   `json:"reference"`
	RequiredLevel int      `json:"requiredLevel"`
	Claims        []string `json:"claims"` // asked for
	// Shared are the claims as the person shared them (completed only); null once the person
	// withdrew the platform's access or deleted their account (SharedReason says which).
	Shared       *SharedClaims `json:"shared,omitzero"`
	SharedReason string        `json:"sharedReason,omitempty" enum:"withdrawn,deleted"`
	AMLProfile   bool          `json:"amlProfile"`
	// AMLDeclaration is the declaration shared in the session (cumplimiento and propietario only).
	AMLDeclaration *AMLDeclarationJSON `json:"amlDeclaration,omitempty"`
	CreatedAt      time.Time           `json:"createdAt"`
	ExpiresAt      time.Time           `json:"expiresAt"`
	EndedAt        *time.Time          `json:"endedAt"`
}

// ConsoleSessionPage is one keyset page of sessions of one mode, newest first.
type ConsoleSessionPage struct {
	Mode    string           `json:"mode" enum:"live,test"`
	Data    []ConsoleSession `json:"data"`
	HasMore bool             `json:"hasMore"`
}

// ConsoleUsageMonth is one month (Mexico City time) of verification sessions.
type ConsoleUsageMonth struct {
	Month     string `json:"month"` // YYYY-MM
	Opened    int    `json:"opened"`
	Completed int    `json:"completed"`
	Declined  int    `json:"declined"`
}

// ConsoleUsageResponse is a platform's usage: requests counted (both modes, all time) and the
// sessions of one mode in the last 12 months, newest first.
type ConsoleUsageResponse struct {
	Mode          string              `json:"mode" enum:"live,test"`
	RequestsCount int64               `json:"requestsCount"`
	LastUsedAt    *time.Time          `json:"lastUsedAt"`
	Months        []ConsoleUsageMonth `json:"months"`
}

// ConsoleOriginRequest is the platform's new allowed origin.
type ConsoleOriginRequest struct {
	Origin string `json:"origin"`
}

// ConsoleOriginResponse is the platform's allowed origin.
type ConsoleOriginResponse struct {
	Origin  string `json:"origin"`
	Message string `json:"message"`
}

// ConsoleTestMessage is a message the inbox took for one of the platform's test people: what
// their phone or e-mail would have shown (a code, a link), so a developer can go through the
// flow in test mode without anyone's real phone.
type ConsoleTestMessage struct {
	ID        int64     `json:"id"`
	Channel   string    `json:"channel" enum:"whatsapp,sms,email"`
	Recipient string    `json:"recipient"`
	Subject   string    `json:"subject,omitempty"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
}

// ConsoleTestInbox is the newest messages to the platform's test people.
type ConsoleTestInbox struct {
	Data []ConsoleTestMessage `json:"data"`
}

// testInboxSize is how many messages the console's test inbox shows.
const testInboxSize = 50

func (s *Server) mountPartnerConsoleData() {
	mode := option.Query("mode", "live (producción, si se omite) o test (prueba)")
	fuego.Get(s.f, "/api/socios/sessions", s.consoleSessions, consoleTag, mode,
		option.QueryInt("limit", "Cuántas por página (1 a 100; 25 si se omite)"),
		option.Query("startingAfter", "El id de la última sesión de la página anterior"),
		option.Summary("Sesiones de verificación de tu plataforma en un modo: estado, nivel, referencia, fechas y solo los datos compartidos"))
	fuego.Get(s.f, "/api/socios/usage", s.consoleUsage, consoleTag, mode,
		option.Summary("Uso de tu plataforma: solicitudes contadas y sesiones abiertas y completadas por mes (hora de la Ciudad de México)"))
	fuego.Get(s.f, "/api/socios/test-inbox", s.consoleTestInbox, consoleTag,
		option.Summary("Bandeja de prueba: los mensajes (códigos, enlaces) de las personas de prueba de tu plataforma, los 50 más recientes"))
	fuego.Put(s.f, "/api/socios/origin", s.consoleSetOrigin, consoleTag,
		option.Summary("Cambiar el origen permitido de tu plataforma (propietario o desarrollador)"))
}

func (s *Server) consoleSessions(c fuego.ContextNoBody) (ConsoleSessionPage, error) {
	r := c.Request()
	sess, mode, err := s.consoleReadInMode(c, "live")
	if err != nil {
		return ConsoleSessionPage{}, err
	}
	q := r.URL.Query()
	size := defaultDeliveryPage
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 100 {
			return ConsoleSessionPage{}, perfilseguro.FieldError("limit", "limit debe ser un número de 1 a 100.")
		}
		size = n
	}
	after := q.Get("startingAfter")
	if after != "" && !sessionIDPattern.MatchString(after) {
		return ConsoleSessionPage{}, perfilseguro.FieldError("startingAfter", "startingAfter debe ser el id de una sesión (vs_…).")
	}
	rows, err := s.store.PartnerSessions(r.Context(), sess.PartnerID, mode == "live", after, size+1)
	if err != nil {
		return ConsoleSessionPage{}, err
	}
	page, more := pageOf(rows, size, func(v postgres.PartnerVerificationSession) ConsoleSession {
		cs := ConsoleSession{ID: v.ID, Status: v.StatusAt(s.now()), Reference: v.Reference, RequiredLevel: v.RequiredLevel,
			Claims: append([]string{}, v.Claims...), CreatedAt: v.CreatedAt, ExpiresAt: v.ExpiresAt, EndedAt: v.EndedAt, AMLProfile: v.AMLProfile}
		cs.Shared, cs.SharedReason = sharedOf(v)
		return cs
	})
	if perfilseguro.PartnerRoleAllows(sess.Role, perfilseguro.PartnerComplianceRead) {
		for i := range page {
			if page[i].AMLDeclaration, err = s.sessionDeclaration(r.Context(), rows[i]); err != nil {
				return ConsoleSessionPage{}, err
			}
		}
	}
	return ConsoleSessionPage{Mode: mode, Data: page, HasMore: more}, nil
}

func (s *Server) consoleTestInbox(c fuego.ContextNoBody) (ConsoleTestInbox, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return ConsoleTestInbox{}, err
	}
	rows, err := s.store.TestInbox(r.Context(), sess.PartnerID, testInboxSize)
	if err != nil {
		return ConsoleTestInbox{}, err
	}
	out := ConsoleTestInbox{Data: make([]ConsoleTestMessage, len(rows))}
	for i, m := range rows {
		out.Data[i] = ConsoleTestMessage{ID: m.ID, Channel: m.Channel, Recipient: m.Recipient, Text: m.Text, CreatedAt: m.CreatedAt}
		if m.Subject != nil {
			out.Data[i].Subject = *m.Subject
		}
	}
	return out, nil
}

func (s *Server) consoleUsage(c fuego.ContextNoBody) (ConsoleUsageResponse, error) {
	r := c.Request()
	sess, mode, err := s.consoleReadInMode(c, "live")
	if err != nil {
		return ConsoleUsageResponse{}, err
	}
	u, err := s.store.PartnerUsageSince(r.Context(), sess.PartnerID, mode == "live", s.now(), usageMonths)
	if err != nil {
		return ConsoleUsageResponse{}, err
	}
	out := ConsoleUsageResponse{Mode: mode, RequestsCount: u.RequestsCount, LastUsedAt: u.LastUsedAt, Months: []ConsoleUsageMonth{}}
	for _, m := range u.Months {
		out.Months = append(out.Months, ConsoleUsageMonth(m))
	}
	return out, nil
}

func (s *Server) consoleSetOrigin(c fuego.ContextWithBody[ConsoleOriginRequest]) (ConsoleOriginResponse, error) {
	r := c.Request()
	sess, req, err := consoleRequest(s, c, consoleGuard{action: perfilseguro.PartnerManageOrigin, audit: "partner_console.origin", targetKind: "partner"})
	if err != nil {
		return ConsoleOriginResponse{}, err
	}
	raw := strings.TrimSpace(req.Origin)
	if raw == "" {
		return ConsoleOriginResponse{}, perfilseguro.FieldError("origin", "Escribe el origen de tu sitio (ejemplo: https://www.casalista.mx).")
	}
	origin, ok := postgres.NormalizeOrigin(raw)
	if !ok || len(origin) > 253 {
		return ConsoleOriginResponse{}, perfilseguro.FieldError("origin", "El origen no es válido (ejemplo: https://www.casalista.mx).")
	}
	_, after, err := s.store.SetPartnerOrigin(r.Context(), sess.PartnerID, origin, s.cfg.OwnOrigins(), s.partnerEvent(r, sess, "partner_console.origin"))
	if err != nil {
		return ConsoleOriginResponse{}, err
	}
	// The new origin is unproven: the worker checks it at once (the partner may have published
	// the token already); the console shows the result.
	if err := s.enqueueOriginProof(r.Context(), sess.PartnerID, after); err != nil {
		s.logger.WarnContext(r.Context(), "origin proof not enqueued: the partner can ask again from the console", "partner", sess.PartnerID, "error", err)
	}
	return ConsoleOriginResponse{Origin: after,
		Message: "Origen guardado. El widget lo acepta en unos segundos; tus páginas en el origen anterior dejan de funcionar."}, nil
}
