package worker

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesAdmin() {
	w.mux.HandleFunc(jobs.TypeSendLiftNotice, decoded("lift notice", func(p jobs.SendLiftNoticePayload) bool { return p.EventID > 0 }, w.handleSendLiftNotice))
	w.routesIdentityReview() // issue 52: the person is told what the review of their ID decided
}

// handleSendLiftNotice tells the person, once, that an administrador lifted the revocation of
// their validation: by e-mail, or by SMS when they have no e-mail; a partner's test person
// through the test inbox (sendersFor). A lift not visible yet is retried (it is queued inside its
// transaction); a lift already told, about a deleted account, or followed by a new revocation
// sends nothing.
func (w *Worker) handleSendLiftNotice(ctx context.Context, p jobs.SendLiftNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	lift, err := store.LiftByID(ctx, p.EventID)
	if errors.Is(err, postgres.ErrLiftNotFound) && lastAttempt(ctx) {
		return nil // rolled back, or the account and its history are gone
	}
	if err != nil {
		return err
	}
	if lift.NotifiedAt != nil {
		return nil
	}
	u, ok, err := userOrGone(ctx, store, lift.UserID)
	if !ok {
		return err
	}
	if u.RevokedAt != nil {
		// Revoked again since: a message saying they may validate would be false now.
		return store.MarkLiftNotified(ctx, lift.EventID, w.now())
	}
	reason := ""
	if lift.Reason != nil {
		reason = *lift.Reason
	}
	msg := liftNoticeEmail(u.Nombre, u.IDValidado, reason, strings.TrimRight(w.deps.PublicBaseURL, "/")+"/profile")
	send := w.sendersFor(u.Mode())
	switch {
	case u.Email != nil && *u.Email != "":
		msg.To = *u.Email
		err = send.email.SendEmail(ctx, msg)
	case u.PhoneNumber != nil:
		err = send.sms.SendSMS(ctx, *u.PhoneNumber, liftNoticeSMS(u.IDValidado))
	default:
		w.deps.Logger.WarnContext(ctx, "lift notice without a contact", "user_id", u.ID, "event_id", lift.EventID)
		return nil
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("lift notice %d: %w: %w", lift.EventID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("lift notice %d: %w", lift.EventID, err)
	}
	return store.MarkLiftNotified(ctx, lift.EventID, w.now())
}

// LiftNoticeSubject is the subject of the e-mail that tells a person their revocation was lifted.
const LiftNoticeSubject = "Levantamos la revocación de tu Perfil Seguro"

// liftNoticeEmail tells the person the revocation was lifted, why, and that their previous
// validation does not come back: a new biometric check validates them again.
func liftNoticeEmail(name, profileID, reason, link string) perfilseguro.Email {
	why := ""
	if reason != "" {
		why = "Motivo: " + strings.TrimRight(reason, ".") + ".\n\n"
	}
	text := fmt.Sprintf("Hola %s:\n\nRevisamos tu caso y levantamos la revocación de tu Perfil Seguro (%s).\n\n%s"+
		"Tu validación anterior no se restablece. Para volver a tener tu identidad validada, entra a Mi Perfil y "+
		"completa de nuevo la verificación biométrica:\n%s\n\n"+
		"Si no esperabas este mensaje, escríbenos a soporte.", name, profileID, why, link)
	l := html.EscapeString(link)
	whyHTML := ""
	if reason != "" {
		whyHTML = "<p>Motivo: " + html.EscapeString(strings.TrimRight(reason, ".")) + ".</p>\n"
	}
	page := fmt.Sprintf(`<p>Hola %s:</p>
<p>Revisamos tu caso y levantamos la revocación de tu <strong>Perfil Seguro</strong> (%s).</p>
%s<p>Tu validación anterior no se restablece. Para volver a tener tu identidad validada, entra a Mi Perfil y completa de nuevo la verificación biométrica.</p>
<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Ir a Mi Perfil</a></p>
<p>O copia este enlace en tu navegador:<br><a href="%s">%s</a></p>
<p>Si no esperabas este mensaje, escríbenos a soporte.</p>`,
		html.EscapeString(name), html.EscapeString(profileID), whyHTML, l, l, l)
	return perfilseguro.Email{Subject: LiftNoticeSubject, Text: text, HTML: page}
}

// liftNoticeSMS is the short form for a person without an e-mail.
func liftNoticeSMS(profileID string) string {
	return "Perfil Seguro: levantamos la revocación de tu perfil " + profileID +
		". Para validar tu identidad de nuevo, entra a Mi Perfil y completa la verificación biométrica."
}
