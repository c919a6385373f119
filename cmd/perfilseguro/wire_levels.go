package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
	"github.com/perfilseguro/perfilseguro/worker"
)

// useDidit reports whether the real biometric provider is configured; otherwise the local
// simulator plays it (config refuses that in production, where it serves only partners' test
// people).
func (a *app) useDidit() bool { return a.cfg.Didit.APIKey != "" }

func (a *app) simulator() *devsim.Biometric {
	return &devsim.Biometric{DB: a.db, BaseURL: a.cfg.PublicBaseURL}
}

func (a *app) wireLevelsAPI(d *api.Deps) error {
	d.Levels.WebhookSecret = a.cfg.Didit.WebhookSecret
	// The simulator's page serves the sessions it made: everyone's in development, only partners'
	// test people's when the real provider is configured (issue 36).
	d.Levels.Simulator = a.simulator()
	d.Levels.Provider = "devsim"
	if a.useDidit() {
		d.Levels.Provider = "didit"
	}
	return nil
}

func (a *app) wireLevelsWorker(d *worker.Deps) error {
	if a.useDidit() {
		c := a.cfg.Didit
		d.Levels.Biometric = didit.New(didit.Config{BaseURL: c.BaseURL, APIKey: c.APIKey,
			WorkflowID: c.WorkflowID, WebhookSecret: c.WebhookSecret})
		d.Levels.TestBiometric = *a.simulator() // partners' test people
		return nil
	}
	d.Levels.Biometric = *a.simulator()
	return nil
}
