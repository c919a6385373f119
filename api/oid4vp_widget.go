package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/qrimage"
	"github.com/perfilseguro/perfilseguro/secure"
)

// The partner's side of a presentation: create a request for chosen claims, show its QR or
// link, then poll it (or wait for the presentation.completed webhook). The partner's key, like the
// other widget routes (its origin alone identifies nobody); a partner sees only its own requests.

// presentationsPerHour bounds the requests one partner creates.
const presentationsPerHour = 1000

// presentationQRSize is the side of a request's QR code in pixels.
const presentationQRSize = 320

var (
	errPresentationNotFound    = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "La solicitud de presentación no existe.")
	msgClaimsNeedSecret        = "Los datos compartidos se leen desde tu servidor con tu llave secreta (Authorization: Bearer sk_…), o llegan en el webhook presentation.completed."
	errPresentationPartnerOnly = httpError(http.StatusForbidden,
		"Solo una plataforma socia puede pedir datos de una credencial, con su llave en el encabezado X-Partner-Key.")
	errPresentationWhat = perfilseguro.FieldError("claims",
		"Indica los datos que pides: una lista claims (por ejemplo [\"name\"]) o una consulta DCQL en dcql_query, no ambas.")
)

// PresentationRequestBody names the claims a partner asks for: a list of the credential's claim
// names, or a DCQL query (OpenID4VP 1.0 §6) for this credential.
type PresentationRequestBody struct {
	// Claims are the credential's top-level claims: name, validated_at, origin, scores,
	// profile_id, verification_level, and the identity document's (issue 52; only a profile
	// certified by its ID has them): given_name, family_name, birthdate, age_equal_or_over,
	// nationalities, personal_administrative_number. An empty list asks only for proof of a valid
	// credential. A claim the presentation does not disclose leaves the request unanswered.
	Claims    []string              `json:"claims,omitempty"`
	DCQLQuery *credential.DCQLQuery `json:"dcql_query,omitempty"`
}

// PresentationCreated is a new request, ready to show to the person.
type PresentationCreated struct {
	ID string `json:"id"`
	// RequestURI opens the person's wallet (link on the phone, or the QR's content).
	RequestURI string `json:"requestUri"`
	// QRURL is the QR code of RequestURI as a data: URL (PNG), ready for an <img>.
	QRURL     string    `json:"qrUrl"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// PresentationStatus is a request as its partner sees it.
type PresentationStatus struct {
	ID     string `json:"id"`
	Status string `json:"status" enum:"pending,completed,failed,expired"`
	// Claims are the requested claims as the wallet disclosed them (completed, and read with the
	// partner's secret key only: a publishable key never reveals a person's data).
	Claims map[string]any `json:"claims,omitzero"`
	// Note says where the claims are when this call could not read them ("" otherwise).
	Note string `json:"note,omitempty"`
	// Error says briefly why a presentation was refused: why it failed, or, pending or expired,
	// why the wallet's last try was refused (it may try again until the request expires).
	Error       string     `json:"error,omitempty"`
	ExpiresAt   time.Time  `json:"expiresAt"`
	CompletedAt *time.Time `json:"completedAt,omitempty"`
}

func (v *oid4vp) mountWidgetPresentations() {
	tag := option.Tags("Widget")
	fuego.Post(v.f, "/api/widget/presentations", v.createPresentation, tag,
		option.DefaultStatusCode(http.StatusCreated),
		option.Summary("Pedir datos de la credencial de una persona a su billetera (OpenID4VP): enlace y QR válidos 5 minutos"),
		option.Description("Cuerpo: claims (nombres de datos de la credencial) o dcql_query. La persona escanea el QR con su billetera y elige compartir; "+
			"el resultado se consulta en GET /api/widget/presentations/{id} o llega en el webhook presentation.completed. Solo se guardan los datos pedidos."))
	fuego.Get(v.f, "/api/widget/presentations/{id}", v.getPresentation, tag,
		option.Summary("Estado de una solicitud de presentación propia y, si se completó y la consulta usa tu llave secreta, los datos compartidos"))
}

// createPresentation stores a request with a fresh nonce, state and response encryption key.
func (v *oid4vp) createPresentation(c fuego.ContextWithBody[PresentationRequestBody]) (PresentationCreated, error) {
	r := c.Request()
	ctx := r.Context()
	partner := partnerFrom(ctx)
	if partner == nil {
		return PresentationCreated{}, errPresentationPartnerOnly
	}
	req, err := decodeJSON[PresentationRequestBody](r)
	if err != nil {
		return PresentationCreated{}, err
	}
	query, err := v.query(req)
	if err != nil {
		return PresentationCreated{}, err
	}
	if err := v.allow(ctx, limit{"presentation:partner:" + strconv.FormatInt(partner.ID, 10), presentationsPerHour}); err != nil {
		return PresentationCreated{}, err
	}
	verifier, err := v.signer()
	if err != nil {
		v.logger.ErrorContext(ctx, "oid4vp verifier certificate", "error", err)
		return PresentationCreated{}, errVerifierUnavailable
	}
	key, err := credential.NewResponseKey()
	if err != nil {
		return PresentationCreated{}, err
	}
	private, err := key.PrivateJWK()
	if err != nil {
		return PresentationCreated{}, err
	}
	dcql, err := json.Marshal(query)
	if err != nil {
		return PresentationCreated{}, err
	}
	now := v.now()
	p, err := v.store.InsertPresentationRequest(ctx, postgres.NewPresentationRequest{PartnerID: partner.ID, DCQLQuery: dcql,
		Nonce: secure.NewToken(16), State: secure.NewToken(16), ResponseKey: v.sealer.Seal(string(private)),
		ExpiresAt: now.Add(presentationLifetime), Now: now})
	if err != nil {
		return PresentationCreated{}, err
	}
	// By reference (request_uri): the signed request and its DCQL query would not fit a QR.
	link := "openid4vp://?client_id=" + url.QueryEscape(verifier.ClientID()) +
		"&request_uri=" + url.QueryEscape(v.issuer.URL+oid4vpRequestsPath+p.ID)
	png, err := qrimage.PNG(link, presentationQRSize)
	if err != nil {
		return PresentationCreated{}, err
	}
	setStatus(c, http.StatusCreated)
	return PresentationCreated{ID: p.ID, RequestURI: link, ExpiresAt: p.ExpiresAt,
		QRURL: "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)}, nil
}

// query is the DCQL query a body asks for, checked against the credential.
func (v *oid4vp) query(req PresentationRequestBody) (credential.DCQLQuery, error) {
	var q credential.DCQLQuery
	var err error
	switch {
	case (req.Claims == nil) == (req.DCQLQuery == nil):
		return q, errPresentationWhat
	case req.DCQLQuery != nil:
		if q, err = v.issuer.Canonical(*req.DCQLQuery); err != nil {
			return q, perfilseguro.FieldError("dcql_query", "La consulta DCQL no es válida: "+err.Error()+".")
		}
	default:
		if q, err = v.issuer.DCQL(credential.ConfigurationID, req.Claims); err != nil {
			return q, perfilseguro.FieldError("claims", "Los datos pedidos no son válidos: "+err.Error()+".")
		}
	}
	return q, nil
}

// getPresentation answers one of the partner's requests; another partner's is not found.
func (v *oid4vp) getPresentation(c fuego.ContextNoBody) (PresentationStatus, error) {
	ctx := c.Request().Context()
	partner := partnerFrom(ctx)
	if partner == nil {
		return PresentationStatus{}, errPresentationPartnerOnly
	}
	id := c.PathParam("id")
	if !presentationID.MatchString(id) {
		return PresentationStatus{}, errPresentationNotFound
	}
	p, err := v.store.PresentationRequestByID(ctx, id)
	if errors.Is(err, postgres.ErrPresentationNotFound) || (err == nil && p.PartnerID != partner.ID) {
		return PresentationStatus{}, errPresentationNotFound
	}
	if err != nil {
		return PresentationStatus{}, err
	}
	out := PresentationStatus{ID: p.ID, Status: p.StatusAt(v.now()), ExpiresAt: p.ExpiresAt}
	switch out.Status {
	case postgres.PresentationCompleted:
		out.CompletedAt = p.CompletedAt
		if !calledWithSecretKey(ctx) {
			out.Note = msgClaimsNeedSecret
			break
		}
		if err := json.Unmarshal(p.Claims, &out.Claims); err != nil {
			return PresentationStatus{}, err
		}
	case postgres.PresentationFailed, postgres.PresentationExpired, postgres.PresentationPending:
		out.Error = deref(p.Error) // pending or expired: the last refused try, if any
	}
	return out, nil
}
