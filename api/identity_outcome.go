package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 52, items 2, 4 and 5: Mi Perfil tells the person what their ID certified (the identity
// of the verification status), and a person whose registered name does not match their ID may
// take the ID's name, once, after a fresh confirmation with their code or passkey.

// IdentityFindingJSON is one thing the identity check noticed, in Spanish.
type IdentityFindingJSON struct {
	Code string `json:"code" description:"Código estable del hallazgo (p. ej. surname_differs, curp_check_digit, registry_no_match)"`
	Text string `json:"text" description:"El hallazgo en español, para mostrarlo a la persona"`
}

// IdentityOutcomeJSON is what the person's latest approved check certified; never the CURP or
// the document number.
type IdentityOutcomeJSON struct {
	Verdict      string                `json:"verdict" enum:"match,near,no_document,mismatch,duplicate,expired_document,under_age" description:"match: nivel 3 con el nombre de la identificación; near / no_document: en revisión; mismatch: la persona puede usar el nombre de su identificación; duplicate: la identificación ya certifica otro perfil; expired_document: identificación vencida; under_age: menor de 18 años"`
	DocumentName string                `json:"documentName" description:"El nombre de la identificación en mayúsculas y minúsculas (vacío si no traía nombre)"`
	Findings     []IdentityFindingJSON `json:"findings"`
	CheckedAt    time.Time             `json:"checkedAt" description:"Cuándo se aplicó la decisión de la verificación"`
	Resolution   *string               `json:"resolution" enum:"adopted,approved,declined" description:"Cómo se resolvió: adopted (la persona tomó el nombre de su identificación), approved / declined (revisión de un administrador); null mientras no se resuelve"`
}

// identityOutcome is the identity part of the verification status of userID, and whether the
// profile's name came from the document.
func (s *Server) identityOutcome(ctx context.Context, userID int64) (*IdentityOutcomeJSON, bool, error) {
	o, fromDocument, err := s.store.IdentityOutcomeOf(ctx, userID)
	if err != nil || o == nil {
		return nil, fromDocument, err
	}
	j := &IdentityOutcomeJSON{Verdict: string(o.Verdict), DocumentName: o.DocumentName, CheckedAt: o.CheckedAt,
		Findings: make([]IdentityFindingJSON, 0, len(o.Findings))}
	for _, f := range o.Findings {
		j.Findings = append(j.Findings, IdentityFindingJSON{Code: f.Code, Text: f.Text})
	}
	if o.Resolution != "" {
		j.Resolution = &o.Resolution
	}
	return j, fromDocument, nil
}

func (s *Server) mountIdentityOutcome() {
	fuego.Post(s.f, "/api/users/{id}/identity/adopt-document-name", s.adoptDocumentName, option.Tags("Verificación"),
		option.Summary("Usar el nombre de mi identificación (cuando no coincide con el de mi registro)"),
		option.Description("Solo la persona dueña del perfil, con una confirmación reciente (POST /api/users/{id}/confirmation "+
			"con el código, o /confirmation/passkey, en los últimos 5 minutos). El perfil toma el nombre de la identificación "+
			"que leyó su última verificación aprobada, recibe el nivel 3 y se emiten sus pases; queda en la bitácora."),
		option.AddError(http.StatusConflict, "No hay un nombre de identificación pendiente de confirmar, la identificación ya "+
			"está vinculada a otro perfil o la validación está revocada", ErrorBody{}))
}

// errAdoptNeedsConfirmation: adopting the document's name starts with a fresh confirmation.
var errAdoptNeedsConfirmation = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
	"Antes de usar el nombre de tu identificación, confirma que eres tú con el código que enviamos a tu contacto actual o con tu llave de acceso. La confirmación vale 5 minutos.")

// adoptDocumentName gives the signed-in person's profile the name on their ID, in one
// transaction with its audit row and the pass builds (Redis down: nothing happens, 503).
func (s *Server) adoptDocumentName(c fuego.ContextNoBody) (UserJSON, error) {
	r := c.Request()
	ctx := r.Context()
	id, err := s.ownerOf(c, "adopt-name", rectificationsPerHour)
	if err != nil {
		return UserJSON{}, err
	}
	if err := s.requireFreshConfirmation(r); errors.Is(err, errNeedsConfirmation) {
		return UserJSON{}, errAdoptNeedsConfirmation
	} else if err != nil {
		return UserJSON{}, err
	}
	before, err := s.store.UserByID(ctx, id)
	if err != nil {
		return UserJSON{}, err
	}
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		a, err := s.store.AdoptDocumentName(ctx, tx, id, s.now())
		if err != nil {
			return err
		}
		e := s.withRequest(r, postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorID: &id, ActorLabel: before.IDValidado,
			Action: "person.identity_adopt", TargetKind: "user", TargetID: strconv.FormatInt(id, 10), Outcome: postgres.OutcomeOK,
			Changes: map[string]postgres.Change{
				"nombre":       {Before: a.TypedName, After: a.DocumentName},
				"verificacion": {After: strconv.FormatInt(a.VerificationID, 10)},
			}})
		if err := postgres.AppendAudit(ctx, tx, e); err != nil {
			return err
		}
		apple, err := jobs.NewBuildApplePassTask(id)
		if err := s.enqueue(ctx, apple, err); err != nil {
			return err
		}
		google, err := jobs.NewBuildGooglePassTask(id)
		return s.enqueue(ctx, google, err)
	})
	if err != nil {
		return UserJSON{}, err
	}
	s.public.forgetUser(id) // other replicas hear it from Postgres
	after, err := s.store.UserByID(ctx, id)
	if err != nil {
		return UserJSON{}, err
	}
	return toUserJSON(after), nil
}
