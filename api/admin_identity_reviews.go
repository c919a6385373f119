package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The identity review (issue 52, item 2 "near"): approved checks whose document the assessment
// could not settle wait for soporte or an administrador, who see the typed name beside the
// document's, the findings, the registry's answers and the scores, and approve (level 3 under
// the document's name) or decline with a reason, after a fresh passkey confirmation, in one
// transaction with its audit row and the person's e-mail. The CURP and the document's number
// are never answered in full: masked (maskIdentifier).

// rolesIdentity may read the document data and decide reviews.
var rolesIdentity = []string{perfilseguro.RoleAdministrator, perfilseguro.RoleSupport}

// Limits of a decline's reason.
const (
	minReviewReason = 10
	maxReviewReason = 500
)

func (s *Server) mountAdminIdentityReviews() {
	tag := option.Tags("Administración")
	fuego.Get(s.f, "/api/admin/identity-reviews", s.listIdentityReviews, tag,
		option.Summary("Revisiones de identidad pendientes: nombre registrado y del documento, hallazgos, registros y puntajes (soporte o administrador)"),
		option.Description("Verificaciones aprobadas cuyo documento no se pudo decidir solo (nombre parecido, CURP o registro "+
			"que no coinciden, sin datos del documento), de la más antigua a la más reciente. La CURP y el número del documento van enmascarados."))
	fuego.Post(s.f, "/api/admin/identity-reviews/{id}/approve", s.approveIdentityReview, tag,
		option.Summary("Aprobar una revisión de identidad: nivel 3 con el nombre del documento (soporte o administrador, confirmación reciente con llave)"),
		option.AddError(http.StatusConflict, "Ya resuelta, sin documento, o la identificación ya certifica otro perfil", ErrorBody{}))
	fuego.Post(s.f, "/api/admin/identity-reviews/{id}/decline", s.declineIdentityReview, tag,
		option.Summary("Rechazar una revisión de identidad con un motivo (soporte o administrador, confirmación reciente con llave)"),
		option.AddError(http.StatusConflict, "La revisión ya fue resuelta", ErrorBody{}))
	fuego.Get(s.f, "/api/admin/users/{id}/identity", s.adminUserIdentity, tag,
		option.Summary("Documento que certifica el perfil, resultado de su última verificación y perfiles vinculados por la misma identificación (soporte o administrador)"))
}

// IdentityDocumentJSON is what the identity document says, the CURP and the number masked.
type IdentityDocumentJSON struct {
	Type           string  `json:"type"` // ine, passport, driving_licence, residence_permit or the provider's words
	IssuingCountry string  `json:"issuingCountry"`
	IssuingState   string  `json:"issuingState"`
	GivenNames     string  `json:"givenNames"`
	FirstSurname   string  `json:"firstSurname"`
	SecondSurname  string  `json:"secondSurname"`
	FullName       string  `json:"fullName"`
	BirthDate      *string `json:"birthDate"` // YYYY-MM-DD
	Sex            string  `json:"sex"`
	Nationality    string  `json:"nationality"`
	IssueDate      *string `json:"issueDate"`
	ExpiryDate     *string `json:"expiryDate"`
	CURP           *string `json:"curp"`   // masked: the first 4 and last 2 characters
	Number         *string `json:"number"` // masked likewise
}

// FindingJSON is one thing the assessment noticed, in Spanish.
type FindingJSON struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// RegistryResultJSON is one field of one registry's answer.
type RegistryResultJSON struct {
	Registry string `json:"registry"`
	Field    string `json:"field"`
	Result   string `json:"result" enum:"match,partial_match,no_match,not_available"`
}

// BiometricScoresJSON are the check's scores (null: the provider gave none).
type BiometricScoresJSON struct {
	FaceMatch *float64 `json:"faceMatch"`
	Liveness  *float64 `json:"liveness"`
	Document  *float64 `json:"document"`
	Overall   *float64 `json:"overall"`
}

// IdentityCheckJSON is an approved check's identity assessment.
type IdentityCheckJSON struct {
	VerificationID int64                 `json:"verificationId"`
	UserID         int64                 `json:"userId"`
	ProfileID      string                `json:"profileId"`
	TypedName      string                `json:"typedName"`    // the profile's name (typed at registration unless a document certified it)
	DocumentName   string                `json:"documentName"` // the document's name in proper case ("" without one)
	Verdict        string                `json:"verdict" enum:"match,near,no_document,mismatch,duplicate,expired_document,under_age"`
	Document       *IdentityDocumentJSON `json:"document"`
	Age            *int                  `json:"age"`
	Findings       []FindingJSON         `json:"findings"`
	NameScore      *float64              `json:"nameScore"`
	CURPValid      *bool                 `json:"curpValid"` // null: the document gave no CURP
	Registry       []RegistryResultJSON  `json:"registry"`
	Scores         BiometricScoresJSON   `json:"scores"`
	CheckedAt      time.Time             `json:"checkedAt"`
	// Resolution is how the verdict was settled since: adopted (the person took the document's
	// name), approved / declined (a review); null while nothing settled it.
	Resolution       *string    `json:"resolution" enum:"adopted,approved,declined"`
	ResolvedAt       *time.Time `json:"resolvedAt"`
	ResolutionReason *string    `json:"resolutionReason"`
}

// IdentityReviewsResponse is the queue, oldest first.
type IdentityReviewsResponse struct {
	Reviews []IdentityCheckJSON `json:"reviews"`
}

// maskIdentifier shows an identifier's first 4 and last 2 characters: "GODE…09". Shorter ones
// show nothing but the ellipsis.
func maskIdentifier(v string) *string {
	if v == "" {
		return nil
	}
	r := []rune(v)
	m := "…"
	if len(r) > 8 {
		m = string(r[:4]) + "…" + string(r[len(r)-2:])
	}
	return &m
}

func dateJSON(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	d := t.Format(time.DateOnly)
	return &d
}

func toIdentityCheckJSON(c postgres.IdentityCheck) IdentityCheckJSON {
	a := c.Assessment
	out := IdentityCheckJSON{VerificationID: c.VerificationID, UserID: c.UserID, ProfileID: c.ProfileID,
		TypedName: c.TypedName, DocumentName: a.DocumentName, Verdict: c.Verdict, NameScore: c.NameScore,
		CURPValid: a.CURPValid, CheckedAt: c.CheckedAt, Findings: []FindingJSON{}, Registry: []RegistryResultJSON{},
		Scores:     BiometricScoresJSON{FaceMatch: c.FaceMatch, Liveness: c.Liveness, Document: c.BiometricScores.Document, Overall: c.Overall},
		Resolution: c.Resolution, ResolvedAt: c.ResolvedAt, ResolutionReason: c.ResolutionWhy}
	for _, f := range a.Findings {
		out.Findings = append(out.Findings, FindingJSON{Code: f.Code, Text: f.Text})
	}
	for _, r := range a.Registry {
		out.Registry = append(out.Registry, RegistryResultJSON{Registry: r.Registry, Field: r.Field, Result: r.Result})
	}
	if d := c.Document; d != nil {
		out.Document = &IdentityDocumentJSON{Type: d.DocumentType, IssuingCountry: d.IssuingCountry, IssuingState: d.IssuingState,
			GivenNames: d.GivenNames, FirstSurname: d.FirstSurname, SecondSurname: d.SecondSurname, FullName: d.FullName,
			BirthDate: dateJSON(d.DateOfBirth), Sex: d.Sex, Nationality: d.Nationality, IssueDate: dateJSON(d.IssueDate),
			ExpiryDate: dateJSON(d.ExpiryDate), CURP: maskIdentifier(d.PersonalNumber), Number: maskIdentifier(d.DocumentNumber)}
		if !d.DateOfBirth.IsZero() {
			age := a.Age
			out.Age = &age
		}
	}
	return out
}

func (s *Server) listIdentityReviews(c fuego.ContextNoBody) (IdentityReviewsResponse, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesIdentity...); err != nil {
		return IdentityReviewsResponse{}, err
	}
	checks, err := s.store.IdentityReviews(r.Context())
	if err != nil {
		return IdentityReviewsResponse{}, err
	}
	return IdentityReviewsResponse{Reviews: mapped(checks, toIdentityCheckJSON)}, nil
}

// IdentityReviewRequest is an administrator's decision: the reason is required to decline (10 to
// 500 characters) and optional to approve.
type IdentityReviewRequest struct {
	Reason string `json:"reason,omitempty"`
}

func (s *Server) approveIdentityReview(c fuego.ContextWithBody[IdentityReviewRequest]) (IdentityCheckJSON, error) {
	return s.resolveIdentityReview(c, true)
}

func (s *Server) declineIdentityReview(c fuego.ContextWithBody[IdentityReviewRequest]) (IdentityCheckJSON, error) {
	return s.resolveIdentityReview(c, false)
}

// reviewReason checks the reason: required to decline, 10 to 500 characters when given.
func reviewReason(raw string, required bool) (string, error) {
	reason := strings.Join(strings.Fields(raw), " ")
	n := utf8.RuneCountInString(reason)
	switch {
	case reason == "" && required:
		return "", perfilseguro.FieldError("reason", "Escribe el motivo del rechazo (se le enviará a la persona).")
	case reason == "":
		return "", nil
	case n < minReviewReason:
		return "", perfilseguro.FieldError("reason", "El motivo debe tener al menos 10 caracteres.")
	case n > maxReviewReason:
		return "", perfilseguro.FieldError("reason", "El motivo no puede exceder 500 caracteres.")
	}
	return reason, nil
}

// resolveIdentityReview approves or declines the review in {id} in one audited transaction: the
// decision, the certification (approve), the person's e-mail job and the pass builds (approve)
// commit together or not at all (Redis down: 503, nothing changed).
func (s *Server) resolveIdentityReview(c fuego.ContextWithBody[IdentityReviewRequest], approve bool) (IdentityCheckJSON, error) {
	r := c.Request()
	action := "user.identity_review.decline"
	if approve {
		action = "user.identity_review.approve"
	}
	vid, err := pathID(c, perfilseguro.FieldError("id", "Revisión no válida"))
	if err != nil {
		return IdentityCheckJSON{}, err
	}
	sess, req, err := adminRequest(s, c, guard{action: action, targetKind: "identity_review", targetID: strconv.FormatInt(vid, 10),
		roles: rolesIdentity, fresh: true})
	if err != nil {
		return IdentityCheckJSON{}, err
	}
	reason, err := reviewReason(req.Reason, !approve)
	if err != nil {
		return IdentityCheckJSON{}, err
	}
	var check postgres.IdentityCheck
	err = s.adminAction(r, sess, action, "user", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		check, _, err = s.store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid, AdminID: sess.Admin.ID, Approve: approve,
			Reason: reason, Then: func(_ *sqlx.Tx, ch postgres.IdentityCheck) error {
				task, err := jobs.NewSendIdentityReviewNoticeTask(vid)
				if err := s.enqueue(ctx, task, err); err != nil {
					return err
				}
				if !approve {
					return nil
				}
				apple, err := jobs.NewBuildApplePassTask(ch.UserID)
				if err := s.enqueue(ctx, apple, err); err != nil {
					return err
				}
				google, err := jobs.NewBuildGooglePassTask(ch.UserID)
				return s.enqueue(ctx, google, err)
			}})
		if err != nil {
			return "", nil, err
		}
		changes := map[string]postgres.Change{"verificacion": {After: vid}, "resolucion": {After: *check.Resolution}}
		if approve {
			changes["nombre"] = postgres.Change{Before: check.TypedName, After: check.Assessment.DocumentName}
		}
		if reason != "" {
			changes["motivo"] = postgres.Change{After: reason}
		}
		return strconv.FormatInt(check.UserID, 10), changes, nil
	})
	if err != nil {
		return IdentityCheckJSON{}, err
	}
	s.public.forgetUser(check.UserID) // at once here; other replicas hear it from Postgres
	s.logger.InfoContext(r.Context(), "identity review resolved", "verification_id", vid, "user_id", check.UserID,
		"approved", approve, "request_id", requestID(r.Context()))
	return toIdentityCheckJSON(check), nil
}

// LinkedProfileJSON is another profile tied to this one by the same identity document.
type LinkedProfileJSON struct {
	UserID         int64  `json:"userId"`
	ProfileID      string `json:"profileId"`
	Nombre         string `json:"nombre"`
	VerificationID int64  `json:"verificationId"` // the refused check
	// Relation: holder — the other profile holds the document this one presented; presenter —
	// the other profile presented the document this one holds.
	Relation string    `json:"relation" enum:"holder,presenter"`
	At       time.Time `json:"at"`
}

// AdminUserIdentityJSON is the identity part of the admin user view.
type AdminUserIdentityJSON struct {
	// Check: the check whose document certifies the profile, else its latest assessed check; null when none.
	Check            *IdentityCheckJSON  `json:"check"`
	NameFromDocument bool                `json:"nameFromDocument"` // the profile's name was read from that document
	Linked           []LinkedProfileJSON `json:"linked"`
}

func (s *Server) adminUserIdentity(c fuego.ContextNoBody) (AdminUserIdentityJSON, error) {
	r := c.Request()
	if _, err := s.requireRole(r, rolesIdentity...); err != nil {
		return AdminUserIdentityJSON{}, err
	}
	id, err := pathUserID(c)
	if err != nil {
		return AdminUserIdentityJSON{}, err
	}
	u, err := s.store.UserByID(r.Context(), id)
	if err != nil {
		return AdminUserIdentityJSON{}, err
	}
	ui, err := s.store.UserIdentityOf(r.Context(), id)
	if err != nil {
		return AdminUserIdentityJSON{}, err
	}
	out := AdminUserIdentityJSON{NameFromDocument: u.NameFromDocument, Linked: []LinkedProfileJSON{}}
	if ui.Check != nil {
		j := toIdentityCheckJSON(*ui.Check)
		out.Check = &j
	}
	for _, l := range ui.Linked {
		rel := "presenter"
		if l.Holder {
			rel = "holder"
		}
		out.Linked = append(out.Linked, LinkedProfileJSON{UserID: l.UserID, ProfileID: l.ProfileID, Nombre: l.Nombre,
			VerificationID: l.VerificationID, Relation: rel, At: l.At})
	}
	return out, nil
}
