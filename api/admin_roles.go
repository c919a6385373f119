package api

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/go-fuego/fuego"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Who may do what in the panel. The server checks every admin route; the panel only hides.
var (
	rolesAny     = perfilseguro.AdminRoles                                            // read users, lifecycle, payments
	rolesManage  = []string{perfilseguro.RoleAdministrator}                           // edit, revoke, delete, partners, administrators, audit
	rolesRefund  = []string{perfilseguro.RoleAdministrator, perfilseguro.RoleFinance} // refunds
	rolesPrivacy = []string{perfilseguro.RoleAdministrator, perfilseguro.RoleSupport} // ARCO requests
)

// errNeedsFresh asks the panel for a new passkey confirmation (it reads errors.reauth).
var errNeedsFresh = &apiError{Status: http.StatusForbidden, Body: ErrorBody{
	Message: "Confirma que eres tú con tu llave de acceso para continuar.",
	Errors:  map[string]string{"reauth": "Confirma con tu llave de acceso (vale 5 minutos)."}}}

func errRole(role string) error {
	return perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Tu rol (%s) no permite esta acción.", role)
}

// requireRole returns the request's administrator session when its role is one of roles: 401
// without a session, 403 with only a person's sign-in or another role.
func (s *Server) requireRole(r *http.Request, roles ...string) (*postgres.AdminSession, error) {
	sess, err := s.adminSessionOf(r)
	if err != nil {
		return nil, err
	}
	if sess == nil {
		uid, err := s.sessionUserID(r)
		if err != nil {
			return nil, err
		}
		if uid != 0 {
			return nil, errNotAdmin
		}
		return nil, errAdminSignedOut
	}
	if !slices.Contains(roles, sess.Role) {
		return sess, errRole(sess.Role)
	}
	return sess, nil
}

// guard describes an administrator action: its audit name and target, the roles allowed, and
// whether it needs a fresh passkey confirmation (destructive actions).
type guard struct {
	action     string
	targetKind string
	targetID   string
	roles      []string
	fresh      bool
}

// authorize checks an action's role (and freshness); a refusal of a signed-in administrator is
// recorded in the audit trail as denied.
func (s *Server) authorize(r *http.Request, g guard) (*postgres.AdminSession, error) {
	sess, err := s.requireRole(r, g.roles...)
	if err == nil && g.fresh && s.freshUntil(sess) == nil {
		err = errNeedsFresh
	}
	if err != nil && sess != nil {
		s.audit(r, adminEvent(sess.Admin, g.action, g.targetKind, g.targetID, postgres.OutcomeDenied))
	}
	if err != nil {
		return nil, err
	}
	return sess, nil
}

// adminRequest is authorize followed by decoding the request body: a refused call's body is not read.
func adminRequest[T any](s *Server, c fuego.ContextWithBody[T], g guard) (*postgres.AdminSession, T, error) {
	var req T
	sess, err := s.authorize(c.Request(), g)
	if err != nil {
		return nil, req, err
	}
	req, err = decodeJSON[T](c.Request())
	return sess, req, err
}

// authorizeOn is authorize for an action on the row in {id}, read by pathID (which refuses a bad
// id in its own words); the row is the guard's target. It returns the session, the id and the
// id as the audit trail's target.
func (s *Server) authorizeOn(c interface {
	PathParam(string) string
	Request() *http.Request
}, pathID func(interface{ PathParam(string) string }) (int64, error), g guard) (*postgres.AdminSession, int64, string, error) {
	id, err := pathID(c)
	if err != nil {
		return nil, 0, "", err
	}
	g.targetID = strconv.FormatInt(id, 10)
	sess, err := s.authorize(c.Request(), g)
	return sess, id, g.targetID, err
}

// freshUntil returns until when the session may take destructive actions without a new
// assertion, or nil when it needs one now.
func (s *Server) freshUntil(sess *postgres.AdminSession) *time.Time {
	// A development-password session counts as fresh outside production, so local work and the
	// Playwright suite can revoke, delete and refund without a passkey. Production refuses the
	// password altogether (config and adminLogin).
	if sess.DevPassword && !s.cfg.Production() {
		return &sess.ExpiresAt
	}
	if sess.AssertedAt == nil {
		return nil
	}
	until := sess.AssertedAt.Add(adminFreshWindow)
	if !s.now().Before(until) {
		return nil
	}
	return &until
}
