package expediente

import (
	"encoding/json"
	"fmt"
)

// JSON is the file as indented JSON (field names: doc.go), after Validate.
func JSON(f File) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("expediente: json: %w", err)
	}
	return append(b, '\n'), nil
}
