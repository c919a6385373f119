package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
)

// maxBodyBytes limits every request body; larger bodies get 413.
const maxBodyBytes = 64 << 10

// maxJSONDepth refuses deeply nested JSON before decoding it.
const maxJSONDepth = 16

// decodeJSON strictly decodes a JSON object body: JSON content type, size limit,
// bounded nesting, no unknown fields, nothing after the object.
func decodeJSON[T any](r *http.Request) (T, error) {
	var v T
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return v, httpError(http.StatusUnsupportedMediaType, "El contenido debe enviarse como JSON (Content-Type: application/json).")
	}
	raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return v, httpError(http.StatusRequestEntityTooLarge, "La solicitud es demasiado grande.")
		}
		return v, httpError(http.StatusBadRequest, "No se pudo leer la solicitud.")
	}
	if depth(raw) > maxJSONDepth {
		return v, httpError(http.StatusBadRequest, "La solicitud tiene demasiados niveles de anidación.")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, badJSON(err)
	}
	if dec.More() {
		return v, httpError(http.StatusBadRequest, "La solicitud debe contener un solo objeto JSON.")
	}
	return v, nil
}

// decodeValid decodes a body as decodeJSON does, then checks and normalizes it with its validate method.
func decodeValid[T any, P interface {
	*T
	validate() error
}](r *http.Request) (T, error) {
	req, err := decodeJSON[T](r)
	if err != nil {
		return req, err
	}
	return req, P(&req).validate()
}

func badJSON(err error) error {
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr):
		ae := httpError(http.StatusBadRequest, fmt.Sprintf("El campo %s tiene un tipo inválido.", typeErr.Field))
		ae.Body.Errors = map[string]string{typeErr.Field: "Tipo inválido"}
		return ae
	case len(err.Error()) > 20 && err.Error()[:20] == "json: unknown field ":
		field := err.Error()[20:]
		ae := httpError(http.StatusBadRequest, "Campo no permitido: "+field)
		return ae
	default:
		return httpError(http.StatusBadRequest, "El cuerpo de la solicitud no es JSON válido.")
	}
}

// depth returns the maximum nesting of objects/arrays in raw JSON (strings are skipped).
func depth(raw []byte) int {
	d, maxD, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			maxD = max(maxD, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return maxD
}
