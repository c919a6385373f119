package credential

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The part of DCQL (OpenID4VP 1.0 §6) a verifier of this credential needs: one Credential Query
// for this issuer's dc+sd-jwt vct, naming top-level claims by path. Alternatives (claim_sets,
// credential_sets), value matching and nested paths are not offered: every claim of this
// credential is top-level (a query for ["age_equal_or_over", "18"] is read as one for
// age_equal_or_over, which holds only that member), and a query with fewer choices says exactly
// what the person shares.

// DCQLQuery is a DCQL query with its Credential Queries.
type DCQLQuery struct {
	Credentials []DCQLCredential `json:"credentials"`
}

// DCQLCredential is one Credential Query.
type DCQLCredential struct {
	ID     string      `json:"id"`
	Format string      `json:"format"`
	Meta   DCQLMeta    `json:"meta"`
	Claims []DCQLClaim `json:"claims,omitempty"`
	// Multiple and RequireCryptographicHolderBinding are accepted only at their defaults (false
	// and true): one credential, presented with a key binding JWT.
	Multiple                          *bool `json:"multiple,omitempty"`
	RequireCryptographicHolderBinding *bool `json:"require_cryptographic_holder_binding,omitempty"`
}

// DCQLMeta holds the SD-JWT VC types the verifier accepts (vct_values, appendix B on SD-JWT VC).
type DCQLMeta struct {
	VCTValues []string `json:"vct_values"`
}

// DCQLClaim is one Claims Query: a claims path pointer to a top-level claim.
type DCQLClaim struct {
	ID   string   `json:"id,omitempty"`
	Path []string `json:"path"`
}

// dcqlID is the syntax of Credential Query and Claims Query ids (§6.1, §6.3).
var dcqlID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ClaimNames are the credential's top-level claims, the ones a verifier may ask for.
func ClaimNames() []string {
	names := make([]string, 0, len(claimLabels))
	for _, c := range claimLabels {
		names = append(names, c.claim)
	}
	return names
}

// Errors of DCQL and Canonical are written for the partner who wrote the query: Spanish.

// DCQL is the query for the named claims of this issuer's credential, under the Credential
// Query id; claims must be ClaimNames, each once (none: only what is never selectively
// disclosable, proof that a valid credential is held).
func (i *Issuer) DCQL(id string, claims []string) (DCQLQuery, error) {
	if !dcqlID.MatchString(id) {
		return DCQLQuery{}, fmt.Errorf("el id de la consulta de credencial %q debe tener de 1 a 64 letras, dígitos, _ o -", id)
	}
	known := ClaimNames()
	q := DCQLCredential{ID: id, Format: typSDJWTVC, Meta: DCQLMeta{VCTValues: []string{i.VCT()}}}
	for _, name := range claims {
		if !slices.Contains(known, name) {
			return DCQLQuery{}, fmt.Errorf("la credencial no tiene el dato %q (tiene %s)", name, strings.Join(known, ", "))
		}
		if slices.ContainsFunc(q.Claims, func(c DCQLClaim) bool { return c.Path[0] == name }) {
			return DCQLQuery{}, fmt.Errorf("el dato %q se pide dos veces", name)
		}
		q.Claims = append(q.Claims, DCQLClaim{Path: []string{name}})
	}
	return DCQLQuery{Credentials: []DCQLCredential{q}}, nil
}

// Canonical checks a query a verifier wrote against what this issuer's credential can answer
// and returns it in the form DCQL writes (the claims ids dropped: without claim_sets they
// mean nothing).
func (i *Issuer) Canonical(q DCQLQuery) (DCQLQuery, error) {
	if len(q.Credentials) != 1 {
		return DCQLQuery{}, errors.New("la consulta debe tener exactamente una consulta de credencial")
	}
	c := q.Credentials[0]
	switch {
	case c.Format != typSDJWTVC:
		return DCQLQuery{}, fmt.Errorf("el formato %q no se ofrece (solo %s)", c.Format, typSDJWTVC)
	case !slices.Contains(c.Meta.VCTValues, i.VCT()):
		return DCQLQuery{}, fmt.Errorf("meta.vct_values debe incluir %s", i.VCT())
	case c.Multiple != nil && *c.Multiple:
		return DCQLQuery{}, errors.New("multiple debe ser false: una credencial por persona")
	case c.RequireCryptographicHolderBinding != nil && !*c.RequireCryptographicHolderBinding:
		return DCQLQuery{}, errors.New("require_cryptographic_holder_binding debe ser true: toda presentación lleva prueba de posesión")
	case c.Claims != nil && len(c.Claims) == 0:
		return DCQLQuery{}, errors.New("claims, si se envía, no puede estar vacío")
	}
	names := make([]string, 0, len(c.Claims))
	for _, claim := range c.Claims {
		if claim.ID != "" && !dcqlID.MatchString(claim.ID) {
			return DCQLQuery{}, fmt.Errorf("el id de dato %q debe tener solo letras, dígitos, _ o -", claim.ID)
		}
		name, ok := topLevel(claim.Path)
		if !ok {
			return DCQLQuery{}, fmt.Errorf("la ruta %q debe nombrar un solo dato de primer nivel (o age_equal_or_over, 18)", claim.Path)
		}
		if slices.Contains(names, name) {
			continue // ["age_equal_or_over"] and ["age_equal_or_over", "18"] ask for the same thing
		}
		names = append(names, name)
	}
	return i.DCQL(c.ID, names)
}

// topLevel is the top-level claim a claims path asks for: a path of one, or a nested claim the
// credential discloses with its parent (["age_equal_or_over", "18"] asks for age_equal_or_over,
// whose only member is "18").
func topLevel(path []string) (string, bool) {
	if len(path) == 1 {
		return path[0], true
	}
	for _, n := range nestedClaims {
		if len(path) == len(n.path) && path[0] == n.path[0] && path[1] == n.path[1] {
			return path[0], true
		}
	}
	return "", false
}

// Requested is the Credential Query id and the claims a canonical query asks for.
func (q DCQLQuery) Requested() (id string, claims []string) {
	if len(q.Credentials) == 0 {
		return "", nil
	}
	c := q.Credentials[0]
	for _, claim := range c.Claims {
		if len(claim.Path) > 0 {
			claims = append(claims, claim.Path[0])
		}
	}
	return c.ID, claims
}
