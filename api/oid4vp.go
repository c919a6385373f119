package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/perfilseguro/perfilseguro/credential"
)

// OpenID for Verifiable Presentations 1.0 (issue 28, presentation side). A partner asks for
// chosen claims of a person's credential (oid4vp_widget.go) and shows the person a QR or link;
// the wallet fetches the signed request object (oid4vp_request.go), asks the person, and posts
// an encrypted SD-JWT+KB presentation to the response URI (oid4vp_response.go), which checks it
// and keeps only the requested claims for the partner, who polls or receives a webhook. This
// server is both issuer and verifier: it checks revocation in its own tables.

// Wallet-facing endpoints (the request's id follows).
const (
	oid4vpRequestsPath  = "/api/oid4vp/requests/"
	oid4vpResponsesPath = "/api/oid4vp/responses/"
)

const (
	// presentationLifetime is how long a request may be answered: a person scanning a QR.
	presentationLifetime = 5 * time.Minute
	// keyBindingLeeway is how far a key binding JWT's iat may be from the server's clock.
	keyBindingLeeway = 5 * time.Minute
	// requestObjectAudience is the request object's aud with static wallet discovery
	// (OpenID4VP 1.0 §5.8): "openid4vp://" wallets are not known in advance.
	requestObjectAudience = "https://self-issued.me/v2"
)

// presentationID is the syntax of a request id (a UUID): anything else is unknown without a query.
var presentationID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// oid4vp serves presentations of the credential of issue 17.
type oid4vp struct {
	*Server
	issuer *credential.Issuer
	// verifier signs request objects: the configured one, or the development one loaded on
	// first use so that building the server (the openapi command, tests that never present)
	// writes no development certificate.
	mu       sync.Mutex
	verifier *credential.Verifier
}

// mountOID4VP registers the flow; without an issuer there is no credential to present.
// verifier is the configured certificate (VERIFIER_CERT_PEM), nil for the development one.
func (s *Server) mountOID4VP(issuer *credential.Issuer, verifier *credential.Verifier) {
	if issuer == nil {
		return
	}
	v := &oid4vp{Server: s, issuer: issuer, verifier: verifier}
	v.mountWidgetPresentations()
	v.mountRequestObject()
	v.mountResponse()
}

// errVerifierUnavailable: no certificate to sign requests with (production without one
// configured, or the development one could not be written).
var errVerifierUnavailable = &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 60, Body: ErrorBody{
	Message: "La verificación de credenciales con billeteras no está disponible en este momento. Intenta más tarde."}}

// signer is the verifier: the configured certificate (VERIFIER_CERT_PEM), or else the
// development certificate for the issuer's host, made in DATA_DIR on first use, as the
// wallet-pass and issuer development material are. Production has no development certificate:
// without a configured one the presentation routes answer 503.
func (v *oid4vp) signer() (*credential.Verifier, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.verifier != nil {
		return v.verifier, nil
	}
	if v.cfg.Production() {
		return nil, errors.New("oid4vp: VERIFIER_CERT_PEM and VERIFIER_KEY_PEM are not set (production refuses the development certificate)")
	}
	u, err := url.Parse(v.issuer.URL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("oid4vp: the issuer URL %q has no host", v.issuer.URL)
	}
	verifier, err := credential.EnsureDevVerifier(v.cfg.DataDir, strings.ToLower(u.Hostname()))
	if err != nil {
		return nil, err // not cached: a directory fixed later works without a restart
	}
	v.verifier = verifier
	return verifier, nil
}
