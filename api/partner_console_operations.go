package api

import (
	"context"
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The console's Operaciones (issue 53 item 1): every role lists the platform's LFPIORPI
// operations and what each requires; only propietario and cumplimiento (PartnerComplianceRead)
// see the people in them, and only they (PartnerOperationsWrite) record one — from the
// platform's completed sessions — audited as partner_console.operation.create.

// operationCandidates is how many completed sessions the console offers to choose people from.
const operationCandidates = 200

// ConsoleOperationPage is one keyset page of operations of one mode, newest first.
type ConsoleOperationPage struct {
	Mode string          `json:"mode" enum:"live,test"`
	Data []OperationView `json:"data"`
	// PeopleHidden: the role does not read the people in operations (their lists are empty).
	PeopleHidden bool `json:"peopleHidden"`
	HasMore      bool `json:"hasMore"`
}

// ConsoleOperationCandidate is a completed session whose person can be added to an operation.
type ConsoleOperationCandidate struct {
	SessionID        string    `json:"sessionId"`
	Reference        string    `json:"reference"`
	Name             string    `json:"name,omitempty"`      // as the person shared it
	ProfileID        string    `json:"profileId,omitempty"` // as the person shared it
	IdentityVerified bool      `json:"identityVerified"`
	CompletedAt      time.Time `json:"completedAt"`
}

// ConsoleOperationCandidates are the completed sessions of one mode, newest first.
type ConsoleOperationCandidates struct {
	Mode string                      `json:"mode" enum:"live,test"`
	Data []ConsoleOperationCandidate `json:"data"`
}

func (s *Server) mountPartnerConsoleOperations() {
	mode := option.Query("mode", "live (producción, si se omite) o test (prueba)")
	fuego.Get(s.f, "/api/socios/operations", s.consoleOperations, consoleTag, mode,
		option.QueryInt("limit", "Cuántas por página (1 a 100; 25 si se omite)"),
		option.Query("startingAfter", "El id de la última operación de la página anterior"),
		option.Summary("Operaciones LFPIORPI de tu plataforma en un modo, con lo que la ley pide; las personas solo para propietario y cumplimiento"))
	fuego.Post(s.f, "/api/socios/operations", s.consoleCreateOperation, consoleTag, mode,
		option.DefaultStatusCode(http.StatusCreated),
		option.AddError(422, "Una persona no completó una verificación con tu plataforma (en este modo)", ErrorBody{}),
		option.Summary("Registrar una operación LFPIORPI (propietario o cumplimiento)"))
	fuego.Get(s.f, "/api/socios/operation-candidates", s.consoleOperationCandidates, consoleTag, mode,
		option.Summary("Las sesiones completadas de tu plataforma entre las que eliges a las personas de una operación (propietario o cumplimiento)"))
}

func (s *Server) consoleOperations(c fuego.ContextNoBody) (ConsoleOperationPage, error) {
	r := c.Request()
	sess, mode, err := s.consoleReadInMode(c, "live")
	if err != nil {
		return ConsoleOperationPage{}, err
	}
	size, after, err := operationPage(r, 25)
	if err != nil {
		return ConsoleOperationPage{}, err
	}
	people := perfilseguro.PartnerRoleAllows(sess.Role, perfilseguro.PartnerComplianceRead)
	data, more, err := s.operationPage(r.Context(), sess.PartnerID, mode == "test", after, size, people)
	return ConsoleOperationPage{Mode: mode, Data: data, PeopleHidden: !people, HasMore: more}, err
}

func (s *Server) consoleCreateOperation(c fuego.ContextWithBody[NewOperation]) (OperationView, error) {
	r := c.Request()
	sess, req, err := consoleRequest(s, c, consoleGuard{action: perfilseguro.PartnerOperationsWrite,
		audit: "partner_console.operation.create", targetKind: "aml_operation"})
	if err != nil {
		return OperationView{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return OperationView{}, err
	}
	n, err := req.operation(s.now().In(mexicoCity))
	if err != nil {
		return OperationView{}, err
	}
	userID := sess.PartnerUser.ID
	n.ID, n.PartnerID, n.TestMode = "op_"+secure.NewToken(12), sess.PartnerID, mode == "test"
	n.CreatedByUser, n.CreatedByLabel = &userID, sess.Email
	var op postgres.AMLOperation
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		op, err = s.store.InsertAMLOperation(ctx, n)
		e := s.partnerEvent(r, sess, "partner_console.operation.create")
		e.TargetKind, e.TargetID = "aml_operation", n.ID
		e.Changes = map[string]postgres.Change{"kind": {After: string(n.Kind)}, "amount": {After: n.Amount.String()},
			"date": {After: n.OperationDate.Format(time.DateOnly)}, "livemode": {After: !n.TestMode}}
		return e, err
	})
	if err != nil {
		return OperationView{}, err
	}
	s.queueOperationScreening(r.Context(), op.ID) // after the commit: the worker reads what was written
	setStatus(c, http.StatusCreated)
	return s.operationView(r.Context(), op, true)
}

func (s *Server) consoleOperationCandidates(c fuego.ContextNoBody) (ConsoleOperationCandidates, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerOperationsWrite})
	if err != nil {
		return ConsoleOperationCandidates{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return ConsoleOperationCandidates{}, err
	}
	rows, err := s.store.OperationCandidates(r.Context(), sess.PartnerID, mode == "live", operationCandidates)
	if err != nil {
		return ConsoleOperationCandidates{}, err
	}
	out := ConsoleOperationCandidates{Mode: mode, Data: []ConsoleOperationCandidate{}}
	for _, v := range rows {
		cand := ConsoleOperationCandidate{SessionID: v.SessionID, Reference: v.Reference, IdentityVerified: v.IdentityVerified,
			CompletedAt: v.EndedAt}
		if v.Name != nil {
			cand.Name = *v.Name
		}
		if v.ProfileID != nil {
			cand.ProfileID = *v.ProfileID
		}
		out.Data = append(out.Data, cand)
	}
	return out, nil
}
