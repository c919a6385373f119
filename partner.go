package perfilseguro

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PartnerSignatureHeader carries the signature of outbound partner notifications.
const PartnerSignatureHeader = "X-PerfilSeguro-Signature"

// SignPartnerWebhook signs body for a partner: "t=<unix>,v1=<hex HMAC-SHA256 of "<unix>.<body>">".
// While a rotated secret still overlaps (WebhookSecretOverlap), pass it too: each secret adds
// its own v1= entry, the current one first ("t=…,v1=<new>,v1=<old>"), so a receiver that still
// holds the old secret and one that already holds the new one both accept the notification.
// Empty extra secrets are skipped.
func SignPartnerWebhook(secret string, t time.Time, body []byte, previous ...string) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	out := "t=" + ts + ",v1=" + partnerMAC(secret, ts, body)
	for _, p := range previous {
		if p != "" && p != secret {
			out += ",v1=" + partnerMAC(p, ts, body)
		}
	}
	return out
}

func partnerMAC(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyPartnerWebhook is what a partner runs on receipt (documented on /integration):
// the timestamp must be within tolerance and one of the v1= signatures must match (during a
// secret rotation the header carries two).
func VerifyPartnerWebhook(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return errors.New("malformed signature header")
	}
	if d := now.Sub(time.Unix(unix, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("timestamp outside tolerance (%s)", d)
	}
	want := []byte(partnerMAC(secret, ts, body))
	for _, sig := range sigs {
		if hmac.Equal([]byte(sig), want) {
			return nil
		}
	}
	return errors.New("signature mismatch")
}
