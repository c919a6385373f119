package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Verifiable credentials (SD-JWT VC): a person at level 3 gets one signed by a job; verifiers
// read the issuer's keys, the type metadata and the status list, all public and cacheable.

// credentialWait is how long a request waits for the worker to sign a credential before 202.
const credentialWait = 4 * time.Second

// maxHolderJWK bounds the holder key a wallet may send (a P-256 JWK is ~200 bytes).
const maxHolderJWK = 1024

var (
	errCredentialNotEligible = httpError(http.StatusConflict,
		"La credencial verificable está disponible solo para perfiles con verificación biométrica completa (nivel 3) y vigente.")
	errCredentialNotFound = httpError(http.StatusNotFound, "Credencial no encontrada.")
	// A partner's test person was validated by the simulator: no pass or credential we sign may
	// say otherwise, in any mode.
	errTestAccountUnsigned = httpError(http.StatusConflict,
		"Las cuentas de prueba de una plataforma no reciben pases de Wallet ni credenciales verificables.")
	errBadHolderKey      = perfilseguro.FieldError("holderJwk", "La llave del titular debe ser una llave pública JWK (EC P-256).")
	msgCredentialSigning = "Tu credencial se está firmando. Intenta nuevamente en unos segundos."
)

// CredentialRequest optionally names the holder's public key (cnf) from their wallet.
type CredentialRequest struct {
	HolderJWK map[string]any `json:"holderJwk,omitempty"`
}

// CredentialResponse is a credential as its holder sees it.
type CredentialResponse struct {
	ID         int64     `json:"id"`
	Status     string    `json:"status"` // ready, pending or revoked
	Credential string    `json:"credential,omitempty"`
	ExpiresAt  time.Time `json:"expiresAt"`
	Message    string    `json:"message,omitempty"`
}

func (s *Server) mountCredentials(issuer *credential.Issuer) {
	if issuer == nil {
		return
	}
	tag := option.Tags("Credenciales")
	fuego.Post(s.f, "/api/credentials", s.issueCredential, tag,
		option.Summary("Obtener una credencial verificable (SD-JWT VC) del perfil propio"))
	fuego.Get(s.f, "/api/credentials", s.listCredentials, tag,
		option.Summary("Credenciales propias que se guardan en el navegador, vigentes y firmadas, la más reciente primero"))
	fuego.Get(s.f, "/api/credentials/{id}", s.getCredential, tag,
		option.Summary("Estado de una credencial propia"))
	const credTag = "Credenciales"
	s.handle("GET /api/credentials/status/{list}", http.HandlerFunc(s.handleStatusList),
		op(credTag, "Lista de revocación (Token Status List, JWT firmado; en caché 5 minutos)",
			params(pathParam("list", "Número de la lista", "^[1-9][0-9]*$")),
			text("200", "statuslist+jwt firmado ES256", "application/statuslist+jwt"),
			errorAnswer("404", "Lista de estado no encontrada")))
	s.handle("GET /.well-known/jwt-vc-issuer", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.handleIssuerMetadata(w, r, issuer)
	}), op(credTag, "Metadatos del emisor: identificador y llaves públicas (JWKS), incluidas las rotadas que aún firman credenciales vigentes", nil,
		jsonOf("200", "Metadatos del emisor", map[string]any{"issuer": "", "jwks": map[string]any{"keys": []map[string]any{}}})))
	vct := issuer.VCT()[len(issuer.URL):] // the type metadata lives at the vct URL
	s.handle("GET "+vct, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		publicJSON(w, http.StatusOK, issuer.TypeMetadata(), time.Hour)
	}), op(credTag, "Metadatos del tipo de credencial (vct)", nil, jsonOf("200", "Metadatos del tipo", map[string]any{})))
}

// issueCredential reserves a credential for the signed-in person and waits for the job to sign it.
func (s *Server) issueCredential(c fuego.ContextWithBody[CredentialRequest]) (CredentialResponse, error) {
	r := c.Request()
	ctx := r.Context()
	userID, err := s.requireUser(r)
	if err != nil {
		return CredentialResponse{}, err
	}
	req, err := decodeJSON[CredentialRequest](r)
	if err != nil {
		return CredentialResponse{}, err
	}
	var holder json.RawMessage
	if req.HolderJWK != nil {
		if holder, err = holderKey(req.HolderJWK); err != nil {
			return CredentialResponse{}, err
		}
	}
	_, until, err := s.eligibleUser(ctx, userID)
	if err != nil {
		return CredentialResponse{}, err
	}
	cred, err := s.store.NewCredential(ctx, userID, until, holder)
	if err != nil {
		return CredentialResponse{}, err
	}
	task, err := jobs.NewIssueCredentialTask(cred.ID)
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		return CredentialResponse{}, errUnavailable
	}
	return s.credentialAnswer(c, s.waitForCredential(ctx, cred))
}

// eligibleUser is the person when they may hold a credential now (level 3, validated, neither
// revoked nor expired), with the end of their validity (the credential's exp);
// errCredentialNotEligible otherwise.
func (s *Server) eligibleUser(ctx context.Context, userID int64) (perfilseguro.User, time.Time, error) {
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return u, time.Time{}, err
	}
	if u.Mode() != perfilseguro.Live {
		return u, time.Time{}, errTestAccountUnsigned
	}
	until := u.ValidUntil()
	if u.VerificationLevel < perfilseguro.LevelBiometric || until == nil || u.RevokedAt != nil ||
		u.ExpiredAt != nil || !s.now().Before(*until) {
		return u, time.Time{}, errCredentialNotEligible
	}
	return u, *until, nil
}

// listCredentials answers the signed-in person's credentials that still hold (at most 5), so the
// card shows the one already issued after a new sign-in instead of offering another.
func (s *Server) listCredentials(c fuego.ContextNoBody) ([]CredentialResponse, error) {
	r := c.Request()
	userID, err := s.requireUser(r)
	if err != nil {
		return nil, err
	}
	held, err := s.store.HeldCredentials(r.Context(), userID, s.now(), 5)
	if err != nil {
		return nil, err
	}
	out := make([]CredentialResponse, len(held))
	for i, cred := range held {
		out[i] = CredentialResponse{ID: cred.ID, Status: "ready", Credential: *cred.SDJWT, ExpiresAt: cred.ExpiresAt}
	}
	return out, nil
}

// getCredential returns one of the signed-in person's credentials.
func (s *Server) getCredential(c fuego.ContextNoBody) (CredentialResponse, error) {
	r := c.Request()
	userID, err := s.requireUser(r)
	if err != nil {
		return CredentialResponse{}, err
	}
	id, err := pathID(c, errCredentialNotFound)
	if err != nil {
		return CredentialResponse{}, err
	}
	cred, err := s.store.CredentialByID(r.Context(), id)
	if errors.Is(err, postgres.ErrCredentialNotFound) || (err == nil && (cred.UserID == nil || *cred.UserID != userID)) {
		return CredentialResponse{}, errCredentialNotFound // someone else's is not found either
	}
	if err != nil {
		return CredentialResponse{}, err
	}
	return s.credentialAnswer(c, cred)
}

// credentialAnswer is 200 with the credential once signed, 202 while the job signs it.
func (s *Server) credentialAnswer(c interface{ SetStatus(int) }, cred postgres.Credential) (CredentialResponse, error) {
	out := CredentialResponse{ID: cred.ID, ExpiresAt: cred.ExpiresAt}
	switch {
	case cred.RevokedAt != nil:
		out.Status, out.Message = "revoked", "Esta credencial fue revocada."
	case cred.SDJWT != nil:
		out.Status, out.Credential = "ready", *cred.SDJWT
	default:
		out.Status, out.Message = "pending", msgCredentialSigning
		c.SetStatus(http.StatusAccepted)
	}
	return out, nil
}

// waitForCredential polls until the job signed the credential or the wait is over.
func (s *Server) waitForCredential(ctx context.Context, cred postgres.Credential) postgres.Credential {
	deadline := time.Now().Add(credentialWait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return cred
		case <-time.After(100 * time.Millisecond):
		}
		if got, err := s.store.CredentialByID(ctx, cred.ID); err == nil {
			cred = got
			if got.SDJWT != nil {
				break
			}
		}
	}
	return cred
}

// holderKey accepts a public EC P-256 JWK (no private part) as the credential's cnf.
func holderKey(jwk map[string]any) (json.RawMessage, error) {
	kty, _ := jwk["kty"].(string)
	crv, _ := jwk["crv"].(string)
	x, _ := jwk["x"].(string)
	y, _ := jwk["y"].(string)
	if _, private := jwk["d"]; private || kty != "EC" || crv != "P-256" || len(x) != 43 || len(y) != 43 {
		return nil, errBadHolderKey
	}
	b, err := json.Marshal(map[string]string{"kty": kty, "crv": crv, "x": x, "y": y})
	if err != nil || len(b) > maxHolderJWK {
		return nil, errBadHolderKey
	}
	return b, nil
}

// rebuildStatusList asks for the status list to be signed again after a revocation or deletion
// (the credentials were revoked in the same transaction, by trigger). Redis down: logged, and
// the scheduler's periodic rebuild catches up.
func (s *Server) rebuildStatusList(ctx context.Context, reason string) {
	task, err := jobs.NewBuildStatusListTask(1, fmt.Sprintf("%s:%d", reason, s.now().UnixNano()))
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		s.logger.ErrorContext(ctx, "enqueue status list rebuild", "reason", reason, "error", err)
	}
}

// handleStatusList serves a signed status list token; verifiers and caches may keep it 5 minutes.
func (s *Server) handleStatusList(w http.ResponseWriter, r *http.Request) {
	list, err := strconv.Atoi(r.PathValue("list"))
	if err != nil || list <= 0 {
		writeError(w, r, httpError(http.StatusNotFound, "Lista de estado no encontrada."))
		return
	}
	token, builtAt, err := s.store.StatusList(r.Context(), list)
	if errors.Is(err, postgres.ErrCredentialNotFound) {
		writeError(w, r, httpError(http.StatusNotFound, "Lista de estado no encontrada."))
		return
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/statuslist+jwt")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Last-Modified", builtAt.UTC().Format(http.TimeFormat))
	h.Set("Access-Control-Allow-Origin", "*") // any verifier, from any origin
	w.Write([]byte(token))
}

// handleIssuerMetadata publishes the issuer's keys: the configured ones, and every older key
// that signed a credential not yet expired (rotation never breaks a credential in a wallet).
func (s *Server) handleIssuerMetadata(w http.ResponseWriter, r *http.Request, issuer *credential.Issuer) {
	meta := issuer.Metadata()
	jwks := credential.JWKS(issuer.Keys)
	keys, _ := jwks["keys"].([]map[string]any)
	seen := map[string]bool{}
	for _, k := range keys {
		seen[k["kid"].(string)] = true
	}
	published, err := s.store.PublishedCredentialKeys(r.Context(), s.now())
	if err != nil {
		writeError(w, r, err)
		return
	}
	for _, raw := range published {
		var k map[string]any
		if json.Unmarshal(raw, &k) == nil && !seen[k["kid"].(string)] {
			keys = append(keys, k)
			seen[k["kid"].(string)] = true
		}
	}
	meta["jwks"] = map[string]any{"keys": keys}
	publicJSON(w, http.StatusOK, meta, 5*time.Minute)
}

// publicJSON answers a public, cacheable document that any origin may read.
func publicJSON(w http.ResponseWriter, status int, v any, maxAge time.Duration) {
	w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(maxAge.Seconds())))
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, status, v)
}
