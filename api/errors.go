package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-fuego/fuego"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// statusOf maps domain error codes to HTTP statuses: the one table of its kind.
var statusOf = map[string]int{
	perfilseguro.ECONFLICT:      http.StatusConflict,
	perfilseguro.EINVALID:       http.StatusBadRequest,
	perfilseguro.EUNPROCESSABLE: http.StatusUnprocessableEntity,
	perfilseguro.ENOTFOUND:      http.StatusNotFound,
	perfilseguro.EUNAUTHORIZED:  http.StatusUnauthorized,
	perfilseguro.EFORBIDDEN:     http.StatusForbidden,
	perfilseguro.ETOOMANY:       http.StatusTooManyRequests,
	perfilseguro.EGONE:          http.StatusGone,
	perfilseguro.EUNAVAILABLE:   http.StatusServiceUnavailable,
	perfilseguro.EINTERNAL:      http.StatusInternalServerError,
}

// ErrorBody is the one JSON error shape: a Spanish message and optional per-field messages.
type ErrorBody struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors,omitempty"`
	// RequestID names the request for support: its trace ID when traces are exported.
	RequestID string `json:"requestId,omitempty"`
	// Extra carries call-specific fields the spec asks for (e.g. existingUserId on 409).
	Extra map[string]any `json:"-"`
}

// apiError is an error with its HTTP status, ready to be written.
type apiError struct {
	Status     int
	Body       ErrorBody
	RetryAfter int   // seconds, for 429 and 503
	Cause      error // logged, never shown
}

func (e *apiError) Error() string {
	if e.Cause != nil {
		return e.Body.Message + ": " + e.Cause.Error()
	}
	return e.Body.Message
}

// StatusCode lets fuego pick the status.
func (e *apiError) StatusCode() int { return e.Status }

func (e *apiError) Unwrap() error { return e.Cause }

// httpError builds an error with an explicit status and message.
func httpError(status int, message string) *apiError {
	return &apiError{Status: status, Body: ErrorBody{Message: message}}
}

// toAPIError turns any error into the one shape; unknown errors become a generic 500.
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var de *perfilseguro.Error
	if errors.As(err, &de) {
		status, ok := statusOf[de.Code]
		if !ok {
			status = http.StatusInternalServerError
		}
		ae := &apiError{Status: status, Body: ErrorBody{Message: de.Message, Errors: de.Fields}, Cause: err}
		if status == http.StatusServiceUnavailable {
			ae.RetryAfter = 30
		}
		return ae
	}
	if postgres.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded) {
		return unavailable(err)
	}
	// fuego's own refusals (a missing or unparsable parameter, a body it cannot read) keep their
	// 4xx status, with the product's Spanish message instead of its English detail.
	var fe fuego.ErrorWithStatus
	if errors.As(err, &fe) && fe.StatusCode() >= 400 && fe.StatusCode() < 500 {
		return &apiError{Status: fe.StatusCode(), Body: ErrorBody{Message: frameworkMessage(fe.StatusCode())}, Cause: err}
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return &apiError{Status: http.StatusRequestEntityTooLarge, Body: ErrorBody{Message: "La solicitud es demasiado grande."}, Cause: err}
	}
	return &apiError{Status: http.StatusInternalServerError, Body: ErrorBody{Message: perfilseguro.ErrorMessage(err)}, Cause: err}
}

// frameworkMessage is the Spanish message of a refusal raised by the framework.
func frameworkMessage(status int) string {
	switch status {
	case http.StatusNotFound:
		return "Recurso no encontrado."
	case http.StatusUnauthorized:
		return "Debes iniciar sesión para continuar."
	case http.StatusForbidden:
		return "No tienes permiso para realizar esta acción."
	case http.StatusNotAcceptable:
		return "El formato de respuesta solicitado no está disponible."
	case http.StatusUnsupportedMediaType:
		return "El tipo de contenido de la solicitud no es compatible. Envía JSON."
	case http.StatusConflict:
		return "La solicitud entra en conflicto con el estado actual."
	}
	return "La solicitud no es válida: falta un dato o tiene un formato incorrecto."
}

// writeError writes err in the one JSON shape and logs server-side failures once, here at the edge.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := toAPIError(err)
	if ae.Status == http.StatusInternalServerError && errors.Is(r.Context().Err(), context.DeadlineExceeded) {
		ae = unavailable(err) // past requestBound: whatever the driver said when it gave up
	}
	if ae.Status >= 500 && errors.Is(r.Context().Err(), context.Canceled) {
		ae = clientClosed(err) // the browser went away: whatever failed, it failed because of that
	}
	if ae.Status >= 500 {
		slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "request_id", requestID(r.Context()), "error", err)
	}
	body := map[string]any{"message": ae.Body.Message}
	if id := requestID(r.Context()); id != "" {
		body["requestId"] = id
	}
	if len(ae.Body.Errors) > 0 {
		body["errors"] = ae.Body.Errors
	}
	for k, v := range ae.Body.Extra {
		body[k] = v
	}
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(ae.Status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeJSON writes a success body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// unavailableRetryAfter is the Retry-After, in seconds, of a dependency that cannot be reached.
// A Postgres failover (Patroni) or a Redis one (Sentinel) takes a few seconds to a few tens of
// seconds: 10 s lets a client come back soon after a planned switchover without making it poll a
// longer outage more than a few times a minute.
const unavailableRetryAfter = 10

// unavailable is the 503 of a dependency (Postgres, Redis) that cannot serve right now, or of a
// request that ran out of its time (requestBound): the request may succeed later.
func unavailable(cause error) *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, RetryAfter: unavailableRetryAfter, Cause: cause, Body: ErrorBody{
		Message: "El servicio no está disponible en este momento. Intenta nuevamente en unos minutos."}}
}

// statusClientClosedRequest is nginx's 499: the client closed the connection (a navigation away,
// a closed tab, fetch's abort) before the answer. It is not our failure: the request line is
// logged at INFO level, not ERROR, and the 5xx alert and dashboard, which count code=~"5..",
// leave it out.
const statusClientClosedRequest = 499

// clientClosed is the answer to a request whose client went away; nobody reads it.
func clientClosed(cause error) *apiError {
	return &apiError{Status: statusClientClosedRequest, Cause: cause, Body: ErrorBody{Message: "La solicitud se canceló."}}
}

// setStatus sets a success status other than 200 on a fuego context. fuego writes the status
// line at once, so the JSON content type must be set before it.
func setStatus(c interface {
	SetHeader(string, string)
	SetStatus(int)
}, code int) {
	c.SetHeader("Content-Type", "application/json")
	c.SetStatus(code)
}
