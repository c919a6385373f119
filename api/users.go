package api

import (
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/secure"
)

func (s *Server) mountUsers() {
	tag := option.Tags("Usuarios")
	fuego.Get(s.f, "/api/users/search", s.searchUser, tag, option.Summary("Buscar el perfil propio"),
		option.Query("sessionToken", "Token de registro"), option.Query("profileId", "ID de perfil PS-…"),
		option.Query("email", "Correo electrónico"))
	fuego.Get(s.f, "/api/users/{id}", s.getUser, tag, option.Summary("Leer un usuario (dueño o administrador)"))
	fuego.Get(s.f, "/api/users/{id}/verification-status", s.verificationStatus, tag,
		option.Summary("Nivel de verificación del usuario"))
}

// UserJSON is a user as the clients read it (SPEC §3 'As read by the clients').
type UserJSON struct {
	ID                int64      `json:"id"`
	Nombre            string     `json:"nombre"`
	Email             *string    `json:"email"`
	PhoneNumber       *string    `json:"phoneNumber"`
	Origen            string     `json:"origen"`
	InviterName       *string    `json:"inviterName,omitempty"`
	Vigencia          int        `json:"vigencia"`
	IDValidado        string     `json:"id_validado"`
	ProfileID         string     `json:"profileId"`
	FechaValidacion   *time.Time `json:"fecha_validacion"`
	ValidUntil        *time.Time `json:"validUntil"`
	QRURL             string     `json:"qr_url"`
	VerificationLevel int        `json:"verificationLevel"`
	BiometricVerified bool       `json:"biometricVerified"`
	IsPhoneVerified   bool       `json:"isPhoneVerified"`
	IsEmailVerified   bool       `json:"isEmailVerified"`
	ExpiredAt         *time.Time `json:"expiredAt"`     // when the expiry was recorded
	RevokedAt         *time.Time `json:"revokedAt"`     // when an administrator revoked the validation
	RevokedReason     *string    `json:"revokedReason"` // why (the owner and administrators only)
	// TestAccount: a partner's test person (test mode): no public page, no pass, deleted after 30 days.
	TestAccount bool `json:"testAccount,omitempty"`
}

func toUserJSON(u perfilseguro.User) UserJSON {
	return UserJSON{ID: u.ID, Nombre: u.Nombre, Email: u.Email, PhoneNumber: u.PhoneNumber, Origen: u.Origen,
		InviterName: u.InviterName, Vigencia: u.Vigencia, IDValidado: u.IDValidado, ProfileID: u.IDValidado,
		FechaValidacion: u.FechaValidacion, ValidUntil: u.ValidUntil(), QRURL: "/api/qr/" + u.IDValidado + ".png",
		VerificationLevel: u.VerificationLevel, BiometricVerified: u.BiometricVerified,
		IsPhoneVerified: u.IsPhoneVerified, IsEmailVerified: u.IsEmailVerified, ExpiredAt: u.ExpiredAt,
		RevokedAt: u.RevokedAt, RevokedReason: u.RevokedReason, TestAccount: u.Mode() != perfilseguro.Live}
}

var errBadUserID = perfilseguro.FieldError("id", "ID de usuario no válido")

// pathID is the positive integer in the path's {id}; refusal is the error when it is not one.
func pathID(c interface{ PathParam(string) string }, refusal error) (int64, error) {
	id, err := strconv.ParseInt(c.PathParam("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, refusal
	}
	return id, nil
}

func pathUserID(c interface{ PathParam(string) string }) (int64, error) {
	return pathID(c, errBadUserID)
}

// getUser returns a user to its signed-in owner or to an administrator.
func (s *Server) getUser(c fuego.ContextNoBody) (UserJSON, error) {
	id, err := pathUserID(c)
	if err != nil {
		return UserJSON{}, err
	}
	if !s.isAdmin(c.Request()) { // administrators may read any user (admin.go)
		if err := s.requireOwner(c.Request(), id); err != nil {
			return UserJSON{}, err
		}
	}
	u, err := s.store.UserByID(c.Request().Context(), id)
	if err != nil {
		return UserJSON{}, err
	}
	return toUserJSON(u), nil
}

// VerificationStatusJSON is what the profile and header poll.
type VerificationStatusJSON struct {
	VerificationLevel   int     `json:"verificationLevel"`
	BiometricVerified   bool    `json:"biometricVerified"`
	BiometricVerified2  bool    `json:"biometric_verified"` // the spec reads both spellings
	IsPhoneVerified     bool    `json:"isPhoneVerified"`
	IsEmailVerified     bool    `json:"isEmailVerified"`
	LastBiometricStatus *string `json:"lastBiometricStatus"`
	// Revoked: an administrator revoked the validation; whatever the level says, it counts for nothing.
	Revoked bool `json:"revoked"`
	// Identity: what the latest approved check's ID certified (identity_outcome.go); null before one.
	Identity *IdentityOutcomeJSON `json:"identity" description:"Lo que certificó la identificación de la última verificación aprobada; null si aún no hay una"`
	// NameFromDocument: the profile's name is the one its ID gave.
	NameFromDocument bool `json:"nameFromDocument" description:"El nombre del perfil se tomó de la identificación oficial"`
}

func (s *Server) verificationStatus(c fuego.ContextNoBody) (VerificationStatusJSON, error) {
	id, err := pathUserID(c)
	if err != nil {
		return VerificationStatusJSON{}, err
	}
	if err := s.requireOwner(c.Request(), id); err != nil {
		return VerificationStatusJSON{}, err
	}
	v, err := s.store.VerificationStatusOf(c.Request().Context(), id)
	if err != nil {
		return VerificationStatusJSON{}, err
	}
	outcome, fromDocument, err := s.identityOutcome(c.Request().Context(), id)
	if err != nil {
		return VerificationStatusJSON{}, err
	}
	return VerificationStatusJSON{VerificationLevel: v.VerificationLevel, BiometricVerified: v.BiometricVerified,
		BiometricVerified2: v.BiometricVerified, IsPhoneVerified: v.IsPhoneVerified, IsEmailVerified: v.IsEmailVerified,
		LastBiometricStatus: v.LastBiometricStatus, Revoked: v.Revoked, Identity: outcome, NameFromDocument: fromDocument}, nil
}

// searchUser resolves a sessionToken, profileId or e-mail to the signed-in user's own record;
// anything else (signed out, someone else's identifier) is 401, which the client reads as null.
func (s *Server) searchUser(c fuego.ContextNoBody) (UserJSON, error) {
	r := c.Request()
	ctx := r.Context()
	me, err := s.requireUser(r)
	if err != nil {
		return UserJSON{}, err
	}
	q := r.URL.Query()
	var u perfilseguro.User
	switch {
	case q.Get("sessionToken") != "":
		id, err := s.store.UserIDForSessionTokenAny(ctx, secure.HashToken(q.Get("sessionToken")))
		if err != nil {
			return UserJSON{}, err
		}
		if id != me {
			return UserJSON{}, errNotSignedIn
		}
		u, err = s.store.UserByID(ctx, id)
		if err != nil {
			return UserJSON{}, err
		}
	case q.Get("profileId") != "":
		if !perfilseguro.ValidProfileID(q.Get("profileId")) {
			return UserJSON{}, perfilseguro.FieldError("profileId", "ID de perfil no válido")
		}
		// One's own record only (a test person's profile ID is no public lookup): compare.
		u, err = s.store.UserByID(ctx, me)
		if err == nil && u.IDValidado != q.Get("profileId") {
			u.ID = 0
		}
	case q.Get("email") != "":
		u, err = s.store.UserByID(ctx, me) // e-mails are unique per mode: compare with the caller's own
		if err == nil && (u.Email == nil || *u.Email != perfilseguro.NormalizeEmail(q.Get("email"))) {
			u.ID = 0
		}
	default:
		return UserJSON{}, perfilseguro.FieldError("profileId", "ID de perfil requerido")
	}
	if err != nil || u.ID != me {
		return UserJSON{}, errNotSignedIn
	}
	return toUserJSON(u), nil
}
