package credential

import "fmt"

// resolver replaces digests with disclosed claims, following RFC 9901 §7.1 steps 3 to 5.
type resolver struct {
	byDigest map[string]disclosure
	seen     map[string]bool // every digest met so far, decoys included
	used     int
}

// resolve returns the payload with every disclosure put in place of its digest, recursively;
// _sd, _sd_alg and undisclosed array elements are removed. Every disclosure must be used once.
func resolve(payload map[string]any, disclosures []string) (map[string]any, error) {
	if alg, ok := payload["_sd_alg"]; ok && alg != sdAlg {
		return nil, fmt.Errorf("%w: _sd_alg %v is not supported (want %s)", ErrMalformed, alg, sdAlg)
	}
	r := resolver{byDigest: make(map[string]disclosure, len(disclosures)), seen: map[string]bool{}}
	for n, encoded := range disclosures {
		d, err := parseDisclosure(encoded)
		if err != nil {
			return nil, fmt.Errorf("disclosure %d: %w", n+1, err)
		}
		h := digest(encoded)
		if _, dup := r.byDigest[h]; dup {
			return nil, fmt.Errorf("%w: disclosure %d is repeated", ErrDisclosure, n+1)
		}
		r.byDigest[h] = d
	}
	out, err := r.object(payload)
	if err != nil {
		return nil, err
	}
	if r.used != len(r.byDigest) {
		for h, d := range r.byDigest {
			if !r.seen[h] {
				return nil, fmt.Errorf("%w: disclosure of %q is not referenced by any digest", ErrDisclosure, d.name)
			}
		}
	}
	delete(out, "_sd_alg")
	return out, nil
}

// value resolves any JSON value.
func (r *resolver) value(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		return r.object(v)
	case []any:
		return r.array(v)
	default:
		return v, nil
	}
}

// object resolves an object: its own members first, then the claims its _sd digests disclose.
func (r *resolver) object(obj map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k == "_sd" {
			continue
		}
		resolved, err := r.value(v)
		if err != nil {
			return nil, err
		}
		out[k] = resolved
	}
	sd, ok := obj["_sd"]
	if !ok {
		return out, nil
	}
	digests, ok := sd.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: _sd is not an array", ErrMalformed)
	}
	for _, raw := range digests {
		d, found, err := r.lookup(raw)
		if err != nil {
			return nil, err
		}
		if !found {
			continue // a decoy, or a claim the holder did not disclose
		}
		if d.element {
			return nil, fmt.Errorf("%w: an array-element disclosure is referenced from _sd", ErrDisclosure)
		}
		if _, clash := out[d.name]; clash {
			return nil, fmt.Errorf("%w: disclosed claim %q already exists", ErrDisclosure, d.name)
		}
		resolved, err := r.value(d.value)
		if err != nil {
			return nil, err
		}
		out[d.name] = resolved
	}
	return out, nil
}

// array resolves an array: {"...": digest} elements become their disclosed values or are dropped.
func (r *resolver) array(arr []any) ([]any, error) {
	out := make([]any, 0, len(arr))
	for _, elem := range arr {
		if ref, ok := elem.(map[string]any); ok && len(ref) == 1 && hasKey(ref, "...") {
			d, found, err := r.lookup(ref["..."])
			if err != nil {
				return nil, err
			}
			if !found {
				continue
			}
			if !d.element {
				return nil, fmt.Errorf("%w: disclosure of %q is referenced from an array", ErrDisclosure, d.name)
			}
			elem = d.value
		}
		resolved, err := r.value(elem)
		if err != nil {
			return nil, err
		}
		out = append(out, resolved)
	}
	return out, nil
}

// lookup finds the disclosure for a digest, refusing a digest met twice.
func (r *resolver) lookup(raw any) (disclosure, bool, error) {
	h, ok := raw.(string)
	if !ok {
		return disclosure{}, false, fmt.Errorf("%w: digest %v is not a string", ErrMalformed, raw)
	}
	if r.seen[h] {
		return disclosure{}, false, fmt.Errorf("%w: digest %s appears more than once", ErrDisclosure, h)
	}
	r.seen[h] = true
	d, found := r.byDigest[h]
	if found {
		r.used++
	}
	return d, found, nil
}

// hasKey reports whether the object has the member.
func hasKey(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}
