package api

import (
	"context"
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
	UserID            int64  `json:"userId"`
	ProfileID         string `json:"profileId"`
	VerificationLevel int    `json:"verificationLevel"`
}

// WidgetLoginResponse answers a widget login (SPEC §3).
type WidgetLoginResponse struct {
	Success       bool            `json:"success"`
	Message       string          `json:"message"`
	CodeRequested bool            `json:"codeRequested"`
	Verified      bool            `json:"verified"`
	UserID        int64           `json:"userId"`
	SessionToken  string          `json:"sessionToken"`
	Data          WidgetLoginData `json:"data"`
	IsNewUser     bool            `json:"isNewUser"`
	NextStep      string          `json:"nextStep"`
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
		if err := s.store.InsertSessionToken(ctx, tx, userID, secure.HashToken(token), s.now().Add(registrationTokenLifetime)); err != nil {
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
		UserID: userID, SessionToken: token, IsNewUser: isNew, NextStep: "verify_code", Data: WidgetLoginData{UserID: userID}}
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
