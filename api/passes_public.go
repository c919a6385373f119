package api

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/qrimage"
)

// QR images: any well-formed profile ID gets one without a database lookup, so the images are
// cheap and cacheable; whether the profile exists is the public page's business. They are limited
// per client address like the public lookups: malformed requests are misses, images are hits.
const (
	qrDefaultSize = 300
	qrMinSize     = 64
	qrMaxSize     = 1024
	qrCacheMaxAge = 7 * 24 * time.Hour
)

var (
	errBadProfileID   = perfilseguro.FieldError("profileId", "ID de perfil no válido")
	errProfileUnknown = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No se encontró ningún perfil con ese ID.")
)

// handleQR serves GET /api/qr/{profileId}.png: a PNG QR of the public verification link.
// ?size= (64–1024 px, default 300) picks the image size.
func (s *Server) handleQR(w http.ResponseWriter, r *http.Request) {
	ip := clientIP(r)
	if err := s.lookups.admit(ip); err != nil {
		writeError(w, r, err)
		return
	}
	profileID, ok := strings.CutSuffix(r.PathValue("file"), ".png")
	if !ok || !perfilseguro.ValidProfileID(profileID) {
		writeError(w, r, s.publicMiss(r, ip, errBadProfileID))
		return
	}
	size := qrDefaultSize
	if v := r.URL.Query().Get("size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < qrMinSize || n > qrMaxSize {
			writeError(w, r, s.publicMiss(r, ip, perfilseguro.FieldError("size", "Tamaño de imagen no válido")))
			return
		}
		size = n
	}
	if err := s.lookups.hit(ip); err != nil {
		writeError(w, r, err)
		return
	}
	link := jobs.VerifyURL(s.cfg.PublicBaseURL, profileID)
	sum := sha256.Sum256([]byte(link + "\x00" + strconv.Itoa(size)))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Cache-Control", "public, max-age="+strconv.Itoa(int(qrCacheMaxAge.Seconds())))
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && (match == etag || match == "*" || strings.Contains(match, etag)) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	png, err := qrimage.PNG(link, size)
	if err != nil {
		h.Del("Cache-Control")
		h.Del("ETag")
		writeError(w, r, err)
		return
	}
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(png)))
	w.Write(png)
}

// PublicVerifyResponse is SPEC §3 'Public verify response'.
type PublicVerifyResponse struct {
	Profile             PublicProfileJSON        `json:"profile"`
	VerificationDetails *VerificationDetailsJSON `json:"verification_details"`
	Timestamp           time.Time                `json:"timestamp"`
}

// PublicProfileJSON is the profile part of the public verification, contact data masked.
type PublicProfileJSON struct {
	Nombre            string     `json:"nombre"`
	Telefono          *string    `json:"telefono"`
	Email             *string    `json:"email"`
	Origen            string     `json:"origen"`
	ID                string     `json:"id"` // the profile ID PS-…, never the internal id
	NivelVerificacion int        `json:"nivel_verificacion"`
	Verificado        bool       `json:"verificado"`
	Expirado          bool       `json:"expirado"`
	Revocado          bool       `json:"revocado"` // an administrator revoked the validation (DECISIONS.md)
	FechaRevocacion   *time.Time `json:"fecha_revocacion"`
	FechaValidacion   *time.Time `json:"fecha_validacion"`
	FechaExpiracion   *time.Time `json:"fecha_expiracion"`
	VigenciaAnos      int        `json:"vigencia_anos"`
	// VenceIdentificacion: the identity document's expiry, not the plan's years, ends the
	// validity (fecha_expiracion is then the end of the ID's expiry day; issue 52).
	VenceIdentificacion bool `json:"vence_identificacion"`
}

// VerificationDetailsJSON describes the latest biometric session.
type VerificationDetailsJSON struct {
	SessionID         *string    `json:"session_id"`
	Ambiente          *string    `json:"ambiente"`
	FechaVerificacion *time.Time `json:"fecha_verificacion"`
	Scores            ScoresJSON `json:"scores"`
}

// ScoresJSON are the provider's scores in 0..100 (null when unknown).
type ScoresJSON struct {
	Overall   *float64 `json:"overall"`
	FaceMatch *float64 `json:"face_match"`
	Document  *float64 `json:"document"`
	Liveness  *float64 `json:"liveness"`
}

// publicVerification builds the public answer for a profile at time now.
func publicVerification(p postgres.PublicProfile, now time.Time) PublicVerifyResponse {
	u := perfilseguro.User{FechaValidacion: p.FechaValidacion, Vigencia: p.Vigencia, DocumentExpiresOn: p.DocumentExpiresOn}
	until := u.ValidUntil()
	cappedByID := until != nil && p.DocumentExpiresOn != nil && until.Before(p.FechaValidacion.AddDate(p.Vigencia, 0, 0))
	res := PublicVerifyResponse{
		Profile: PublicProfileJSON{
			Nombre: p.Nombre, Telefono: maskPtr(p.PhoneNumber, MaskPhone), Email: maskPtr(p.Email, MaskEmail),
			Origen: p.Origen, ID: p.IDValidado, NivelVerificacion: p.VerificationLevel,
			Verificado: p.BiometricVerified && p.VerificationLevel >= perfilseguro.LevelBiometric && p.RevokedAt == nil,
			Expirado:   until != nil && now.After(*until), Revocado: p.RevokedAt != nil, FechaRevocacion: p.RevokedAt,
			FechaValidacion: p.FechaValidacion,
			FechaExpiracion: until, VigenciaAnos: p.Vigencia, VenceIdentificacion: cappedByID,
		},
		Timestamp: now.UTC(),
	}
	if p.HasSession() {
		res.VerificationDetails = &VerificationDetailsJSON{SessionID: p.SessionID, Ambiente: p.SessionEnv,
			FechaVerificacion: p.SessionAt, Scores: ScoresJSON{Overall: p.OverallScore, FaceMatch: p.FaceMatchScore,
				Document: p.DocumentScore, Liveness: p.LivenessScore}}
	}
	return res
}

func maskPtr(v *string, mask func(string) string) *string {
	if v == nil || *v == "" {
		return nil
	}
	m := mask(*v)
	return &m
}

// MaskPhone hides all but the last four digits: +525512345678 → "+52 •• •••• 5678".
func MaskPhone(e164 string) string {
	digits := strings.TrimPrefix(e164, "+")
	if len(digits) < 4 {
		return "••••"
	}
	last := digits[len(digits)-4:]
	if strings.HasPrefix(e164, "+52") && len(digits) == 12 {
		return "+52 •• •••• " + last
	}
	return "+" + strings.Repeat("•", len(digits)-4) + " " + last
}

// MaskEmail keeps the first character of the local part and the domain: maria@gmail.com → "m•••@gmail.com".
func MaskEmail(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 {
		return "•••"
	}
	first, _ := utf8.DecodeRuneInString(email)
	return string(first) + "•••" + email[at:]
}

// handleVerify serves GET /api/verify/{profileId}: one cached or indexed read; the lookup is
// recorded in verification_logs by the verify:log job (no database write on the response path).
// Lookups are limited per client address (publiclimits.go): misses tightly, hits loosely.
func (s *Server) handleVerify(w http.ResponseWriter, r *http.Request, lookups *lookupRecorder) {
	profileID := r.PathValue("profileId")
	w.Header()["X-Robots-Tag"] = noIndex // a person's name must not become searchable
	ip := clientIP(r)
	if err := s.lookups.admit(ip); err != nil {
		writeError(w, r, err)
		return
	}
	if !perfilseguro.ValidProfileID(profileID) {
		writeError(w, r, s.publicMiss(r, ip, errBadProfileID))
		return
	}
	now := s.now()
	rec, err := s.publicRecord(r, profileID)
	entry := jobs.VerifyLogEntry{RequestID: newLookupID(), IDValidado: profileID, ScannedAt: now.UTC(), IP: ip,
		UserAgent: truncate(r.UserAgent(), 512), AccessType: jobs.AccessPublicPage,
		HTTPRequestID: requestID(r.Context())}
	switch {
	case errors.Is(err, postgres.ErrUserNotFound):
		entry.Reason = "not_found"
		writeError(w, r, s.publicMiss(r, ip, errProfileUnknown))
	case err != nil:
		writeError(w, r, err)
		return // an outage is in the access log; there is no lookup to record
	default:
		if err := s.lookups.hit(ip); err != nil {
			writeError(w, r, err)
			return // refused before anything was shown: not a lookup
		}
		entry.UserID, entry.Granted = &rec.userID, true
		switch {
		case rec.revoked:
			entry.Reason = "revoked"
		case rec.expired(now):
			entry.Reason = "expired"
		case !rec.verified:
			entry.Reason = "not_verified"
		}
		writeJSONBody(w, rec.answer(now))
	}
	lookups.record(entry)
}

// publicMiss charges a miss to the client address and returns the error to answer: the miss
// itself (400, 404), or the 429 once the address is over its limit.
func (s *Server) publicMiss(r *http.Request, ip string, miss error) error {
	refused, unavailable := s.lookups.miss(r.Context(), ip)
	if unavailable != nil {
		s.logger.WarnContext(r.Context(), "public lookup limit not checked (Redis unavailable); the miss is answered",
			"error", unavailable, "request_id", requestID(r.Context()))
	}
	if refused != nil {
		return refused
	}
	return miss
}

// publicRecord reads a rendered public record through the cache of public records.
func (s *Server) publicRecord(r *http.Request, profileID string) (publicRecord, error) {
	rec, gen, ok := s.public.get(profileID)
	if ok && rec.notFound {
		return publicRecord{}, postgres.ErrUserNotFound
	}
	if ok {
		return rec, nil
	}
	p, err := s.store.PublicProfileByID(r.Context(), profileID)
	if errors.Is(err, postgres.ErrUserNotFound) {
		s.public.put(profileID, publicRecord{notFound: true}, gen)
	}
	if err != nil {
		return publicRecord{}, err
	}
	if rec, err = renderPublicRecord(p); err != nil {
		return publicRecord{}, err
	}
	s.public.put(profileID, rec, gen)
	return rec, nil
}

// writeSizedJSON writes v as a 200 JSON body with its Content-Length and no-store.
func writeSizedJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSONBody(w, append(b, '\n'))
}

// Header values set on every public lookup, made once (see withSecurityHeaders).
var (
	noIndex  = []string{"noindex, nofollow"}
	jsonType = []string{"application/json; charset=utf-8"}
	noStore  = []string{"no-store"}
)

// writeJSONBody writes a 200 with an encoded JSON body, its Content-Length and no-store.
func writeJSONBody(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Cache-Control"] = noStore
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// newLookupID is a server-made unique id (a client's X-Request-Id could repeat and hide lookups).
func newLookupID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
