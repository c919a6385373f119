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

// Subjects of the e-mails that tell a person what the review of their identity decided.
const (
	IdentityApprovedSubject = "Tu identidad fue validada"
	IdentityDeclinedSubject = "No pudimos validar tu identidad"
)

func (w *Worker) routesIdentityReview() {
	w.mux.HandleFunc(jobs.TypeSendIdentityReviewNotice, decoded("identity review notice",
		func(p jobs.SendIdentityReviewNoticePayload) bool { return p.VerificationID > 0 }, w.handleSendIdentityReviewNotice))
}

// handleSendIdentityReviewNotice tells the person what an administrator decided on the review of
// their identity document (issue 52): approved (their profile is validated under the name on the
// ID) or declined, with the reason. By e-mail, else by SMS; a partner's test person through the
// test inbox. A decision not visible yet is retried (it is queued inside its transaction); a
// deleted account is told nothing.
func (w *Worker) handleSendIdentityReviewNotice(ctx context.Context, p jobs.SendIdentityReviewNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	o, err := store.IdentityReviewOutcomeOf(ctx, p.VerificationID)
	if err != nil {
		return err
	}
	if o == nil {
		if lastAttempt(ctx) {
			return nil // rolled back, or the account is gone
		}
		return fmt.Errorf("identity review %d not visible yet", p.VerificationID)
	}
	u, ok, err := userOrGone(ctx, store, o.UserID)
	if !ok {
		return err
	}
	reason := ""
	if o.Reason != nil {
		reason = *o.Reason
	}
	link := strings.TrimRight(w.deps.PublicBaseURL, "/") + "/profile"
	approved := o.Resolution == postgres.ReviewApproved
	send := w.sendersFor(u.Mode())
	switch {
	case u.Email != nil && *u.Email != "":
		msg := identityReviewEmail(u.Nombre, u.IDValidado, approved, reason, link)
		msg.To = *u.Email
		err = send.email.SendEmail(ctx, msg)
	case u.PhoneNumber != nil && *u.PhoneNumber != "":
		err = send.sms.SendSMS(ctx, *u.PhoneNumber, identityReviewSMS(u.IDValidado, approved, reason))
	default:
		w.deps.Logger.WarnContext(ctx, "identity review notice without a contact", "user_id", u.ID,
			"verification_id", p.VerificationID)
		return nil
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("identity review notice %d: %w: %w", p.VerificationID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("identity review notice %d: %w", p.VerificationID, err)
	}
	return nil
}

// identityReviewEmail is the e-mail of a review's decision: approved names the profile's name
// (now the document's); declined gives the reason and the way on (a new check, or support).
func identityReviewEmail(name, profileID string, approved bool, reason, link string) perfilseguro.Email {
	var subject string
	var paragraphs []string
	if approved {
		subject = IdentityApprovedSubject
		paragraphs = []string{
			fmt.Sprintf("Revisamos tu identificación oficial y validamos tu identidad. Tu Perfil Seguro (%s) ya tiene el "+
				"nivel ID Validado con el nombre que aparece en tu identificación: %s.", profileID, name),
			"Tu pase digital se está actualizando; puedes verlo en Mi Perfil.",
		}
	} else {
		subject = IdentityDeclinedSubject
		paragraphs = []string{
			fmt.Sprintf("Revisamos tu identificación oficial y no pudimos validar tu identidad en tu Perfil Seguro (%s).", profileID),
			"Motivo: " + strings.TrimRight(reason, ".") + ".",
			"Puedes intentar de nuevo con tu identificación vigente desde Mi Perfil, o escribirnos a soporte si crees que es un error.",
		}
	}
	text := "Hola " + name + ":\n\n" + strings.Join(paragraphs, "\n\n") + "\n\n" + link
	var page strings.Builder
	fmt.Fprintf(&page, "<p>Hola %s:</p>\n", html.EscapeString(name))
	for _, par := range paragraphs {
		fmt.Fprintf(&page, "<p>%s</p>\n", html.EscapeString(par))
	}
	l := html.EscapeString(link)
	fmt.Fprintf(&page, `<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Ir a Mi Perfil</a></p>`+"\n", l)
	return perfilseguro.Email{Subject: subject, Text: text, HTML: page.String()}
}

// identityReviewSMS is the short form for a person without an e-mail.
func identityReviewSMS(profileID string, approved bool, reason string) string {
	if approved {
		return "Perfil Seguro: tu identidad fue validada (" + profileID + "). Tu pase digital está en Mi Perfil."
	}
	return "Perfil Seguro: no pudimos validar tu identidad (" + profileID + "). Motivo: " + strings.TrimRight(reason, ".") +
		". Puedes intentarlo de nuevo desde Mi Perfil."
}
