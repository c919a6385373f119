package api

import (
	"context"
	"crypto/ecdsa"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The response URI (OpenID4VP 1.0 §8.2, §8.3.1): the wallet posts the authorization response
// encrypted (response=<JWE>, direct_post.jwt, what every request asks for); a presentation in
// clear (direct_post) is refused as a downgrade, a plain error response (a decline) is taken. A
// response that cannot belong to the request (unreadable, another state) changes nothing; a
// forged or replayed presentation closes the request as failed, with a reason the partner reads,
// and any other refused one leaves it pending for another try (its reason noted); a valid one
// closes it as completed with the requested claims only, and notifies the partner. Either way the request is answered once: a replay is refused.

// PresentationResponseForm documents the response URI's form.
type PresentationResponseForm struct {
	// Response is the encrypted authorization response (compact JWE, ECDH-ES to the request's key).
	Response string `json:"response,omitempty"`
	// VPToken is a JSON object: the DCQL credential query id → an array with one SD-JWT+KB.
	VPToken          string `json:"vp_token,omitempty"`
	State            string `json:"state,omitempty"`
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// PresentationAccepted is the response URI's answer: an empty object (no redirect_uri, since
// the partner's page learns the result from its own server).
type PresentationAccepted struct{}

var (
	errResponseUnreadable = oauthError(http.StatusBadRequest, "invalid_request",
		"La respuesta debe ser un formulario con response (JWE cifrado a la llave de la solicitud) o con vp_token y state.")
	errResponseState        = oauthError(http.StatusBadRequest, "invalid_request", "El state no corresponde a esta solicitud.")
	errResponseNotEncrypted = oauthError(http.StatusBadRequest, "invalid_request",
		"Esta solicitud pide la respuesta cifrada (response_mode direct_post.jwt): envia response con el JWE, no vp_token en claro.")
	errResponseClosed = oauthError(http.StatusBadRequest, "invalid_request",
		"Esta solicitud ya se respondio o vencio: pide al sitio que genere una nueva.")
)

// refusal is a presentation that fails a check. The partner reads reason (Spanish); the wallet
// reads it in ASCII as error_description, since RFC 6749 allows no other characters there. A
// forged or replayed one (the issuer's signature, the disclosures, the wallet's proof of
// possession for this request) is final and closes the request: it proves someone tried something. Any other (a credential expired or revoked, a datum withheld, a
// malformed vp_token) leaves the request pending until it expires, so the wallet may try again;
// the reason is noted for the partner.
type refusal struct {
	reason string
	final  bool
}

func (e refusal) Error() string { return e.reason }

func (v *oid4vp) mountResponse() {
	o := op("Credenciales", "Response URI (OpenID4VP, direct_post.jwt): la billetera entrega la presentación cifrada; se acepta una sola vez",
		params(pathParam("id", "Identificador de la solicitud (UUID)", "")),
		jsonOf("200", "Respuesta recibida (presentación aceptada, o el error de la billetera registrado)", PresentationAccepted{}),
		oauthAnswer("400", "invalid_request (formulario ilegible, vp_token en claro, JWE que no descifra, otro state, solicitud ya respondida o vencida) o invalid_presentation (firma, divulgaciones, vigencia, revocación, prueba de posesión o datos faltantes)"),
		oauthAnswer("404", "invalid_request: la solicitud no existe"))
	o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
		WithSchemaRef(schemaOf(PresentationResponseForm{}), []string{"application/x-www-form-urlencoded"})}
	v.handle("POST "+oid4vpResponsesPath+"{id}", http.HandlerFunc(v.handleResponse), o)
}

func (v *oid4vp) handleResponse(w http.ResponseWriter, r *http.Request) {
	if err := v.respond(r); err != nil {
		writeOAuthError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, PresentationAccepted{})
}

// respond checks one authorization response against its request and closes the request.
func (v *oid4vp) respond(r *http.Request) error {
	ctx := r.Context()
	id := r.PathValue("id")
	if !presentationID.MatchString(id) {
		return errRequestGone
	}
	p, err := v.store.PresentationRequestByID(ctx, id)
	if errors.Is(err, postgres.ErrPresentationNotFound) {
		return oauthError(http.StatusNotFound, "invalid_request", "La solicitud de presentacion no existe.")
	}
	if err != nil {
		return err
	}
	now := v.now()
	switch p.StatusAt(now) {
	case postgres.PresentationPending:
	case postgres.PresentationExpired:
		if err := v.store.ExpirePresentation(ctx, p.ID, now); err != nil && !errors.Is(err, postgres.ErrPresentationClosed) {
			return err
		}
		return errResponseClosed
	default:
		return errResponseClosed // answered already: a replay, or a second wallet
	}
	params, err := v.responseParams(r, p)
	if err != nil {
		return err
	}
	state, _ := params["state"].(string)
	if subtle.ConstantTimeCompare([]byte(state), []byte(p.State)) != 1 {
		return errResponseState
	}
	if code, _ := params["error"].(string); code != "" {
		// The wallet (or the person) declined: an error response processed is a 200 (§8.2).
		return v.fail(ctx, p, refusal{reason: "La billetera no compartió los datos (" + asciiToken(code) + ")."}, false)
	}
	claims, err := v.verifyPresentation(ctx, p, params["vp_token"])
	var refused refusal
	if errors.As(err, &refused) {
		if refused.final {
			return v.fail(ctx, p, refused, true)
		}
		if err := v.store.NotePresentationRefusal(ctx, p.ID, refused.reason, now); err != nil && !errors.Is(err, postgres.ErrPresentationClosed) {
			return err
		}
		return oauthError(http.StatusBadRequest, "invalid_presentation", asciiSpanish(refused.reason))
	}
	if err != nil {
		return err
	}
	raw, err := json.Marshal(claims)
	if err != nil {
		return err
	}
	deliveryID, err := v.store.CompletePresentation(ctx, p.ID, raw, now)
	if errors.Is(err, postgres.ErrPresentationClosed) {
		return errResponseClosed // another answer got there first
	}
	if err != nil {
		return err
	}
	v.notifyDelivery(ctx, deliveryID)
	return nil
}

// responseParams reads the authorization response: the encrypted JWT's payload, or the plain form.
func (v *oid4vp) responseParams(r *http.Request, p postgres.PresentationRequest) (map[string]any, error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return nil, errResponseUnreadable
	}
	if err := r.ParseForm(); err != nil {
		return nil, errResponseUnreadable
	}
	form := r.PostForm
	if jwe := form.Get("response"); jwe != "" {
		sealed, err := v.sealer.Open(p.ResponseKey)
		if err != nil {
			return nil, fmt.Errorf("open the response key of presentation %s: %w", p.ID, err)
		}
		key, err := credential.ParseResponseKey([]byte(sealed))
		if err != nil {
			return nil, fmt.Errorf("response key of presentation %s: %w", p.ID, err)
		}
		params, err := key.Decrypt(jwe)
		if err != nil {
			return nil, oauthError(http.StatusBadRequest, "invalid_request",
				"La respuesta cifrada no se pudo descifrar con la llave de esta solicitud (ECDH-ES, A128GCM o A256GCM).")
		}
		return params, nil
	}
	if form.Get("vp_token") != "" {
		// Every request asks for direct_post.jwt: a presentation in clear is a downgrade (anyone
		// on the way could read it), refused without touching the request.
		return nil, errResponseNotEncrypted
	}
	if form.Get("state") == "" || form.Get("error") == "" {
		return nil, errResponseUnreadable
	}
	// A plain error response (the person declined) discloses nothing: it is taken as it comes.
	return map[string]any{"state": form.Get("state"), "error": form.Get("error")}, nil
}

// verifyPresentation checks the vp_token and returns the requested claims as disclosed; a
// refusal when anything is wrong with it.
func (v *oid4vp) verifyPresentation(ctx context.Context, p postgres.PresentationRequest, vpToken any) (map[string]any, error) {
	var query credential.DCQLQuery
	if err := json.Unmarshal(p.DCQLQuery, &query); err != nil {
		return nil, fmt.Errorf("dcql query of presentation %s: %w", p.ID, err)
	}
	queryID, requested := query.Requested()
	presentation, err := onePresentation(vpToken, queryID)
	if err != nil {
		return nil, err
	}
	verifier, err := v.signer()
	if err != nil {
		v.logger.ErrorContext(ctx, "oid4vp verifier certificate", "error", err)
		return nil, errVerifierUnavailable
	}
	keys, err := v.issuerKeys(ctx)
	if err != nil {
		return nil, err
	}
	got, err := credential.VerifyPresentation(presentation, credential.PresentationCheck{Keys: keys, Issuer: v.issuer.URL,
		VCT: v.issuer.VCT(), Audience: verifier.ClientID(), Nonce: p.Nonce, Now: v.now(), Leeway: keyBindingLeeway})
	switch {
	case errors.Is(err, credential.ErrExpired):
		return nil, refusal{reason: "La credencial está vencida."}
	case errors.Is(err, credential.ErrSignature):
		return nil, refusal{"La firma del emisor de la credencial no es válida.", true}
	case errors.Is(err, credential.ErrDisclosure):
		return nil, refusal{"Los datos divulgados no corresponden a la credencial.", true}
	case errors.Is(err, credential.ErrKeyBinding):
		return nil, refusal{"La prueba de posesión de la billetera (KB-JWT) no es válida para esta solicitud.", true}
	case err != nil:
		return nil, refusal{reason: "La presentación no es una credencial de Perfil Seguro válida."}
	}
	if err := v.checkRevocation(ctx, got); err != nil {
		return nil, err
	}
	claims := make(map[string]any, len(requested))
	for _, name := range requested {
		value, ok := got.Claims[name]
		if !ok {
			return nil, refusal{reason: "Falta un dato solicitado en la presentación: " + name + "."}
		}
		claims[name] = value
	}
	return claims, nil
}

// onePresentation reads a vp_token (§8.1): a JSON object (or, from a form, its JSON text) whose
// only key is the credential query's id, holding an array with one presentation.
func onePresentation(vpToken any, queryID string) (string, error) {
	if text, ok := vpToken.(string); ok {
		var decoded any
		if err := json.Unmarshal([]byte(text), &decoded); err != nil {
			return "", refusal{reason: "vp_token no es un objeto JSON."}
		}
		vpToken = decoded
	}
	token, ok := vpToken.(map[string]any)
	if !ok {
		return "", refusal{reason: "vp_token no es un objeto JSON."}
	}
	list, _ := token[queryID].([]any)
	if len(token) != 1 || len(list) != 1 {
		return "", refusal{reason: "vp_token debe traer una sola presentación, con el id de la consulta " + queryID + "."}
	}
	presentation, _ := list[0].(string)
	if presentation == "" {
		return "", refusal{reason: "La presentación no es una SD-JWT."}
	}
	return presentation, nil
}

// checkRevocation refuses a revoked credential. It must be one of this issuer's status lists;
// the issuer's own table says whether it is revoked (no wait for the list to be signed again).
func (v *oid4vp) checkRevocation(ctx context.Context, got credential.Presented) error {
	prefix := strings.TrimSuffix(jobs.StatusListURL(v.issuer.URL, 0), "0")
	listID, err := strconv.Atoi(strings.TrimPrefix(got.StatusURI, prefix))
	if err != nil || jobs.StatusListURL(v.issuer.URL, listID) != got.StatusURI {
		return refusal{reason: "La lista de estado de la credencial no es de Perfil Seguro."}
	}
	revoked, err := v.store.CredentialRevoked(ctx, listID, got.StatusIdx)
	if errors.Is(err, postgres.ErrCredentialNotFound) {
		return refusal{reason: "La credencial no aparece en la lista de estado del emisor."}
	}
	if err != nil {
		return err
	}
	if revoked {
		return refusal{reason: "La credencial fue revocada."}
	}
	return nil
}

// issuerKeys are the keys a credential may be signed with: the configured ones and the older
// ones still published while a credential they signed lives (handleIssuerMetadata). The older
// ones are public keys only: a Key whose private part has no D verifies, it never signs.
func (v *oid4vp) issuerKeys(ctx context.Context) ([]credential.Key, error) {
	keys := append([]credential.Key{}, v.issuer.Keys...)
	published, err := v.store.PublishedCredentialKeys(ctx, v.now())
	if err != nil {
		return nil, err
	}
	for _, raw := range published {
		var jwk map[string]any
		if json.Unmarshal(raw, &jwk) != nil {
			continue
		}
		kid, _ := jwk["kid"].(string)
		pub, err := credential.ParseHolderJWK(map[string]any{"kty": jwk["kty"], "crv": jwk["crv"], "x": jwk["x"], "y": jwk["y"]})
		if err != nil || kid == "" {
			continue
		}
		keys = append(keys, credential.Key{ID: kid, Private: &ecdsa.PrivateKey{PublicKey: *pub.Public}})
	}
	return keys, nil
}

// fail closes the request as failed with the refusal's reason; a wallet error response is
// answered 200, a refused presentation 400 invalid_presentation.
func (v *oid4vp) fail(ctx context.Context, p postgres.PresentationRequest, why refusal, presented bool) error {
	err := v.store.FailPresentation(ctx, p.ID, why.reason, v.now())
	if errors.Is(err, postgres.ErrPresentationClosed) {
		return errResponseClosed
	}
	if err != nil {
		return err
	}
	if !presented {
		return nil
	}
	return oauthError(http.StatusBadRequest, "invalid_presentation", asciiSpanish(why.reason))
}

// asciiSpanish writes Spanish without accents, for error_description (RFC 6749 §5.2 allows
// printable ASCII but " and \ only).
var asciiSpanish = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ü", "u", "ñ", "n",
	"Á", "A", "É", "E", "Í", "I", "Ó", "O", "Ú", "U", "Ñ", "N", "¿", "", "¡", "", `"`, "'", `\`, "/").Replace

// asciiToken keeps an error code a wallet sent to safe characters before it is stored or shown.
func asciiToken(code string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return -1
	}, truncate(code, 64))
}
