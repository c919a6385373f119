package credential

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// compact is a compact SD-JWT split into its parts (RFC 9901 §4): "<JWT>~<D1>~…~<Dn>~".
type compact struct {
	jwt          string
	signingInput string // "<header>.<payload>" as sent, what the signature covers
	header       []byte // decoded JOSE header JSON
	payload      []byte // decoded JWT payload JSON
	signature    []byte
	disclosures  []string
}

// splitCompact splits and base64-decodes a compact SD-JWT. A trailing Key Binding JWT is refused:
// silently ignoring one would mislead a caller; VerifyPresentation checks it and splits it off first.
func splitCompact(sdjwt string) (compact, error) {
	parts := strings.Split(strings.TrimSpace(sdjwt), "~")
	if len(parts) < 2 {
		return compact{}, fmt.Errorf("%w: not an SD-JWT (no '~')", ErrMalformed)
	}
	if parts[len(parts)-1] != "" {
		return compact{}, fmt.Errorf("%w: key binding JWT (or missing final '~') is not supported", ErrMalformed)
	}
	c := compact{jwt: parts[0], disclosures: parts[1 : len(parts)-1]}
	for n, d := range c.disclosures {
		if d == "" {
			return compact{}, fmt.Errorf("%w: disclosure %d is empty", ErrMalformed, n+1)
		}
	}
	segments := strings.Split(c.jwt, ".")
	if len(segments) != 3 {
		return compact{}, fmt.Errorf("%w: the JWT has %d parts, want 3", ErrMalformed, len(segments))
	}
	var decoded [3][]byte
	for n, seg := range segments {
		b, err := base64.RawURLEncoding.DecodeString(seg)
		if err != nil {
			return compact{}, fmt.Errorf("%w: JWT part %d is not base64url: %v", ErrMalformed, n+1, err)
		}
		decoded[n] = b
	}
	c.signingInput = segments[0] + "." + segments[1]
	c.header, c.payload, c.signature = decoded[0], decoded[1], decoded[2]
	return c, nil
}

// claims decodes the JWT payload.
func (c compact) claims() (map[string]any, error) {
	var claims map[string]any
	if err := json.Unmarshal(c.payload, &claims); err != nil || claims == nil {
		return nil, fmt.Errorf("%w: JWT payload is not a JSON object", ErrMalformed)
	}
	return claims, nil
}

// join serializes the JWT with the given disclosures.
func (c compact) join(disclosures []string) string {
	var b strings.Builder
	b.WriteString(c.jwt)
	b.WriteByte('~')
	for _, d := range disclosures {
		b.WriteString(d)
		b.WriteByte('~')
	}
	return b.String()
}

// Present keeps only the disclosures of the top-level claims named in keep (a presentation with
// selected claims), with the disclosures nested in them; it does not touch the JWT. Names not
// in the credential are ignored.
func Present(sdjwt string, keep ...string) (string, error) {
	c, err := splitCompact(sdjwt)
	if err != nil {
		return "", fmt.Errorf("present: %w", err)
	}
	wanted := make(map[string]bool, len(keep))
	for _, name := range keep {
		wanted[name] = true
	}
	parsed := make([]disclosure, len(c.disclosures))
	byDigest := make(map[string]int, len(c.disclosures))
	for n, encoded := range c.disclosures {
		d, err := parseDisclosure(encoded)
		if err != nil {
			return "", fmt.Errorf("present: %w", err)
		}
		parsed[n] = d
		byDigest[digest(encoded)] = n
	}
	claims, err := c.claims()
	if err != nil {
		return "", fmt.Errorf("present: %w", err)
	}
	// The top-level claims asked for, then every disclosure nested in a kept one (the "18" of
	// age_equal_or_over): a claim is presented whole.
	chosen := make([]bool, len(parsed))
	var queue []int
	for _, h := range digestsIn(claims, false) {
		if n, ok := byDigest[h]; ok && !parsed[n].element && wanted[parsed[n].name] && !chosen[n] {
			chosen[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, h := range digestsIn(parsed[n].value, true) {
			if m, ok := byDigest[h]; ok && !chosen[m] {
				chosen[m] = true
				queue = append(queue, m)
			}
		}
	}
	kept := make([]string, 0, len(keep))
	for n, encoded := range c.disclosures {
		if chosen[n] {
			kept = append(kept, encoded)
		}
	}
	return c.join(kept), nil
}

// digestsIn lists the digests a value refers to: its _sd members and {"...": digest} array
// elements, at the top only or, deep, at any depth.
func digestsIn(v any, deep bool) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if sd, ok := v["_sd"].([]any); ok {
			for _, h := range sd {
				if s, ok := h.(string); ok {
					out = append(out, s)
				}
			}
		}
		if !deep {
			return out
		}
		for k, member := range v {
			if k != "_sd" {
				out = append(out, digestsIn(member, true)...)
			}
		}
	case []any:
		for _, elem := range v {
			if ref, ok := elem.(map[string]any); ok && len(ref) == 1 {
				if s, ok := ref["..."].(string); ok {
					out = append(out, s)
					continue
				}
			}
			if deep {
				out = append(out, digestsIn(elem, true)...)
			}
		}
	}
	return out
}

// Disclosed parses a compact SD-JWT WITHOUT checking the signature (for tests and the app's own
// display): the payload claims merged with the disclosed claims, _sd and _sd_alg removed.
func Disclosed(sdjwt string) (map[string]any, error) {
	c, err := splitCompact(sdjwt)
	if err != nil {
		return nil, fmt.Errorf("disclosed: %w", err)
	}
	claims, err := c.claims()
	if err != nil {
		return nil, fmt.Errorf("disclosed: %w", err)
	}
	out, err := resolve(claims, c.disclosures)
	if err != nil {
		return nil, fmt.Errorf("disclosed: %w", err)
	}
	return out, nil
}
