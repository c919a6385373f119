package worker

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// notice is a short message to a person about their account: an e-mail (a greeting, the
// paragraphs and one button) or, for a person without an e-mail address, an SMS.
type notice struct {
	Subject    string
	Paragraphs []string
	Link       string // the button's target (Mi Perfil)
	LinkText   string
	SMS        string // the short form
}

// email is n as an e-mail to name at to.
func (n notice) email(to, name string) perfilseguro.Email {
	text := "Hola " + name + ":\n\n" + strings.Join(n.Paragraphs, "\n\n") + "\n\n" + n.Link
	var page strings.Builder
	fmt.Fprintf(&page, "<p>Hola %s:</p>\n", html.EscapeString(name))
	for _, par := range n.Paragraphs {
		fmt.Fprintf(&page, "<p>%s</p>\n", html.EscapeString(par))
	}
	fmt.Fprintf(&page, `<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">%s</a></p>`+"\n",
		html.EscapeString(n.Link), html.EscapeString(n.LinkText))
	return perfilseguro.Email{To: to, Subject: n.Subject, Text: text, HTML: page.String()}
}

// sendNotice delivers n to u by e-mail, else by SMS (a partner's test person through the test
// inbox); a person with neither gets nothing. what and id name the notice in errors; a
// permanent failure is not retried.
func (w *Worker) sendNotice(ctx context.Context, u perfilseguro.User, n notice, what string, id int64) error {
	send := w.sendersFor(u.Mode())
	var err error
	switch {
	case u.Email != nil && *u.Email != "":
		err = send.email.SendEmail(ctx, n.email(*u.Email, u.Nombre))
	case u.PhoneNumber != nil && *u.PhoneNumber != "":
		err = send.sms.SendSMS(ctx, *u.PhoneNumber, n.SMS)
	default:
		w.deps.Logger.WarnContext(ctx, what+" without a contact", "user_id", u.ID, "id", id)
		return nil
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("%s %d: %w: %w", what, id, err, asynq.SkipRetry)
		}
		return fmt.Errorf("%s %d: %w", what, id, err)
	}
	return nil
}
