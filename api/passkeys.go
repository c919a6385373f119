package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/passkey"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// People's passkeys (issue 26): sign-in without a code, and their list in Mi Perfil. The
// ceremonies and their storage are the passkey package's; here are the routes, the session, the
// limits and the audit trail.

// Limits of the passkey routes, per hour and person.
const (
	passkeyChangesPerHour = 30
	passkeyReadsPerHour   = 600
)

// verificationTypePasskey is VerifyData.verificationType after a passkey sign-in.
const verificationTypePasskey = "passkey"

// errPasskeysUnavailable: PUBLIC_BASE_URL cannot be a relying party (an IP address, say).
var errPasskeysUnavailable = perfilseguro.Errorf(perfilseguro.EUNAVAILABLE,
	"Las llaves de acceso no están disponibles en esta dirección. Entra con tu código.")

var errBadCredentialID = perfilseguro.FieldError("credentialId", "Identificador de llave de acceso no válido")

func (s *Server) mountPasskeys() {
	svc, err := passkey.New(s.db, s.cfg.PublicBaseURL, s.now)
	if err != nil {
		s.logger.Warn("passkeys are off: PUBLIC_BASE_URL cannot be a WebAuthn relying party", "error", err)
	}
	s.passkeys = svc
	auth := option.Tags("Autenticación")
	fuego.Post(s.f, "/api/auth/passkey/options", s.passkeySignInOptions, auth,
		option.Summary("Iniciar sesión con llave de acceso: opciones para navigator.credentials.get (sin teléfono ni correo)"),
		option.Description("Pone la cookie ps_webauthn (5 minutos) que ata el desafío a este navegador."))
	fuego.Post(s.f, "/api/auth/passkey/verify", s.passkeySignIn, auth,
		option.Summary("Iniciar sesión con llave de acceso: verifica la respuesta del navegador y abre la misma sesión que un código"))
	tag := option.Tags("Usuarios")
	fuego.Get(s.f, "/api/users/{id}/passkeys", s.listPasskeys, tag, option.Summary("Mis llaves de acceso"))
	fuego.Post(s.f, "/api/users/{id}/passkeys/options", s.passkeyRegistrationOptions, tag,
		option.Summary("Crear una llave de acceso: opciones para navigator.credentials.create (tras confirmar en los últimos 5 minutos con un código o una llave; si no, 403)"))
	fuego.Post(s.f, "/api/users/{id}/passkeys", s.createPasskey, tag, option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Crear una llave de acceso: guarda la respuesta del navegador (tras confirmar en los últimos 5 minutos con un código o una llave; si no, 403)"))
	fuego.Patch(s.f, "/api/users/{id}/passkeys/{credentialId}", s.renamePasskey, tag,
		option.Summary("Cambiar el nombre de una llave de acceso"))
	fuego.Delete(s.f, "/api/users/{id}/passkeys/{credentialId}", s.deletePasskey, tag,
		option.Summary("Eliminar una llave de acceso"))
}

// PasskeyOptionsJSON is what the browser passes to navigator.credentials.create or .get
// (WebAuthn's JSON form; @simplewebauthn/browser takes publicKey as optionsJSON).
type PasskeyOptionsJSON struct {
	PublicKey map[string]any `json:"publicKey"`
	Mediation string         `json:"mediation,omitempty"`
}

// PasskeyCredentialJSON is the browser's PublicKeyCredential in WebAuthn's JSON form
// (PublicKeyCredential.toJSON(), or what @simplewebauthn/browser returns).
type PasskeyCredentialJSON struct {
	ID                      string         `json:"id"`
	RawID                   string         `json:"rawId"`
	Type                    string         `json:"type" enum:"public-key"`
	Response                map[string]any `json:"response"`
	ClientExtensionResults  map[string]any `json:"clientExtensionResults,omitempty"`
	AuthenticatorAttachment string         `json:"authenticatorAttachment,omitempty"`
}

// PasskeyRegistrationRequest finishes creating a passkey; name is optional.
type PasskeyRegistrationRequest struct {
	Name       string                `json:"name,omitempty"`
	Credential PasskeyCredentialJSON `json:"credential"`
}

// passkeyRegistrationBody is PasskeyRegistrationRequest with the credential kept as sent.
type passkeyRegistrationBody struct {
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// enrolVerifyBody is an enrolment link's new passkey (AdminEnrolVerifyRequest,
// PartnerEnrolVerifyRequest) with the credential kept as sent.
type enrolVerifyBody struct {
	Token      string          `json:"token"`
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// PasskeyRenameRequest renames a passkey.
type PasskeyRenameRequest struct {
	Name string `json:"name"`
}

// PasskeyJSON is one of the person's passkeys.
type PasskeyJSON struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	// Synced: kept by a password manager or the phone's keychain; otherwise only on one device.
	Synced bool `json:"synced"`
	// Blocked: its sign count went backwards (possibly copied); it no longer signs in.
	Blocked bool `json:"blocked"`
}

// PasskeyDeleted confirms a deletion.
type PasskeyDeleted struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func passkeyJSON(c passkey.Credential) PasskeyJSON {
	return PasskeyJSON{ID: c.ID, Name: c.Name, CreatedAt: c.CreatedAt, LastUsedAt: c.LastUsedAt, Synced: c.Synced, Blocked: c.CloneWarning}
}

// optionsJSON answers a begun ceremony: its options in the documented shape, or the error that began none.
func optionsJSON(o passkey.Options, err error) (PasskeyOptionsJSON, error) {
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	out := PasskeyOptionsJSON{Mediation: o.Mediation}
	if err := json.Unmarshal(o.PublicKey, &out.PublicKey); err != nil {
		return PasskeyOptionsJSON{}, fmt.Errorf("passkey options: %w", err)
	}
	return out, nil
}

// passkeyService is the service, or 503 when PUBLIC_BASE_URL cannot be a relying party.
func (s *Server) passkeyService() (*passkey.Service, error) {
	if s.passkeys == nil {
		return nil, errPasskeysUnavailable
	}
	return s.passkeys, nil
}

// ceremonyKey sets the ceremony cookie (ps_webauthn) for a ceremony about to begin and returns its key.
func (s *Server) ceremonyKey(w http.ResponseWriter, r *http.Request) string {
	return passkey.SessionKey(w, r, s.cfg.Production())
}

func (s *Server) passkeySignInOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	svc, err := s.passkeyService()
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	if err := s.allow(r.Context(), limit{"passkey:ip:" + clientIP(r), s.limits.VerifyPerIP}); err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginLogin(r.Context(), passkey.KindUser, s.ceremonyKey(c.Response(), r)))
}

// passkeySignIn signs a person in with a passkey: the same session and answer as a code, and no
// message is sent to anyone.
func (s *Server) passkeySignIn(c fuego.ContextWithBody[PasskeyCredentialJSON]) (VerifyCodeResponse, error) {
	r := c.Request()
	ctx := r.Context()
	svc, err := s.passkeyService()
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	if err := s.allow(ctx, limit{"passkey:ip:" + clientIP(r), s.limits.VerifyPerIP}); err != nil {
		return VerifyCodeResponse{}, err
	}
	raw, err := decodeJSON[json.RawMessage](r)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	owner, cred, err := svc.FinishLogin(ctx, passkey.KindUser, passkey.SessionKeyFrom(r), raw)
	if err != nil {
		s.auditPasskey(r, "person.passkey_signin", 0, "", err)
		return VerifyCodeResponse{}, err
	}
	var token string
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		token, err = s.openSession(ctx, tx, r, owner.ID)
		return err
	})
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	u, err := s.store.UserByID(ctx, owner.ID)
	if err != nil {
		return VerifyCodeResponse{}, err
	}
	s.setSessionCookie(c.Response(), token)
	s.auditPasskey(r, "person.passkey_signin", owner.ID, strconv.FormatInt(cred.ID, 10), nil)
	return signedInResponse(u, verificationTypePasskey), nil
}

// passkeyOwner checks the path's person is the one signed in (and charges the limit) and
// returns them as a passkey owner.
func (s *Server) passkeyOwner(c interface {
	PathParam(string) string
	Request() *http.Request
}, scope string, perHour int) (*passkey.Service, passkey.Owner, error) {
	svc, err := s.passkeyService()
	if err != nil {
		return nil, passkey.Owner{}, err
	}
	id, err := s.ownerOf(c, scope, perHour)
	if err != nil {
		return nil, passkey.Owner{}, err
	}
	return svc, passkey.Owner{Kind: passkey.KindUser, ID: id}, nil
}

func (s *Server) listPasskeys(c fuego.ContextNoBody) ([]PasskeyJSON, error) {
	svc, owner, err := s.passkeyOwner(c, "passkey-read", passkeyReadsPerHour)
	if err != nil {
		return nil, err
	}
	list, err := svc.List(c.Request().Context(), owner)
	if err != nil {
		return nil, err
	}
	return mapped(list, passkeyJSON), nil
}

func (s *Server) passkeyRegistrationOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	svc, owner, err := s.passkeyOwner(c, "passkey", passkeyChangesPerHour)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	if err := s.requirePasskeyConfirmation(r); err != nil { // account_changes.go
		return PasskeyOptionsJSON{}, err
	}
	u, err := s.store.UserByID(r.Context(), owner.ID)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	// The picker shows the e-mail (or the phone) under the person's name.
	owner.Name, owner.DisplayName = deref(u.Email), u.Nombre
	if owner.Name == "" {
		owner.Name = deref(u.PhoneNumber)
	}
	return optionsJSON(svc.BeginRegistration(r.Context(), owner, s.ceremonyKey(c.Response(), r)))
}

func (s *Server) createPasskey(c fuego.ContextWithBody[PasskeyRegistrationRequest]) (PasskeyJSON, error) {
	r := c.Request()
	svc, owner, err := s.passkeyOwner(c, "passkey", passkeyChangesPerHour)
	if err != nil {
		return PasskeyJSON{}, err
	}
	// A session alone cannot add what then confirms contact changes and signs in.
	if err := s.requirePasskeyConfirmation(r); err != nil {
		return PasskeyJSON{}, err
	}
	req, err := decodeJSON[passkeyRegistrationBody](r)
	if err != nil {
		return PasskeyJSON{}, err
	}
	var cred passkey.Credential
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		cred, err = svc.FinishRegistration(ctx, owner, passkey.SessionKeyFrom(r), req.Credential, req.Name)
		if err == nil {
			err = s.announcePasskey(ctx, svc, owner, cred)
		}
		return s.labelled(r, personEvent(owner.ID, "person.passkey_create", strconv.FormatInt(cred.ID, 10), nil)), err
	})
	if err != nil {
		s.auditPasskey(r, "person.passkey_create", owner.ID, "", err) // the refused attempt, on its own
		return PasskeyJSON{}, err
	}
	setStatus(c, http.StatusCreated)
	return passkeyJSON(cred), nil
}

// announcePasskey queues the notice that tells whoever holds the account's contact of a new
// passkey (issue 54, item 21). No passkey stays unannounced: when the notice cannot be queued
// (Redis unreachable) the passkey just stored is removed again and the person gets the 503.
func (s *Server) announcePasskey(ctx context.Context, svc *passkey.Service, owner passkey.Owner, cred passkey.Credential) error {
	task, err := jobs.NewSendPasskeyAddedNoticeTask(jobs.SendPasskeyAddedNoticePayload{UserID: owner.ID, CredentialID: cred.ID,
		Name: cred.Name, AddedAt: cred.CreatedAt})
	if err = s.enqueue(ctx, task, err); err == nil {
		return nil
	}
	if _, derr := svc.Delete(context.WithoutCancel(ctx), owner, cred.ID); derr != nil {
		return errors.Join(err, fmt.Errorf("remove unannounced passkey %d: %w", cred.ID, derr))
	}
	return err
}

// pathCredentialID reads {credentialId}.
func pathCredentialID(c interface{ PathParam(string) string }) (int64, error) {
	id, err := strconv.ParseInt(c.PathParam("credentialId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errBadCredentialID
	}
	return id, nil
}

// passkeyInPath is passkeyOwner for a change to the passkey in {credentialId}, and that id.
func (s *Server) passkeyInPath(c interface {
	PathParam(string) string
	Request() *http.Request
}) (*passkey.Service, passkey.Owner, int64, error) {
	svc, owner, err := s.passkeyOwner(c, "passkey", passkeyChangesPerHour)
	if err != nil {
		return nil, passkey.Owner{}, 0, err
	}
	credID, err := pathCredentialID(c)
	return svc, owner, credID, err
}

func (s *Server) renamePasskey(c fuego.ContextWithBody[PasskeyRenameRequest]) (PasskeyJSON, error) {
	r := c.Request()
	svc, owner, credID, err := s.passkeyInPath(c)
	if err != nil {
		return PasskeyJSON{}, err
	}
	req, err := decodeJSON[PasskeyRenameRequest](r)
	if err != nil {
		return PasskeyJSON{}, err
	}
	before, err := s.findPasskey(r, svc, owner, credID)
	if err != nil {
		return PasskeyJSON{}, err
	}
	var cred passkey.Credential
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		var err error
		cred, err = svc.Rename(ctx, owner, credID, req.Name)
		e := personEvent(owner.ID, "person.passkey_rename", strconv.FormatInt(credID, 10), nil)
		e.Changes = diff(map[string][2]any{"name": {before.Name, cred.Name}})
		return s.labelled(r, e), err
	})
	if err != nil {
		return PasskeyJSON{}, err
	}
	return passkeyJSON(cred), nil
}

// findPasskey is one of owner's passkeys, or 404.
func (s *Server) findPasskey(r *http.Request, svc *passkey.Service, owner passkey.Owner, id int64) (passkey.Credential, error) {
	list, err := svc.List(r.Context(), owner)
	if err != nil {
		return passkey.Credential{}, err
	}
	for _, p := range list {
		if p.ID == id {
			return p, nil
		}
	}
	return passkey.Credential{}, passkey.ErrNotFound
}

func (s *Server) deletePasskey(c fuego.ContextNoBody) (PasskeyDeleted, error) {
	r := c.Request()
	svc, owner, credID, err := s.passkeyInPath(c)
	if err != nil {
		return PasskeyDeleted{}, err
	}
	err = s.audited(r, func(ctx context.Context) (postgres.AuditEvent, error) {
		gone, err := svc.Delete(ctx, owner, credID)
		e := personEvent(owner.ID, "person.passkey_delete", strconv.FormatInt(credID, 10), nil)
		e.Changes = map[string]postgres.Change{"name": {Before: gone.Name, After: nil}}
		return s.labelled(r, e), err
	})
	if err != nil {
		return PasskeyDeleted{}, err
	}
	return PasskeyDeleted{Success: true, Message: "Eliminamos la llave de acceso."}, nil
}

// Re-authentication with a passkey instead of a confirmation code (privacy_rights.go).

func (s *Server) passkeyConfirmationOptions(c fuego.ContextNoBody) (PasskeyOptionsJSON, error) {
	r := c.Request()
	svc, owner, err := s.passkeyOwner(c, "confirm", rectificationsPerHour)
	if err != nil {
		return PasskeyOptionsJSON{}, err
	}
	return optionsJSON(svc.BeginAssertion(r.Context(), owner, s.ceremonyKey(c.Response(), r)))
}

func (s *Server) confirmWithPasskey(c fuego.ContextWithBody[PasskeyCredentialJSON]) (ConfirmationResponse, error) {
	r := c.Request()
	ctx := r.Context()
	svc, owner, err := s.passkeyOwner(c, "confirm", rectificationsPerHour)
	if err != nil {
		return ConfirmationResponse{}, err
	}
	raw, err := decodeJSON[json.RawMessage](r)
	if err != nil {
		return ConfirmationResponse{}, err
	}
	cred, err := svc.FinishAssertion(ctx, owner, passkey.SessionKeyFrom(r), raw)
	if err != nil {
		s.auditPasskey(r, "person.passkey_confirm", owner.ID, "", err)
		return ConfirmationResponse{}, err
	}
	now := s.now()
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error { return s.store.ConfirmSession(ctx, tx, sessionHash(r), now) })
	if err != nil {
		return ConfirmationResponse{}, err
	}
	s.auditPasskey(r, "person.passkey_confirm", owner.ID, strconv.FormatInt(cred.ID, 10), nil)
	return ConfirmationResponse{ConfirmedUntil: now.Add(perfilseguro.ConfirmationLifetime)}, nil
}

// personEvent is an audit event whose actor is the person userID (0: not known), about one of
// their passkeys (targetID).
func personEvent(userID int64, action, targetID string, err error) postgres.AuditEvent {
	e := postgres.AuditEvent{ActorKind: postgres.ActorPerson, Action: action, TargetKind: "passkey", TargetID: targetID,
		Outcome: postgres.OutcomeOK}
	if userID != 0 {
		e.ActorID = &userID
	}
	var de *perfilseguro.Error
	switch {
	case err == nil:
	case errors.As(err, &de) && (de.Code == perfilseguro.EFORBIDDEN || de.Code == perfilseguro.EUNAUTHORIZED):
		e.Outcome = postgres.OutcomeDenied
	default:
		e.Outcome = postgres.OutcomeFailed
	}
	return e
}

// auditPasskey records a passkey sign-in, creation or confirmation, successful or not.
func (s *Server) auditPasskey(r *http.Request, action string, userID int64, targetID string, err error) {
	s.audit(r, s.labelled(r, personEvent(userID, action, targetID, err)))
}

// labelled names the person acting by their profile ID, as the rest of the trail does.
func (s *Server) labelled(r *http.Request, e postgres.AuditEvent) postgres.AuditEvent {
	if e.ActorID != nil {
		if u, err := s.store.UserByID(r.Context(), *e.ActorID); err == nil {
			e.ActorLabel = u.IDValidado
		}
	}
	return e
}
