package didit

import (
	"bytes"
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

// Webhook headers Didit sends: X-Signature is the hex HMAC-SHA256 of the raw
// body with the webhook secret; X-Timestamp is the send time in unix seconds.
const (
	SignatureHeader = "X-Signature"
	TimestampHeader = "X-Timestamp"
)

// WebhookTolerance is how far X-Timestamp may be from our clock, either way.
const WebhookTolerance = 5 * time.Minute

// Webhook verification failures; the api package maps them to its responses.
var (
	ErrBadSignature   = errors.New("didit webhook: signature does not match the body")
	ErrStaleTimestamp = errors.New("didit webhook: timestamp missing or outside the tolerance")
)

// SignWebhook returns the X-Signature value for body: hex HMAC-SHA256 with secret.
// Our development simulator signs its webhooks with it.
func SignWebhook(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// VerifyWebhook accepts a webhook only if signature is the HMAC-SHA256 of the
// exact raw body under secret (compared in constant time) and timestamp (unix
// seconds) is within WebhookTolerance of now. It returns ErrStaleTimestamp or
// ErrBadSignature (possibly wrapped) otherwise. Didit's signature covers the
// body only, so replays within the window are possible: processing must be idempotent.
func VerifyWebhook(secret string, body []byte, signature, timestamp string, now time.Time) error {
	ts, err := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: unparsable timestamp", ErrStaleTimestamp)
	}
	// Compare in seconds to avoid overflowing time.Duration with absurd timestamps.
	diff := now.Unix() - ts
	if diff < 0 {
		diff = -diff
	}
	if ts < 0 || diff < 0 || diff > int64(WebhookTolerance/time.Second) {
		return ErrStaleTimestamp
	}
	if secret == "" {
		return fmt.Errorf("%w: no webhook secret configured", ErrBadSignature)
	}
	got, err := hex.DecodeString(strings.TrimSpace(signature))
	if err != nil || len(got) != sha256.Size {
		return ErrBadSignature
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// WebhookEvent is the envelope of a Didit session webhook.
type WebhookEvent struct {
	SessionID   string // session_id
	Status      string // status, mapped to a perfilseguro.Biometric* constant when known
	VendorData  string // vendor_data: our user id as sent at creation (empty if absent)
	WebhookType string // webhook_type, e.g. status.updated or data.updated
	CreatedAt   int64  // created_at (unix seconds), or timestamp when created_at is absent
}

// unixTime accepts a JSON number or a numeric string; anything else reads as 0.
type unixTime int64

func (u *unixTime) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1e12 {
		*u = unixTime(int64(f))
	}
	return nil
}

type webhookBody struct {
	SessionID   string   `json:"session_id"`
	Status      string   `json:"status"`
	VendorData  *string  `json:"vendor_data"`
	WebhookType string   `json:"webhook_type"`
	CreatedAt   unixTime `json:"created_at"`
	Timestamp   unixTime `json:"timestamp"`
}

// ParseWebhook reads the envelope of a (verified) webhook body. The full
// decision, when Didit includes one, stays in the raw body; ParseDecision
// reads the body's `decision` object.
func ParseWebhook(body []byte) (WebhookEvent, error) {
	var w webhookBody
	if err := json.Unmarshal(body, &w); err != nil {
		return WebhookEvent{}, fmt.Errorf("didit webhook: decode: %w", err)
	}
	if w.SessionID == "" {
		return WebhookEvent{}, errors.New("didit webhook: no session_id")
	}
	ev := WebhookEvent{SessionID: w.SessionID, Status: w.Status, WebhookType: w.WebhookType, CreatedAt: int64(w.CreatedAt)}
	if st, ok := NormalizeStatus(w.Status); ok {
		ev.Status = st
	}
	if w.VendorData != nil {
		ev.VendorData = *w.VendorData
	}
	if ev.CreatedAt == 0 {
		ev.CreatedAt = int64(w.Timestamp)
	}
	return ev, nil
}
