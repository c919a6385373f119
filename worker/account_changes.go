package worker

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (w *Worker) routesAccountChanges() {
	w.mux.HandleFunc(jobs.TypeSendAccountChangeNotice, decoded("account change notice",
		func(p jobs.SendAccountChangeNoticePayload) bool { return p.ChangeID > 0 }, w.handleSendAccountChangeNotice))
	w.mux.HandleFunc(jobs.TypeSendPasskeyAddedNotice, decoded("passkey notice",
		func(p jobs.SendPasskeyAddedNoticePayload) bool { return p.UserID > 0 && p.CredentialID > 0 }, w.handleSendPasskeyAddedNotice))
}

// handleSendAccountChangeNotice tells the person, once, at the contact they had before, that
// their e-mail, phone or name changed: by e-mail or by SMS, a partner's test person through the
// test inbox (sendersFor). A change the person made carries the link that undoes it. A change not
// visible yet is retried (it is queued inside its transaction); one already told, already
// undone, or of a deleted account sends nothing.
func (w *Worker) handleSendAccountChangeNotice(ctx context.Context, p jobs.SendAccountChangeNoticePayload) error {
	store := postgres.Store{DB: w.deps.DB}
	ch, err := store.AccountChangeByID(ctx, p.ChangeID)
	if errors.Is(err, postgres.ErrAccountChangeNotFound) && lastAttempt(ctx) {
		return nil // rolled back, or the account is gone
	}
	if err != nil {
		return err
	}
	if ch.NotifiedAt != nil || ch.UndoneAt != nil || ch.NotifyVia == nil || ch.NotifyTo == nil {
		return nil
	}
	u, ok, err := userOrGone(ctx, store, ch.UserID)
	if !ok {
		return err
	}
	undo := ""
	if ch.UndoTokenSealed != nil {
		token, err := w.deps.Sealer.Open(*ch.UndoTokenSealed)
		if err != nil {
			return fmt.Errorf("account change %d: open undo token: %w: %w", ch.ID, err, asynq.SkipRetry)
		}
		undo = strings.TrimRight(w.deps.PublicBaseURL, "/") + "/api/account-changes/undo?token=" + url.QueryEscape(token)
	}
	n := accountChangeNotice{Name: u.Nombre, ProfileID: u.IDValidado, Change: ch, UndoLink: undo,
		ProfileLink: strings.TrimRight(w.deps.PublicBaseURL, "/") + "/profile"}
	send := w.sendersFor(u.Mode())
	if *ch.NotifyVia == postgres.ChannelEmail {
		msg := n.email()
		msg.To = *ch.NotifyTo
		err = send.email.SendEmail(ctx, msg)
	} else {
		err = send.sms.SendSMS(ctx, *ch.NotifyTo, n.sms())
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("account change notice %d: %w: %w", ch.ID, err, asynq.SkipRetry)
		}
		return fmt.Errorf("account change notice %d: %w", ch.ID, err)
	}
	return store.MarkAccountChangeNotified(ctx, ch.ID, w.now())
}

// accountChangeNotice is what one notice says.
type accountChangeNotice struct {
	Name, ProfileID string
	Change          postgres.AccountChangeNotice
	UndoLink        string // empty: an administrator's change (the person writes to support)
	ProfileLink     string
}

// What changed, in words: the subject's noun and the sentence's.
func (n accountChangeNotice) what() string {
	switch n.Change.Field {
	case postgres.FieldEmail:
		return "correo electrónico"
	case postgres.FieldPhone:
		return "teléfono"
	}
	return "nombre"
}

// Subjects of the notices.
const (
	// AccountChangeSubjectPerson heads the notice of a change the person made (%s: what changed).
	AccountChangeSubjectPerson = "Cambió el %s de tu Perfil Seguro"
	// AccountChangeSubjectAdmin heads the notice of an administrator's change.
	AccountChangeSubjectAdmin = "Un administrador cambió tus datos en Perfil Seguro"
)

// lines are the notice's paragraphs, in plain text.
func (n accountChangeNotice) lines() (subject string, paragraphs []string) {
	when := perfilseguro.MexicoDateTime(n.Change.CreatedAt)
	what := n.what()
	if n.Change.Actor == postgres.ChangedByAdmin {
		change := fmt.Sprintf("Un administrador de Perfil Seguro cambió el %s de tu perfil (%s) el %s (hora de la Ciudad de México).",
			what, n.ProfileID, when)
		if n.Change.Field == postgres.FieldNombre && n.Change.New != nil {
			change = fmt.Sprintf("Un administrador de Perfil Seguro cambió el nombre de tu perfil (%s) a «%s» el %s (hora de la Ciudad de México).",
				n.ProfileID, *n.Change.New, when)
		}
		paragraphs = []string{change}
		if n.Change.Field == postgres.FieldNombre {
			paragraphs = append(paragraphs, "Si tu identidad estaba validada, esa validación dejó de ser válida con el cambio de nombre: "+
				"para volver a tenerla, entra a Mi Perfil y completa de nuevo la verificación biométrica.")
		}
		paragraphs = append(paragraphs, "Si no lo pediste, escríbenos a soporte y revisaremos tu cuenta.")
		return AccountChangeSubjectAdmin, paragraphs
	}
	paragraphs = []string{
		fmt.Sprintf("El %s de tu Perfil Seguro (%s) cambió el %s (hora de la Ciudad de México). Por seguridad cerramos las demás sesiones abiertas de tu cuenta.",
			what, n.ProfileID, when),
		"Si fuiste tú, no tienes que hacer nada.",
	}
	if n.UndoLink != "" && n.Change.UndoUntil != nil {
		paragraphs = append(paragraphs, fmt.Sprintf("Si no fuiste tú, deshaz el cambio con el enlace de abajo: tu cuenta vuelve a tus datos "+
			"anteriores, se cierran todas sus sesiones y se quitan sus llaves de acceso. El enlace vale hasta el %s (hora de la Ciudad de México).",
			perfilseguro.MexicoDateTime(*n.Change.UndoUntil)))
	}
	return fmt.Sprintf(AccountChangeSubjectPerson, what), paragraphs
}

// email is the notice as an e-mail (its To is set by the caller).
func (n accountChangeNotice) email() perfilseguro.Email {
	subject, paragraphs := n.lines()
	text := "Hola " + n.Name + ":\n\n" + strings.Join(paragraphs, "\n\n")
	var page strings.Builder
	fmt.Fprintf(&page, "<p>Hola %s:</p>\n", html.EscapeString(n.Name))
	for _, p := range paragraphs {
		fmt.Fprintf(&page, "<p>%s</p>\n", html.EscapeString(p))
	}
	if n.UndoLink != "" {
		l := html.EscapeString(n.UndoLink)
		text += "\n" + n.UndoLink
		fmt.Fprintf(&page, `<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#b91c1c;color:#fff;border-radius:8px;text-decoration:none">No fui yo: deshacer el cambio</a></p>
<p>O copia este enlace en tu navegador:<br><a href="%s">%s</a></p>
`, l, l, l)
	}
	return perfilseguro.Email{Subject: subject, Text: text, HTML: page.String()}
}

// sms is the short form, for an old phone.
func (n accountChangeNotice) sms() string {
	if n.Change.Actor == postgres.ChangedByAdmin {
		return fmt.Sprintf("Perfil Seguro: un administrador cambió el %s de tu perfil %s. Si no lo pediste, escríbenos a soporte.",
			n.what(), n.ProfileID)
	}
	msg := fmt.Sprintf("Perfil Seguro: cambió el %s de tu perfil %s.", n.what(), n.ProfileID)
	if n.UndoLink != "" {
		msg += " Si no fuiste tú, deshazlo aquí: " + n.UndoLink
	}
	return msg
}
