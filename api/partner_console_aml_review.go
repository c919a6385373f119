package api

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The compliance officer's review of possible hits (issue 53 item 3). Screening itself runs in the
// worker (amlscreen); here propietario and cumplimiento (PartnerComplianceRead) read each
// operation's people with what they were screened against and the candidates found, and rule on
// each: descartada or confirmada, with a reason, audited. Confirming a hit on a blocked-persons
// list stops the operation and raises the 24-hour aviso (postgres.ResolveAMLHit, one
// transaction). desarrollador and lectura are refused (403), and the refusal is recorded.

// minHitReason is the shortest reason a ruling accepts (the table's CHECK says the same).
const minHitReason = 5

// maxHitReason bounds a ruling's reason.
const maxHitReason = 2000

// pendingHitsShown is how many pending hits the console lists at once (the count is exact).
const pendingHitsShown = 100

// ScreeningCheckView is the latest screening of a person (or the beneficiary they declared)
// against one list.
type ScreeningCheckView struct {
	Subject     string     `json:"subject" enum:"persona,beneficiario"`
	Source      string     `json:"source" enum:"lista,proveedor" description:"lista: una lista de personas bloqueadas; proveedor: la evaluación del proveedor de verificación"`
	List        string     `json:"list" description:"Nombre de la lista"`
	Version     *int       `json:"version" description:"Versión de la lista consultada (null: evaluación del proveedor)"`
	VersionDate *time.Time `json:"versionDate" description:"Fecha en que se importó esa versión"`
	CheckedAt   time.Time  `json:"checkedAt"`
	Candidates  int        `json:"candidates" description:"Cuántos candidatos dio la consulta"`
	Name        string     `json:"screenedName" description:"El nombre consultado"`
}

// HitView is a possible hit and its ruling.
type HitView struct {
	ID               int64      `json:"id"`
	OperationID      string     `json:"operationId"`
	Subject          string     `json:"subject" enum:"persona,beneficiario"`
	List             string     `json:"list"`
	Version          *int       `json:"version"`
	EntryID          string     `json:"entryId" description:"El identificador del registro en la lista"`
	MatchedName      string     `json:"matchedName" description:"El nombre de la lista que coincide"`
	Score            float64    `json:"score" description:"Parecido de 0 a 1"`
	Reasons          []string   `json:"reasons" description:"Por qué se parece"`
	Blocking         bool       `json:"blocking" description:"Confirmarla detiene la operación y genera el aviso de 24 horas (lista de personas bloqueadas)"`
	Status           string     `json:"status" enum:"pendiente,descartada,confirmada"`
	ResolutionReason string     `json:"resolutionReason,omitempty"`
	ResolvedBy       string     `json:"resolvedBy,omitempty" description:"Quién la resolvió (correo del miembro del equipo)"`
	ResolvedAt       *time.Time `json:"resolvedAt"`
	CreatedAt        time.Time  `json:"createdAt"`
}

// PersonScreeningView is what a person of an operation was screened against, and the hits.
type PersonScreeningView struct {
	// Locked: the person deleted their account; the file is kept 10 years and admits no change.
	Locked bool                 `json:"locked" description:"La persona eliminó su cuenta: el expediente se conserva bloqueado"`
	Lists  []ScreeningCheckView `json:"lists" description:"Listas consultadas (la consulta más reciente de cada una)"`
	Hits   []HitView            `json:"hits" description:"Posibles coincidencias y su resolución"`
}

// HitResolutionRequest is a compliance officer's ruling.
type HitResolutionRequest struct {
	Decision string `json:"decision" enum:"descartada,confirmada" description:"descartada (no es la persona de la lista) o confirmada"`
	Reason   string `json:"reason" description:"Por qué (al menos 5 caracteres); queda en el expediente y en la bitácora"`
}

// AvisoRef names an aviso a ruling raised.
type AvisoRef struct {
	ID    int64     `json:"id"`
	DueAt time.Time `json:"dueAt" description:"Fecha límite para presentarlo (24 horas desde la confirmación)"`
}

// HitResolutionResult is what a ruling did.
type HitResolutionResult struct {
	Hit              HitView   `json:"hit"`
	OperationStopped bool      `json:"operationStopped" description:"La confirmación detuvo la operación"`
	Aviso            *AvisoRef `json:"aviso" description:"El aviso de operación sospechosa que generó (null si ninguno)"`
}

// PendingHitView is a hit waiting for a ruling, with where it was found.
type PendingHitView struct {
	HitView
	PropertyReference string `json:"propertyReference"`
	PersonName        string `json:"personName" description:"El nombre consultado de la persona"`
}

// PendingHits are the hits still waiting for a ruling in a mode (count: all of them).
type PendingHits struct {
	Mode  string           `json:"mode" enum:"live,test"`
	Count int              `json:"count"`
	Data  []PendingHitView `json:"data"`
}

var (
	errBadHitDecision = perfilseguro.FieldError("decision", "La decisión debe ser descartada o confirmada.")
	errHitReason      = perfilseguro.FieldError("reason", "Explica el motivo de la resolución (al menos 5 caracteres).")
	errHitReasonLong  = perfilseguro.FieldError("reason", "El motivo admite hasta 2000 caracteres.")
)

func (s *Server) mountPartnerConsoleAMLReview() {
	mode := option.Query("mode", "live (producción, si se omite) o test (prueba)")
	role := option.AddError(403, "Tu rol no permite ver ni resolver expedientes (solo propietario y cumplimiento)", ErrorBody{})
	fuego.Get(s.f, "/api/socios/operations/{id}", s.consoleOperation, consoleTag, mode, role,
		option.Path("id", "Identificador de la operación (op_…)", param.Required()),
		option.AddError(404, "La operación no existe en este modo", ErrorBody{}),
		option.Summary("Una operación con sus personas, las listas contra las que se consultó a cada una y sus posibles coincidencias (propietario o cumplimiento)"))
	fuego.Get(s.f, "/api/socios/hits/pending", s.consolePendingHits, consoleTag, mode, role,
		option.Summary("Posibles coincidencias pendientes de resolver en tus operaciones (propietario o cumplimiento)"))
	fuego.Post(s.f, "/api/socios/hits/{id}/resolution", s.consoleResolveHit, consoleTag, mode, role,
		option.Path("id", "Identificador de la posible coincidencia", param.Required()),
		option.AddError(404, "La posible coincidencia no existe en este modo", ErrorBody{}),
		option.AddError(409, "Ya se resolvió, la operación está detenida o el expediente está bloqueado", ErrorBody{}),
		option.Summary("Resolver una posible coincidencia: descartada o confirmada, con el motivo (propietario o cumplimiento)"),
		option.Description("Confirmar una coincidencia en una lista de personas bloqueadas detiene la operación y genera el aviso de operación "+
			"sospechosa, que vence 24 horas después. La resolución no se puede cambiar y queda en la bitácora."))
}

func (s *Server) consoleOperation(c fuego.ContextNoBody) (OperationView, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.aml_file.read",
		targetKind: "aml_operation", targetID: c.PathParam("id")})
	if err != nil {
		return OperationView{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return OperationView{}, err
	}
	id := c.PathParam("id")
	if !operationIDPattern.MatchString(id) {
		return OperationView{}, errBadOperationID
	}
	op, err := s.store.AMLOperation(r.Context(), sess.PartnerID, mode == "test", id)
	if err != nil {
		return OperationView{}, err
	}
	return s.operationView(r.Context(), op, true)
}

func (s *Server) consolePendingHits(c fuego.ContextNoBody) (PendingHits, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.aml_file.read",
		targetKind: "aml_hit"})
	if err != nil {
		return PendingHits{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return PendingHits{}, err
	}
	rows, total, err := s.store.PendingAMLHits(r.Context(), sess.PartnerID, mode == "test", pendingHitsShown)
	if err != nil {
		return PendingHits{}, err
	}
	out := PendingHits{Mode: mode, Count: total, Data: []PendingHitView{}}
	for _, h := range rows {
		out.Data = append(out.Data, PendingHitView{HitView: hitView(h.AMLHit), PropertyReference: h.PropertyReference, PersonName: h.ScreenedName})
	}
	return out, nil
}

func (s *Server) consoleResolveHit(c fuego.ContextWithBody[HitResolutionRequest]) (HitResolutionResult, error) {
	r := c.Request()
	sess, hitID, err := s.consoleCallOn(c, consoleGuard{action: perfilseguro.PartnerComplianceRead,
		audit: "partner_console.hit.resolve", targetKind: "aml_hit"})
	if err != nil {
		return HitResolutionResult{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return HitResolutionResult{}, err
	}
	req, err := decodeJSON[HitResolutionRequest](r)
	if err != nil {
		return HitResolutionResult{}, err
	}
	reason := strings.TrimSpace(req.Reason)
	switch {
	case req.Decision != postgres.HitDismissed && req.Decision != postgres.HitConfirmed:
		return HitResolutionResult{}, errBadHitDecision
	case utf8.RuneCountInString(reason) < minHitReason:
		return HitResolutionResult{}, errHitReason
	case utf8.RuneCountInString(reason) > maxHitReason:
		return HitResolutionResult{}, errHitReasonLong
	}
	var res postgres.ResolvedHit
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		res, err = s.store.ResolveAMLHit(ctx, postgres.HitResolution{PartnerID: sess.PartnerID, TestMode: mode == "test",
			HitID: hitID, Decision: req.Decision, Reason: reason, ByUser: sess.PartnerUser.ID, ByLabel: sess.Email, At: s.now().Truncate(time.Microsecond)}) // as Postgres keeps it
		e := s.partnerEvent(r, sess, "partner_console.hit.resolve")
		e.TargetKind, e.TargetID = "aml_hit", c.PathParam("id")
		e.Changes = map[string]postgres.Change{"status": {Before: postgres.HitPending, After: req.Decision},
			"reason": {After: reason}, "livemode": {After: mode == "live"}}
		if res.OperationStopped {
			e.Changes["operation"] = postgres.Change{After: res.Hit.OperationID + " detenida"}
		}
		return e, err
	})
	if err != nil {
		return HitResolutionResult{}, err
	}
	out := HitResolutionResult{Hit: hitView(res.Hit), OperationStopped: res.OperationStopped}
	if res.AvisoID != nil {
		out.Aviso = &AvisoRef{ID: *res.AvisoID, DueAt: *res.AvisoDueAt}
	}
	return out, nil
}

// withScreenings reads the screenings and hits of ops' people, keyed by aml_operation_people.id.
func (s *Server) withScreenings(ctx context.Context, ops []postgres.AMLOperation) (map[int64]*postgres.AMLPersonReview, error) {
	ids := make([]string, len(ops))
	for i, op := range ops {
		ids[i] = op.ID
	}
	return s.store.AMLReviews(ctx, ids)
}

// personScreeningView is a person's screening as the business reads it (nil when not read).
func personScreeningView(r *postgres.AMLPersonReview) *PersonScreeningView {
	if r == nil {
		return nil
	}
	v := &PersonScreeningView{Locked: r.Locked, Lists: []ScreeningCheckView{}, Hits: []HitView{}}
	for _, sc := range r.Screenings {
		v.Lists = append(v.Lists, ScreeningCheckView{Subject: sc.Subject, Source: sc.Source, List: sc.ListName, Version: sc.Version,
			VersionDate: sc.VersionDate, CheckedAt: sc.CheckedAt, Candidates: sc.CandidateCount, Name: sc.ScreenedName})
	}
	for _, h := range r.Hits {
		v.Hits = append(v.Hits, hitView(h))
	}
	return v
}

func hitView(h postgres.AMLHit) HitView {
	v := HitView{ID: h.ID, OperationID: h.OperationID, Subject: h.Subject, List: h.ListName, Version: h.Version, EntryID: h.EntryID,
		MatchedName: h.MatchedName, Score: h.Score, Reasons: []string(h.Reasons), Blocking: h.Blocking, Status: h.Status,
		ResolvedAt: h.ResolvedAt, CreatedAt: h.CreatedAt}
	if v.Reasons == nil {
		v.Reasons = []string{}
	}
	if h.ResolutionReason != nil {
		v.ResolutionReason = *h.ResolutionReason
	}
	if h.ResolvedByLabel != nil {
		v.ResolvedBy = *h.ResolvedByLabel
	}
	return v
}

// stoppedView fills in whether a confirmed hit stopped op.
func stoppedView(v *OperationView, op postgres.AMLOperation) {
	v.Stopped, v.StoppedAt, v.StoppedReason = op.StoppedAt != nil, op.StoppedAt, op.StoppedReason
}
