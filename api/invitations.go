package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/phone"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Invitation rules (SPEC §5 and §9).
const (
	invitationDefaultDays   = 7
	invitationMaxDays       = 30
	invitationCodeLength    = 12 // of at most 32 (SPEC §9)
	invitationMinCodeLength = 8  // SPEC §5 'Accept invitation'
	maxPersonalMessage      = 1000
	maxCompanyName          = 200
	invitationsPerHour      = 100 // sent by one inviter
	invitationLookupsPerIP  = 300 // validate calls from one IP per hour
	invitationAcceptsPerIP  = 30  // acceptance attempts from one IP per hour
)

// invitationAlphabet leaves out characters people confuse (0/O, 1/I/L).
const invitationAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// Invitation messages (SPEC §8 where it has them).
var (
	errNotInviter          = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Acceso restringido. Completa tu verificación biométrica para acceder a invitaciones.")
	errInvitationCode      = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "Código de invitación inválido")
	errInvitationLink      = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "Link de invitación no válido o expirado")
	errInvitationNotOwn    = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "No tienes permiso para modificar esta invitación.")
	errInvitationNotPend   = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Solo se pueden cancelar invitaciones pendientes.")
	errBadInvitationID     = perfilseguro.FieldError("id", "ID de invitación no válido")
	invitationExpiredText  = "Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva."
	invitationAcceptedText = "Esta invitación ya fue aceptada. Inicia sesión para continuar."
)

func (s *Server) mountInvitations() {
	tag := option.Tags("Invitaciones")
	fuego.Post(s.f, "/api/invitations", s.createInvitation, tag, option.Summary("Enviar una invitación (nivel 3)"),
		option.DefaultStatusCode(http.StatusCreated))
	fuego.Get(s.f, "/api/invitations/validate", s.validateInvitationCode, tag, option.Summary("Validar un código de invitación"),
		option.Query("code", "Código de invitación"))
	fuego.Get(s.f, "/api/invitations/validate-token", s.validateInvitationToken, tag, option.Summary("Validar el link único de una invitación"),
		option.Query("token", "Token del link"))
	fuego.Post(s.f, "/api/invitations/accept", s.acceptInvitation, tag, option.Summary("Aceptar una invitación y crear la cuenta"))
	fuego.Get(s.f, "/api/users/{id}/invitations", s.listInvitations, tag, option.Summary("Invitaciones enviadas por el usuario (nivel 3)"))
	// The spec's first path for the same list; one template with DELETE below, so the contract
	// has one path per resource. Kept for older clients.
	fuego.Get(s.f, "/api/invitations/{id}", s.listInvitations, tag, option.Deprecated(),
		option.Summary("Invitaciones enviadas por el usuario (obsoleto: use GET /api/users/{id}/invitations)"))
	fuego.Delete(s.f, "/api/invitations/{id}", s.cancelInvitation, tag, option.Summary("Cancelar una invitación pendiente (nivel 3)"))
}

// requireInviter returns the signed-in user when they may invite (biometric level 3): 401 when
// signed out, 403 otherwise.
func (s *Server) requireInviter(r *http.Request) (perfilseguro.User, error) {
	id, err := s.requireUser(r)
	if err != nil {
		return perfilseguro.User{}, err
	}
	u, err := s.store.UserByID(r.Context(), id)
	if err != nil {
		return perfilseguro.User{}, err
	}
	if !u.BiometricVerified || u.VerificationLevel < perfilseguro.LevelBiometric {
		return perfilseguro.User{}, errNotInviter
	}
	if u.RevokedAt != nil {
		return perfilseguro.User{}, errRevokedInviter
	}
	if u.Mode() != perfilseguro.Live {
		// An invitation reaches a real person, who would join as a live one: not from a test account.
		return perfilseguro.User{}, errTestInviter
	}
	return u, nil
}

var errRevokedInviter = httpError(http.StatusForbidden,
	"Tu validación fue revocada: no puedes enviar invitaciones hasta que soporte revise tu caso.")

var errTestInviter = httpError(http.StatusForbidden, "Las cuentas de prueba de una plataforma no pueden enviar invitaciones.")

// InvitationJSON is an invitation as its inviter reads it.
type InvitationJSON struct {
	ID              int64      `json:"id"`
	InviterID       int64      `json:"inviterId"`
	InviteeEmail    string     `json:"inviteeEmail"`
	InviteePhone    *string    `json:"inviteePhone"`
	InviteeName     string     `json:"inviteeName"`
	InvitationCode  string     `json:"invitationCode"`
	Type            string     `json:"type" enum:"client,broker"`
	Status          string     `json:"status" enum:"pending,accepted,expired,cancelled"`
	PersonalMessage *string    `json:"personalMessage"`
	CompanyName     *string    `json:"companyName"`
	ExpiresAt       time.Time  `json:"expiresAt"`
	AcceptedAt      *time.Time `json:"acceptedAt"`
	AcceptedUserID  *int64     `json:"acceptedUserId"`
	CreatedAt       time.Time  `json:"createdAt"`
	UniqueLink      string     `json:"uniqueLink"`
}

func (s *Server) toInvitationJSON(i postgres.Invitation) InvitationJSON {
	return InvitationJSON{ID: i.ID, InviterID: i.InviterID, InviteeEmail: i.InviteeEmail, InviteePhone: i.InviteePhone,
		InviteeName: i.InviteeName, InvitationCode: i.Code, Type: i.Type, Status: i.Status,
		PersonalMessage: i.PersonalMessage, CompanyName: i.CompanyName, ExpiresAt: i.ExpiresAt,
		AcceptedAt: i.AcceptedAt, AcceptedUserID: i.AcceptedUserID, CreatedAt: i.CreatedAt,
		UniqueLink: i.Link(s.cfg.PublicBaseURL)}
}

// CreateInvitationRequest is the send form (SPEC §5 'Send invitation') plus the inviter.
type CreateInvitationRequest struct {
	InviterID       flexibleID `json:"inviterId,omitempty"` // must be the signed-in user when sent
	InviteeEmail    string     `json:"inviteeEmail"`
	InviteeName     string     `json:"inviteeName"`
	InviteePhone    string     `json:"inviteePhone,omitempty"`
	Type            string     `json:"type" enum:"client,broker"`
	PersonalMessage string     `json:"personalMessage,omitempty"`
	CompanyName     string     `json:"companyName,omitempty"`
	ExpiresInDays   *int       `json:"expiresInDays,omitempty"`
}

// validate applies SPEC §5 'Send invitation' and normalizes the fields.
func (req *CreateInvitationRequest) validate() error {
	fields := map[string]string{}
	req.InviteeEmail = perfilseguro.NormalizeEmail(req.InviteeEmail)
	if !perfilseguro.ValidEmail(req.InviteeEmail) {
		fields["inviteeEmail"] = "Email válido requerido"
	}
	req.InviteeName = strings.Join(strings.Fields(req.InviteeName), " ")
	if !perfilseguro.ValidateName(req.InviteeName, 2) {
		fields["inviteeName"] = "Nombre del invitado requerido"
	}
	if req.Type != postgres.InvitationClient && req.Type != postgres.InvitationBroker {
		fields["type"] = "Tipo debe ser 'client' o 'broker'"
	}
	if req.ExpiresInDays == nil {
		days := invitationDefaultDays
		req.ExpiresInDays = &days
	}
	if *req.ExpiresInDays < 1 || *req.ExpiresInDays > invitationMaxDays {
		fields["expiresInDays"] = "La vigencia debe ser de 1 a 30 días"
	}
	if p, err := invitationPhone(req.InviteePhone); err != nil {
		fields["inviteePhone"] = err.Error()
	} else {
		req.InviteePhone = p
	}
	req.PersonalMessage = strings.TrimSpace(req.PersonalMessage)
	if utf8.RuneCountInString(req.PersonalMessage) > maxPersonalMessage {
		fields["personalMessage"] = "El mensaje personal no puede exceder 1000 caracteres"
	}
	req.CompanyName = strings.Join(strings.Fields(req.CompanyName), " ")
	if utf8.RuneCountInString(req.CompanyName) > maxCompanyName {
		fields["companyName"] = "El nombre de la empresa no puede exceder 200 caracteres"
	}
	return fieldsError(fields, "inviteeEmail", "inviteeName", "type", "expiresInDays", "inviteePhone", "personalMessage", "companyName")
}

// invitationPhone applies the invitation phone rule (SPEC §5: digits and spaces, 10 digits,
// stored with +52); empty stays empty.
func invitationPhone(input string) (string, error) {
	digits := strings.ReplaceAll(strings.TrimSpace(input), " ", "")
	if digits == "" {
		return "", nil
	}
	if strings.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) || len(digits) != 10 {
		return "", errors.New("El teléfono debe tener 10 dígitos")
	}
	return phone.NormalizeMX(digits)
}

// optional turns an empty string into nil.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateInvitationResponse answers a sent invitation.
type CreateInvitationResponse struct {
	Success    bool           `json:"success"`
	Message    string         `json:"message"`
	Invitation InvitationJSON `json:"invitation"`
}

// withErrorField adds the spec's `error` field (SPEC §7: 'error field on failure') to an error.
func withErrorField(err error) error {
	ae := toAPIError(err)
	if ae.Body.Extra == nil {
		ae.Body.Extra = map[string]any{}
	}
	ae.Body.Extra["error"] = ae.Body.Message
	return ae
}

func (s *Server) createInvitation(c fuego.ContextWithBody[CreateInvitationRequest]) (CreateInvitationResponse, error) {
	res, err := s.sendInvitation(c)
	if err != nil {
		return CreateInvitationResponse{}, withErrorField(err)
	}
	setStatus(c, http.StatusCreated)
	return res, nil
}

func (s *Server) sendInvitation(c fuego.ContextWithBody[CreateInvitationRequest]) (CreateInvitationResponse, error) {
	r := c.Request()
	ctx := r.Context()
	me, err := s.requireInviter(r)
	if err != nil {
		return CreateInvitationResponse{}, err
	}
	req, err := decodeJSON[CreateInvitationRequest](r)
	if err != nil {
		return CreateInvitationResponse{}, err
	}
	if req.InviterID != 0 && int64(req.InviterID) != me.ID {
		return CreateInvitationResponse{}, errInvitationNotOwn
	}
	if err := req.validate(); err != nil {
		return CreateInvitationResponse{}, err
	}
	if err := s.allow(ctx, limit{"invite:user:" + strconv.FormatInt(me.ID, 10), invitationsPerHour}); err != nil {
		return CreateInvitationResponse{}, err
	}
	n := postgres.NewInvitation{InviterID: me.ID, InviteeEmail: req.InviteeEmail, InviteePhone: optional(req.InviteePhone),
		InviteeName: req.InviteeName, Type: req.Type, PersonalMessage: optional(req.PersonalMessage),
		CompanyName: optional(req.CompanyName), ExpiresAt: s.now().Add(time.Duration(*req.ExpiresInDays) * 24 * time.Hour)}
	var id int64
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		id, err = s.store.InsertInvitation(ctx, tx, n, func() (string, string) {
			return newInvitationCode(), secure.NewToken(32)
		})
		if err != nil {
			return err
		}
		// Enqueued inside the transaction: Redis down rolls the invitation back (503, nothing saved).
		return s.enqueueInvitation(ctx, id, n.ExpiresAt, n.InviteePhone != nil)
	})
	if err != nil {
		return CreateInvitationResponse{}, err
	}
	inv, err := s.store.InvitationByID(ctx, id)
	if err != nil {
		return CreateInvitationResponse{}, err
	}
	return CreateInvitationResponse{Success: true, Message: "Invitación enviada correctamente", Invitation: s.toInvitationJSON(inv)}, nil
}

// enqueueInvitation queues the e-mail and, with a phone, the WhatsApp delivery.
func (s *Server) enqueueInvitation(ctx context.Context, id int64, expires time.Time, withPhone bool) error {
	vias := []string{jobs.ViaEmail}
	if withPhone {
		vias = append(vias, jobs.ViaWhatsApp)
	}
	for _, via := range vias {
		task, err := jobs.NewSendInvitationTask(jobs.SendInvitationPayload{InvitationID: id, Via: via, ExpiresAt: expires})
		if err := s.enqueue(ctx, task, err); err != nil {
			return err
		}
	}
	return nil
}

// newInvitationCode draws a random code from the unambiguous alphabet.
func newInvitationCode() string {
	return secure.RandomString(invitationAlphabet, invitationCodeLength)
}

// listInvitations lists the signed-in inviter's own invitations.
func (s *Server) listInvitations(c fuego.ContextNoBody) ([]InvitationJSON, error) {
	r := c.Request()
	me, err := s.requireInviter(r)
	if err != nil {
		return nil, err
	}
	id, err := pathUserID(c)
	if err != nil {
		return nil, err
	}
	if id != me.ID {
		return nil, errNotYours
	}
	list, err := s.store.InvitationsByInviter(r.Context(), me.ID)
	if err != nil {
		return nil, err
	}
	return mapped(list, s.toInvitationJSON), nil
}

// CancelInvitationRequest optionally names the inviter (SPEC §7); it must be the signed-in user.
type CancelInvitationRequest struct {
	InviterID flexibleID `json:"inviterId,omitempty"`
}

// CancelInvitationResponse confirms a cancellation.
type CancelInvitationResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// cancelInvitation cancels one of the signed-in inviter's pending invitations.
func (s *Server) cancelInvitation(c fuego.ContextWithBody[CancelInvitationRequest]) (CancelInvitationResponse, error) {
	r := c.Request()
	ctx := r.Context()
	me, err := s.requireInviter(r)
	if err != nil {
		return CancelInvitationResponse{}, err
	}
	if r.ContentLength != 0 && r.Header.Get("Content-Type") != "" {
		req, err := decodeJSON[CancelInvitationRequest](r)
		if err != nil {
			return CancelInvitationResponse{}, err
		}
		if req.InviterID != 0 && int64(req.InviterID) != me.ID {
			return CancelInvitationResponse{}, errInvitationNotOwn
		}
	}
	id, err := pathID(c, errBadInvitationID)
	if err != nil {
		return CancelInvitationResponse{}, err
	}
	ok, err := s.store.CancelInvitation(ctx, id, me.ID)
	if err != nil {
		return CancelInvitationResponse{}, err
	}
	if !ok {
		inv, err := s.store.InvitationByID(ctx, id)
		switch {
		case err != nil:
			return CancelInvitationResponse{}, err
		case inv.InviterID != me.ID:
			return CancelInvitationResponse{}, errInvitationNotOwn
		default:
			return CancelInvitationResponse{}, errInvitationNotPend
		}
	}
	return CancelInvitationResponse{Success: true, Message: "Invitación cancelada"}, nil
}

// PublicInvitationJSON is what an invitee may read about their invitation.
type PublicInvitationJSON struct {
	InvitationCode  string    `json:"invitationCode"`
	InviteeName     string    `json:"inviteeName"`
	InviteeEmail    string    `json:"inviteeEmail"`
	Type            string    `json:"type" enum:"client,broker"`
	CompanyName     *string   `json:"companyName"`
	PersonalMessage *string   `json:"personalMessage"`
	InviterName     string    `json:"inviterName"`
	ExpiresAt       time.Time `json:"expiresAt"`
	Status          string    `json:"status" enum:"pending,accepted,expired,cancelled"`
}

func toPublicInvitation(i postgres.Invitation) PublicInvitationJSON {
	return PublicInvitationJSON{InvitationCode: i.Code, InviteeName: i.InviteeName, InviteeEmail: i.InviteeEmail,
		Type: i.Type, CompanyName: i.CompanyName, PersonalMessage: i.PersonalMessage, InviterName: i.InviterName,
		ExpiresAt: i.ExpiresAt, Status: i.Status}
}

// ValidateInvitationResponse answers a valid (pending) invitation.
type ValidateInvitationResponse struct {
	Success    bool                 `json:"success"`
	Invitation PublicInvitationJSON `json:"invitation"`
}

// usable answers a pending invitation, and otherwise the error for its state: expired (410,
// with the invitation so the screen can still show it), accepted or cancelled (invalid).
func usable(inv postgres.Invitation, invalid *perfilseguro.Error) (ValidateInvitationResponse, error) {
	switch inv.Status {
	case postgres.InvitationPending:
		return ValidateInvitationResponse{Success: true, Invitation: toPublicInvitation(inv)}, nil
	case postgres.InvitationExpired:
		ae := httpError(http.StatusGone, invitationExpiredText)
		ae.Body.Extra = map[string]any{"status": inv.Status, "invitation": toPublicInvitation(inv)}
		return ValidateInvitationResponse{}, ae
	default:
		ae := toAPIError(invalid)
		ae.Status = http.StatusConflict
		ae.Body.Extra = map[string]any{"status": inv.Status}
		return ValidateInvitationResponse{}, ae
	}
}

// lookUpInvitation charges the address's lookup limit and finds an invitation with find; a
// malformed key (wellFormed false) or an unknown one is notFound.
func (s *Server) lookUpInvitation(r *http.Request, wellFormed bool, notFound error,
	find func(context.Context) (postgres.Invitation, error)) (postgres.Invitation, error) {
	if err := s.allow(r.Context(), limit{"invitation-lookup:ip:" + clientIP(r), invitationLookupsPerIP}); err != nil {
		return postgres.Invitation{}, err
	}
	if !wellFormed {
		return postgres.Invitation{}, notFound
	}
	inv, err := find(r.Context())
	if errors.Is(err, postgres.ErrInvitationNotFound) {
		return postgres.Invitation{}, notFound
	}
	return inv, err
}

func (s *Server) validateInvitationCode(c fuego.ContextNoBody) (ValidateInvitationResponse, error) {
	r := c.Request()
	code := normalizeInvitationCode(r.URL.Query().Get("code"))
	inv, err := s.lookUpInvitation(r, len(code) >= invitationMinCodeLength && len(code) <= 32, errInvitationCode,
		func(ctx context.Context) (postgres.Invitation, error) { return s.store.InvitationByCode(ctx, code) })
	if err != nil {
		return ValidateInvitationResponse{}, err
	}
	return usable(inv, errInvitationCode)
}

func (s *Server) validateInvitationToken(c fuego.ContextNoBody) (ValidateInvitationResponse, error) {
	r := c.Request()
	token := strings.TrimSpace(r.URL.Query().Get("token"))
	inv, err := s.lookUpInvitation(r, len(token) == 64, errInvitationLink,
		func(ctx context.Context) (postgres.Invitation, error) { return s.store.InvitationByToken(ctx, token) })
	if err != nil {
		return ValidateInvitationResponse{}, err
	}
	if inv.TokenUsedAt != nil { // single-use link
		return ValidateInvitationResponse{}, errInvitationLink
	}
	return usable(inv, errInvitationLink)
}

// normalizeInvitationCode accepts codes typed in lower case or with spaces.
func normalizeInvitationCode(code string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(code), " ", ""))
}

// AccepterData is what the invitee fills in (SPEC §7).
type AccepterData struct {
	Nombre      string `json:"nombre"`
	PhoneNumber string `json:"phone_number"`
}

// AcceptInvitationRequest accepts an invitation by its code.
type AcceptInvitationRequest struct {
	InvitationCode string       `json:"invitationCode"`
	AccepterData   AccepterData `json:"accepterData"`
}

// validate applies SPEC §5 'Accept invitation' and normalizes the fields.
func (req *AcceptInvitationRequest) validate() error {
	fields := map[string]string{}
	req.InvitationCode = normalizeInvitationCode(req.InvitationCode)
	if len(req.InvitationCode) < invitationMinCodeLength || len(req.InvitationCode) > 32 {
		fields["invitationCode"] = "Código de invitación inválido"
	}
	req.AccepterData.Nombre = strings.Join(strings.Fields(req.AccepterData.Nombre), " ")
	if !perfilseguro.ValidateName(req.AccepterData.Nombre, 2) {
		fields["nombre"] = "Nombre requerido"
	}
	digits := strings.Count(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '#'
		}
		return -1
	}, req.AccepterData.PhoneNumber), "#")
	if digits < 10 {
		fields["phone_number"] = "Teléfono requerido"
	} else if p, err := phone.NormalizeMX(req.AccepterData.PhoneNumber); err != nil {
		fields["phone_number"] = err.Error()
	} else {
		req.AccepterData.PhoneNumber = p
	}
	return fieldsError(fields, "invitationCode", "nombre", "phone_number")
}

// AcceptedUserJSON is the new account (SPEC §7: user {id, name, email, profileId}).
type AcceptedUserJSON struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	ProfileID string `json:"profileId"`
}

// AcceptInvitationResponse answers an acceptance; the session cookie is set with it.
type AcceptInvitationResponse struct {
	Success bool             `json:"success"`
	Message string           `json:"message"`
	User    AcceptedUserJSON `json:"user"`
}

// acceptInvitation creates the invitee's account (origen 'invitación', invited by the inviter),
// marks the invitation accepted and starts the invitee's session, all or nothing. The phone is
// not verified by this (level 0): the invitee verifies it later with a code.
func (s *Server) acceptInvitation(c fuego.ContextWithBody[AcceptInvitationRequest]) (AcceptInvitationResponse, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeValid[AcceptInvitationRequest](r)
	if err != nil {
		return AcceptInvitationResponse{}, err
	}
	if err := s.allow(ctx, limit{"invitation-accept:ip:" + clientIP(r), invitationAcceptsPerIP}); err != nil {
		return AcceptInvitationResponse{}, err
	}
	session := secure.NewToken(32)
	var user AcceptedUserJSON
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		inv, err := s.store.LockInvitationByCode(ctx, tx, req.InvitationCode)
		if errors.Is(err, postgres.ErrInvitationNotFound) {
			return errInvitationCode
		}
		if err != nil {
			return err
		}
		switch inv.Status {
		case postgres.InvitationExpired:
			return httpError(http.StatusGone, invitationExpiredText)
		case postgres.InvitationAccepted:
			return httpError(http.StatusConflict, invitationAcceptedText)
		case postgres.InvitationCancelled:
			return httpError(http.StatusConflict, errInvitationCode.Message)
		}
		email := inv.InviteeEmail
		id, pid, err := s.store.InsertUser(ctx, tx, postgres.NewUser{Nombre: req.AccepterData.Nombre, Email: &email,
			Phone: &req.AccepterData.PhoneNumber, Origen: perfilseguro.OriginInvitation, InvitedBy: &inv.InviterID})
		if err != nil {
			return err
		}
		// The acceptance form states the privacy notice, as registration does (DECISIONS.md 'Privacy').
		if err := s.store.RecordConsent(ctx, tx, id, perfilseguro.PrivacyNoticeVersion, clientIP(r), r.UserAgent()); err != nil {
			return err
		}
		ok, err := s.store.MarkInvitationAccepted(ctx, tx, inv.ID, id)
		if err != nil {
			return err
		}
		if !ok { // expired between the read and the update
			return httpError(http.StatusGone, invitationExpiredText)
		}
		user = AcceptedUserJSON{ID: id, Name: req.AccepterData.Nombre, Email: email, ProfileID: pid}
		return s.store.InsertUserSession(ctx, tx, id, secure.HashToken(session), s.now().Add(sessionLifetime), clientIP(r), r.UserAgent())
	})
	if err != nil {
		return AcceptInvitationResponse{}, err
	}
	s.setSessionCookie(c.Response(), session)
	return AcceptInvitationResponse{Success: true, Message: "Invitación aceptada. ¡Bienvenido a Perfil Seguro!", User: user}, nil
}
