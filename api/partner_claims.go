package api

import (
	"context"
	"slices"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// The claims a partner receives from the identity document that certifies the profile (issue 52
// item 6): they come from the document, never from what the person typed, and only for a profile
// whose name came from its document. Any other profile, or a document that lacks one, leaves the
// claim out (listed in unavailableClaims).

// asksDocument tells whether any of the asked claims is read from the document.
func asksDocument(asked []string) bool {
	return slices.ContainsFunc(asked, func(c string) bool { return slices.Contains(perfilseguro.DocumentClaims, c) })
}

// profileDocument is the document that certifies u, read only when a document claim is asked
// for; nil for a profile whose name was typed.
func (s *Server) profileDocument(ctx context.Context, u perfilseguro.User, asked []string) (*perfilseguro.DocumentIdentity, error) {
	if !u.NameFromDocument || !asksDocument(asked) {
		return nil, nil
	}
	return s.store.ProfileDocument(ctx, u.ID)
}

// documentClaim is one document claim's value on day (ageOver18 is computed on the day of
// sharing, in Mexico City); nil when doc is nil or does not carry it.
func documentClaim(doc *perfilseguro.DocumentIdentity, claim string, day time.Time) any {
	if doc == nil {
		return nil
	}
	switch claim {
	case "givenName":
		if g := strings.TrimSpace(doc.GivenNames); g != "" {
			return identity.ProperName(g)
		}
	case "familyName":
		if f := strings.TrimSpace(doc.FirstSurname + " " + doc.SecondSurname); f != "" {
			return identity.ProperName(f)
		}
	case "birthdate":
		if !doc.DateOfBirth.IsZero() {
			return doc.DateOfBirth.Format(time.DateOnly)
		}
	case "ageOver18":
		if !doc.DateOfBirth.IsZero() {
			return identity.AgeOn(doc.DateOfBirth, day.In(perfilseguro.MexicoCity())) >= identity.LegalAge
		}
	case "nationality":
		if n := strings.ToUpper(strings.TrimSpace(doc.Nationality)); len(n) == 3 {
			return n
		}
	case "curp":
		// Only a real CURP: a foreign document's personal number is not one.
		if c := identity.NormalizeCURP(doc.PersonalNumber); c != "" && identity.CheckCURP(c, time.Time{}, "", "").Valid {
			return c
		}
	}
	return nil
}

// grantedClaims are the asked claims that shared carries a value for (or, not from the document,
// carries at all): what the person agrees to share and the grant records.
func grantedClaims(asked []string, shared map[string]any) []string {
	missing := perfilseguro.UnavailableClaims(asked, shared)
	out := []string{}
	for _, c := range asked {
		if !slices.Contains(missing, c) {
			out = append(out, c)
		}
	}
	return out
}
