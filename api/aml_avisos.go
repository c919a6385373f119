package api

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/go-fuego/fuego/param"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/amlaviso"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Avisos (issue 53 item 4): what a business owes the SAT — a threshold aviso per operation that
// reaches the aviso threshold (by the 17th of the next month), a suspicious-operation aviso 24
// hours after a confirmed blocking hit, and the monthly no-operations report — listed after
// syncing (postgres.SyncAMLAvisos), exported as the CSV docs/aml-avisos.md describes
// (package amlaviso) and marked as filed with the SAT's acknowledgement number, once (409 after).
// The partner API (secret key) and the console (propietario and cumplimiento; the other roles
// get 403, recorded) do the same; a test key or the console's test mode sees test avisos only.

// maxAvisos bounds one listing.
const maxAvisos = 500

var (
	errAvisoID    = perfilseguro.FieldError("id", "El identificador del aviso no es válido.")
	errAvisoFolio = perfilseguro.FieldError("acknowledgement",
		"Escribe el folio del acuse del SAT: de 1 a 60 letras, números, guiones o diagonales.")
	avisoFolioPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9/_.-]{0,59}$`)
)

var avisoKindText = map[string]string{
	"umbral":          "Aviso por umbral",
	"sospechosa":      "Aviso de operación sospechosa (24 horas)",
	"sin_operaciones": "Informe de mes sin operaciones objeto de aviso",
}

// AvisoOperation is the operation an aviso reports.
type AvisoOperation struct {
	ID                string `json:"id"`
	Kind              string `json:"kind" enum:"compraventa,intermediacion,desarrollo,arrendamiento"`
	Amount            string `json:"amount" description:"Monto en pesos (mensual en arrendamiento)"`
	Date              string `json:"date" description:"Fecha de la operación (AAAA-MM-DD)"`
	PropertyReference string `json:"propertyReference"`
}

// AvisoView is an aviso as the business reads it.
type AvisoView struct {
	ID        string          `json:"id" description:"Identificador del aviso (numérico, como texto)"`
	Livemode  bool            `json:"livemode"`
	Kind      string          `json:"kind" enum:"umbral,sospechosa,sin_operaciones" description:"umbral: la operación alcanza el umbral de aviso; sospechosa: coincidencia confirmada en una lista (24 horas); sin_operaciones: informe de un mes sin operaciones objeto de aviso"`
	KindText  string          `json:"kindText" description:"El tipo en palabras"`
	Operation *AvisoOperation `json:"operation,omitempty" description:"La operación que se avisa (no en sin_operaciones)"`
	Period    string          `json:"period,omitempty" description:"El mes que se informa (AAAA-MM)"`
	Alert     string          `json:"alert,omitempty" description:"En sospechosa: la lista y el nombre de la coincidencia confirmada"`
	DueAt     time.Time       `json:"dueAt" description:"Fecha límite (el día 17 del mes siguiente a las 23:59:59 de la Ciudad de México, o 24 horas después de la confirmación)"`
	State     string          `json:"state" enum:"pendiente,vencido,presentado" description:"pendiente, vencido (pasó la fecha límite sin presentarse) o presentado"`
	FiledAt   *time.Time      `json:"filedAt,omitempty"`
	// Acknowledgement is the SAT's folio.
	Acknowledgement string `json:"acknowledgement,omitempty" description:"El folio del acuse del SAT"`
	FiledBy         string `json:"filedBy,omitempty" description:"Quién lo marcó como presentado"`
}

// AvisoList is a business's avisos in one mode: pending ones first by deadline, then the filed.
type AvisoList struct {
	Data []AvisoView `json:"data"`
}

// ConsoleAvisoList is AvisoList for the console, with its mode.
type ConsoleAvisoList struct {
	Mode string      `json:"mode" enum:"live,test"`
	Data []AvisoView `json:"data"`
}

// AvisoFiling marks an aviso as filed.
type AvisoFiling struct {
	Acknowledgement string `json:"acknowledgement" description:"El folio del acuse que dio el portal del SAT (1 a 60 letras, números, guiones o diagonales)"`
}

func (s *Server) mountAMLAvisos() {
	tag := option.Tags("Socios")
	unauthorized := option.AddError(401, "Llave secreta no válida, revocada o de otro modo", ErrorBody{})
	fuego.Get(s.f, "/api/partner/v1/avisos", s.listAvisos, tag, unauthorized,
		option.Summary("Listar los avisos LFPIORPI que debe presentar tu negocio (llave secreta)"),
		option.Description("Avisos por umbral (día 17 del mes siguiente a la operación), de operación sospechosa (24 horas desde la "+
			"confirmación de una coincidencia) e informes de meses sin operaciones objeto de aviso, con su fecha límite y estado. "+
			"Una llave sk_test_ ve solo los de sus operaciones de prueba."))
	fuego.Post(s.f, "/api/partner/v1/avisos/{id}/filing", s.fileAviso, tag, unauthorized,
		option.Summary("Marcar un aviso como presentado ante el SAT, con el folio del acuse"),
		option.Path("id", "Identificador del aviso", param.Required()),
		option.AddError(404, "El aviso no existe para esta llave", ErrorBody{}),
		option.AddError(409, "El aviso ya está marcado como presentado", ErrorBody{}))
	s.handle("GET /api/partner/v1/avisos/{id}/export", http.HandlerFunc(s.exportAviso),
		op("Socios", "Descargar un aviso como CSV con los campos del aviso del SAT (llave secreta)",
			[]*openapi3.ParameterRef{pathParam("id", "Identificador del aviso", `^[0-9]+$`),
				headerParam("Authorization", "Bearer sk_live_… o sk_test_…", true)},
			text("200", "El aviso en CSV (UTF-8): una fila por persona; columnas en docs/aml-avisos.md", "text/csv"),
			errorAnswer("400", "Identificador no válido"),
			errorAnswer("401", "Llave secreta no válida, revocada o de otro modo"),
			errorAnswer("404", "El aviso no existe para esta llave")))

	mode := option.Query("mode", "live (producción, si se omite) o test (prueba)")
	fuego.Get(s.f, "/api/socios/avisos", s.consoleAvisos, consoleTag, mode,
		option.Summary("Avisos LFPIORPI de tu plataforma en un modo (propietario o cumplimiento)"),
		option.AddError(403, "Tu rol no permite ver avisos (solo propietario y cumplimiento)", ErrorBody{}))
	fuego.Post(s.f, "/api/socios/avisos/{id}/filing", s.consoleFileAviso, consoleTag, mode,
		option.Path("id", "Identificador del aviso", param.Required()),
		option.Summary("Marcar un aviso como presentado, con el folio del acuse del SAT (propietario o cumplimiento)"),
		option.AddError(403, "Tu rol no permite presentar avisos (solo propietario y cumplimiento)", ErrorBody{}),
		option.AddError(404, "El aviso no existe en este modo", ErrorBody{}),
		option.AddError(409, "El aviso ya está marcado como presentado", ErrorBody{}))
	s.handle("GET /api/socios/avisos/{id}/export", http.HandlerFunc(s.consoleExportAviso),
		op("Consola de socios", "Descargar un aviso como CSV con los campos del aviso del SAT (propietario o cumplimiento; queda registrado)",
			[]*openapi3.ParameterRef{pathParam("id", "Identificador del aviso", `^[0-9]+$`),
				queryParam("mode", "live (producción, si se omite) o test (prueba)", false)},
			text("200", "El aviso en CSV (UTF-8): una fila por persona; columnas en docs/aml-avisos.md", "text/csv"),
			errorAnswer("400", "Identificador o modo no válido"),
			errorAnswer("401", "Sin sesión en la consola"),
			errorAnswer("403", "Tu rol no permite ver avisos (solo propietario y cumplimiento)"),
			errorAnswer("404", "El aviso no existe en este modo")))
}

// avisoID reads a positive numeric aviso id.
func avisoID(v string) (int64, error) {
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, errAvisoID
	}
	return id, nil
}

// avisoFolio checks the SAT's acknowledgement number.
func avisoFolio(v string) (string, error) {
	v = strings.TrimSpace(v)
	if !avisoFolioPattern.MatchString(v) {
		return "", errAvisoFolio
	}
	return v, nil
}

// syncedAvisos brings a partner's avisos in a mode up to date and lists them.
func (s *Server) syncedAvisos(ctx context.Context, partnerID int64, testMode bool) ([]AvisoView, error) {
	tables, err := s.store.AMLTables(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if _, err := s.store.SyncAMLAvisos(ctx, partnerID, testMode, tables, now); err != nil {
		return nil, err
	}
	rows, err := s.store.AMLAvisos(ctx, partnerID, testMode, maxAvisos)
	if err != nil {
		return nil, err
	}
	out := make([]AvisoView, len(rows))
	for i, a := range rows {
		out[i] = avisoView(a, now)
	}
	return out, nil
}

func avisoView(a postgres.AMLAviso, now time.Time) AvisoView {
	v := AvisoView{ID: strconv.FormatInt(a.ID, 10), Livemode: !a.TestMode, Kind: a.Kind, KindText: avisoKindText[a.Kind],
		DueAt: a.DueAt, State: "pendiente", FiledAt: a.FiledAt}
	if a.Period != nil {
		v.Period = a.Period.Format("2006-01")
	}
	if a.OperationID != nil && a.OperationKind != nil {
		v.Operation = &AvisoOperation{ID: *a.OperationID, Kind: *a.OperationKind, Amount: aml.Centavos(*a.OperationAmount).String(),
			Date: a.OperationDate.Format(time.DateOnly), PropertyReference: *a.PropertyReference}
	}
	if a.HitListName != nil {
		v.Alert = "Coincidencia confirmada con «" + deref(a.HitMatchedName) + "» en " + *a.HitListName
	}
	switch {
	case a.FiledAt != nil:
		v.State, v.Acknowledgement, v.FiledBy = "presentado", deref(a.Acknowledgement), deref(a.FiledByLabel)
	case now.After(a.DueAt):
		v.State = "vencido"
	}
	return v
}

// avisoCSV builds an aviso's export: the operation and its people as the file kept them.
func (s *Server) avisoCSV(ctx context.Context, a postgres.AMLAviso) ([]byte, error) {
	out := amlaviso.Aviso{Reference: "PS-AVISO-" + strconv.FormatInt(a.ID, 10), Kind: a.Kind, DueAt: a.DueAt.In(aml.MexicoCity),
		FiledFolio: deref(a.Acknowledgement)}
	if a.Period != nil {
		out.Period = *a.Period
	}
	if a.HitListName != nil {
		out.AlertText = "Coincidencia confirmada con " + deref(a.HitMatchedName) + " en " + *a.HitListName
	}
	if a.OperationID != nil {
		op, err := s.store.AMLOperation(ctx, a.PartnerID, a.TestMode, *a.OperationID)
		if err != nil {
			return nil, err
		}
		out.Operation = &amlaviso.Operation{ID: op.ID, Kind: string(op.Kind), KindText: op.Kind.Text(), Date: op.OperationDate,
			BusinessRole: op.BusinessRole, Reference: op.PropertyReference, Amount: op.Amount.String(), Cash: op.Cash.String()}
		people, err := s.store.AMLAvisoPeople(ctx, op)
		if err != nil {
			return nil, err
		}
		for _, p := range people {
			out.People = append(out.People, avisoPerson(p))
		}
	}
	return amlaviso.CSV(out)
}

func avisoPerson(p postgres.AvisoPerson) amlaviso.Person {
	out := amlaviso.Person{Role: p.Role}
	if id := p.Identity; id != nil {
		out.FullName = id.Name
		if d := id.Document; d != nil {
			out.GivenNames, out.FirstSurname, out.SecondName = d.GivenNames, d.FirstSurname, d.SecondSurname
			if d.FullName != "" && d.GivenNames == "" {
				out.FullName = d.FullName
			}
			out.BirthDate, out.CURP, out.Nationality = d.DateOfBirth, d.PersonalNumber, d.Nationality
		}
	}
	if d := p.Declaration; d != nil {
		out.Declared = true
		out.RFC, out.Occupation, out.Address = d.RFC, d.Occupation, d.Address
		if out.Nationality == "" {
			out.Nationality = d.Nationality
		}
		out.ForBeneficiary, out.PEP, out.PEPPosition = d.ForBeneficiary, d.PEP, d.PEPPosition
		if b := d.Beneficiary; b != nil {
			out.BeneficiaryName, out.BeneficiaryID, out.BeneficiaryRelationship = b.Name, b.CURPOrRFC, b.Relationship
			if !b.BirthDate.IsZero() {
				out.BeneficiaryBirth = time.Date(b.BirthDate.Year, b.BirthDate.Month, b.BirthDate.Day, 0, 0, 0, 0, time.UTC)
			}
		}
	}
	return out
}

func writeAvisoCSV(w http.ResponseWriter, id int64, body []byte) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="aviso-%d.csv"`, id))
	w.Write(body)
}

// Partner API.

func (s *Server) listAvisos(c fuego.ContextNoBody) (AvisoList, error) {
	r := c.Request()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return AvisoList{}, err
	}
	data, err := s.syncedAvisos(r.Context(), kp.Partner.ID, !kp.Key.Livemode)
	return AvisoList{Data: data}, err
}

func (s *Server) exportAviso(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	kp, err := s.requireSecretKey(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := avisoID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	a, err := s.store.AMLAviso(r.Context(), kp.Partner.ID, !kp.Key.Livemode, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	body, err := s.avisoCSV(r.Context(), a)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeAvisoCSV(w, id, body)
}

func (s *Server) fileAviso(c fuego.ContextWithBody[AvisoFiling]) (AvisoView, error) {
	r := c.Request()
	kp, err := s.requireSecretKey(r)
	if err != nil {
		return AvisoView{}, err
	}
	id, err := avisoID(c.PathParam("id"))
	if err != nil {
		return AvisoView{}, err
	}
	req, err := decodeJSON[AvisoFiling](r)
	if err != nil {
		return AvisoView{}, err
	}
	folio, err := avisoFolio(req.Acknowledgement)
	if err != nil {
		return AvisoView{}, err
	}
	label := "llave " + kp.Key.Hint
	var a postgres.AMLAviso
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		a, err = s.store.FileAMLAviso(ctx, kp.Partner.ID, !kp.Key.Livemode, id, folio, label, s.now())
		partner := kp.Partner.ID
		return postgres.AuditEvent{ActorKind: postgres.ActorSystem, ActorID: &partner, ActorLabel: label,
			Action: "partner_api.aviso.file", TargetKind: "aml_aviso", TargetID: strconv.FormatInt(id, 10),
			Outcome: postgres.OutcomeOK, Changes: map[string]postgres.Change{"folio": {After: folio}}}, err
	})
	if err != nil {
		return AvisoView{}, err
	}
	return avisoView(a, s.now()), nil
}

// Console.

func (s *Server) consoleAvisos(c fuego.ContextNoBody) (ConsoleAvisoList, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.aviso.list",
		targetKind: "aml_aviso"})
	if err != nil {
		return ConsoleAvisoList{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return ConsoleAvisoList{}, err
	}
	data, err := s.syncedAvisos(r.Context(), sess.PartnerID, mode == "test")
	return ConsoleAvisoList{Mode: mode, Data: data}, err
}

func (s *Server) consoleExportAviso(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	const action = "partner_console.aviso.export"
	sess, err := s.requirePartner(r, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: action,
		targetKind: "aml_aviso", targetID: r.PathValue("id")})
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := avisoID(r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		writeError(w, r, err)
		return
	}
	var body []byte
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		a, err := s.store.AMLAviso(ctx, sess.PartnerID, mode == "test", id)
		if err == nil {
			body, err = s.avisoCSV(ctx, a)
		}
		e := s.partnerEvent(r, sess, action)
		e.TargetKind, e.TargetID = "aml_aviso", strconv.FormatInt(id, 10)
		return e, err
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeAvisoCSV(w, id, body)
}

func (s *Server) consoleFileAviso(c fuego.ContextWithBody[AvisoFiling]) (AvisoView, error) {
	r := c.Request()
	const action = "partner_console.aviso.file"
	sess, req, err := consoleRequest(s, c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: action,
		targetKind: "aml_aviso", targetID: c.PathParam("id")})
	if err != nil {
		return AvisoView{}, err
	}
	id, err := avisoID(c.PathParam("id"))
	if err != nil {
		return AvisoView{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return AvisoView{}, err
	}
	folio, err := avisoFolio(req.Acknowledgement)
	if err != nil {
		return AvisoView{}, err
	}
	var a postgres.AMLAviso
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		a, err = s.store.FileAMLAviso(ctx, sess.PartnerID, mode == "test", id, folio, sess.Email, s.now())
		e := s.partnerEvent(r, sess, action)
		e.TargetKind, e.TargetID = "aml_aviso", strconv.FormatInt(id, 10)
		e.Changes = map[string]postgres.Change{"folio": {After: folio}, "livemode": {After: mode == "live"}}
		return e, err
	})
	if err != nil {
		return AvisoView{}, err
	}
	return avisoView(a, s.now()), nil
}
