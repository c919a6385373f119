package main

import (
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/worker"
)

func (a *app) wirePassesAPI(d *api.Deps) error { return nil }

func (a *app) wirePassesWorker(d *worker.Deps) error { return nil }
