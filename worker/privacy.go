package worker

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"sort"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesPrivacy() {
	w.mux.HandleFunc(jobs.TypeBuildDataExport, w.handleBuildDataExport)
	w.mux.HandleFunc(jobs.TypeApplyRetention, w.handleApplyRetention)
}

// errExportNotYetVisible asks for a retry: the API enqueues inside its transaction.
var errExportNotYetVisible = errors.New("data export row not visible yet")

// handleBuildDataExport builds the ZIP of everything held about the person, keeps it until its
// link is used or expires, and e-mails the single-use link. A retry after the archive was stored
// only sends the e-mail; an export that can never be built is marked failed (nothing kept, and
// the person may ask again the same day).
func (w *Worker) handleBuildDataExport(ctx context.Context, t *asynq.Task) error {
	var p jobs.BuildDataExportPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.ExportID <= 0 {
		return fmt.Errorf("data export payload: %w", asynq.SkipRetry)
	}
	store := postgres.Store{DB: w.deps.DB}
	exp, err := store.DataExportByID(ctx, p.ExportID)
	if err != nil {
		return err
	}
	if exp == nil {
		return errExportNotYetVisible
	}
	now := w.now()
	if exp.Status != postgres.ExportQueued && exp.Status != postgres.ExportReady || !now.Before(exp.ExpiresAt) {
		return nil // downloaded, expired or failed: nothing left to do
	}
	fail := func(err error) error {
		if lastAttempt(ctx) || errors.Is(err, asynq.SkipRetry) {
			if ferr := store.FailExport(context.WithoutCancel(ctx), exp.ID); ferr != nil {
				w.deps.Logger.ErrorContext(ctx, "mark data export failed", "export_id", exp.ID, "error", ferr)
			}
		}
		return err
	}
	u, err := store.UserByID(ctx, exp.UserID)
	if err != nil {
		return fail(err)
	}
	if u.Email == nil || *u.Email == "" {
		return fail(fmt.Errorf("user %d has no e-mail: %w", u.ID, asynq.SkipRetry))
	}
	if exp.Status == postgres.ExportQueued {
		data, err := store.PersonalData(ctx, u.ID)
		if err != nil {
			return fail(err)
		}
		archive, err := BuildExportArchive(data, now)
		if err != nil {
			return fail(fmt.Errorf("build export %d: %v: %w", exp.ID, err, asynq.SkipRetry))
		}
		sum := sha256.Sum256(archive)
		if err := store.StoreExportArchive(ctx, exp.ID, archive, hex.EncodeToString(sum[:]), now); err != nil {
			return fail(err)
		}
	}
	if exp.NotifiedAt != nil || exp.SealedToken == nil {
		return nil
	}
	token, err := w.deps.Sealer.Open(*exp.SealedToken)
	if err != nil {
		return fail(fmt.Errorf("export token %d: %v: %w", exp.ID, err, asynq.SkipRetry))
	}
	msg := exportReadyEmail(*u.Email, u.Nombre, DataExportLink(w.deps.PublicBaseURL, token), exp.ExpiresAt)
	if err := w.sendersFor(u.Mode()).email.SendEmail(ctx, msg); err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fail(fmt.Errorf("send export e-mail: %w: %w", err, asynq.SkipRetry))
		}
		return fail(fmt.Errorf("send export e-mail: %w", err))
	}
	return store.MarkExportNotified(ctx, exp.ID, now)
}

// DataExportLink is the single-use link an export e-mail carries.
func DataExportLink(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + "/api/data-export?token=" + token
}

// exportReadyEmail tells the person their copy is ready, with the link and its expiry.
func exportReadyEmail(to, name, link string, expires time.Time) perfilseguro.Email {
	until := perfilseguro.MexicoDateTime(expires)
	text := fmt.Sprintf("Hola %s:\n\nTu copia de los datos que Perfil Seguro tiene sobre ti está lista. Descárgala aquí:\n%s\n\n"+
		"El enlace funciona una sola vez y vence el %s (hora de la Ciudad de México). Después, el archivo se borra.\n\n"+
		"Si no pediste esta copia, escríbenos a soporte: alguien podría tener acceso a tu cuenta.", name, link, until)
	l := html.EscapeString(link)
	page := fmt.Sprintf(`<p>Hola %s:</p>
<p>Tu copia de los datos que <strong>Perfil Seguro</strong> tiene sobre ti está lista.</p>
<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Descargar mis datos</a></p>
<p>O copia este enlace en tu navegador:<br><a href="%s">%s</a></p>
<p>El enlace funciona una sola vez y vence el <strong>%s</strong> (hora de la Ciudad de México). Después, el archivo se borra.</p>
<p>Si no pediste esta copia, escríbenos a soporte: alguien podría tener acceso a tu cuenta.</p>`,
		html.EscapeString(name), l, l, l, until)
	return perfilseguro.Email{To: to, Subject: "Tu copia de datos de Perfil Seguro está lista", Text: text, HTML: page}
}

// exportSections names the sections of the export in Spanish, in reading order.
var exportSections = []struct{ key, title string }{
	{"perfil", "Tu perfil"},
	{"consentimientos", "Tus consentimientos"},
	{"verificaciones_biometricas", "Verificaciones biométricas (resultados y puntajes; nunca guardamos imágenes)"},
	{"pagos", "Pagos"},
	{"invitaciones_enviadas", "Invitaciones que enviaste"},
	{"invitaciones_recibidas", "Invitaciones que aceptaste"},
	{"pases", "Pases de Wallet"},
	{"credenciales", "Credenciales verificables"},
	{"consultas_a_tu_perfil", "Consultas a tu perfil"},
	{"sesiones", "Inicios de sesión"},
	{"solicitudes_arco", "Tus solicitudes de derechos ARCO"},
	{"recordatorios", "Recordatorios enviados"},
	{"llaves_de_acceso", "Llaves de acceso (solo su nombre y fechas; la llave nunca sale de tu dispositivo)"},
}

// BuildExportArchive packs the person's data as datos.json (machine-readable, as held) and
// resumen.html (the same, readable, in Spanish).
func BuildExportArchive(data json.RawMessage, now time.Time) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("export data: %w", err)
	}
	pretty, err := json.MarshalIndent(map[string]any{"generado_en": now.UTC().Format(time.RFC3339),
		"aviso_de_privacidad": perfilseguro.PrivacyNoticeVersion, "datos": doc}, "", "  ")
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := exportSummary.Execute(&page, summaryOf(doc, now)); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		body []byte
	}{{"datos.json", pretty}, {"resumen.html", page.Bytes()}} {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return nil, err
		}
		if _, err := fw.Write(f.body); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type summarySection struct {
	Title   string
	Columns []string
	Rows    [][]string
}

type summaryPage struct {
	Generated string
	Version   string
	Sections  []summarySection
}

// summaryOf lays each section out as a table: one row per record (the profile is one record).
func summaryOf(doc map[string]any, now time.Time) summaryPage {
	page := summaryPage{Generated: perfilseguro.MexicoDateTime(now), Version: perfilseguro.PrivacyNoticeVersion}
	for _, sec := range exportSections {
		var records []map[string]any
		switch v := doc[sec.key].(type) {
		case map[string]any:
			records = []map[string]any{v}
		case []any:
			for _, r := range v {
				if m, ok := r.(map[string]any); ok {
					records = append(records, m)
				}
			}
		}
		s := summarySection{Title: sec.title}
		if len(records) > 0 {
			for k := range records[0] {
				s.Columns = append(s.Columns, k)
			}
			sort.Strings(s.Columns)
			for _, r := range records {
				row := make([]string, len(s.Columns))
				for i, c := range s.Columns {
					row[i] = cellText(r[c])
				}
				s.Rows = append(s.Rows, row)
			}
		}
		page.Sections = append(page.Sections, s)
	}
	return page
}

func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return "Sí"
		}
		return "No"
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return perfilseguro.MexicoDateTime(t)
		}
		return x
	case float64:
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

var exportSummary = template.Must(template.New("summary").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><title>Tus datos en Perfil Seguro</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:Arial,Helvetica,sans-serif;color:#0f172a;max-width:960px;margin:24px auto;padding:0 16px}
table{border-collapse:collapse;width:100%;margin:8px 0 24px;font-size:14px}th,td{border:1px solid #cbd5e1;padding:6px;text-align:left;vertical-align:top}
th{background:#f1f5f9}.wrap{overflow-x:auto}</style></head>
<body><h1>Tus datos en Perfil Seguro</h1>
<p>Generado el {{.Generated}} (hora de la Ciudad de México). Aviso de privacidad versión {{.Version}}.
El archivo <code>datos.json</code> tiene lo mismo en un formato que otros programas pueden leer.</p>
{{range .Sections}}<h2>{{.Title}}</h2>{{if .Rows}}<div class="wrap"><table><thead><tr>{{range .Columns}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table></div>{{else}}<p>Sin registros.</p>{{end}}
{{end}}</body></html>`))

// handleApplyRetention deletes what the notice keeps for a limited time (RetentionPeriods).
func (w *Worker) handleApplyRetention(ctx context.Context, t *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	now := w.now()
	res, err := store.ApplyRetention(ctx, now)
	if err != nil {
		return err
	}
	// Exports whose job Redis lost are queued again (their TaskID makes a live one a no-op).
	stranded, err := store.StrandedExports(ctx, now, 2*time.Minute)
	if err != nil {
		return err
	}
	for _, e := range stranded {
		task, err := jobs.NewBuildDataExportTask(jobs.BuildDataExportPayload{ExportID: e.ID, ExpiresAt: e.ExpiresAt})
		if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
			return fmt.Errorf("re-queue export %d: %w", e.ID, err)
		}
	}
	args := []any{}
	for k, n := range res {
		if n > 0 {
			args = append(args, k, n)
		}
	}
	if len(args) > 0 {
		w.deps.Logger.InfoContext(ctx, "retention applied", args...)
	}
	return nil
}
