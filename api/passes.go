package api

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// PassesDeps holds what the passes area needs (filled in by cmd/perfilseguro).
type PassesDeps struct {
	// BuildWait is how long a wallet call waits for a pass the worker is (re)building before
	// answering 202; 0 means DefaultPassBuildWait.
	BuildWait time.Duration
}

// DefaultPassBuildWait is how long a wallet call waits for a pass build by default.
const DefaultPassBuildWait = 4 * time.Second

// passesArea is the state of the passes routes.
type passesArea struct {
	buildWait time.Duration
	lookups   *lookupRecorder // verify:log batching
}

func (s *Server) mountPasses(d PassesDeps) {
	a := passesArea{buildWait: d.BuildWait, lookups: newLookupRecorder(s.queue, s.logger)}
	s.closers = append(s.closers, a.lookups.close)
	s.lookupLog = a.lookups
	if a.buildWait <= 0 {
		a.buildWait = DefaultPassBuildWait
	}
	const tag = "Pases"
	profileID := pathParam("profileId", "ID de perfil", `^PS-[0-9]{4}-[0-9]{4}-[0-9]{2}$`)
	// The mux cannot match a suffix after a wildcard: the handler checks ".png" itself.
	s.handle("GET /api/qr/{file}", http.HandlerFunc(s.handleQR),
		op(tag, "Imagen QR que abre la verificación pública del perfil",
			params(pathParam("file", "ID de perfil seguido de .png", `^PS-[0-9]{4}-[0-9]{4}-[0-9]{2}\.png$`)),
			binary("200", "PNG", "image/png"), errorAnswer("400", "ID de perfil no válido"),
			errorAnswer("404", "Perfil no encontrado"), tooMany("Demasiadas consultas desde esta dirección")))
	s.handle("GET /api/verify/{profileId}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.handleVerify(w, r, a.lookups)
	}), op(tag, "Verificación pública de un perfil (lo que abre el QR); X-Robots-Tag: noindex",
		params(profileID),
		namedJSON("200", "El perfil y su verificación", "PublicVerifyResponse", PublicVerifyResponse{}),
		errorAnswer("400", "ID de perfil no válido"), errorAnswer("404", "Perfil no encontrado"),
		tooMany("Demasiadas consultas desde esta dirección"), errorAnswer("503", "Servicio no disponible")))
	s.handle("GET /api/wallet/apple/{userId}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.handleApplePass(w, r, a)
	}), op(tag, "Pase firmado de Apple Wallet (solo el dueño)",
		params(pathParam("userId", "ID del usuario", "^[0-9]+$")),
		binary("200", "Archivo .pkpass", "application/vnd.apple.pkpass"),
		errorAnswer("202", "El pase se está generando"), errorAnswer("400", "ID de usuario no válido"),
		errorAnswer("401", "Sin sesión"), errorAnswer("403", "No es tu pase"),
		errorAnswer("409", "Disponible solo con verificación biométrica completa")))
	fuego.Get(s.f, "/api/wallet/google/{userId}", func(c fuego.ContextNoBody) (GoogleWalletResponse, error) {
		return s.googlePass(c, a)
	}, option.Tags("Pases"), option.Summary("Enlace para agregar el pase a Google Wallet (solo el dueño)"))
}

// Wallet messages.
var (
	errPassNotEligible = walletError(http.StatusConflict,
		"El pase digital está disponible solo para perfiles con verificación biométrica completa (nivel 3).")
	msgPassBuilding = "Tu pase se está generando. Intenta nuevamente en unos segundos."
)

// walletError is the wallet calls' error: the usual {message} plus {success: false, error}
// (SPEC §7 reads 'error' for Apple and 'message' for Google).
func walletError(status int, msg string) *apiError {
	return &apiError{Status: status, Body: ErrorBody{Message: msg,
		Extra: map[string]any{"success": false, "error": msg}}}
}

// asWalletError gives any error the wallet calls' shape.
func asWalletError(err error) *apiError {
	ae := *toAPIError(err)
	ae.Body.Extra = map[string]any{"success": false, "error": ae.Body.Message}
	return &ae
}

var errBadWalletUserID = perfilseguro.FieldError("userId", "ID de usuario no válido")

func parseUserID(v string) (int64, error) {
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, errBadWalletUserID
	}
	return id, nil
}

// currentPass returns the owner's stored pass of a kind built from their current data. When it is
// missing or stale it asks the worker for a build and waits up to the build wait; nil means not ready.
func (s *Server) currentPass(r *http.Request, a passesArea, userID int64, kind string) (*postgres.WalletPass, error) {
	if err := s.requireOwner(r, userID); err != nil {
		return nil, err
	}
	ctx := r.Context()
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.Mode() != perfilseguro.Live {
		return nil, errTestAccountUnsigned
	}
	data, ok := jobs.PassDataFor(u, s.cfg.PublicBaseURL)
	if !ok {
		return nil, errPassNotEligible
	}
	want := jobs.PassDataHash(data)
	pass, err := s.store.WalletPassOf(ctx, userID, kind)
	if err != nil || (pass != nil && pass.DataHash == want) {
		return pass, err
	}
	task, err := jobs.NewBuildApplePassTask(userID)
	if kind == postgres.PassKindGoogle {
		task, err = jobs.NewBuildGooglePassTask(userID)
	}
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		return nil, err
	}
	return s.waitForPass(ctx, a.buildWait, userID, kind, want)
}

// waitForPass polls storage until the pass with the wanted hash appears or the wait is over.
func (s *Server) waitForPass(ctx context.Context, wait time.Duration, userID int64, kind, want string) (*postgres.WalletPass, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, nil
		case <-tick.C:
		}
		h, err := s.store.WalletPassHash(ctx, userID, kind)
		if err != nil {
			return nil, err
		}
		if h == want {
			return s.store.WalletPassOf(ctx, userID, kind)
		}
	}
}

// applePassFileName is the product prefix plus the holder's name without spaces (SPEC §7).
func applePassFileName(name string) string {
	return "PerfilSeguro" + strings.Join(strings.Fields(name), "") + ".pkpass"
}

// handleApplePass serves GET /api/wallet/apple/{userId}: the owner's signed .pkpass.
func (s *Server) handleApplePass(w http.ResponseWriter, r *http.Request, a passesArea) {
	userID, err := parseUserID(r.PathValue("userId"))
	if err != nil {
		writeError(w, r, asWalletError(err))
		return
	}
	pass, err := s.currentPass(r, a, userID, postgres.PassKindApple)
	if err != nil {
		writeError(w, r, asWalletError(err))
		return
	}
	if pass == nil || len(pass.Content) == 0 {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusAccepted, map[string]any{"success": false, "error": msgPassBuilding, "message": msgPassBuilding})
		return
	}
	u, err := s.store.UserByID(r.Context(), userID)
	if err != nil {
		writeError(w, r, asWalletError(err))
		return
	}
	name := applePassFileName(u.Nombre)
	h := w.Header()
	h.Set("Content-Type", "application/vnd.apple.pkpass")
	h.Set("Content-Disposition", contentDisposition(name))
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Length", strconv.Itoa(len(pass.Content)))
	h.Set("Last-Modified", pass.BuiltAt.UTC().Format(http.TimeFormat))
	w.Write(pass.Content)
}

// contentDisposition names a download, with an ASCII fallback for names with accents.
func contentDisposition(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" && !strings.Contains(v, "*=") {
		return v
	}
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	return mime.FormatMediaType("attachment", map[string]string{"filename": name}) + `; filename="` + ascii + `"`
}

// GoogleWalletResponse is the answer of GET /api/wallet/google/{userId} (SPEC §7).
type GoogleWalletResponse struct {
	Success        bool   `json:"success"`
	AddToWalletURL string `json:"addToWalletUrl,omitempty"`
	Message        string `json:"message"`
}

func (s *Server) googlePass(c fuego.ContextNoBody, a passesArea) (GoogleWalletResponse, error) {
	userID, err := parseUserID(c.PathParam("userId"))
	if err != nil {
		return GoogleWalletResponse{}, asWalletError(err)
	}
	pass, err := s.currentPass(c.Request(), a, userID, postgres.PassKindGoogle)
	if err != nil {
		return GoogleWalletResponse{}, asWalletError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if pass == nil || pass.SaveURL == nil {
		c.Response().Header().Set("Retry-After", "5")
		c.SetStatus(http.StatusAccepted)
		return GoogleWalletResponse{Success: false, Message: msgPassBuilding}, nil
	}
	return GoogleWalletResponse{Success: true, AddToWalletURL: *pass.SaveURL,
		Message: "Enlace para Google Wallet generado correctamente."}, nil
}
