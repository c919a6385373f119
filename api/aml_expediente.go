package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/expediente"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The expediente's downloads (issue 53 items 5 and 6). A person's LFPIORPI file of one operation,
// as a PDF or JSON, is read by that business's propietario or cumplimiento from the console
// (PartnerComplianceRead; desarrollador and lectura get 403, recorded as denied), and by an
// administrador acting on an authority's request (fresh passkey, the authority's name and the
// oficio's reference required). Every download is recorded in aml_file_accesses — and so in the
// file's own audit trail — in the transaction that builds the file, and in the Bitácora.

// Limits of what an authority's request names.
const (
	maxAuthority          = 200
	maxAuthorityReference = 100
	maxAccessPurpose      = 200
)

var (
	errExpedienteFormat   = perfilseguro.FieldError("format", "El formato debe ser pdf o json.")
	errExpedientePerson   = perfilseguro.FieldError("personId", "El identificador de la persona no es válido.")
	errExpedientePurpose  = perfilseguro.FieldError("purpose", "El motivo admite hasta 200 caracteres.")
	errAuthorityMissing   = perfilseguro.FieldError("authority", "Indica la autoridad que requiere el expediente (de 3 a 200 caracteres).")
	errAuthorityReference = perfilseguro.FieldError("reference", "Indica el número de oficio o la referencia del requerimiento de la autoridad (hasta 100 caracteres).")
)

// defaultConsolePurpose is the purpose recorded when the officer gives none.
const defaultConsolePurpose = "Consulta del área de cumplimiento"

// AuthorityFileRequest is an administrator's download on an authority's request.
type AuthorityFileRequest struct {
	Authority string `json:"authority" description:"La autoridad que requiere el expediente (UIF, SAT, FGR, un juzgado…)"`
	Reference string `json:"reference" description:"El número de oficio o la referencia del requerimiento"`
	Format    string `json:"format" enum:"pdf,json" description:"pdf (si se omite) o json"`
}

func (s *Server) mountAMLExpediente() {
	path := []*openapi3.ParameterRef{
		pathParam("id", "Identificador de la operación (op_…)", `^op_[0-9a-f]{24}$`),
		pathParam("personId", "Identificador de la persona en la operación (people[].id)", `^[0-9]+$`),
	}
	files := func(o *openapi3.Operation) *openapi3.Operation {
		o.Responses.Value("200").Value.Content["application/json"] = &openapi3.MediaType{Schema: openapi3.NewSchema().NewRef()}
		return o
	}
	s.handle("GET /api/socios/operations/{id}/people/{personId}/expediente", http.HandlerFunc(s.consoleExpediente),
		files(op("Consola de socios", "Descargar el expediente LFPIORPI de una persona de una operación, en PDF o JSON (propietario o cumplimiento; cada descarga queda registrada)",
			append(path, queryParam("format", "pdf (si se omite) o json", false),
				queryParam("mode", "live (producción, si se omite) o test (prueba)", false),
				queryParam("purpose", "Para qué se descarga (hasta 200 caracteres; queda en el expediente)", false)),
			binary("200", "El expediente: PDF, o JSON con format=json", "application/pdf"),
			errorAnswer("400", "Formato, modo o identificador no válido"),
			errorAnswer("401", "Sin sesión en la consola"),
			errorAnswer("403", "Tu rol no permite ver expedientes (solo propietario y cumplimiento)"),
			errorAnswer("404", "La persona no está en esa operación de tu plataforma en este modo"))))
	body := &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithJSONSchemaRef(schemaOf(AuthorityFileRequest{}))}
	admin := files(op("Administración", "Descargar un expediente LFPIORPI a petición de una autoridad (administrador, confirmación reciente con llave; queda en la bitácora y en el expediente)",
		path,
		binary("200", "El expediente: PDF, o JSON con format=json", "application/pdf"),
		errorAnswer("400", "Falta la autoridad o la referencia de su requerimiento"),
		errorAnswer("401", "Sin sesión de administrador"),
		errorAnswer("403", "Rol no permitido o falta la confirmación reciente con llave"),
		errorAnswer("404", "La persona no está en esa operación")))
	admin.RequestBody = body
	s.handle("POST /api/admin/aml/operations/{id}/people/{personId}/expediente", http.HandlerFunc(s.authorityExpediente), admin)
}

// expedientePath reads {id} and {personId}.
func expedientePath(r *http.Request) (string, int64, error) {
	id := r.PathValue("id")
	if !operationIDPattern.MatchString(id) {
		return "", 0, errBadOperationID
	}
	person, err := strconv.ParseInt(r.PathValue("personId"), 10, 64)
	if err != nil || person <= 0 {
		return "", 0, errExpedientePerson
	}
	return id, person, nil
}

func expedienteFormat(v string) (string, error) {
	switch v {
	case "", "pdf":
		return "pdf", nil
	case "json":
		return "json", nil
	}
	return "", errExpedienteFormat
}

func (s *Server) consoleExpediente(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	const action = "partner_console.aml_file.download"
	target := r.PathValue("id") + "/" + r.PathValue("personId")
	sess, err := s.requirePartner(r, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: action,
		targetKind: "aml_file", targetID: target})
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	opID, personID, err := expedientePath(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	format, err := expedienteFormat(q.Get("format"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		writeError(w, r, err)
		return
	}
	purpose := strings.TrimSpace(q.Get("purpose"))
	if utf8.RuneCountInString(purpose) > maxAccessPurpose || strings.ContainsFunc(purpose, isControl) {
		writeError(w, r, errExpedientePurpose)
		return
	}
	if purpose == "" {
		purpose = defaultConsolePurpose
	}
	person, err := s.store.AMLFilePersonOf(r.Context(), sess.PartnerID, mode == "test", opID, personID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	u := sess.PartnerUser
	var out []byte
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		out, err = s.downloadFile(ctx, person, format, postgres.AMLFileAccess{ActorKind: "partner_user", ActorID: u.ID,
			ActorLabel: u.Label() + " (" + sess.Role + ")", Purpose: purpose})
		e := s.partnerEvent(r, sess, action)
		e.TargetKind, e.TargetID = "aml_file", target
		e.Changes = map[string]postgres.Change{"formato": {After: format}, "motivo": {After: purpose}}
		return e, err
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeFile(w, person, format, out)
}

func (s *Server) authorityExpediente(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	const action = "aml_file.authority_download"
	target := r.PathValue("id") + "/" + r.PathValue("personId")
	sess, err := s.authorize(r, guard{action: action, targetKind: "aml_file", targetID: target, roles: rolesManage, fresh: true})
	if err != nil {
		writeError(w, r, err)
		return
	}
	opID, personID, err := expedientePath(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	req, err := decodeJSON[AuthorityFileRequest](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	authority, reference := strings.TrimSpace(req.Authority), strings.TrimSpace(req.Reference)
	if n := utf8.RuneCountInString(authority); n < 3 || n > maxAuthority || strings.ContainsFunc(authority, isControl) {
		writeError(w, r, errAuthorityMissing)
		return
	}
	if n := utf8.RuneCountInString(reference); n < 1 || n > maxAuthorityReference || strings.ContainsFunc(reference, isControl) {
		writeError(w, r, errAuthorityReference)
		return
	}
	format, err := expedienteFormat(req.Format)
	if err != nil {
		writeError(w, r, err)
		return
	}
	person, err := s.store.AMLFilePersonByID(r.Context(), opID, personID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var out []byte
	err = s.adminAction(r, sess, action, "aml_file", func(ctx context.Context) (string, map[string]postgres.Change, error) {
		var err error
		out, err = s.downloadFile(ctx, person, format, postgres.AMLFileAccess{ActorKind: "admin", ActorID: sess.Admin.ID,
			ActorLabel: sess.Admin.Label() + " (administración de Perfil Seguro)", Authority: authority, AuthorityReference: reference,
			Purpose: "Requerimiento de " + authority + ", oficio " + reference})
		return target, map[string]postgres.Change{"autoridad": {After: authority}, "oficio": {After: reference},
			"formato": {After: format}, "plataforma": {After: person.PartnerID}}, err
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeFile(w, person, format, out)
}

// downloadFile records the access and builds the file in ctx's transaction, so the copy handed
// out lists its own download, and a file that cannot be built leaves no access behind.
func (s *Server) downloadFile(ctx context.Context, p postgres.AMLFilePerson, format string, a postgres.AMLFileAccess) ([]byte, error) {
	now := s.now()
	a.PersonID, a.Format, a.At = p.ID, format, now
	if err := s.store.RecordAMLFileAccess(ctx, a); err != nil {
		return nil, err
	}
	f, err := s.store.AMLFile(ctx, p, now)
	if err != nil {
		return nil, err
	}
	if format == "json" {
		return expediente.JSON(f)
	}
	return expediente.PDF(f)
}

func writeFile(w http.ResponseWriter, p postgres.AMLFilePerson, format string, body []byte) {
	name := fmt.Sprintf("expediente-%s-persona-%d.%s", p.OperationID, p.ID, format)
	w.Header().Set("Content-Type", map[string]string{"pdf": "application/pdf", "json": "application/json"}[format])
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Write(body)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
