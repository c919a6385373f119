package main

import "github.com/perfilseguro/perfilseguro/api"

func (a *app) wireAdminAPI(d *api.Deps) error { return nil }
