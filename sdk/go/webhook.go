package perfilseguro

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Headers of a webhook notification.
const (
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">"; during a
	// secret rotation it carries one v1 per secret.
	SignatureHeader = "X-PerfilSeguro-Signature"
	// EventHeader names the event (also in the body's "event").
	EventHeader = "X-PerfilSeguro-Event"
	// DeliveryHeader identifies the delivery: a retry carries the same value, so a receiver
	// that already processed it should answer 2xx and do nothing.
	DeliveryHeader = "X-PerfilSeguro-Delivery"
)

// DefaultTolerance is how far a notification's timestamp may be from now, either way.
const DefaultTolerance = 5 * time.Minute

// The errors of VerifyWebhook; test with errors.Is.
var (
	// ErrSignatureMalformed: the header is missing, or lacks t or a v1 signature.
	ErrSignatureMalformed = errors.New("perfilseguro: encabezado " + SignatureHeader + " mal formado")
	// ErrSignatureExpired: the timestamp is further from now than the tolerance (a replay, or a
	// clock out of time).
	ErrSignatureExpired = errors.New("perfilseguro: la firma del webhook está fuera de tiempo")
	// ErrSignatureMismatch: no v1 signature matches this secret and body (wrong secret, or a
	// body that was changed, re-encoded or parsed before checking).
	ErrSignatureMismatch = errors.New("perfilseguro: la firma del webhook no corresponde")
)

// VerifyWebhook checks that a notification comes from Perfil Seguro: header is the value of
// X-PerfilSeguro-Signature, body the request body exactly as received (before any JSON
// parsing). One of the v1 signatures must be the HMAC-SHA256 of "<t>.<body>" with secret, and
// t must be within tolerance of now, before or after (tolerance <= 0 means DefaultTolerance).
// The error wraps ErrSignatureMalformed, ErrSignatureExpired or ErrSignatureMismatch.
func VerifyWebhook(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if secret == "" {
		return errors.New("perfilseguro: falta el secreto del webhook")
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	ts, sigs, err := parseSignatureHeader(header)
	if err != nil {
		return err
	}
	unix, _ := strconv.ParseInt(ts, 10, 64) // digits only, checked by parseSignatureHeader
	signedAt := time.Unix(unix, 0)
	if d := now.Sub(signedAt); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: firmada el %s, %s de diferencia (tolerancia %s)", ErrSignatureExpired,
			signedAt.UTC().Format(time.RFC3339), d.Round(time.Second), tolerance)
	}
	want := webhookMAC(secret, ts, body)
	ok := 0
	for _, sig := range sigs {
		// Compare every entry, in constant time each, rather than stopping at the first match.
		if hmac.Equal(sig, want) {
			ok = 1
		}
	}
	if ok == 0 {
		return ErrSignatureMismatch
	}
	return nil
}

// parseSignatureHeader reads "t=<digits>,v1=<64 hex>[,v1=…]"; entries of other schemes (v0,
// v2…) and v1 values that are not 32 hex bytes are skipped, a second t is refused.
func parseSignatureHeader(header string) (string, [][]byte, error) {
	if strings.TrimSpace(header) == "" {
		return "", nil, fmt.Errorf("%w: falta el encabezado", ErrSignatureMalformed)
	}
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found {
			continue
		}
		switch k {
		case "t":
			if ts != "" {
				return "", nil, fmt.Errorf("%w: t aparece más de una vez", ErrSignatureMalformed)
			}
			if v == "" || len(v) > 12 || strings.Trim(v, "0123456789") != "" {
				return "", nil, fmt.Errorf("%w: t no es un número de segundos", ErrSignatureMalformed)
			}
			ts = v
		case "v1":
			if len(v) != 2*sha256.Size {
				continue
			}
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	if ts == "" {
		return "", nil, fmt.Errorf("%w: falta t", ErrSignatureMalformed)
	}
	if len(sigs) == 0 {
		return "", nil, fmt.Errorf("%w: falta una firma v1", ErrSignatureMalformed)
	}
	return ts, sigs, nil
}

func webhookMAC(secret, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// SignWebhook signs body as Perfil Seguro does, for tests of a partner's receiver:
// "t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>".
func SignWebhook(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(webhookMAC(secret, ts, body))
}

// Event is a verified webhook notification.
type Event struct {
	// Event is the kind: verification_session.completed, verification_session.declined,
	// verification_session.expired, profile.revoked, …
	Event string `json:"event"`
	// ID is the session (vs_…) of verification_session.* events, the presentation of
	// presentation.completed; profile.* events carry profileId instead and no id.
	ID string `json:"id"`
	// Raw is the whole body, to decode into the event's own shape (see Decode).
	Raw json.RawMessage `json:"-"`
}

// Decode unmarshals the whole notification into v, a struct of the event's shape.
func (e Event) Decode(v any) error {
	return json.Unmarshal(e.Raw, v)
}

// SessionEvent is the body of the verification_session.* events: the session as GET
// …/verification-sessions/{id} shows it, except that Claims holds what the person shared.
type SessionEvent struct {
	Event         string            `json:"event"`
	ID            string            `json:"id"`
	Reference     string            `json:"reference"`
	Status        SessionViewStatus `json:"status"`
	Livemode      bool              `json:"livemode"`
	RequiredLevel int               `json:"requiredLevel"`
	CreatedAt     time.Time         `json:"createdAt"`
	EndedAt       *time.Time        `json:"endedAt,omitempty"`
	// Claims is what the person shared, only what was asked for (completed only; absent once
	// SharedReason is set).
	Claims map[string]any `json:"claims,omitempty"`
	// Proof is the signed proof of Claims (completed only); check it with VerifyProof.
	Proof string `json:"proof,omitempty"`
	// UnavailableClaims are the claims of the ID asked for that Claims does not carry (the
	// profile was validated before IDs were read, or its ID lacks them): ClaimCURP and the like.
	UnavailableClaims []string `json:"unavailableClaims,omitempty"`
	// SharedReason is set on a completed session whose data is gone (a retry or a resend after the
	// person withdrew your access or deleted their account): SharedWithdrawn or SharedDeleted. The
	// body then carries "shared": null and neither claims nor proof.
	SharedReason string `json:"sharedReason,omitempty"`
}

// Why a completed session no longer carries what the person shared (SessionView.SharedReason,
// SessionEvent.SharedReason).
const (
	SharedWithdrawn = "withdrawn" // the person withdrew your platform's access in Mi Perfil
	SharedDeleted   = "deleted"   // the person deleted their account
)

// SessionRef is one of your sessions as profile.access_revoked and profile.deleted name it: its id and your reference.
type SessionRef struct {
	ID        string `json:"id"`
	Reference string `json:"reference"`
}

// AccessRevokedEvent is the body of profile.access_revoked: the person withdrew your access, and
// every session they completed with you in that mode now answers its status only.
type AccessRevokedEvent struct {
	Event string `json:"event"`
	// Sessions are the sessions the person completed with you in this mode, newest first.
	Sessions  []SessionRef `json:"sessions"`
	Livemode  bool         `json:"livemode"`
	RevokedAt time.Time    `json:"revokedAt"`
	// ProfileID is set only if the person had shared their profile ID with you.
	ProfileID string `json:"profileId,omitempty"`
}

// AccessRevoked reads a profile.access_revoked notification.
func (e Event) AccessRevoked() (*AccessRevokedEvent, error) {
	if e.Event != "profile.access_revoked" {
		return nil, fmt.Errorf("perfilseguro: el evento %q no es profile.access_revoked", e.Event)
	}
	return decodeEvent[AccessRevokedEvent](e)
}

// ProfileDeletedEvent is the body of profile.deleted: the person deleted their account, and every
// session they completed with you in that mode now answers its status only (sharedReason deleted).
// It is sent only to platforms the person was sharing with.
type ProfileDeletedEvent struct {
	Event string `json:"event"`
	// Sessions are the sessions the person completed with you in this mode, newest first.
	Sessions  []SessionRef `json:"sessions"`
	Livemode  bool         `json:"livemode"`
	DeletedAt time.Time    `json:"deletedAt"`
	// ProfileID is set only if the person had shared their profile ID with you.
	ProfileID string `json:"profileId,omitempty"`
}

// ProfileDeleted reads a profile.deleted notification.
func (e Event) ProfileDeleted() (*ProfileDeletedEvent, error) {
	if e.Event != "profile.deleted" {
		return nil, fmt.Errorf("perfilseguro: el evento %q no es profile.deleted", e.Event)
	}
	return decodeEvent[ProfileDeletedEvent](e)
}

// Session reads a verification_session.* notification.
func (e Event) Session() (*SessionEvent, error) {
	if !strings.HasPrefix(e.Event, "verification_session.") {
		return nil, fmt.Errorf("perfilseguro: el evento %q no es de una sesión de verificación", e.Event)
	}
	return decodeEvent[SessionEvent](e)
}

// decodeEvent reads the notification's body into T, the step every typed accessor shares.
func decodeEvent[T any](e Event) (*T, error) {
	var v T
	if err := e.Decode(&v); err != nil {
		return nil, fmt.Errorf("perfilseguro: el webhook %s no se pudo leer: %w", e.Event, err)
	}
	return &v, nil
}

// ConstructEvent verifies a notification with VerifyWebhook (now, DefaultTolerance) and reads it.
//
//	body, _ := io.ReadAll(r.Body)
//	ev, err := perfilseguro.ConstructEvent(secret, r.Header.Get(perfilseguro.SignatureHeader), body)
func ConstructEvent(secret, header string, body []byte) (Event, error) {
	if err := VerifyWebhook(secret, header, body, time.Now(), DefaultTolerance); err != nil {
		return Event{}, err
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return Event{}, fmt.Errorf("perfilseguro: el cuerpo del webhook no es JSON válido: %w", err)
	}
	if ev.Event == "" {
		return Event{}, errors.New("perfilseguro: el webhook no dice qué evento es")
	}
	ev.Raw = append(json.RawMessage(nil), body...)
	return ev, nil
}
