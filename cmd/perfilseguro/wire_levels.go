package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/provider/didit"
	"github.com/perfilseguro/perfilseguro/worker"
)

// useDidit reports whether the real biometric provider is configured; otherwise the local
// simulator plays it (config refuses that in production).
func (a *app) useDidit() bool { return a.cfg.Didit.APIKey != "" }

func (a *app) simulator() *devsim.Biometric {
	return &devsim.Biometric{DB: a.db, BaseURL: a.cfg.PublicBaseURL}
}

func (a *app) wireLevelsAPI(d *api.Deps) error {
	d.Levels.WebhookSecret = a.cfg.Didit.WebhookSecret
	if a.useDidit() {
		d.Levels.Provider = "didit"
		return nil
	}
	d.Levels.Provider = "devsim"
	d.Levels.Simulator = a.simulator()
	return nil
}

func (a *app) wireLevelsWorker(d *worker.Deps) error {
	if a.useDidit() {
		c := a.cfg.Didit
		d.Levels.Biometric = didit.New(didit.Config{BaseURL: c.BaseURL, APIKey: c.APIKey,
			WorkflowID: c.WorkflowID, WebhookSecret: c.WebhookSecret})
		return nil
	}
	d.Levels.Biometric = *a.simulator()
	return nil
}
