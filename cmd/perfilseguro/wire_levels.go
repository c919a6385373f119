package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/worker"
)

func (a *app) wireLevelsAPI(d *api.Deps) error { return nil }

func (a *app) wireLevelsWorker(d *worker.Deps) error { return nil }
