package credential

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// joseHeader is the part of the JOSE header Verify looks at.
type joseHeader struct {
	Alg  string          `json:"alg"`
	Typ  string          `json:"typ"`
	Kid  string          `json:"kid"`
	Crit json.RawMessage `json:"crit"`
}

// Verify checks the issuer signature against keys (by kid), typ "dc+sd-jwt", exp (and nbf if
// present) against now, and every disclosure digest against _sd; it returns the disclosed claims
// as Disclosed does. Errors wrap ErrMalformed, ErrSignature, ErrExpired or ErrDisclosure.
func Verify(sdjwt string, keys []Key, now time.Time) (map[string]any, error) {
	c, err := splitCompact(sdjwt)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if err := verifySignature(c, keys, typSDJWTVC); err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	claims, err := c.claims()
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if err := checkValidity(claims, now); err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	out, err := resolve(claims, c.disclosures)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	return out, nil
}

// verifySignature checks the JOSE header (typ, no crit) and the ES256 signature with the key named by kid.
func verifySignature(c compact, keys []Key, typ string) error {
	var h joseHeader
	if err := json.Unmarshal(c.header, &h); err != nil {
		return fmt.Errorf("%w: JOSE header is not a JSON object", ErrMalformed)
	}
	if h.Typ != typ {
		return fmt.Errorf("%w: typ %q, want %q", ErrMalformed, h.Typ, typ)
	}
	if h.Crit != nil {
		return fmt.Errorf("%w: critical header parameters are not supported", ErrMalformed)
	}
	if h.Alg != jwt.SigningMethodES256.Alg() {
		return fmt.Errorf("%w: alg %q, want ES256", ErrSignature, h.Alg)
	}
	for _, k := range keys {
		if k.ID != h.Kid || k.Private == nil {
			continue
		}
		if err := jwt.SigningMethodES256.Verify(c.signingInput, c.signature, &k.Private.PublicKey); err != nil {
			return fmt.Errorf("%w: kid %s: %v", ErrSignature, h.Kid, err)
		}
		return nil
	}
	return fmt.Errorf("%w: no key with kid %q", ErrSignature, h.Kid)
}

// checkValidity compares exp (required) and nbf (optional) with now.
func checkValidity(claims map[string]any, now time.Time) error {
	exp, ok := numericDate(claims["exp"])
	if !ok {
		return fmt.Errorf("%w: exp is missing or not a number", ErrMalformed)
	}
	if !now.Before(exp) {
		return fmt.Errorf("%w at %s (now %s)", ErrExpired, exp.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if raw, present := claims["nbf"]; present {
		nbf, ok := numericDate(raw)
		if !ok {
			return fmt.Errorf("%w: nbf is not a number", ErrMalformed)
		}
		if now.Before(nbf) {
			return fmt.Errorf("%w: not valid before %s", ErrExpired, nbf.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// numericDate reads a JWT NumericDate (seconds since the epoch, possibly fractional).
func numericDate(v any) (time.Time, bool) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}, false
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true
}
