package credential

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// decoys is how many random digests Issue adds to _sd, so the count does not tell which claims exist.
const decoys = 2

// Subject is what a credential says about a person.
type Subject struct {
	ProfileID   string             // always visible: profile_id
	Level       int                // always visible: verification_level
	Name        string             // selectively disclosable: name (omitted when empty)
	ValidatedAt time.Time          // selectively disclosable: validated_at, RFC 3339 UTC (omitted when zero)
	Origin      string             // selectively disclosable: origin (omitted when empty)
	Scores      map[string]float64 // selectively disclosable as ONE claim "scores" (object); omitted when empty
	ExpiresAt   time.Time          // exp
	StatusIdx   int                // status.status_list.idx
	StatusURI   string             // status.status_list.uri
	HolderJWK   map[string]any     // optional: cnf.jwk, a public key the holder's wallet supplied; nil: no cnf
	// Document is what the identity document certifying the profile says (issue 52): nil for a
	// profile validated before documents were read, which gets none of the PID claims. Each
	// claim is its own disclosure; age_equal_or_over is a disclosed object whose "18" member
	// is a disclosure of its own (nested, RFC 9901 §6.3).
	Document *PID
}

// Validate reports what makes the subject impossible to issue at now.
func (s Subject) Validate(now time.Time) error {
	switch {
	case s.ProfileID == "":
		return errors.New("subject has no profile id")
	case s.ExpiresAt.IsZero():
		return errors.New("subject has no expiry")
	case !s.ExpiresAt.After(now):
		return fmt.Errorf("expiry %s is not after now", s.ExpiresAt.UTC().Format(time.RFC3339))
	case s.StatusURI == "":
		return errors.New("subject has no status list uri")
	case s.StatusIdx < 0:
		return fmt.Errorf("status index %d is negative", s.StatusIdx)
	case s.HolderJWK != nil && s.HolderJWK["kty"] == nil:
		return errors.New("holder jwk has no kty")
	case s.HolderJWK != nil && s.HolderJWK["d"] != nil:
		return errors.New("holder jwk carries a private key")
	}
	return nil
}

// disclosable lists the selectively disclosable claims that have a value.
func (s Subject) disclosable() map[string]any {
	claims := map[string]any{}
	if s.Name != "" {
		claims["name"] = s.Name
	}
	if !s.ValidatedAt.IsZero() {
		claims["validated_at"] = s.ValidatedAt.UTC().Format(time.RFC3339)
	}
	if s.Origin != "" {
		claims["origin"] = s.Origin
	}
	if len(s.Scores) > 0 {
		claims["scores"] = s.Scores
	}
	return claims
}

// Issue returns the compact SD-JWT VC "<issuer-signed JWT>~<disclosure>~…~" (no key binding JWT),
// signed with Keys[0]. Name, validated_at, origin, scores and the document's PID claims are
// disclosures; _sd holds their digests and two decoys, sorted so the order tells nothing.
// age_equal_or_over is computed on the day of issuance (Mexico City) from the birth date.
func (i *Issuer) Issue(s Subject) (string, error) {
	key, err := i.signingKey()
	if err != nil {
		return "", fmt.Errorf("issue credential: %w", err)
	}
	now := i.now()
	if err := s.Validate(now); err != nil {
		return "", fmt.Errorf("issue credential for %q: %w", s.ProfileID, err)
	}
	disclosable := s.disclosable()
	disclosures := make([]string, 0, len(disclosable)+2)
	digests := make([]string, 0, len(disclosable)+decoys+1)
	if s.Document != nil {
		flat, ageOver := s.Document.claims(perfilseguro.MexicoDay(now))
		for name, value := range flat {
			disclosable[name] = value
		}
		if ageOver != nil {
			member, err := newDisclosure(strconv.Itoa(identity.LegalAge), *ageOver)
			if err != nil {
				return "", fmt.Errorf("issue credential for %q: %w", s.ProfileID, err)
			}
			disclosures = append(disclosures, member)
			disclosable[ClaimAgeOver] = map[string]any{"_sd": []string{digest(member)}}
		}
	}
	for name, value := range disclosable {
		d, err := newDisclosure(name, value)
		if err != nil {
			return "", fmt.Errorf("issue credential for %q: %w", s.ProfileID, err)
		}
		disclosures = append(disclosures, d)
		digests = append(digests, digest(d))
	}
	for range decoys {
		d, err := decoyDigest()
		if err != nil {
			return "", fmt.Errorf("issue credential for %q: %w", s.ProfileID, err)
		}
		digests = append(digests, d)
	}
	sort.Strings(digests)
	payload := map[string]any{
		"iss":                i.URL,
		"iat":                now.Unix(),
		"exp":                s.ExpiresAt.Unix(),
		"vct":                i.VCT(),
		"profile_id":         s.ProfileID,
		"verification_level": s.Level,
		"status":             map[string]any{"status_list": map[string]any{"idx": s.StatusIdx, "uri": s.StatusURI}},
		"_sd":                digests,
		"_sd_alg":            sdAlg,
	}
	if s.HolderJWK != nil {
		payload["cnf"] = map[string]any{"jwk": s.HolderJWK}
	}
	signed, err := signJWT(key, typSDJWTVC, payload)
	if err != nil {
		return "", fmt.Errorf("issue credential for %q: %w", s.ProfileID, err)
	}
	return compact{jwt: signed}.join(disclosures), nil
}
