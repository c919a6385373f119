package worker

import (
	"context"
	"fmt"
	"strings"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// PasskeyAddedSubject heads the notice that a passkey was added to the account.
const PasskeyAddedSubject = "Se agregó una llave de acceso a tu Perfil Seguro"

// handleSendPasskeyAddedNotice tells the person, at their current e-mail (else their phone), that
// a passkey was added to their account, with what to do if it was not them (issue 54, item 21): a
// passkey signs in and confirms contact changes, so whoever holds the account's contact hears of
// each new one. A deleted account sends nothing.
func (w *Worker) handleSendPasskeyAddedNotice(ctx context.Context, p jobs.SendPasskeyAddedNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	u, ok, err := userOrGone(ctx, store, p.UserID)
	if !ok {
		return err
	}
	when := perfilseguro.MexicoDateTime(p.AddedAt)
	profile := strings.TrimRight(w.deps.PublicBaseURL, "/") + "/profile"
	paragraphs := []string{
		fmt.Sprintf("Se agregó la llave de acceso «%s» a tu Perfil Seguro (%s) el %s (hora de la Ciudad de México). "+
			"Con ella se puede entrar a tu cuenta sin código.", p.Name, u.IDValidado, when),
		"Si fuiste tú, no tienes que hacer nada.",
		"Si no fuiste tú, entra a Mi Perfil › Llaves de acceso con un código, elimina esa llave y cierra tus sesiones; " +
			"o escríbenos a soporte.",
	}
	return w.sendNotice(ctx, u, notice{Subject: PasskeyAddedSubject, Paragraphs: paragraphs, Link: profile, LinkText: "Ir a Mi Perfil",
		SMS: fmt.Sprintf("Perfil Seguro: se agregó una llave de acceso a tu perfil %s. Si no fuiste tú, elimínala en Mi Perfil: %s",
			u.IDValidado, profile)}, "passkey notice", p.CredentialID)
}
