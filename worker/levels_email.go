package worker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// errTokenNotYetVisible asks for a retry: the API enqueues inside its transaction.
var errTokenNotYetVisible = errors.New("email token row not visible yet")

// handleSendEmailVerification e-mails the level-2 link. Tokens that are used, expired or were
// never committed are not sent.
func (w *Worker) handleSendEmailVerification(ctx context.Context, p jobs.SendEmailVerificationPayload) error {
	if time.Now().After(p.ExpiresAt) {
		return fmt.Errorf("email token %d expired before delivery: %w", p.TokenID, asynq.SkipRetry)
	}
	store := postgres.Store{DB: w.deps.DB}
	row, err := store.EmailTokenForDelivery(ctx, p.TokenID)
	if row, err = visible(row, err, errTokenNotYetVisible); err != nil {
		return err
	}
	if row.IsUsed {
		return nil
	}
	if row.Email == nil || *row.Email == "" {
		return fmt.Errorf("user %d has no e-mail: %w", row.UserID, asynq.SkipRetry)
	}
	token, err := w.deps.Sealer.Open(p.SealedToken)
	if err != nil {
		return fmt.Errorf("email token %d: %v: %w", p.TokenID, err, asynq.SkipRetry)
	}
	link := EmailVerificationLink(w.deps.PublicBaseURL, token)
	msg, err := emailVerificationMessage(*row.Email, row.Nombre, link)
	if err != nil {
		return fmt.Errorf("render verification e-mail: %v: %w", err, asynq.SkipRetry)
	}
	if err := w.sendersFor(row.Mode).email.SendEmail(ctx, msg); err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("send verification e-mail: %w: %w", err, asynq.SkipRetry)
		}
		return fmt.Errorf("send verification e-mail: %w", err)
	}
	return nil
}

// EmailVerificationLink is the link a verification e-mail carries.
func EmailVerificationLink(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + "/api/verify-email?token=" + url.QueryEscape(token)
}

var emailVerificationHTML = template.Must(template.New("email").Parse(`<!doctype html>
<html lang="es-MX"><body style="margin:0;padding:24px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;border:1px solid #e2e8f0">
<tr><td style="padding:24px 32px;background:#1e3a8a;border-radius:12px 12px 0 0;color:#ffffff;font-size:20px;font-weight:bold">Perfil Seguro</td></tr>
<tr><td style="padding:32px">
<p style="font-size:16px;margin:0 0 16px">Hola {{.Name}},</p>
<p style="font-size:16px;line-height:1.5;margin:0 0 24px">Confirma que este correo electrónico es tuyo para completar el Nivel 2 de verificación de tu Perfil Seguro.</p>
<p style="margin:0 0 24px"><a href="{{.Link}}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:bold;padding:14px 24px;border-radius:8px">Verificar mi correo</a></p>
<p style="font-size:14px;line-height:1.5;color:#475569;margin:0 0 8px">Si el botón no funciona, copia y pega este enlace en tu navegador:</p>
<p style="font-size:13px;word-break:break-all;margin:0 0 24px"><a href="{{.Link}}" style="color:#1d4ed8">{{.Link}}</a></p>
<p style="font-size:14px;line-height:1.5;color:#475569;margin:0">El enlace es válido por 24 horas y solo puede usarse una vez. Si no solicitaste esta verificación, ignora este mensaje.</p>
</td></tr></table></td></tr></table></body></html>`))

// emailVerificationMessage is the Spanish HTML and text e-mail carrying the link.
func emailVerificationMessage(to, name, link string) (perfilseguro.Email, error) {
	var html bytes.Buffer
	if err := emailVerificationHTML.Execute(&html, struct{ Name, Link string }{name, link}); err != nil {
		return perfilseguro.Email{}, err
	}
	text := fmt.Sprintf("Hola %s,\n\nConfirma que este correo electrónico es tuyo para completar el Nivel 2 de verificación de tu Perfil Seguro.\n\nAbre este enlace para verificar tu correo:\n%s\n\nEl enlace es válido por 24 horas y solo puede usarse una vez. Si no solicitaste esta verificación, ignora este mensaje.\n\nPerfil Seguro", name, link)
	return perfilseguro.Email{To: to, Subject: "Verifica tu correo electrónico · Perfil Seguro", Text: text, HTML: html.String()}, nil
}
