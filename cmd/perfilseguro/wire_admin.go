package main

import (
	"context"
	"fmt"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func (a *app) wireAdminAPI(d *api.Deps) error { return nil }

// seedDevAdmin creates the development administrator (perfilseguro.DevAdminEmail, role
// administrador) whom the development password signs in; never in production.
func (a *app) seedDevAdmin(ctx context.Context) error {
	if a.cfg.Production() {
		return nil
	}
	store := &postgres.Store{DB: a.db}
	if _, err := store.EnsureAdmin(ctx, perfilseguro.DevAdminEmail, "Administrador de desarrollo", perfilseguro.RoleAdministrator); err != nil {
		return fmt.Errorf("seed development administrator: %w", err)
	}
	a.logger.Info("development administrator ready", "email", perfilseguro.DevAdminEmail, "password", "ADMIN_PASSWORD_HASH or the development default")
	return nil
}
