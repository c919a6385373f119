package perfilseguro

import (
	"slices"
	"time"
)

// The partner console (/socios): a partner's own people sign in with a passkey and run their
// integration — keys, webhook, allowed origin, delivery log, sessions, usage and team — under
// one of four roles. The server checks every action against the role; the console only hides.

// Partner user roles (partner_users.role).
const (
	PartnerRoleOwner     = "propietario"   // everything, including the team
	PartnerRoleDeveloper = "desarrollador" // keys, webhook, origin, resends; reads everything
	PartnerRoleReader    = "lectura"       // reads only
	// PartnerRoleCompliance is the business's compliance officer (LFPIORPI, issue 53): records
	// operations and reads the people in them; no keys, webhook, origin or team.
	PartnerRoleCompliance = "cumplimiento"
)

// PartnerRoles lists every partner role, the most powerful first.
var PartnerRoles = []string{PartnerRoleOwner, PartnerRoleDeveloper, PartnerRoleCompliance, PartnerRoleReader}

// Lifetimes of the console's links, sessions and rotated secrets.
const (
	PartnerEnrolLifetime   = 7 * 24 * time.Hour // an enrolment link works once, within this time
	PartnerSessionLifetime = 8 * time.Hour      // a console sign-in lasts this long (absolute)
	WebhookSecretOverlap   = 24 * time.Hour     // a replaced webhook secret keeps signing this long
)

// PartnerAction is something a partner user may do in the console.
type PartnerAction string

// The console's actions, each allowed to the roles in partnerRoleActions.
const (
	PartnerRead          PartnerAction = "read"    // see keys (hints), webhook, deliveries, sessions, usage, team
	PartnerManageKeys    PartnerAction = "keys"    // create and revoke keys
	PartnerManageWebhook PartnerAction = "webhook" // set the webhook URL, rotate its secret
	PartnerManageOrigin  PartnerAction = "origin"  // change the allowed origin
	PartnerResend        PartnerAction = "resend"  // send a notification again
	PartnerManageTeam    PartnerAction = "team"    // invite, change roles, disable, new enrolment links
	// PartnerOperationsWrite records LFPIORPI operations (the others read the list without people).
	PartnerOperationsWrite PartnerAction = "operations"
	// PartnerComplianceRead reads the people in operations and, later, their AML files.
	PartnerComplianceRead PartnerAction = "compliance"
)

var partnerRoleActions = map[string][]PartnerAction{
	PartnerRoleOwner: {PartnerRead, PartnerManageKeys, PartnerManageWebhook, PartnerManageOrigin, PartnerResend, PartnerManageTeam,
		PartnerOperationsWrite, PartnerComplianceRead},
	PartnerRoleDeveloper:  {PartnerRead, PartnerManageKeys, PartnerManageWebhook, PartnerManageOrigin, PartnerResend},
	PartnerRoleCompliance: {PartnerRead, PartnerOperationsWrite, PartnerComplianceRead},
	PartnerRoleReader:     {PartnerRead},
}

// PartnerRoleAllows reports whether role may take action.
func PartnerRoleAllows(role string, action PartnerAction) bool {
	return slices.Contains(partnerRoleActions[role], action)
}

// PartnerRoleActions lists what role may do (the console hides the rest).
func PartnerRoleActions(role string) []PartnerAction {
	return slices.Clone(partnerRoleActions[role])
}

// ValidPartnerRole reports whether role is one of PartnerRoles.
func ValidPartnerRole(role string) bool { return slices.Contains(PartnerRoles, role) }

// MsgPartnerRole is the refusal of a role that does not allow a field's value.
const MsgPartnerRole = "Rol no válido: propietario, desarrollador, cumplimiento o lectura"

// NewPartnerUser is a partner user about to be invited.
type NewPartnerUser struct {
	PartnerID int64  // api_keys.id
	Email     string // normalized to lower case by Validate
	Name      string // trimmed by Validate
	Role      string // one of PartnerRoles
	InvitedBy string // who invited them, as the audit trail names them (an e-mail)
}

// Validate normalizes the user and returns an EINVALID error naming the bad fields.
func (u *NewPartnerUser) Validate() error {
	return validateStaffAccount(&u.Email, &u.Name, ValidPartnerRole(u.Role), MsgPartnerRole)
}
