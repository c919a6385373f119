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

func (w *Worker) routesInvitations() {
	w.mux.HandleFunc(jobs.TypeSendInvitation, decoded("invitation", func(p jobs.SendInvitationPayload) bool {
		return p.InvitationID != 0 && (p.Via == jobs.ViaEmail || p.Via == jobs.ViaWhatsApp)
	}, w.handleSendInvitation))
	w.mux.HandleFunc(jobs.TypeExpireInvitations, w.handleExpireInvitations)
}

// errInvitationNotYetVisible asks for a retry: the API enqueues inside its transaction, so the
// worker can be faster than the commit.
var errInvitationNotYetVisible = errors.New("invitation row not visible yet")

// handleSendInvitation delivers one invitation on one channel. Invitations that are no longer
// pending are not sent; a channel already delivered is not sent again.
func (w *Worker) handleSendInvitation(ctx context.Context, p jobs.SendInvitationPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	inv, err := store.InvitationByID(ctx, p.InvitationID)
	if errors.Is(err, postgres.ErrInvitationNotFound) {
		if n, _ := asynq.GetRetryCount(ctx); n >= 5 {
			return fmt.Errorf("invitation %d never committed: %w", p.InvitationID, asynq.SkipRetry)
		}
		return errInvitationNotYetVisible
	}
	if err != nil {
		return err
	}
	if inv.Status != postgres.InvitationPending {
		return nil // cancelled, accepted or expired meanwhile: nothing to deliver
	}
	switch p.Via {
	case jobs.ViaWhatsApp:
		if inv.WhatsAppSentAt != nil || inv.InviteePhone == nil {
			return nil
		}
		err = w.deps.WhatsApp.SendInvitation(ctx, *inv.InviteePhone, invitationMessage(inv, w.deps.PublicBaseURL))
	default:
		if inv.EmailSentAt != nil {
			return nil
		}
		err = w.deps.Email.SendEmail(ctx, invitationEmail(inv, w.deps.PublicBaseURL))
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) {
			return fmt.Errorf("deliver invitation %d by %s: %w: %w", inv.ID, p.Via, err, asynq.SkipRetry)
		}
		return fmt.Errorf("deliver invitation %d by %s: %w", inv.ID, p.Via, err)
	}
	via := postgres.InvitationViaEmail
	if p.Via == jobs.ViaWhatsApp {
		via = postgres.InvitationViaWhatsApp
	}
	return store.MarkInvitationSent(ctx, inv.ID, via)
}

// handleExpireInvitations flips every pending invitation past its expiry to expired, in batches.
func (w *Worker) handleExpireInvitations(ctx context.Context, _ *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	n, err := store.ExpireInvitations(ctx, postgres.DefaultExpireBatch)
	if err != nil {
		return err
	}
	if n > 0 {
		w.deps.Logger.Info("invitations expired", "count", n)
	}
	return nil
}

// invitationMessage is what the WhatsApp invitation template shows. The template needs a
// non-empty company parameter, so the product name stands in when none was given.
func invitationMessage(inv postgres.Invitation, base string) perfilseguro.InvitationMessage {
	company := "Perfil Seguro"
	if inv.CompanyName != nil && strings.TrimSpace(*inv.CompanyName) != "" {
		company = *inv.CompanyName
	}
	msg := perfilseguro.InvitationMessage{InviteeName: inv.InviteeName, InviterName: inv.InviterName,
		CompanyName: company, Link: inv.Link(base), ExpiresAt: inv.ExpiresAt}
	if inv.PersonalMessage != nil {
		msg.PersonalMessage = *inv.PersonalMessage
	}
	return msg
}

// invitationRole names the invitation type in Spanish.
func invitationRole(kind string) string {
	if kind == postgres.InvitationBroker {
		return "broker"
	}
	return "cliente"
}

// invitationEmail is the invitation e-mail in Spanish, in plain text and HTML (escaped).
func invitationEmail(inv postgres.Invitation, base string) perfilseguro.Email {
	link := inv.Link(base)
	expires := perfilseguro.MexicoDate(inv.ExpiresAt)
	role := invitationRole(inv.Type)
	var text, page strings.Builder
	fmt.Fprintf(&text, "Hola %s:\n\n%s te invita a unirte a Perfil Seguro como %s", inv.InviteeName, inv.InviterName, role)
	fmt.Fprintf(&page, `<p>Hola %s:</p>
<p><strong>%s</strong> te invita a unirte a <strong>Perfil Seguro</strong> como %s`,
		html.EscapeString(inv.InviteeName), html.EscapeString(inv.InviterName), role)
	if inv.CompanyName != nil && *inv.CompanyName != "" {
		fmt.Fprintf(&text, " de %s", *inv.CompanyName)
		fmt.Fprintf(&page, " de <strong>%s</strong>", html.EscapeString(*inv.CompanyName))
	}
	text.WriteString(".\n\n")
	page.WriteString(".</p>\n")
	if inv.PersonalMessage != nil && *inv.PersonalMessage != "" {
		fmt.Fprintf(&text, "Mensaje de %s:\n%s\n\n", inv.InviterName, *inv.PersonalMessage)
		fmt.Fprintf(&page, `<blockquote style="border-left:4px solid #ccc;margin:0;padding-left:12px">%s</blockquote>
`, strings.ReplaceAll(html.EscapeString(*inv.PersonalMessage), "\n", "<br>"))
	}
	fmt.Fprintf(&text, "Acepta la invitación aquí:\n%s\n\nTu código de invitación: %s\nLa invitación vence el %s.\n\n"+
		"Si no esperabas esta invitación, ignora este mensaje.", link, inv.Code, expires)
	fmt.Fprintf(&page, `<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Aceptar invitación</a></p>
<p>O copia este enlace en tu navegador:<br><a href="%s">%s</a></p>
<p>Tu código de invitación: <strong>%s</strong><br>La invitación vence el %s.</p>
<p>Si no esperabas esta invitación, ignora este mensaje.</p>`,
		html.EscapeString(link), html.EscapeString(link), html.EscapeString(link), html.EscapeString(inv.Code), expires)
	return perfilseguro.Email{To: inv.InviteeEmail, Subject: inv.InviterName + " te invita a Perfil Seguro",
		Text: text.String(), HTML: page.String()}
}
