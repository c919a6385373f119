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
	"strings"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesPrivacy() {
	w.mux.HandleFunc(jobs.TypeBuildDataExport, decoded("data export",
		func(p jobs.BuildDataExportPayload) bool { return p.ExportID > 0 }, w.handleBuildDataExport))
	w.mux.HandleFunc(jobs.TypeApplyRetention, w.handleApplyRetention)
}

// errExportNotYetVisible asks for a retry: the API enqueues inside its transaction.
var errExportNotYetVisible = errors.New("data export row not visible yet")

// handleBuildDataExport builds the ZIP of everything held about the person, keeps it until its
// link is used or expires, and e-mails the single-use link. A retry after the archive was stored
// only sends the e-mail; an export that can never be built is marked failed (nothing kept, and
// the person may ask again the same day).
func (w *Worker) handleBuildDataExport(ctx context.Context, p jobs.BuildDataExportPayload) error {
	// The document-data key opens the person's own identity document for their export.
	store := postgres.Store{DB: w.deps.DB, Documents: w.deps.Documents}
	exp, err := store.DataExportByID(ctx, p.ExportID)
	if exp, err = visible(exp, err, errExportNotYetVisible); err != nil {
		return err
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

// BuildExportArchive packs the person's data as datos.json (machine-readable, as held, with
// stable keys), diccionario.json (what each key of datos.json means) and resumen.html (the same
// data as a person reads it: in Spanish, codes in words, dates in Mexico City time).
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
	dictionary, err := exportDictionary()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		body []byte
	}{{"datos.json", pretty}, {"diccionario.json", dictionary}, {"resumen.html", page.Bytes()}} {
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
