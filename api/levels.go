package api

import (
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	"github.com/perfilseguro/perfilseguro/provider/devsim"
)

// LevelsDeps holds what the levels area needs (filled in by cmd/perfilseguro).
type LevelsDeps struct {
	// WebhookSecret verifies POST /api/webhooks/biometric (DIDIT_WEBHOOK_SECRET).
	WebhookSecret string
	// Provider names the biometric provider on verification_sessions ("didit" or "devsim").
	Provider string
	// Simulator is the development biometric provider whose page /dev/biometric/{session}
	// is served outside production; nil when the real provider is configured.
	Simulator *devsim.Biometric
	// StartWait bounds how long POST /api/start-verification waits for the provider URL
	// before answering 202 (default 8 s).
	StartWait time.Duration
}

// levels serves e-mail verification (level 2) and biometric verification (level 3).
type levels struct {
	s *Server
	d LevelsDeps
}

// Limits of the levels area, per hour.
const (
	emailLinksPerUser      = 5
	verificationStartsUser = 20
)

func (s *Server) mountLevels(d LevelsDeps) {
	if d.StartWait == 0 {
		d.StartWait = 8 * time.Second
	}
	if d.Provider == "" {
		d.Provider = "didit"
	}
	l := &levels{s: s, d: d}
	tag := option.Tags("Verificación")
	fuego.Post(s.f, "/api/send-email-verification-link", l.sendEmailLink, tag,
		option.Summary("Enviar el enlace de verificación de correo (nivel 2)"))
	fuego.Post(s.f, "/api/start-verification", l.startVerification, tag,
		option.Summary("Iniciar la verificación biométrica (nivel 3)"),
		option.AddResponse(http.StatusAccepted, "La sesión aún se está creando: consultar GET /api/start-verification/{id}",
			fuego.Response{Type: StartVerificationResponse{}}))
	fuego.Get(s.f, "/api/start-verification/{id}", l.startVerificationStatus, tag,
		option.Summary("Consultar la URL de una verificación biométrica en creación"))
	s.f.Mux.HandleFunc("GET /api/verify-email", l.verifyEmail)
	s.f.Mux.HandleFunc("POST /api/webhooks/biometric", l.biometricWebhook)
	s.f.Mux.HandleFunc("GET "+devsim.BiometricPath+"{session}", l.simulatorPage)
	s.f.Mux.HandleFunc("POST "+devsim.BiometricPath+"{session}", l.simulatorPage)
}

// LevelsUserRequest names the user acting on their own verification.
type LevelsUserRequest struct {
	UserID flexibleID `json:"userId"`
}

// userFromBody decodes {userId} and allows only its signed-in owner.
func (l *levels) userFromBody(r *http.Request) (int64, error) {
	req, err := decodeJSON[LevelsUserRequest](r)
	if err != nil {
		return 0, err
	}
	if req.UserID == 0 {
		// Signed in but no id: act on one's own record (the spec's 'current user').
		return l.s.requireUser(r)
	}
	if err := l.s.requireOwner(r, int64(req.UserID)); err != nil {
		return 0, err
	}
	return int64(req.UserID), nil
}
