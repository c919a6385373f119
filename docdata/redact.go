// Package docdata keeps the personal data of identity documents out of clear text at rest
// (CONVENTIONS 15): it splits a biometric provider's decision into what may stay readable (statuses,
// scores, warnings, document type and dates) and the personal fields (names, numbers, dates of
// birth, addresses, images), which are sealed with the document-data key (secure.DocumentKey).
package docdata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// personalKeys are the fields of Didit's decision (v3: id_verifications[], nfc_verifications[],
// database_validations[], aml_screenings[], poa_verifications[], liveness_checks[],
// face_matches[], phone/email_verifications[], ip_analyses[]; v2: the singular id_verification,
// liveness, face_match, aml, poa…) that name or picture a person, wherever they appear. A whole
// object under such a key (parsed_address, screened_data, source_data, hits) goes with it.
var personalKeys = map[string]bool{
	// names and identifiers
	"first_name": true, "last_name": true, "middle_name": true, "full_name": true, "name": true,
	"maiden_name": true, "name_on_document": true, "document_number": true, "personal_number": true,
	"identification_number": true, "tax_number": true, "mrz": true, "mrz_string": true,
	// birth and civil data
	"date_of_birth": true, "age": true, "place_of_birth": true, "marital_status": true,
	// addresses
	"address": true, "formatted_address": true, "parsed_address": true, "poa_address": true,
	"poa_formatted_address": true, "poa_parsed_address": true,
	// registries' and watch lists' copies of the person
	"screened_data": true, "source_data": true, "hits": true, "matches": true,
	// what we or the person sent the provider
	"expected_details": true, "contact_details": true, "email": true, "phone": true,
	"phone_number": true, "full_number": true, "ip_address": true, "locations_info": true,
	"latitude": true, "longitude": true,
	// free-form parts that may carry any of the above
	"extra_fields": true, "extra_files": true, "reviews": true,
}

// personalKey reports whether a field holds personal data: a listed name, or an image, video or
// file of the person (portrait_image, front_image, reference_image, source_image, video_url…).
func personalKey(k string) bool {
	if personalKeys[k] {
		return true
	}
	for _, suffix := range []string{"image", "images", "video", "videos", "video_url", "_file", "_files"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// verdict reports whether v is a registry's verdict on a field rather than the field itself:
// database_validations[].validations[].validation maps field names (full_name, date_of_birth…)
// to full_match, partial_match or no_match, which say nothing about the person and stay readable.
func verdict(path []any, v any) bool {
	if len(path) == 0 || path[len(path)-1] != "validation" {
		return false
	}
	_, ok := v.(string)
	return ok
}

// field is one removed value and where it was: object keys (strings) and array indexes (numbers).
type field struct {
	Path  []any           `json:"path"`
	Value json.RawMessage `json:"value"`
}

// personalDoc is the form of the personal part: a version, then the removed fields.
type personalDoc struct {
	Version int     `json:"version"`
	Fields  []field `json:"fields"`
	// Whole is an answer that was not a JSON object, kept entire (Seal): restored as it was.
	Whole []byte `json:"whole,omitempty"`
}

// RedactDecision removes every personal field of a provider decision (or of a webhook body that
// carries one under "decision") and returns the rest (kept, to store in clear) and the removed
// fields (personal, to seal; nil when there were none). A null personal field holds nothing and
// stays, so redacting kept again returns it unchanged with a nil personal: redaction is idempotent.
// RestoreDecision puts personal back. Input that is not a JSON object is an error.
func RedactDecision(raw []byte) (kept []byte, personal []byte, err error) {
	root, err := decode(raw)
	if err != nil {
		return nil, nil, err
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, nil, errors.New("redact decision: not a JSON object")
	}
	var removed []field
	walk(obj, nil, &removed)
	if len(removed) == 0 {
		return raw, nil, nil
	}
	if kept, err = json.Marshal(obj); err != nil {
		return nil, nil, fmt.Errorf("redact decision: %w", err)
	}
	if personal, err = json.Marshal(personalDoc{Version: 1, Fields: removed}); err != nil {
		return nil, nil, fmt.Errorf("redact decision: %w", err)
	}
	return kept, personal, nil
}

// walk removes personal keys from v (in place), recording each with its path.
func walk(v any, path []any, removed *[]field) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a stable order: the same input gives the same personal part
		for _, k := range keys {
			child := t[k]
			p := append(append([]any(nil), path...), k)
			if personalKey(k) && child != nil && !verdict(path, child) {
				b, _ := json.Marshal(child)
				*removed = append(*removed, field{Path: p, Value: b})
				delete(t, k)
				continue
			}
			walk(child, p, removed)
		}
	case []any:
		for i, child := range t {
			walk(child, append(append([]any(nil), path...), i), removed)
		}
	}
}

// RestoreDecision puts the fields RedactDecision removed back into kept (or returns the whole
// answer Seal kept apart when it was not a JSON object): the provider's answer as
// it came (key order aside). A nil or empty personal returns kept as it is.
func RestoreDecision(kept, personal []byte) ([]byte, error) {
	if len(bytes.TrimSpace(personal)) == 0 {
		return kept, nil
	}
	root, err := decode(kept)
	if err != nil {
		return nil, err
	}
	var doc personalDoc
	dec := json.NewDecoder(bytes.NewReader(personal))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || doc.Version != 1 {
		return nil, errors.New("restore decision: personal part malformed")
	}
	if doc.Whole != nil {
		return doc.Whole, nil
	}
	for _, f := range doc.Fields {
		if err := put(root, f.Path, f.Value); err != nil {
			return nil, err
		}
	}
	return json.Marshal(root)
}

// put sets value at path (the last element a key of an object that kept still has).
func put(root any, path []any, value json.RawMessage) error {
	if len(path) == 0 {
		return errors.New("restore decision: empty path")
	}
	cur := root
	for i, step := range path {
		last := i == len(path)-1
		switch s := step.(type) {
		case string:
			obj, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("restore decision: %v is not an object in the kept part", path[:i])
			}
			if last {
				obj[s] = value
				return nil
			}
			cur = obj[s]
		case json.Number:
			n, err := s.Int64()
			arr, ok := cur.([]any)
			if err != nil || !ok || n < 0 || int(n) >= len(arr) || last {
				return fmt.Errorf("restore decision: %v does not fit the kept part", path[:i+1])
			}
			cur = arr[n]
		default:
			return errors.New("restore decision: personal part malformed")
		}
	}
	return nil
}

func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers come back with their own digits
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decision: decode: %w", err)
	}
	return v, nil
}
