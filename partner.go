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
func SignPartnerWebhook(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + partnerMAC(secret, ts, body)
}

func partnerMAC(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyPartnerWebhook is what a partner runs on receipt (documented on /integration):
// the signature must match and the timestamp be within tolerance.
func VerifyPartnerWebhook(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return errors.New("malformed signature header")
	}
	if d := now.Sub(time.Unix(unix, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("timestamp outside tolerance (%s)", d)
	}
	if !hmac.Equal([]byte(sig), []byte(partnerMAC(secret, ts, body))) {
		return errors.New("signature mismatch")
	}
	return nil
}
