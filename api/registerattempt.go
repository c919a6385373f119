package api

import (
	"context"
	"strconv"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/secure"
)

// A registration that finds its e-mail or phone taken answers 409 with existingUserId (SPEC §7):
// the seed's app keeps it as its temporary id and asks for a new code. It was the account's
// internal id, handed to anyone who typed a known address (issue 54, item 25). It is now the
// number of a new registration attempt, drawn as the widget's sign-in attempts are (widget.go):
// 16 random digits, far above any internal id, kept in session_tokens as the hash of a keyed
// digest of the number, bound to the account, for an hour and one use. Only POST /api/verify-code
// takes it, as its userId, with the code of the sign-in that follows; the widget's verify-code
// and every other route refuse it.

// errRegisterAttempt: the userId looks like a registration attempt's but names no live one
// (expired, used, or made up).
var errRegisterAttempt = perfilseguro.FieldError("userId",
	"Ese intento de registro ya no es válido. Inicia sesión para recibir un nuevo código.")

// registerAttemptToken is the secret a registration attempt's number stands for.
func (s *Server) registerAttemptToken(attempt int64) string {
	return s.coder.Hash("register-attempt", strconv.FormatInt(attempt, 10))
}

// newRegisterAttempt records an attempt bound to the account userID and returns its number.
func (s *Server) newRegisterAttempt(ctx context.Context, userID int64) (int64, error) {
	attempt := newWidgetAttempt()
	secret := secure.HashToken(s.registerAttemptToken(attempt))
	err := s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.store.InsertSessionToken(ctx, tx, userID, secret, s.now().Add(registrationTokenLifetime))
	})
	return attempt, err
}

// resolveRegisterAttempt turns a verify-code whose userId is a registration attempt's number into
// a verification with the attempt's token (used up with the code), and returns the account's id
// for the audit trail. Any other request is left as it is, with the id it sent.
func (s *Server) resolveRegisterAttempt(ctx context.Context, req *VerifyCodeRequest) (int64, error) {
	sent := int64(req.UserID)
	if req.SessionToken != "" || sent < minWidgetAttempt {
		return sent, nil
	}
	token := s.registerAttemptToken(sent)
	id, err := s.store.UserIDForSessionToken(ctx, secure.HashToken(token))
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, errRegisterAttempt
	}
	req.SessionToken, req.UserID = token, 0
	return id, nil
}
