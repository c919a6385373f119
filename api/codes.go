package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Code rules (DECISIONS.md 'Codes and channels').
const (
	codeLifetime   = 10 * time.Minute
	resendCooldown = 60 * time.Second
)

// codeRequest says who gets a code and where.
type codeRequest struct {
	UserID  int64
	Phone   string // E.164; when set the code goes by WhatsApp (SMS fallback)
	Email   string // when set the code (also) goes by e-mail
	Purpose string
}

// checkSendLimits refuses a code while the queued codes wait past the bound (backpressure.go),
// then applies the per-IP, per-phone and per-e-mail sending limits.
func (s *Server) checkSendLimits(ctx context.Context, r *http.Request, phone, email string, extra ...limit) error {
	if err := s.otp.admit(ctx); err != nil {
		return err
	}
	limits := []limit{{"send:ip:" + clientIP(r), s.limits.SendPerIP}}
	if phone != "" {
		limits = append(limits, limit{"send:phone:" + phone, s.limits.SendPerPhone})
	}
	if email != "" {
		limits = append(limits, limit{"send:email:" + email, s.limits.SendPerEmail})
	}
	return s.allow(ctx, append(limits, extra...)...)
}

// checkCooldown refuses a new code while the previous one (created at since, nil when there is
// no usable code) is less than 60 s old at now.
func checkCooldown(now time.Time, since *time.Time) error {
	if since == nil {
		return nil
	}
	wait := resendCooldown - now.Sub(*since)
	if wait <= 0 {
		return nil
	}
	secs := int(wait.Seconds()) + 1
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: secs, Body: ErrorBody{
		Message: fmt.Sprintf("Ya te enviamos un código. Podrás solicitar uno nuevo en %s.", humanWait(secs))}}
}

// issueCode stores a new code and enqueues its delivery (see queueCode). It returns the code in
// clear for development display.
func (s *Server) issueCode(ctx context.Context, tx *sqlx.Tx, req codeRequest) (string, error) {
	code := secure.NewCode()
	c := storedCode{Channel: postgres.ChannelPhone, Phone: req.Phone, Email: req.Email, Code: code, ExpiresAt: s.now().Add(codeLifetime)}
	destination := req.Phone
	if req.Phone == "" {
		c.Channel, destination = postgres.ChannelEmail, req.Email
	}
	id, mode, err := s.store.InsertCode(ctx, tx, postgres.NewCode{UserID: req.UserID, Channel: c.Channel,
		Destination: destination, Purpose: req.Purpose, Hash: s.coder.Hash(destination, code), ExpiresAt: c.ExpiresAt})
	if err != nil {
		return "", err
	}
	c.ID, c.Mode = id, mode
	return code, s.queueCode(ctx, tx != nil, c)
}

// storedCode is a code in Postgres (row ID in Channel's table) that goes to Phone (WhatsApp,
// SMS fallback) and/or Email.
type storedCode struct {
	ID           int64
	Channel      string
	Phone, Email string
	Code         string
	ExpiresAt    time.Time
	Mode         int64 // the person's (perfilseguro.User.Mode): a test person's code goes to the inbox
}

// queueCode enqueues the deliveries of a stored code. Inside a transaction (inTx), a failed
// enqueue (Redis down) rolls everything back. Outside one, the code is already committed and is
// retired when it cannot be queued, so that nothing half-done blocks the next request with the
// cooldown; and the worker never looks for a row that is not committed yet.
func (s *Server) queueCode(ctx context.Context, inTx bool, c storedCode) error {
	sealed := s.sealer.Seal(c.Code)
	deliver := func(via, to string) error {
		p := jobs.SendOTPPayload{CodeID: c.ID, Channel: c.Channel, Via: via, Destination: to, SealedCode: sealed, ExpiresAt: c.ExpiresAt,
			TestPartner: c.Mode}
		if !inTx {
			p.CommittedAt = s.now()
		}
		task, err := jobs.NewSendOTPTask(p)
		err = s.enqueue(ctx, task, err)
		if err != nil && !inTx {
			if rerr := s.store.RetireCode(context.WithoutCancel(ctx), c.Channel, c.ID); rerr != nil {
				s.logger.Error("retire unqueued code", "code_id", c.ID, "error", rerr)
			}
		}
		return err
	}
	if c.Phone != "" {
		if err := deliver(jobs.ViaWhatsApp, c.Phone); err != nil {
			return err
		}
	}
	if c.Email != "" {
		if err := deliver(jobs.ViaEmail, c.Email); err != nil {
			return err
		}
	}
	return nil
}

// Verification failures (SPEC §8 names 'Código de verificación incorrecto').
var (
	errCodeFormat    = perfilseguro.FieldError("code", "El código debe tener 6 dígitos")
	errCodeWrong     = perfilseguro.FieldError("code", "Código de verificación incorrecto")
	errCodeExhausted = perfilseguro.FieldError("code", "Demasiados intentos fallidos. Solicita un nuevo código.")
	errCodeNone      = perfilseguro.FieldError("code", "El código expiró o ya no es válido. Solicita un nuevo código.")
)

// checkCode finds the usable sign-in code that matches; wrong tries count against every usable code.
func (s *Server) checkCode(ctx context.Context, userID int64, code string) (postgres.ActiveCode, error) {
	codes, err := s.store.ActiveCodes(ctx, userID)
	if err != nil {
		return postgres.ActiveCode{}, err
	}
	return s.matchCode(ctx, codes, code)
}

// checkCodeFor is checkCode among the codes of one purpose (a new contact address, a confirmation).
func (s *Server) checkCodeFor(ctx context.Context, userID int64, purpose, code string) (postgres.ActiveCode, error) {
	codes, err := s.store.ActiveCodesFor(ctx, userID, purpose)
	if err != nil {
		return postgres.ActiveCode{}, err
	}
	return s.matchCode(ctx, codes, code)
}

// matchCode finds the code among codes; a wrong one counts a try against each of them.
func (s *Server) matchCode(ctx context.Context, codes []postgres.ActiveCode, code string) (postgres.ActiveCode, error) {
	if len(codes) == 0 {
		return postgres.ActiveCode{}, errCodeNone
	}
	for _, c := range codes {
		if s.coder.Matches(c.Destination, code, c.Hash) {
			return c, nil
		}
	}
	exhausted := false
	for _, c := range codes {
		n, err := s.store.RecordWrongAttempt(ctx, c)
		if err != nil {
			return postgres.ActiveCode{}, err
		}
		exhausted = exhausted || n >= postgres.MaxCodeAttempts
	}
	if exhausted {
		return postgres.ActiveCode{}, errCodeExhausted
	}
	return postgres.ActiveCode{}, errCodeWrong
}

// validCodeFormat: exactly six digits.
func validCodeFormat(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
