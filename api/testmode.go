package api

import (
	"context"
	"errors"
	"net/http"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Test mode for people (issue 36). A partner's test key drives the same flow as a live one, but
// the people it brings are that partner's test people: their e-mail and phone are unique among
// that partner's test people only (perfilseguro.User.Mode), the development stand-ins serve them
// even in production (worker and the simulator pages), and they never appear in live lookups,
// the public page, the administrators' lists or billing. Each request finds its mode from what
// it carries, never from the browser's word: the hosted flow's token (its session's mode), or a
// widget call's key.

// modeOf is the mode of the people a partner's live or test key (or session) acts on: live, or
// the partner's test people.
func modeOf(livemode bool, partnerID int64) int64 {
	if livemode {
		return perfilseguro.Live
	}
	return partnerID
}

// keyMode is the mode of the people a partner key acts on.
func keyMode(kp *postgres.KeyedPartner) int64 { return modeOf(kp.Key.Livemode, kp.Partner.ID) }

// sessionMode is the mode of the people a verification session may be completed by.
func sessionMode(h postgres.HostedSession) int64 { return modeOf(h.Livemode, h.PartnerID) }

// flowMode is the mode of a sign-in or registration: a test session's partner when the request
// carries the token of a hosted flow opened with a test key, else live. A token this server does
// not know (an old tab's) counts as no flow.
func (s *Server) flowMode(r *http.Request) (int64, error) {
	if r.Header.Get(flowTokenHeader) == "" {
		return perfilseguro.Live, nil
	}
	h, _, err := s.flowSession(r)
	if errors.Is(err, errFlowToken) {
		return perfilseguro.Live, nil
	}
	if err != nil {
		return 0, err
	}
	return sessionMode(h), nil
}

type modeCtxKey struct{}

// modeFrom is the mode a widget call's key set (widgetAccess); live when none.
func modeFrom(ctx context.Context) int64 {
	m, _ := ctx.Value(modeCtxKey{}).(int64)
	return m
}

// blockerFor is what stands between a signed-in person and sharing in a session ("" when
// nothing), and whether it is that their account is of the other mode (then only signing out helps).
func (s *Server) blockerFor(u perfilseguro.User, h postgres.HostedSession) (blocker string, otherMode bool) {
	if b := modeBlocker(u, h); b != "" {
		return b, true
	}
	return shareBlocker(u, h.RequiredLevel, s.now()), false
}

// modeBlocker says, in Spanish, why a signed-in person cannot complete a session of another mode
// ("" when the modes agree).
func modeBlocker(u perfilseguro.User, h postgres.HostedSession) string {
	switch want := sessionMode(h); {
	case u.Mode() == want:
		return ""
	case want != perfilseguro.Live:
		return "Esta es una verificación de prueba de " + h.PartnerName + ": cierra sesión y entra o regístrate aquí con una cuenta de prueba (no se usará tu perfil real)."
	default:
		return "Entraste con una cuenta de prueba: cierra sesión y entra con tu cuenta de Perfil Seguro para continuar."
	}
}
