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

// DocumentBoundSubject heads the notice to the owner of a profile whose ID someone else presented.
const DocumentBoundSubject = "Alguien intentó validar otro perfil con tu identificación"

func (w *Worker) routesDocumentBound() {
	w.mux.HandleFunc(jobs.TypeSendDocumentBoundNotice, decoded("document-bound notice",
		func(p jobs.SendDocumentBoundNoticePayload) bool { return p.VerificationID > 0 }, w.handleSendDocumentBoundNotice))
}

// handleSendDocumentBoundNotice tells the owner of the profile an identity document certifies
// that another account presented it (issue 52): by e-mail, else by SMS; a partner's test person
// through the test inbox. The other account is not named: the owner learns only that it happened,
// when, and what to do. A refusal not visible yet is retried (it is queued inside its
// transaction); an owner who deleted their account is told nothing.
func (w *Worker) handleSendDocumentBoundNotice(ctx context.Context, p jobs.SendDocumentBoundNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	a, err := store.DocumentBoundAttemptOf(ctx, p.VerificationID)
	if err != nil {
		return err
	}
	if a == nil {
		if lastAttempt(ctx) {
			return nil // rolled back, or the owner is gone
		}
		return fmt.Errorf("document-bound attempt %d not visible yet", p.VerificationID)
	}
	u, ok, err := userOrGone(ctx, store, a.OwnerID)
	if !ok {
		return err
	}
	profile := strings.TrimRight(w.deps.PublicBaseURL, "/") + "/profile"
	paragraphs := []string{
		fmt.Sprintf("El %s (hora de la Ciudad de México) alguien intentó validar otro perfil de Perfil Seguro con la "+
			"identificación oficial que certifica tu perfil (%s). No lo permitimos: una identificación valida un solo perfil.",
			perfilseguro.MexicoDateTime(a.CheckedAt), u.IDValidado),
		"Si fuiste tú con otra cuenta, no tienes que hacer nada: sigue usando este perfil.",
		"Si no fuiste tú, alguien tiene una foto o copia de tu identificación. Revisa Mi Perfil y escríbenos a soporte.",
	}
	send := w.sendersFor(u.Mode())
	switch {
	case u.Email != nil && *u.Email != "":
		err = send.email.SendEmail(ctx, noticeEmail(*u.Email, DocumentBoundSubject, u.Nombre, paragraphs, profile, "Ir a Mi Perfil"))
	case u.PhoneNumber != nil && *u.PhoneNumber != "":
		err = send.sms.SendSMS(ctx, *u.PhoneNumber, fmt.Sprintf("Perfil Seguro: alguien intentó validar otro perfil con tu "+
			"identificación (%s). Si no fuiste tú, escríbenos a soporte: %s", u.IDValidado, profile))
	default:
		return nil // nowhere to write
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("document-bound notice %d: %w: %w", p.VerificationID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("document-bound notice %d: %w", p.VerificationID, err)
	}
	return nil
}

// noticeEmail is a plain notice as an e-mail: a greeting, the paragraphs, and one link.
func noticeEmail(to, subject, name string, paragraphs []string, link, linkText string) perfilseguro.Email {
	text := "Hola " + name + ":\n\n" + strings.Join(paragraphs, "\n\n") + "\n\n" + link
	var page strings.Builder
	fmt.Fprintf(&page, "<p>Hola %s:</p>\n", html.EscapeString(name))
	for _, par := range paragraphs {
		fmt.Fprintf(&page, "<p>%s</p>\n", html.EscapeString(par))
	}
	fmt.Fprintf(&page, "<p><a href=\"%s\">%s</a></p>\n", html.EscapeString(link), html.EscapeString(linkText))
	return perfilseguro.Email{To: to, Subject: subject, Text: text, HTML: page.String()}
}
