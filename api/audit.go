package api

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The audit trail: every administrator action and every sign-in attempt is appended to
// audit_events (0017), which the application can never change. An action that changes something
// is written with its event in one transaction (audited, adminAction): if the event cannot be
// written, the action rolls back and the person acting sees the error. Attempts that change
// nothing (a sign-in refused, a denied action) are appended on their own (audit); such a write
// failing is logged, never shown.

// Paging of the Bitácora.
const (
	defaultAuditPageSize = 50
	maxAuditPageSize     = 500
	maxAuditCSVRows      = 50000
)

// audit appends e with the request's address, browser and time.
func (s *Server) audit(r *http.Request, e postgres.AuditEvent) {
	ctx := context.WithoutCancel(r.Context())
	e = s.withRequest(r, e)
	if err := postgres.AppendAudit(ctx, s.db, e); err != nil {
		s.logger.ErrorContext(ctx, "audit event not recorded", "action", e.Action, "error", err,
			"request_id", requestID(ctx))
	}
}

// audited runs an action and the event do returns in one transaction (postgres.Store.Audited);
// the event gets the request's address, browser and time. Store calls in do must use its ctx.
func (s *Server) audited(r *http.Request, do func(ctx context.Context) (postgres.AuditEvent, error)) error {
	return s.store.Audited(r.Context(), func(ctx context.Context) (postgres.AuditEvent, error) {
		e, err := do(ctx)
		return s.withRequest(r, e), err
	})
}

// adminAction is an administrator's action, audited in its transaction: do makes the change and
// names its target and what changed.
func (s *Server) adminAction(r *http.Request, sess *postgres.AdminSession, action, targetKind string,
	do func(ctx context.Context) (targetID string, changes map[string]postgres.Change, err error)) error {
	return s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		target, changes, err := do(ctx)
		if err != nil {
			return postgres.AuditEvent{}, err
		}
		e := adminEvent(sess.Admin, action, targetKind, target, postgres.OutcomeOK)
		e.Changes = changes
		return e, nil
	})
}

// withRequest fills in the request's address, browser and the time of the event.
func (s *Server) withRequest(r *http.Request, e postgres.AuditEvent) postgres.AuditEvent {
	e.IP, e.UserAgent = clientIP(r), r.UserAgent()
	if e.At.IsZero() {
		e.At = s.now()
	}
	return e
}

// adminEvent is an event whose actor is the administrator a.
func adminEvent(a postgres.Admin, action, targetKind, targetID, outcome string) postgres.AuditEvent {
	id := a.ID
	return postgres.AuditEvent{ActorKind: postgres.ActorAdmin, ActorID: &id, ActorLabel: a.Label(), Action: action,
		TargetKind: targetKind, TargetID: targetID, Outcome: outcome}
}

// auditPersonSignIn records a person's sign-in attempt by code (userID 0: not known).
func (s *Server) auditPersonSignIn(r *http.Request, action string, userID int64, profileID string, err error) {
	e := postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorLabel: profileID, Action: action,
		TargetKind: "user", Outcome: postgres.OutcomeOK}
	if userID != 0 {
		e.ActorID = &userID
		e.TargetID = strconv.FormatInt(userID, 10)
	}
	if err != nil {
		e.Outcome = postgres.OutcomeFailed
	}
	s.audit(r, e)
}

// auditCodeSignIn records a sign-in attempt by code: the answer's user on success, the user id
// sent on failure (0 when the attempt came with a registration token). A malformed request that
// never reached the code check is recorded too, as failed.
func (s *Server) auditCodeSignIn(r *http.Request, action string, sentUserID int64, res VerifyCodeResponse, err error) {
	if err == nil {
		s.auditPersonSignIn(r, action, res.UserID, res.ProfileID, nil)
		return
	}
	s.auditPersonSignIn(r, action, sentUserID, "", err)
}

// diff lists the fields whose value changed (values must compare with ==).
func diff(fields map[string][2]any) map[string]postgres.Change {
	out := map[string]postgres.Change{}
	for name, v := range fields {
		if v[0] != v[1] {
			out[name] = postgres.Change{Before: v[0], After: v[1]}
		}
	}
	return out
}

// AuditEventJSON is one row of the Bitácora.
type AuditEventJSON struct {
	ID         int64                      `json:"id"`
	At         time.Time                  `json:"at"`
	ActorKind  string                     `json:"actorKind" enum:"admin,person,system,partner_user"`
	ActorID    *int64                     `json:"actorId"`
	ActorLabel string                     `json:"actorLabel"`
	Action     string                     `json:"action"`
	TargetKind string                     `json:"targetKind"`
	TargetID   string                     `json:"targetId"`
	IP         string                     `json:"ip"`
	UserAgent  string                     `json:"userAgent"`
	Changes    map[string]postgres.Change `json:"changes,omitempty"`
	Outcome    string                     `json:"outcome" enum:"ok,denied,failed"`
	// ActionLabel is the action in Spanish ("Inicio de sesión con código"); Action keeps the code.
	ActionLabel string `json:"actionLabel"`
	// TargetText names the target as it is now ("Perfil PS-…", "Llave de acceso «Mi iPhone»").
	TargetText string `json:"targetText"`
}

// AuditPageResponse is a page of the Bitácora, newest first.
type AuditPageResponse struct {
	Events   []AuditEventJSON `json:"events"`
	Total    int              `json:"total"`
	Page     int              `json:"page"`
	PageSize int              `json:"pageSize"`
}

func (s *Server) mountAudit() {
	q := func(name, desc string) *openapi3.ParameterRef { return queryParam(name, desc, false) }
	o := op("Administración", "Bitácora: acciones de administradores e intentos de inicio de sesión, la más reciente primero (rol administrador)",
		params(q("actor", "Correo o ID de perfil (parte), o ID numérico del actor"), q("action", "Acción (user.revoke) o prefijo terminado en punto (user.)"),
			q("target", "ID del objetivo, o tipo:id (user:42)"), q("from", "Desde (fecha YYYY-MM-DD o RFC 3339, incluida)"),
			q("to", "Hasta (fecha YYYY-MM-DD incluida, o instante RFC 3339 excluido)"), q("page", "Página (desde 1)"),
			q("pageSize", "Eventos por página (máximo 500)"), q("format", "csv: descarga en CSV con todos los eventos del filtro")),
		namedJSON("200", "Una página de la bitácora; con format=csv, el archivo CSV", "AuditPageResponse", AuditPageResponse{}))
	o.Responses.Value("200").Value.Content["text/csv"] = &openapi3.MediaType{Schema: openapi3.NewStringSchema().NewRef()}
	s.handle("GET /api/admin/audit", http.HandlerFunc(s.handleAudit), o)
}

func (s *Server) handleAudit(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, guard{action: "audit.read", roles: rolesManage}); err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	f := postgres.AuditFilter{Actor: q.Get("actor"), Action: q.Get("action"), Target: q.Get("target")}
	var err error
	if f.From, err = parseAuditTime(q.Get("from"), false); err != nil {
		writeError(w, r, perfilseguro.FieldError("from", "Fecha no válida: usa AAAA-MM-DD"))
		return
	}
	if f.To, err = parseAuditTime(q.Get("to"), true); err != nil {
		writeError(w, r, perfilseguro.FieldError("to", "Fecha no válida: usa AAAA-MM-DD"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if q.Get("format") == "csv" {
		f.Limit = maxAuditCSVRows
		events, _, err := s.store.AuditEvents(r.Context(), f)
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="bitacora-%s.csv"`, s.now().Format("2006-01-02")))
		writeAuditCSV(w, events)
		return
	}
	if v := q.Get("format"); v != "" && v != "json" {
		writeError(w, r, perfilseguro.FieldError("format", "Formato no válido: usa csv"))
		return
	}
	page, size := atoiOr(q.Get("page"), 1), atoiOr(q.Get("pageSize"), defaultAuditPageSize)
	if page < 1 || size < 1 {
		writeError(w, r, perfilseguro.FieldError("page", "Página no válida"))
		return
	}
	f.Limit = min(size, maxAuditPageSize)
	f.Offset = (page - 1) * f.Limit
	events, total, err := s.store.AuditEvents(r.Context(), f)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := AuditPageResponse{Events: make([]AuditEventJSON, len(events)), Total: total, Page: page, PageSize: f.Limit}
	for i, e := range events {
		out.Events[i] = AuditEventJSON{ID: e.ID, At: e.At, ActorKind: e.ActorKind, ActorID: e.ActorID, ActorLabel: e.ActorLabel,
			Action: e.Action, TargetKind: e.TargetKind, TargetID: e.TargetID, IP: e.IP, UserAgent: e.UserAgent,
			Changes: e.Changes, Outcome: e.Outcome, ActionLabel: auditActionLabel(e.Action), TargetText: auditTargetText(e)}
	}
	writeJSON(w, http.StatusOK, out)
}

// parseAuditTime reads a date (Mexico City's day; as an upper bound, the whole day is included)
// or an RFC 3339 instant; empty is the zero time.
func parseAuditTime(v string, upper bool) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	d, err := time.ParseInLocation("2006-01-02", v, perfilseguro.MexicoCity())
	if err != nil {
		return time.Time{}, err
	}
	if upper {
		d = d.AddDate(0, 0, 1)
	}
	return d, nil
}

// auditCSVHeader is the CSV's header row (Spanish, as the operators read it): the codes in their
// columns, then the action and target as the Bitácora shows them.
var auditCSVHeader = []string{"fecha", "tipo_actor", "id_actor", "actor", "accion", "tipo_objetivo", "objetivo",
	"ip", "navegador", "cambios", "resultado", "accion_descripcion", "objetivo_descripcion"}

func writeAuditCSV(w http.ResponseWriter, events []postgres.AuditEvent) {
	cw := csv.NewWriter(w)
	cw.Write(auditCSVHeader)
	for _, e := range events {
		actorID, changes := "", ""
		if e.ActorID != nil {
			actorID = strconv.FormatInt(*e.ActorID, 10)
		}
		if len(e.Changes) > 0 {
			b, _ := json.Marshal(e.Changes)
			changes = string(b)
		}
		cw.Write([]string{e.At.UTC().Format(time.RFC3339), e.ActorKind, actorID, csvSafe(e.ActorLabel), e.Action,
			e.TargetKind, csvSafe(e.TargetID), e.IP, csvSafe(e.UserAgent), csvSafe(changes), e.Outcome,
			auditActionLabel(e.Action), csvSafe(auditTargetText(e))})
	}
	cw.Flush()
}

// csvSafe keeps a spreadsheet from reading a cell as a formula (CSV injection).
func csvSafe(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
