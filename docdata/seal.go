package docdata

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/perfilseguro/perfilseguro/secure"
)

// Unparsable is the kept part of an answer that is not a JSON object: all of it is sealed.
var Unparsable = []byte(`{"redacted":"not a JSON object"}`)

// Seal is the stored form of a provider's raw answer: RedactDecision's kept part, to store in
// clear, and its personal part sealed with key (nil when the answer holds nothing personal). An
// answer that is not a JSON object is sealed whole and kept as Unparsable. With a zero key the
// personal part is dropped, never stored in clear.
func Seal(key secure.DocumentKey, raw []byte) (kept []byte, sealed *string, err error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	kept, personal, err := RedactDecision(raw)
	if err != nil {
		kept = Unparsable
		if personal, err = json.Marshal(personalDoc{Version: 1, Whole: raw}); err != nil {
			return nil, nil, err
		}
	}
	if personal == nil || !key.Valid() {
		return kept, nil, nil
	}
	s := key.Sealer.Seal(string(personal))
	return kept, &s, nil
}

// Open is the provider's answer as it came: kept with the sealed personal part put back.
func Open(key secure.DocumentKey, kept []byte, sealed *string) ([]byte, error) {
	if sealed == nil || *sealed == "" {
		return kept, nil
	}
	if !key.Valid() {
		return nil, errors.New("open stored decision: no document-data key")
	}
	personal, err := key.Sealer.Open(*sealed)
	if err != nil {
		return nil, fmt.Errorf("open stored decision: %w", err)
	}
	return RestoreDecision(kept, []byte(personal))
}
