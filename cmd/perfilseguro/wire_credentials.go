package main

import (
	"fmt"

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

// wireCredentialsAPI: the API publishes the issuer's keys and metadata.
func (a *app) wireCredentialsAPI(d *api.Deps) error {
	iss, err := a.issuer()
	d.Credentials = iss
	return err
}

// wireCredentialsWorker: the worker signs credentials and status lists.
func (a *app) wireCredentialsWorker(d *worker.Deps) error {
	iss, err := a.issuer()
	d.Credentials = worker.CredentialDeps{Issuer: iss}
	return err
}
