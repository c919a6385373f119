package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

// startFailedMessage is SPEC §8's message when verification cannot start.
const startFailedMessage = "No se pudo iniciar la verificación. Intenta nuevamente."

var (
	errBiometricNeedsLevel1 = perfilseguro.Errorf(perfilseguro.EFORBIDDEN,
		"Requiere Nivel 1: primero verifica tu número de teléfono para iniciar la verificación biométrica.")
	errAlreadyBiometric = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Tu identidad ya está verificada.")
	errNoVerification   = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos esa verificación.")
)

// StartVerificationResponse gives the browser the provider's hosted page; while the session is
// still being created (status 202) it says pending and which id to poll.
type StartVerificationResponse struct {
	VerificationURL string `json:"verificationUrl,omitempty"`
	Pending         bool   `json:"pending,omitempty"`
	SessionID       int64  `json:"sessionId"`
}

// startVerification records an attempt and queues the provider session in one transaction
// (Redis down: nothing is left behind, 503), then waits briefly for the job's URL.
func (l *levels) startVerification(c fuego.ContextWithBody[LevelsUserRequest]) (StartVerificationResponse, error) {
	r := c.Request()
	ctx := r.Context()
	u, err := l.phoneVerifiedUser(r, errBiometricNeedsLevel1)
	if err != nil {
		return StartVerificationResponse{}, err
	}
	switch {
	case u.RevokedAt != nil:
		return StartVerificationResponse{}, l.s.errRevoked()
	case u.BiometricVerified && u.VerificationLevel >= perfilseguro.LevelBiometric && !u.Renewable(l.s.now()):
		return StartVerificationResponse{}, errAlreadyBiometric
	}
	if err := l.s.requireBiometricConsent(r, u.ID); err != nil {
		return StartVerificationResponse{}, err
	}
	if err := l.s.pay.requirePaidPlan(ctx, u); err != nil {
		return StartVerificationResponse{}, err
	}
	if err := l.s.allow(ctx, limit{"biometric:user:" + strconv.FormatInt(u.ID, 10), verificationStartsUser}); err != nil {
		return StartVerificationResponse{}, err
	}
	var id int64
	err = l.s.store.InTx(ctx, func(tx *sqlx.Tx) error {
		id, err = l.s.store.InsertVerificationSession(ctx, tx, u.ID, l.biometricProvider(u), l.s.cfg.Env)
		if err != nil {
			return err
		}
		task, err := jobs.NewStartBiometricSessionTask(id)
		return l.s.enqueue(ctx, task, err)
	})
	if err != nil {
		return StartVerificationResponse{}, err
	}
	return l.awaitURL(c, id, l.d.StartWait)
}

// startVerificationStatus lets the browser poll an attempt that answered 202.
func (l *levels) startVerificationStatus(c fuego.ContextNoBody) (StartVerificationResponse, error) {
	id, err := pathID(c, errNoVerification)
	if err != nil {
		return StartVerificationResponse{}, err
	}
	me, err := l.s.requireUser(c.Request())
	if err != nil {
		return StartVerificationResponse{}, err
	}
	v, err := l.s.store.VerificationSessionByID(c.Request().Context(), id)
	if err != nil {
		return StartVerificationResponse{}, err
	}
	if v == nil || v.UserID != me {
		return StartVerificationResponse{}, errNoVerification // someone else's attempt reads as absent
	}
	return l.awaitURL(c, id, 2*time.Second)
}

// awaitURL waits for the job to store the provider's URL (200), to fail for good (502), or for
// wait to pass (202: the browser polls).
func (l *levels) awaitURL(c jobAnswer, id int64, wait time.Duration) (StartVerificationResponse, error) {
	failed := httpError(http.StatusBadGateway, startFailedMessage)
	failed.Body.Extra = map[string]any{"error": startFailedMessage}
	url, pending, err := awaitPage(c, wait, 150*time.Millisecond, failed, func(ctx context.Context) (*string, bool, error) {
		v, err := l.s.store.VerificationSessionByID(ctx, id)
		if err != nil || v == nil {
			return nil, false, err
		}
		return v.VerificationURL, v.Status == postgres.SessionStartFailed, nil
	})
	if err != nil {
		return StartVerificationResponse{}, err
	}
	return StartVerificationResponse{VerificationURL: url, Pending: pending, SessionID: id}, nil
}

// biometricWebhook verifies the provider's signature and timestamp before anything else, stores
// the raw body (deduplicated by its hash), answers 200, and then queues its processing. If the
// queue is unreachable the stored row waits for the periodic reconciler.
func (l *levels) biometricWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, r, httpError(http.StatusRequestEntityTooLarge, "La solicitud es demasiado grande."))
		return
	}
	if err := didit.VerifyWebhook(l.d.WebhookSecret, body, r.Header.Get(didit.SignatureHeader),
		r.Header.Get(didit.TimestampHeader), l.s.now()); err != nil {
		l.s.logger.WarnContext(r.Context(), "biometric webhook refused", "error", err, "request_id", requestID(r.Context()))
		writeError(w, r, httpError(http.StatusUnauthorized, "Firma del webhook inválida."))
		return
	}
	var sessionID *string
	if ev, err := didit.ParseWebhook(body); err == nil {
		sessionID = &ev.SessionID
	}
	sum := sha256.Sum256(body)
	id, processed, err := l.s.store.InsertWebhook(r.Context(), "didit", hex.EncodeToString(sum[:]), sessionID, body)
	l.s.acknowledgeWebhook(w, r, "biometric", id, processed, err, jobs.NewProcessBiometricWebhookTask)
}

// biometricProvider names who checks a person: the simulator for a partner's test person, even in
// production; the configured provider for everyone else.
func (l *levels) biometricProvider(u perfilseguro.User) string {
	if u.Mode() != perfilseguro.Live && l.d.Simulator != nil {
		return "devsim"
	}
	return l.d.Provider
}

// simulatorPage serves the development provider's hosted page for the sessions the simulator
// made: everyone's in development; with the real provider configured, only partners' test
// people's (no other session is the simulator's to decide). 404 without a simulator.
func (l *levels) simulatorPage(w http.ResponseWriter, r *http.Request) {
	if l.d.Simulator == nil {
		writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
		return
	}
	devsim.BiometricPage{Sim: *l.d.Simulator, WebhookURL: l.s.cfg.PublicBaseURL + "/api/webhooks/biometric",
		WebhookSecret: l.d.WebhookSecret, Now: l.s.now, Logger: l.s.logger}.ServeHTTP(w, r)
}
