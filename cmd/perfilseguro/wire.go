package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/worker"
)

// wireAPI fills the per-area API dependencies; each area adds its own wire_<area>.go function.
func (a *app) wireAPI(d *api.Deps) error {
	for _, wire := range []func(*api.Deps) error{a.wireLevelsAPI, a.wirePassesAPI, a.wireAdminAPI, a.wireCredentialsAPI, a.wirePaymentsAPI, a.wireDocumentsAPI} {
		if err := wire(d); err != nil {
			return err
		}
	}
	return nil
}

// wireWorker fills the per-area worker dependencies.
func (a *app) wireWorker(d *worker.Deps) error {
	for _, wire := range []func(*worker.Deps) error{a.wireLevelsWorker, a.wirePassesWorker, a.wireCredentialsWorker, a.wirePaymentsWorker, a.wireDocumentsWorker} {
		if err := wire(d); err != nil {
			return err
		}
	}
	return nil
}
