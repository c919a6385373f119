package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/worker"
)

// issuer is the verifiable-credential issuer: CREDENTIAL_ISSUER_KEYS_PEM (the first key signs,
// the others are older ones still published), or a development key generated once in DATA_DIR
// (refused in production by config).
func (a *app) issuer() (*credential.Issuer, error) {
	var keys []credential.Key
	var err error
	if a.cfg.CredentialKeysPEM != "" {
		keys, err = credential.ParseKeysPEM([]byte(a.cfg.CredentialKeysPEM))
	} else {
		keys, err = credential.EnsureDevKeys(a.cfg.DataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("CREDENTIAL_ISSUER_KEYS_PEM: %w", err)
	}
	return &credential.Issuer{URL: a.cfg.PublicBaseURL, Keys: keys}, nil
}

// wireCredentialsAPI: the API publishes the issuer's keys and metadata, and signs partners'
// presentation requests as the verifier.
func (a *app) wireCredentialsAPI(d *api.Deps) error {
	iss, err := a.issuer()
	if err != nil {
		return err
	}
	d.Credentials = iss
	d.Verifier, err = a.verifier()
	if err == nil && d.Verifier == nil && a.cfg.Production() {
		a.logger.Warn("VERIFIER_CERT_PEM and VERIFIER_KEY_PEM are not set: partners' presentation requests (OpenID4VP) answer 503")
	}
	return err
}

// verifier is the certificate that names this service in presentation requests
// (VERIFIER_CERT_PEM and VERIFIER_KEY_PEM), checked at start against the host of
// PUBLIC_BASE_URL; nil when unset (the API then makes the development one on first use, and
// production answers 503).
func (a *app) verifier() (*credential.Verifier, error) {
	c := a.cfg.Verifier
	if c.CertPEM == "" {
		return nil, nil
	}
	u, err := url.Parse(a.cfg.PublicBaseURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("VERIFIER_CERT_PEM: PUBLIC_BASE_URL %q has no host to name", a.cfg.PublicBaseURL)
	}
	v, err := credential.NewVerifier([]byte(c.CertPEM), []byte(c.KeyPEM), strings.ToLower(u.Hostname()))
	if err != nil {
		return nil, fmt.Errorf("VERIFIER_CERT_PEM / VERIFIER_KEY_PEM: %w", err)
	}
	return v, nil
}

// wireCredentialsWorker: the worker signs credentials and status lists.
func (a *app) wireCredentialsWorker(d *worker.Deps) error {
	iss, err := a.issuer()
	d.Credentials = worker.CredentialDeps{Issuer: iss}
	return err
}
