package api

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/screening"
)

// The console's Listas (issue 53 item 3): propietario and cumplimiento upload the lists their
// business receives (the UIF's Lista de Personas Bloqueadas, CSV or XLSX) — first a preview of
// the header to map its columns, then the import — and see every version. A list is imported whole
// or not at all (screening.ImportUpload); a new version re-screens every file still within its
// retention (jobs.NewAMLRescreenTask), queued in the import's transaction so that Redis down
// leaves nothing imported (503). A test-mode upload is a test list: only test operations are
// screened against it.

// maxListUploadBytes bounds an uploaded list (the request's body, multipart included); the UIF's
// list as a spreadsheet is well under a megabyte.
const maxListUploadBytes = 10 << 20

// ListUploadForm is the multipart form of an upload (documentation only: the handler reads the
// form itself).
type ListUploadForm struct {
	File             string `json:"file" format:"binary" description:"El archivo CSV o XLSX (hasta 10 MB)"`
	Name             string `json:"name" description:"Nombre de la lista (1 a 200 caracteres); con el mismo nombre, una nueva versión"`
	NameColumn       string `json:"nameColumn,omitempty" description:"Columna con el nombre completo"`
	GivenNamesColumn string `json:"givenNamesColumn,omitempty" description:"Columna con los nombres (si la lista los separa)"`
	SurnamesColumn   string `json:"surnamesColumn,omitempty" description:"Columna con los apellidos (si la lista los separa)"`
	BirthDateColumn  string `json:"birthDateColumn,omitempty" description:"Columna con la fecha de nacimiento (dd/mm/aaaa, aaaa-mm-dd o el año)"`
	AliasesColumn    string `json:"aliasesColumn,omitempty" description:"Columna con otros nombres, separados por | o ;"`
	IdentifierColumn string `json:"identifierColumn,omitempty" description:"Columna con el RFC o la CURP"`
	ReferenceColumn  string `json:"referenceColumn,omitempty" description:"Columna con el folio o la referencia de la lista"`
}

// ListPreviewForm is the multipart form of a preview.
type ListPreviewForm struct {
	File string `json:"file" format:"binary" description:"El archivo CSV o XLSX (hasta 10 MB)"`
}

// ColumnMappingView says which column holds what (empty: none).
type ColumnMappingView struct {
	NameColumn       string `json:"nameColumn"`
	GivenNamesColumn string `json:"givenNamesColumn"`
	SurnamesColumn   string `json:"surnamesColumn"`
	BirthDateColumn  string `json:"birthDateColumn"`
	AliasesColumn    string `json:"aliasesColumn"`
	IdentifierColumn string `json:"identifierColumn"`
	ReferenceColumn  string `json:"referenceColumn"`
}

// ListPreview is the header of an uploaded file, a few rows and a guessed mapping.
type ListPreview struct {
	FileName  string            `json:"fileName"`
	Columns   []string          `json:"columns" description:"Los encabezados de la primera fila"`
	Sample    [][]string        `json:"sample" description:"Hasta 5 filas debajo del encabezado"`
	Suggested ColumnMappingView `json:"suggested" description:"Una propuesta de qué columna tiene qué; confírmala o cámbiala"`
}

// ListUploadResult is what an upload did.
type ListUploadResult struct {
	ListID  int64  `json:"listId"`
	Name    string `json:"name"`
	Version int    `json:"version"`
	// Created is false when the file was identical to the latest version (nothing was added).
	Created        bool   `json:"created" description:"false: el archivo es idéntico a la última versión y no se agregó nada"`
	Entries        int    `json:"entries"`
	SHA256         string `json:"sha256"`
	RescreenQueued bool   `json:"rescreenQueued" description:"Se volverán a consultar los expedientes vigentes contra la nueva versión"`
}

// ScreeningListVersionView is one stored version of a list.
type ScreeningListVersionView struct {
	Version    int       `json:"version"`
	ImportedAt time.Time `json:"importedAt"`
	FileName   string    `json:"fileName" description:"El archivo (o la fuente) de la que se leyó"`
	SHA256     string    `json:"sha256"`
	Entries    int       `json:"entries"`
}

// ScreeningListView is a list the business's people are screened against.
type ScreeningListView struct {
	ID       int64                      `json:"id"`
	Name     string                     `json:"name"`
	Kind     string                     `json:"kind" enum:"un,uif_upload"`
	Public   bool                       `json:"public" description:"La lista consolidada de la ONU, que importa Perfil Seguro"`
	Versions []ScreeningListVersionView `json:"versions" description:"De la más reciente a la más antigua"`
}

// ScreeningLists are the lists of one mode.
type ScreeningLists struct {
	Mode string              `json:"mode" enum:"live,test"`
	Data []ScreeningListView `json:"data"`
}

var (
	errListNotMultipart = perfilseguro.FieldError("file", "Envía el archivo como formulario multipart/form-data, en el campo file.")
	errListNoFile       = perfilseguro.FieldError("file", "Adjunta el archivo de la lista (CSV o XLSX).")
	errListName         = perfilseguro.FieldError("name", "El nombre de la lista debe tener de 1 a 200 caracteres.")
	errListTooLarge     = httpError(http.StatusRequestEntityTooLarge, "El archivo es demasiado grande: el máximo es 10 MB.")
)

func (s *Server) mountPartnerConsoleLists() {
	mode := option.Query("mode", "live (producción, si se omite) o test (prueba)")
	role := option.AddError(403, "Tu rol no permite administrar listas (solo propietario y cumplimiento)", ErrorBody{})
	large := option.AddError(413, "El archivo pasa de 10 MB", ErrorBody{})
	fuego.Get(s.f, "/api/socios/screening-lists", s.consoleScreeningLists, consoleTag, mode, role,
		option.Summary("Las listas contra las que se consulta a tus clientes, con cada versión (propietario o cumplimiento)"))
	fuego.Post(s.f, "/api/socios/screening-lists/preview", s.consolePreviewList, consoleTag, mode, role, large,
		option.RequestBody(fuego.RequestBody{Type: ListPreviewForm{}, ContentTypes: []string{"multipart/form-data"}}),
		option.Summary("Leer el encabezado de una lista (CSV o XLSX) para elegir qué columna tiene qué; no importa nada"))
	fuego.Post(s.f, "/api/socios/screening-lists", s.consoleUploadList, consoleTag, mode, role, large,
		option.RequestBody(fuego.RequestBody{Type: ListUploadForm{}, ContentTypes: []string{"multipart/form-data"}}),
		option.DefaultStatusCode(http.StatusCreated),
		option.AddResponse(http.StatusOK, "El archivo es idéntico a la última versión: no se agregó nada",
			fuego.Response{Type: ListUploadResult{}, ContentTypes: []string{"application/json"}}),
		option.AddError(503, "No se pudo programar la nueva consulta de expedientes; no se importó nada", ErrorBody{}),
		option.Summary("Subir una lista (la Lista de Personas Bloqueadas de la UIF como la recibes, CSV o XLSX) con sus columnas; un archivo mal formado no importa nada"))
}

func (s *Server) consoleScreeningLists(c fuego.ContextNoBody) (ScreeningLists, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.screening_list.read",
		targetKind: "screening_list"})
	if err != nil {
		return ScreeningLists{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return ScreeningLists{}, err
	}
	lists, err := s.store.PartnerScreeningLists(r.Context(), sess.PartnerID, mode == "test")
	if err != nil {
		return ScreeningLists{}, err
	}
	out := ScreeningLists{Mode: mode, Data: []ScreeningListView{}}
	for _, l := range lists {
		v := ScreeningListView{ID: l.ID, Name: l.Name, Kind: l.Kind, Public: l.Public, Versions: []ScreeningListVersionView{}}
		for _, ver := range l.Versions {
			v.Versions = append(v.Versions, ScreeningListVersionView{Version: ver.Version, ImportedAt: ver.ImportedAt,
				FileName: ver.Source, SHA256: ver.SHA256, Entries: ver.Entries})
		}
		out.Data = append(out.Data, v)
	}
	return out, nil
}

func (s *Server) consolePreviewList(c fuego.ContextNoBody) (ListPreview, error) {
	r := c.Request()
	if _, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.screening_list.upload",
		targetKind: "screening_list"}); err != nil {
		return ListPreview{}, err
	}
	if _, err := consoleMode(r, "live"); err != nil {
		return ListPreview{}, err
	}
	data, name, err := uploadedList(r)
	if err != nil {
		return ListPreview{}, err
	}
	p, err := screening.PreviewUpload(data, name)
	if err != nil {
		return ListPreview{}, listRefused(err)
	}
	return ListPreview{FileName: name, Columns: p.Columns, Sample: p.Sample, Suggested: mappingView(p.Suggested)}, nil
}

func (s *Server) consoleUploadList(c fuego.ContextNoBody) (ListUploadResult, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerComplianceRead, audit: "partner_console.screening_list.upload",
		targetKind: "screening_list"})
	if err != nil {
		return ListUploadResult{}, err
	}
	mode, err := consoleMode(r, "live")
	if err != nil {
		return ListUploadResult{}, err
	}
	data, fileName, err := uploadedList(r)
	if err != nil {
		return ListUploadResult{}, err
	}
	listName := strings.Join(strings.Fields(r.FormValue("name")), " ")
	if n := utf8.RuneCountInString(listName); n < 1 || n > 200 {
		return ListUploadResult{}, errListName
	}
	m := screening.ColumnMapping{Name: r.FormValue("nameColumn"), GivenNames: r.FormValue("givenNamesColumn"),
		Surnames: r.FormValue("surnamesColumn"), BirthDate: r.FormValue("birthDateColumn"), Aliases: r.FormValue("aliasesColumn"),
		Identifier: r.FormValue("identifierColumn"), Reference: r.FormValue("referenceColumn")}
	// Read before the transaction: a malformed file is refused without touching the database.
	l, err := screening.ReadUpload(data, fileName, listName, m)
	if err != nil {
		return ListUploadResult{}, listRefused(err)
	}
	var res screening.ImportResult
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		res, err = s.store.ImportScreeningList(ctx, sess.PartnerID, mode == "test", l)
		e := s.partnerEvent(r, sess, "partner_console.screening_list.upload")
		e.TargetKind, e.TargetID = "screening_list", strconv.FormatInt(res.ListID, 10)
		e.Changes = map[string]postgres.Change{"name": {After: listName}, "version": {After: strconv.Itoa(res.Version)},
			"file": {After: l.Source}, "sha256": {After: res.SHA256}, "entries": {After: strconv.Itoa(res.Entries)},
			"livemode": {After: mode == "live"}}
		if err != nil || !res.Created {
			return e, err
		}
		// In the transaction: if Redis cannot take the re-screen, nothing is imported.
		task, err := jobs.NewAMLRescreenTask(jobs.AMLRescreenReason(res.VersionID))
		if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
			return e, unavailable(err)
		}
		return e, nil
	})
	if err != nil {
		return ListUploadResult{}, err
	}
	if res.Created {
		setStatus(c, http.StatusCreated)
	} else {
		setStatus(c, http.StatusOK)
	}
	return ListUploadResult{ListID: res.ListID, Name: listName, Version: res.Version, Created: res.Created, Entries: res.Entries,
		SHA256: res.SHA256, RescreenQueued: res.Created}, nil
}

// uploadedList reads the multipart form's file (field "file") and its base name.
func uploadedList(r *http.Request) ([]byte, string, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		return nil, "", errListNotMultipart
	}
	if err := r.ParseMultipartForm(maxListUploadBytes); err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, "", errListTooLarge
		}
		return nil, "", errListNotMultipart
	}
	f, h, err := r.FormFile("file")
	if err != nil {
		return nil, "", errListNoFile
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxListUploadBytes+1))
	if err != nil {
		return nil, "", errListNotMultipart
	}
	if len(data) > maxListUploadBytes {
		return nil, "", errListTooLarge
	}
	if len(data) == 0 {
		return nil, "", errListNoFile
	}
	name := filepath.Base(strings.ReplaceAll(h.Filename, `\`, "/"))
	if name == "." || name == "/" {
		name = "lista"
	}
	return data, name, nil
}

// listRefused is a file screening could not read: 400 with its Spanish reason, on the file field.
func listRefused(err error) error {
	var ue *screening.UploadError
	if errors.As(err, &ue) {
		return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: "No se importó la lista: " + ue.Error() + ".",
			Fields: map[string]string{"file": ue.Error()}}
	}
	if errors.Is(err, screening.ErrEmptyList) {
		return perfilseguro.FieldError("file", "No se importó la lista: no tiene ninguna fila con nombre.")
	}
	return err
}

func mappingView(m screening.ColumnMapping) ColumnMappingView {
	return ColumnMappingView{NameColumn: m.Name, GivenNamesColumn: m.GivenNames, SurnamesColumn: m.Surnames,
		BirthDateColumn: m.BirthDate, AliasesColumn: m.Aliases, IdentifierColumn: m.Identifier, ReferenceColumn: m.Reference}
}
