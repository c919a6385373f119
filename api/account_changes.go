package api

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Changes of a person's contacts and name, and what protects them (issue 54, items 21 and 22):
// the person's own change of e-mail or phone needs a fresh confirmation from the current contact
// (a code to it, or a passkey), ends every other session and is told to the old address with a
// link that undoes it for contactUndoWindow; an administrator's edit of the name or e-mail needs a
// fresh passkey confirmation and is told to the person at their old contact.

// contactUndoWindow is how long the old address may undo a contact change.
const contactUndoWindow = 7 * 24 * time.Hour

// errContactNeedsConfirmation: a contact change starts with a confirmation from the current contact.
var errContactNeedsConfirmation = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
	"Antes de cambiar tu correo o teléfono, confirma que eres tú con el código que enviamos a tu contacto actual o con tu llave de acceso. La confirmación vale 5 minutos.")

// requireContactConfirmation allows a contact change only to a session confirmed within
// ConfirmationLifetime (by a code to the current contact or by a passkey).
func (s *Server) requireContactConfirmation(r *http.Request) error {
	if err := s.requireFreshConfirmation(r); errors.Is(err, errNeedsConfirmation) {
		return errContactNeedsConfirmation
	} else if err != nil {
		return err
	}
	return nil
}

// errPasskeyNeedsConfirmation: adding a passkey starts with the same confirmation as a contact
// change, since a passkey then confirms contact changes and signs in (issue 54, item 21).
var errPasskeyNeedsConfirmation = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
	"Antes de crear una llave de acceso, confirma que eres tú con el código que enviamos a tu contacto actual o con una llave de acceso que ya tengas. La confirmación vale 5 minutos.")

// requirePasskeyConfirmation allows adding a passkey only to a session confirmed within
// ConfirmationLifetime; a person's first passkey can only be confirmed by a code.
func (s *Server) requirePasskeyConfirmation(r *http.Request) error {
	if err := s.requireFreshConfirmation(r); errors.Is(err, errNeedsConfirmation) {
		return errPasskeyNeedsConfirmation
	} else if err != nil {
		return err
	}
	return nil
}

// contactField names a code channel as an account change's field.
func contactField(channel string) string {
	if channel == postgres.ChannelPhone {
		return postgres.FieldPhone
	}
	return postgres.FieldEmail
}

// noticeTarget is where a change to field is told: the old value of that contact, else the
// person's other contact (e-mail first); empty when the account has none.
func noticeTarget(before perfilseguro.User, field string) (via, to string) {
	switch {
	case field == postgres.FieldPhone && deref(before.PhoneNumber) != "":
		return postgres.ChannelPhone, *before.PhoneNumber
	case field == postgres.FieldEmail && deref(before.Email) != "":
		return postgres.ChannelEmail, *before.Email
	case deref(before.Email) != "":
		return postgres.ChannelEmail, *before.Email
	case deref(before.PhoneNumber) != "":
		return postgres.ChannelPhone, *before.PhoneNumber
	}
	return "", ""
}

// recordAccountChange stores a change in tx and queues its notice there too (Redis down: the
// change rolls back, 503): nobody's contact changes without the old one being told.
func (s *Server) recordAccountChange(ctx context.Context, tx *sqlx.Tx, c postgres.AccountChange) error {
	id, err := s.store.RecordAccountChange(ctx, tx, c)
	if err != nil {
		return err
	}
	task, err := jobs.NewSendAccountChangeNoticeTask(id)
	return s.enqueue(ctx, task, err)
}

// applyContactChange is what a confirmed contact change does in its transaction, beside the
// change itself: it is recorded with its undo link and told to the old address, every other
// session of the account ends, and the audit trail has it.
func (s *Server) applyContactChange(r *http.Request, tx *sqlx.Tx, before perfilseguro.User, channel, address string) error {
	ctx := r.Context()
	if err := s.store.ChangeContact(ctx, tx, before.ID, channel, address); err != nil {
		return err
	}
	field := contactField(channel)
	old := before.Email
	if field == postgres.FieldPhone {
		old = before.PhoneNumber
	}
	token := secure.NewToken(32)
	c := postgres.AccountChange{UserID: before.ID, Field: field, Old: old, New: &address, Actor: postgres.ChangedByPerson,
		UndoTokenHash: secure.HashToken(token), UndoTokenSealed: s.sealer.Seal(token), UndoUntil: s.now().Add(contactUndoWindow)}
	c.NotifyVia, c.NotifyTo = noticeTarget(before, field)
	if err := s.recordAccountChange(ctx, tx, c); err != nil {
		return err
	}
	if _, err := s.store.EndOtherSessions(ctx, tx, before.ID, sessionHash(r)); err != nil {
		return err
	}
	id := before.ID
	e := s.withRequest(r, postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorID: &id, ActorLabel: before.IDValidado,
		Action: "person.contact_change", TargetKind: "user", TargetID: strconv.FormatInt(id, 10), Outcome: postgres.OutcomeOK,
		Changes: map[string]postgres.Change{field: {Before: deref(old), After: address}}})
	return postgres.AppendAudit(ctx, tx, e)
}

// recordAdminEdit records, in the edit's transaction, each changed name or e-mail of an
// administrator's edit, each told to the person at the contact they had before.
func (s *Server) recordAdminEdit(ctx context.Context, before, after perfilseguro.User) error {
	type field struct {
		name     string
		old, new *string
	}
	var changed []field
	if before.Nombre != after.Nombre {
		changed = append(changed, field{postgres.FieldNombre, &before.Nombre, &after.Nombre})
	}
	if deref(before.Email) != deref(after.Email) {
		changed = append(changed, field{postgres.FieldEmail, before.Email, after.Email})
	}
	if len(changed) == 0 {
		return nil
	}
	return s.store.InTx(ctx, func(tx *sqlx.Tx) error { // the audited action's transaction
		for _, f := range changed {
			c := postgres.AccountChange{UserID: before.ID, Field: f.name, Old: f.old, New: f.new, Actor: postgres.ChangedByAdmin}
			c.NotifyVia, c.NotifyTo = noticeTarget(before, f.name)
			if err := s.recordAccountChange(ctx, tx, c); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Server) mountAccountChanges() {
	s.handle("GET /api/account-changes/undo", http.HandlerFunc(s.undoPage),
		op("Privacidad", "Enlace del aviso de cambio de correo o teléfono: página que pide confirmar antes de deshacer el cambio",
			params(queryParam("token", "Token de 64 caracteres hexadecimales del enlace", true)),
			text("200", "Página en español con el botón «Deshacer el cambio»", "text/html"),
			text("404", "Página en español: el enlace no es válido", "text/html"),
			text("410", "Página en español: el enlace ya se usó o venció", "text/html")))
	undo := op("Privacidad", "Deshace el cambio de correo o teléfono del aviso (y los cambios de contacto posteriores): vuelven los datos "+
		"anteriores, se cierran todas las sesiones y se quitan las llaves de acceso de la cuenta",
		nil,
		text("200", "Página en español: el cambio se deshizo", "text/html"),
		text("404", "Página en español: el enlace no es válido", "text/html"),
		text("409", "Página en español: el dato anterior ya es de otra cuenta", "text/html"),
		text("410", "Página en español: el enlace ya se usó o venció", "text/html"))
	form := openapi3.NewObjectSchema().WithProperty("token", openapi3.NewStringSchema().WithMinLength(64).WithMaxLength(64))
	form.Required = []string{"token"}
	undo.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithSchema(form, []string{"application/x-www-form-urlencoded"})}
	s.handle("POST /api/account-changes/undo", http.HandlerFunc(s.undoContactChange), undo)
}

// The pages of the undo link.
var (
	undoUnknown = linkPage{"Enlace no válido",
		"Este enlace para deshacer un cambio no es válido. Revisa que lo hayas copiado completo o escríbenos a soporte."}
	undoSpent = linkPage{"Enlace ya utilizado o vencido",
		"Este enlace ya se usó o venció: funciona una sola vez durante 7 días después del cambio. Si alguien más cambió tus datos, escríbenos a soporte."}
	undoTaken = linkPage{"No pudimos deshacer el cambio",
		"Tu dato anterior ya está registrado en otra cuenta, así que no pudimos devolverlo a la tuya. Escríbenos a soporte para revisar tu cuenta."}
	undoDone = linkPage{"Cambio deshecho",
		"Tu cuenta volvió a tus datos anteriores, cerramos todas sus sesiones y quitamos sus llaves de acceso. Inicia sesión de nuevo con un código a tu correo o teléfono de siempre."}
	undoFailed = linkPage{"No pudimos deshacer el cambio",
		"Ocurrió un error al deshacer el cambio. Intenta abrir el enlace nuevamente en unos minutos."}
)

// undoFormTemplate asks before undoing: a link opened by a mail scanner changes nothing.
var undoFormTemplate = template.Must(template.New("undo").Parse(`<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deshacer el cambio · Perfil Seguro</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f1f5f9;color:#0f172a}
main{max-width:28rem;margin:1rem;background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:2rem;box-shadow:0 1px 3px rgba(15,23,42,.08);text-align:center}
.brand{font-weight:700;color:#1e40af;margin-bottom:1rem}
h1{font-size:1.4rem;margin:0 0 .75rem}
p{line-height:1.55;color:#334155}
button{margin-top:1rem;background:#b91c1c;color:#fff;border:0;font:inherit;font-weight:600;border-radius:.6rem;padding:.75rem 1.25rem;cursor:pointer}
</style></head><body><main>
<div class="brand">Perfil Seguro</div>
<h1>¿Deshacer el cambio de tus datos?</h1>
<p>Tu cuenta volverá al correo y teléfono que tenía antes del cambio, cerraremos todas sus sesiones y quitaremos sus llaves de acceso: quien haya hecho el cambio ya no podrá entrar. Después entra con un código y, si quieres, crea una llave nueva.</p>
<form method="post" action="/api/account-changes/undo">
<input type="hidden" name="token" value="{{.}}">
<button type="submit">Deshacer el cambio</button>
</form>
</main></body></html>`))

// undoToken reads the link's token; ok is false when it cannot be one.
func undoToken(v string) (string, bool) {
	return v, len(v) == 64
}

// undoPage shows the undo link's question, after checking the link is still good.
func (s *Server) undoPage(w http.ResponseWriter, r *http.Request) {
	token, ok := undoToken(r.URL.Query().Get("token"))
	if !ok {
		renderLinkPage(w, http.StatusNotFound, undoUnknown)
		return
	}
	ok, err := s.store.UndoLinkUsable(r.Context(), secure.HashToken(token), s.now())
	switch {
	case errors.Is(err, postgres.ErrUndoUnknown):
		renderLinkPage(w, http.StatusNotFound, undoUnknown)
	case err != nil:
		s.logger.ErrorContext(r.Context(), "read undo link", "error", err, "request_id", requestID(r.Context()))
		renderLinkPage(w, http.StatusInternalServerError, undoFailed)
	case !ok:
		renderLinkPage(w, http.StatusGone, undoSpent)
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		_ = undoFormTemplate.Execute(w, token)
	}
}

// undoContactChange undoes the link's change (postgres.UndoContactChanges), audited.
func (s *Server) undoContactChange(w http.ResponseWriter, r *http.Request) {
	token, ok := undoToken(r.PostFormValue("token"))
	if !ok {
		renderLinkPage(w, http.StatusNotFound, undoUnknown)
		return
	}
	var userID int64
	err := s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		userID, err = s.store.UndoContactChanges(ctx, secure.HashToken(token), s.now())
		id := userID
		return postgres.AuditEvent{ActorKind: postgres.ActorPerson, ActorID: &id, Action: "person.contact_undo",
			TargetKind: "user", TargetID: strconv.FormatInt(id, 10), Outcome: postgres.OutcomeOK}, err
	})
	switch {
	case errors.Is(err, postgres.ErrUndoUnknown):
		renderLinkPage(w, http.StatusNotFound, undoUnknown)
	case errors.Is(err, postgres.ErrUndoSpent):
		renderLinkPage(w, http.StatusGone, undoSpent)
	case errors.Is(err, postgres.ErrUndoTaken):
		renderLinkPage(w, http.StatusConflict, undoTaken)
	case err != nil:
		s.logger.ErrorContext(r.Context(), "undo contact change", "error", err, "request_id", requestID(r.Context()))
		renderLinkPage(w, http.StatusInternalServerError, undoFailed)
	default:
		s.public.forgetUser(userID) // other replicas hear it from Postgres
		s.clearSessionCookie(w)
		s.logger.InfoContext(r.Context(), "contact change undone", "user_id", userID, "request_id", requestID(r.Context()))
		renderLinkPage(w, http.StatusOK, undoDone)
	}
}
