package perfilseguro

import (
	"slices"
	"time"
)

// Administrator roles (admins.role). Each route checks the role on the server; the panel only
// hides what a role cannot do.
const (
	RoleAdministrator = "administrador" // everything, including partners and other administrators
	RoleSupport       = "soporte"       // reads users, lifecycle and payments; handles ARCO requests
	RoleFinance       = "finanzas"      // payments and refunds; reads users
)

// AdminRoles lists every role, the most powerful first.
var AdminRoles = []string{RoleAdministrator, RoleSupport, RoleFinance}

// DevAdminEmail is the development administrator seeded by `perfilseguro dev`, the one a
// development-password sign-in opens a session for (never in production).
const DevAdminEmail = "admin@perfilseguro.local"

// NewAdmin is an administrator account about to be created.
type NewAdmin struct {
	Email     string // normalized to lower case by Validate
	Name      string // trimmed by Validate
	Role      string // one of AdminRoles
	CreatedBy *int64 // the administrator who invited them; nil from the command line
}

// Validate normalizes the account and returns an EINVALID error naming the bad fields.
func (a *NewAdmin) Validate() error {
	return validateStaffAccount(&a.Email, &a.Name, slices.Contains(AdminRoles, a.Role),
		"Rol no válido: administrador, soporte o finanzas")
}

// MexicoCity is the time zone the panel's dates are read in.
func MexicoCity() *time.Location { return mexicoCity }
