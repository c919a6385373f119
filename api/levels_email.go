package api

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// emailLinkLifetime is how long an e-mail verification link works (DECISIONS.md: 24 hours).
const emailLinkLifetime = 24 * time.Hour

var (
	errEmailNeedsLevel1 = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Requiere Nivel 1: primero verifica tu número de teléfono para poder verificar tu correo electrónico.")
	errNoEmail = perfilseguro.FieldError("email",
		"Tu perfil no tiene un correo electrónico registrado. Contacta a soporte para agregarlo.")
	errEmailAlreadyVerified = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Tu correo electrónico ya está verificado.")
)

// EmailLinkResponse answers POST /api/send-email-verification-link (SPEC §3 'E-mail link response').
type EmailLinkResponse struct {
	Success bool   `json:"success"`
	Email   string `json:"email"`
	Message string `json:"message"`
}

// sendEmailLink stores a single-use link token and queues its e-mail in one transaction, so a
// failed enqueue (Redis down) leaves no token behind and the user can simply retry.
func (l *levels) sendEmailLink(c fuego.ContextWithBody[LevelsUserRequest]) (EmailLinkResponse, error) {
	r := c.Request()
	ctx := r.Context()
	u, err := l.phoneVerifiedUser(r, errEmailNeedsLevel1)
	if err != nil {
		return EmailLinkResponse{}, err
	}
	switch {
	case u.Email == nil || *u.Email == "":
		return EmailLinkResponse{}, errNoEmail
	case u.IsEmailVerified && u.VerificationLevel >= perfilseguro.LevelEmail:
		return EmailLinkResponse{}, errEmailAlreadyVerified
	}
	if err := l.s.allow(ctx, limit{"emaillink:ip:" + clientIP(r), l.s.limits.SendPerIP},
		limit{"emaillink:user:" + strconv.FormatInt(u.ID, 10), emailLinksPerUser}); err != nil {
		return EmailLinkResponse{}, err
	}
	token := secure.NewToken(32)
	expires := l.s.now().Add(emailLinkLifetime)
	err = l.s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		id, err := l.s.store.InsertEmailToken(ctx, tx, u.ID, secure.HashToken(token), expires, true)
		if err != nil {
			return err
		}
		task, err := jobs.NewSendEmailVerificationTask(jobs.SendEmailVerificationPayload{
			TokenID: id, SealedToken: l.s.sealer.Seal(token), ExpiresAt: expires})
		return l.s.enqueue(ctx, task, err)
	})
	if err != nil {
		return EmailLinkResponse{}, err
	}
	return EmailLinkResponse{Success: true, Email: *u.Email,
		Message: fmt.Sprintf("Te enviamos un enlace de verificación a %s. Revisa tu bandeja de entrada; el enlace es válido por 24 horas.", *u.Email)}, nil
}

// verifyEmail follows a link from the e-mail: a valid token grants level 2 and lands on the
// profile (continuing to the biometric step when auto_biometric); any other token gets a
// clear Spanish page, never an error dump.
func (l *levels) verifyEmail(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if len(token) != 64 {
		renderLinkPage(w, http.StatusNotFound, linkUnknown)
		return
	}
	res, err := l.s.store.ConsumeEmailToken(r.Context(), secure.HashToken(token))
	if err != nil {
		l.s.logger.ErrorContext(r.Context(), "verify email link", "error", err, "request_id", requestID(r.Context()))
		renderLinkPage(w, http.StatusInternalServerError, linkFailed)
		return
	}
	switch res.Outcome {
	case postgres.EmailTokenVerified:
		target := "/profile?emailVerified=1"
		if res.AutoBiometric && !res.BiometricVerified {
			target += "&startBiometric=1"
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, target, http.StatusSeeOther)
	case postgres.EmailTokenUsed:
		renderLinkPage(w, http.StatusGone, linkUsed)
	case postgres.EmailTokenExpired:
		renderLinkPage(w, http.StatusGone, linkExpired)
	case postgres.EmailTokenNeedsLevel1:
		renderLinkPage(w, http.StatusForbidden, linkNeedsLevel1)
	default:
		renderLinkPage(w, http.StatusNotFound, linkUnknown)
	}
}
