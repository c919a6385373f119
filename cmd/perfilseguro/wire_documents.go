package main

import (
	"fmt"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/worker"
)

// documentKey is the document-data key: DOCUMENT_DATA_KEY, or outside production the development
// key generated once in DATA_DIR (config refuses it missing in production).
func (a *app) documentKey() (secure.DocumentKey, error) {
	secret := a.cfg.DocumentDataKey
	if secret == "" {
		if a.cfg.Production() {
			return secure.DocumentKey{}, fmt.Errorf("DOCUMENT_DATA_KEY is required in production")
		}
		var err error
		if secret, err = secure.EnsureDevDocumentKey(a.cfg.DataDir); err != nil {
			return secure.DocumentKey{}, fmt.Errorf("DOCUMENT_DATA_KEY: %w", err)
		}
	}
	return secure.NewDocumentKey(secret), nil
}

// wireDocumentsAPI: the API seals the personal part of the webhooks it stores.
func (a *app) wireDocumentsAPI(d *api.Deps) (err error) {
	d.Documents, err = a.documentKey()
	return err
}

// wireDocumentsWorker: the worker seals the answers it stores and opens the webhooks it applies.
func (a *app) wireDocumentsWorker(d *worker.Deps) (err error) {
	d.Documents, err = a.documentKey()
	return err
}
