package worker

import (
	"context"
	"fmt"
	"strings"

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
	return w.sendNotice(ctx, u, notice{Subject: DocumentBoundSubject, Paragraphs: paragraphs, Link: profile, LinkText: "Ir a Mi Perfil",
		SMS: fmt.Sprintf("Perfil Seguro: alguien intentó validar otro perfil con tu identificación (%s). "+
			"Si no fuiste tú, escríbenos a soporte: %s", u.IDValidado, profile)}, "document-bound notice", p.VerificationID)
}
