package worker

import (
	"context"
	"errors"
	"fmt"
	"html"
	"math"
	"time"

	"github.com/hibiken/asynq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// reminderBatch is how many unsent reminders one run queues.
const reminderBatch = 1000

func (w *Worker) routesReminders() {
	w.mux.HandleFunc(jobs.TypeRecordReminders, w.handleRecordReminders)
	w.mux.HandleFunc(jobs.TypeSendReminder, decoded("reminder", func(p jobs.SendReminderPayload) bool { return p.ReminderID > 0 }, w.handleSendReminder))
}

// handleRecordReminders records the reminders due now (once each, in Postgres first) and queues
// every reminder not yet delivered: the new ones, and any whose enqueue was lost.
func (w *Worker) handleRecordReminders(ctx context.Context, _ *asynq.Task) error {
	store := postgres.Store{DB: w.deps.DB}
	n, err := store.RecordDueReminders(ctx, w.now())
	if err != nil {
		return err
	}
	if n > 0 {
		w.deps.Logger.Info("renewal reminders recorded", "count", n)
	}
	ids, err := store.UnsentReminders(ctx, reminderBatch)
	if err != nil {
		return err
	}
	for _, id := range ids {
		task, err := jobs.NewSendReminderTask(id)
		if err := jobs.Enqueue(ctx, w.deps.Enqueuer, task, err); err != nil {
			return fmt.Errorf("queue reminder %d: %w", id, err) // the rows stay: the next run queues them
		}
	}
	return nil
}

// handleSendReminder delivers one reminder, once: a reminder already sent, about a validity that
// changed (renewed, revoked, expired) or to a contact that is gone is not sent.
func (w *Worker) handleSendReminder(ctx context.Context, p jobs.SendReminderPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	r, err := store.ReminderByID(ctx, p.ReminderID)
	if stop, err := gone(err, postgres.ErrReminderNotFound); stop {
		return err // nil when the account was deleted
	}
	if r.SentAt != nil || r.FailedAt != nil {
		return nil
	}
	u, ok, err := userOrGone(ctx, store, r.UserID)
	if !ok {
		return err
	}
	now := w.now()
	if why := reminderObsolete(u, r, now); why != "" {
		return store.MarkReminderFailed(ctx, r.ID, why)
	}
	if ok, err := store.AllowsSecondaryUse(ctx, w.deps.DB, u.ID, perfilseguro.PurposeReminders); err != nil {
		return err
	} else if !ok {
		return store.MarkReminderFailed(ctx, r.ID, "la persona se opuso a los recordatorios")
	}
	msg := perfilseguro.RenewalReminder{Name: u.Nombre, ProfileID: u.IDValidado, ValidUntil: r.ValidUntil,
		DaysLeft: int(math.Ceil(r.ValidUntil.Sub(now).Hours() / 24)), Link: w.deps.PublicBaseURL + "/profile"}
	switch {
	case r.Channel == postgres.ReminderEmail && u.Email != nil:
		err = w.sendersFor(u.Mode()).email.SendEmail(ctx, reminderEmail(*u.Email, msg, jobs.IDCap(u)))
	case r.Channel == postgres.ReminderWhatsApp && u.PhoneNumber != nil:
		err = w.sendersFor(u.Mode()).whatsapp.SendRenewalReminder(ctx, *u.PhoneNumber, msg)
	default:
		return store.MarkReminderFailed(ctx, r.ID, "sin destino en este canal")
	}
	if err != nil {
		if errors.Is(err, perfilseguro.ErrPermanent) || lastAttempt(ctx) {
			// Given up: recorded, so the next run does not queue it again.
			if markErr := store.MarkReminderFailed(ctx, r.ID, err.Error()); markErr != nil {
				return markErr
			}
			return fmt.Errorf("reminder %d by %s: %w: %w", r.ID, r.Channel, err, asynq.SkipRetry)
		}
		return fmt.Errorf("reminder %d by %s: %w", r.ID, r.Channel, err)
	}
	return store.MarkReminderSent(ctx, r.ID)
}

// reminderObsolete says why a recorded reminder must not go out any more, or "".
func reminderObsolete(u perfilseguro.User, r postgres.ExpiryReminder, now time.Time) string {
	until := u.ValidUntil()
	switch {
	case u.RevokedAt != nil:
		return "perfil revocado"
	case u.ExpiredAt != nil || !now.Before(r.ValidUntil):
		return "la validación ya venció"
	case until == nil || until.Sub(r.ValidUntil).Abs() > 36*time.Hour:
		// Postgres and Go add the years in their own time zones: a renewal moves the end by far more.
		return "la validación cambió (renovada o editada)"
	}
	return ""
}

// reminderEmail is the renewal reminder in Spanish, in plain text and HTML (escaped). idExpiry is
// the ID's expiry date when it ends the validity before the plan (jobs.IDCap): the reminder then
// names that date, says the ID is why, and asks for a valid ID to renew.
func reminderEmail(to string, r perfilseguro.RenewalReminder, idExpiry *time.Time) perfilseguro.Email {
	days := fmt.Sprintf("%d días", r.DaysLeft)
	if r.DaysLeft == 1 {
		days = "1 día"
	}
	date := perfilseguro.MexicoDate(r.ValidUntil)
	why := ""
	if idExpiry != nil {
		// The ID is valid through its expiry date: that day is the last one of the validity.
		date = idExpiry.UTC().Format("02/01/2006")
		why = " (tu identificación vence el " + date + "; para renovarla necesitarás una identificación vigente)"
	}
	text := fmt.Sprintf("Hola %s:\n\nLa validación de tu identidad en Perfil Seguro (%s) vence el %s, en %s%s. "+
		"Después de esa fecha, tu perfil público, tu código QR y tus pases de Wallet dirán «Expirado».\n\n"+
		"Para renovarla, entra a Mi Perfil y haz de nuevo la verificación biométrica:\n%s\n\n"+
		"Si ya la renovaste, ignora este mensaje.", r.Name, r.ProfileID, date, days, why, r.Link)
	link := html.EscapeString(r.Link)
	page := fmt.Sprintf(`<p>Hola %s:</p>
<p>La validación de tu identidad en <strong>Perfil Seguro</strong> (%s) vence el <strong>%s</strong>, en %s%s. Después de esa fecha, tu perfil público, tu código QR y tus pases de Wallet dirán «Expirado».</p>
<p><a href="%s" style="display:inline-block;padding:12px 20px;background:#2563eb;color:#fff;border-radius:8px;text-decoration:none">Renovar mi validación</a></p>
<p>O copia este enlace en tu navegador:<br><a href="%s">%s</a></p>
<p>Si ya la renovaste, ignora este mensaje.</p>`,
		html.EscapeString(r.Name), html.EscapeString(r.ProfileID), date, days, html.EscapeString(why), link, link, link)
	return perfilseguro.Email{To: to, Subject: "Tu validación en Perfil Seguro vence en " + days, Text: text, HTML: page}
}
