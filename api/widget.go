package api

import (
	"context"
	"crypto/rand"
	"math/big"
	"strconv"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

func (s *Server) mountWidgetAuth() {
	tag := option.Tags("Widget")
	fuego.Post(s.f, "/api/widget/login", s.widgetLogin, tag,
		option.Summary("Iniciar sesión o registrarse desde el widget: envía un código"))
}

// WidgetLoginData is the widget login's data object.
type WidgetLoginData struct {
	// UserID is the sign-in attempt's opaque id (the same as WidgetLoginResponse.UserID).
	UserID            int64  `json:"userId"`
	ProfileID         string `json:"profileId"`
	VerificationLevel int    `json:"verificationLevel"`
}

// WidgetLoginResponse answers a widget login (SPEC §3).
type WidgetLoginResponse struct {
	Success       bool   `json:"success"`
	Message       string `json:"message"`
	CodeRequested bool   `json:"codeRequested"`
	Verified      bool   `json:"verified"`
	// UserID identifies this sign-in attempt for POST /api/widget/verify-code, through the same
	// partner key, until it is used or expires; it is not the person's id and opens nothing else.
	UserID       int64           `json:"userId"`
	SessionToken string          `json:"sessionToken"`
	Data         WidgetLoginData `json:"data"`
	IsNewUser    bool            `json:"isNewUser"`
	NextStep     string          `json:"nextStep"`
}

// widgetLogin sends a code to an existing user, or registers a new one and sends it. The
// answer carries a registration session token usable with /api/verify-code.
func (s *Server) widgetLogin(c fuego.ContextWithBody[LoginRequest]) (WidgetLoginResponse, error) {
	r := c.Request()
	ctx := r.Context()
	req, err := decodeValid[LoginRequest](r)
	if err != nil {
		return WidgetLoginResponse{}, err
	}
	if err := s.checkSendLimits(ctx, r, req.PhoneNumber, req.Email, s.widgetSendLimits(ctx, req)...); err != nil {
		return WidgetLoginResponse{}, err
	}
	mode := modeFrom(ctx)
	u, err := s.findAccount(r, req.Email, req.PhoneNumber, mode)
	if err != nil {
		return WidgetLoginResponse{}, err
	}
	if u != nil {
		if err := checkCooldown(s.now(), u.PendingSince); err != nil {
			return WidgetLoginResponse{}, err
		}
		req.Email, req.PhoneNumber = ownedDestinations(*u, req.Email, req.PhoneNumber)
	}
	token := secure.NewToken(32)
	attempt := newWidgetAttempt()
	isNew := u == nil
	var userID int64
	err = s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		if isNew {
			nu := postgres.NewUser{TestPartner: mode}
			if p := partnerFrom(ctx); p != nil {
				nu.PartnerID = &p.ID
			}
			if req.Email != "" {
				nu.Email = &req.Email
			}
			if req.PhoneNumber != "" {
				nu.Phone = &req.PhoneNumber
			}
			id, _, err := s.store.InsertUser(ctx, tx, nu)
			if err != nil {
				return err
			}
			userID = id
			if err := s.store.RecordConsent(ctx, tx, id, "widget", clientIP(r), r.UserAgent()); err != nil {
				return err
			}
		} else {
			userID = u.ID
		}
		expires := s.now().Add(registrationTokenLifetime)
		if err := s.store.InsertSessionToken(ctx, tx, userID, secure.HashToken(token), expires); err != nil {
			return err
		}
		if err := s.store.InsertSessionToken(ctx, tx, userID, secure.HashToken(s.attemptToken(ctx, attempt)), expires); err != nil {
			return err
		}
		_, err := s.issueCode(ctx, tx, codeRequest{UserID: userID, Phone: req.PhoneNumber, Email: req.Email, Purpose: "widget"})
		return err
	})
	if err != nil {
		return WidgetLoginResponse{}, err
	}
	fresh, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return WidgetLoginResponse{}, err
	}
	out := WidgetLoginResponse{Success: true, Message: sentMessage(req.PhoneNumber), CodeRequested: true,
		UserID: attempt, SessionToken: token, IsNewUser: isNew, NextStep: "verify_code", Data: WidgetLoginData{UserID: attempt}}
	if isNew {
		// A publishable key never reveals a person's data: an existing account's profile ID and
		// level come only after the person proves the code (verify-code).
		out.Verified, out.Data.ProfileID, out.Data.VerificationLevel = fresh.IsPhoneVerified, fresh.IDValidado, fresh.VerificationLevel
	}
	return out, nil
}

// widgetSendLimits caps the codes a partner's widget can make us send: per partner and per
// destination, per hour. They are checked with the per-IP and per-destination limits in one
// step, so a refusal charges none of them.
func (s *Server) widgetSendLimits(ctx context.Context, req LoginRequest) []limit {
	p := partnerFrom(ctx)
	if p == nil || s.limits.WidgetSendPerPartner <= 0 || s.limits.WidgetSendPerDestination <= 0 {
		return nil // limits a test set to zero are off
	}
	// Per partner and mode: a partner testing hard (its test people's codes cost nothing) never
	// spends the budget of its live widget.
	id := strconv.FormatInt(p.ID, 10)
	if modeFrom(ctx) != perfilseguro.Live {
		id += ":test"
	}
	out := []limit{{"widget:partner:" + id, s.limits.WidgetSendPerPartner}}
	for _, dest := range []string{req.PhoneNumber, req.Email} {
		if dest != "" {
			out = append(out, limit{"widget:dest:" + id + ":" + dest, s.limits.WidgetSendPerDestination})
		}
	}
	return out
}

// A widget sign-in attempt is named by a random number: the seed's widget reads userId as a
// number and sends it back to /api/widget/verify-code. It sits in session_tokens as the hash of a
// keyed digest of the number and the caller (partner, or our own app), so it resolves only on the
// widget's verify-code, through the same caller, while unused and unexpired; /api/verify-code
// cannot use it (issue 54, item 7).

// Attempt ids are 16-digit numbers (about 52 random bits), exact in a JavaScript number and far
// from any internal id.
const (
	minWidgetAttempt = 1_000_000_000_000_000
	widgetAttemptIDs = 8_000_000_000_000_000
)

// errWidgetAttempt: the userId is no live attempt of this caller's (expired, used, another key's,
// or an internal id the seed used to return).
var errWidgetAttempt = perfilseguro.FieldError("userId",
	"Ese inicio de sesión ya no es válido. Solicita un nuevo código con POST /api/widget/login y usa el userId que devuelve.")

// newWidgetAttempt draws an attempt id.
func newWidgetAttempt() int64 {
	n, err := rand.Int(rand.Reader, big.NewInt(widgetAttemptIDs))
	if err != nil {
		panic(err)
	}
	return minWidgetAttempt + n.Int64()
}

// attemptToken is the secret an attempt id stands for with the caller of ctx.
func (s *Server) attemptToken(ctx context.Context, attempt int64) string {
	caller := "app"
	if p := partnerFrom(ctx); p != nil {
		caller = strconv.FormatInt(p.ID, 10) + ":" + strconv.FormatInt(modeFrom(ctx), 10)
	}
	return s.coder.Hash("widget-attempt:"+caller, strconv.FormatInt(attempt, 10))
}
