package api

import (
	"net/http"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
)

// LevelsDeps holds what the levels area needs (filled in by cmd/perfilseguro).
type LevelsDeps struct {
	// WebhookSecret verifies POST /api/webhooks/biometric (DIDIT_WEBHOOK_SECRET).
	WebhookSecret string
	// Provider names the biometric provider on verification_sessions ("didit" or "devsim").
	Provider string
	// Simulator is the development biometric provider whose page /dev/biometric/{session} serves
	// the sessions it made: everyone's in development, partners' test people's in production.
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
	s.handle("GET /api/verify-email", http.HandlerFunc(l.verifyEmail),
		op("Verificación", "Enlace del correo de verificación (nivel 2): valida el token y redirige a Mi Perfil",
			params(queryParam("token", "Token de 64 caracteres hexadecimales del enlace", true)),
			empty("303", "Correo verificado: redirección a Mi Perfil"),
			text("404", "Página en español: el enlace no es válido", "text/html"),
			text("410", "Página en español: el enlace ya se usó o venció", "text/html")))
	webhook := op("Verificación", "Webhook firmado del proveedor biométrico: se guarda y un trabajo lo procesa",
		params(headerParam("X-Signature", "HMAC-SHA256 del cuerpo con el secreto del webhook", true),
			headerParam("X-Timestamp", "Momento de la firma (segundos Unix)", false)),
		jsonOf("200", "Recibido (también una repetición)", map[string]any{"received": true}),
		errorAnswer("400", "Cuerpo no válido"), errorAnswer("401", "Firma no válida o vencida"),
		errorAnswer("413", "Cuerpo demasiado grande"), errorAnswer("503", "Servicio no disponible: el proveedor reintentará"))
	webhook.RequestBody = biometricWebhookBody()
	s.handle("POST /api/webhooks/biometric", http.HandlerFunc(l.biometricWebhook), webhook)
	s.handle("GET "+devsim.BiometricPath+"{session}", http.HandlerFunc(l.simulatorPage), nil)
	s.handle("POST "+devsim.BiometricPath+"{session}", http.HandlerFunc(l.simulatorPage), nil)
}

// LevelsUserRequest names the user acting on their own verification.
type LevelsUserRequest struct {
	UserID flexibleID `json:"userId"`
}

// userOfBody is the user named by {userId}, allowed only to its signed-in owner; no id means
// the signed-in user (the spec's 'current user').
func (l *levels) userOfBody(r *http.Request) (perfilseguro.User, error) {
	req, err := decodeJSON[LevelsUserRequest](r)
	if err != nil {
		return perfilseguro.User{}, err
	}
	id := int64(req.UserID)
	if id == 0 {
		id, err = l.s.requireUser(r)
	} else {
		err = l.s.requireOwner(r, id)
	}
	if err != nil {
		return perfilseguro.User{}, err
	}
	return l.s.store.UserByID(r.Context(), id)
}

// phoneVerifiedUser is userOfBody's user, who must have verified their phone first (level 1) to
// go on to the e-mail or the biometric level: needsLevel1 is the refusal otherwise.
func (l *levels) phoneVerifiedUser(r *http.Request, needsLevel1 error) (perfilseguro.User, error) {
	u, err := l.userOfBody(r)
	if err != nil {
		return perfilseguro.User{}, err
	}
	if u.VerificationLevel < perfilseguro.LevelPhone {
		return perfilseguro.User{}, needsLevel1
	}
	return u, nil
}
