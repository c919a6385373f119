package worker

import (
	"context"
	"fmt"
	"strings"

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
	n := identityReviewNotice(u.IDValidado, o.Resolution == postgres.ReviewApproved, reason, link)
	return w.sendNotice(ctx, u, n, "identity review notice", p.VerificationID)
}

// identityReviewNotice says a review's decision: approved names the profile's ID (its name is now
// the document's); declined gives the reason and the way on (a new check, or support).
func identityReviewNotice(profileID string, approved bool, reason, link string) notice {
	if approved {
		return notice{Subject: IdentityApprovedSubject, Link: link, LinkText: "Ir a Mi Perfil",
			Paragraphs: []string{
				fmt.Sprintf("Revisamos tu identificación oficial y validamos tu identidad. Tu Perfil Seguro (%s) ya tiene el "+
					"nivel ID Validado con el nombre que aparece en tu identificación.", profileID),
				"Tu pase digital se está actualizando; puedes verlo en Mi Perfil.",
			},
			SMS: "Perfil Seguro: tu identidad fue validada (" + profileID + "). Tu pase digital está en Mi Perfil."}
	}
	return notice{Subject: IdentityDeclinedSubject, Link: link, LinkText: "Ir a Mi Perfil",
		Paragraphs: []string{
			fmt.Sprintf("Revisamos tu identificación oficial y no pudimos validar tu identidad en tu Perfil Seguro (%s).", profileID),
			"Motivo: " + strings.TrimRight(reason, ".") + ".",
			"Puedes intentar de nuevo con tu identificación vigente desde Mi Perfil, o escribirnos a soporte si crees que es un error.",
		},
		SMS: "Perfil Seguro: no pudimos validar tu identidad (" + profileID + "). Motivo: " + strings.TrimRight(reason, ".") +
			". Puedes intentarlo de nuevo desde Mi Perfil."}
}
