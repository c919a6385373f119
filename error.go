package perfilseguro

import (
	"errors"
	"fmt"
)

// Error codes shared by every layer; the api package maps them to HTTP statuses.
const (
	ECONFLICT = "conflict"
	EINVALID  = "invalid"
	// EUNPROCESSABLE is well-formed input that names something it may not use (422).
	EUNPROCESSABLE = "unprocessable"
	ENOTFOUND      = "not_found"
	EUNAUTHORIZED  = "unauthorized"
	EFORBIDDEN     = "forbidden"
	ETOOMANY       = "too_many_requests"
	EGONE          = "gone" // it existed, and was used up or expired
	EUNAVAILABLE   = "unavailable"
	EINTERNAL      = "internal"
)

// Error is a domain error whose Message is safe to show to users (Spanish).
type Error struct {
	Code    string            // one of the E* constants
	Message string            // user-facing Spanish text
	Fields  map[string]string // optional per-field messages
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf builds a domain error with a formatted user-facing message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldError builds an EINVALID error for one field; the message is also the top-level message.
func FieldError(field, message string) *Error {
	return &Error{Code: EINVALID, Message: message, Fields: map[string]string{field: message}}
}

// ErrorCode returns the code of a domain error, or EINTERNAL for anything else.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message, or a generic Spanish one for internal errors.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Ocurrió un error interno. Intenta nuevamente."
}

// ErrPermanent marks a provider failure that retrying cannot fix (wrap it with %w).
var ErrPermanent = errors.New("permanent provider failure")

// ErrAddressNotPublic marks a connection refused because the address a third party's URL led to
// (after DNS) is not a public one; the party is told only that (AddressNotPublicNote), never the
// address, which would map our network.
var ErrAddressNotPublic = errors.New("the address is not public")

// AddressNotPublicNote is what a partner's delivery log says of an attempt refused with
// ErrAddressNotPublic.
const AddressNotPublicNote = "La dirección del webhook no es pública (red privada, local o reservada); no se envió. " +
	"Usa una URL que resuelva a una dirección pública."
