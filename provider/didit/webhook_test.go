package didit_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

const webhookSecret = "tno2NTeRC1ZK3sBOYlBJDyEzBVENl3pQ1AcZyAW0xnQ"

// webhookBody is a status.updated payload; note the accented name, which a
// re-encoding middleware would turn into \u00e9 and so break the signature.
var webhookBody = []byte(`{"session_id":"` + sessionID + `","status":"Approved","webhook_type":"status.updated","created_at":1753347265,"timestamp":1753347266,"workflow_id":"wf-1234","vendor_data":"42","metadata":null,"decision":{"session_id":"` + sessionID + `","status":"Approved","id_verifications":[{"status":"Approved","first_name":"José"}]}}`)

var webhookNow = time.Unix(1753347270, 0)

func ts(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

func TestSignWebhookKnownVector(t *testing.T) {
	t.Parallel()
	// RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?").
	require.Equal(t, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
		didit.SignWebhook("Jefe", []byte("what do ya want for nothing?")))
}

func TestVerifyWebhook(t *testing.T) {
	t.Parallel()
	sig := didit.SignWebhook(webhookSecret, webhookBody)
	changed := bytes.Replace(webhookBody, []byte(`"Approved"`), []byte(`"Declined"`), 1)
	reencoded := bytes.Replace(webhookBody, []byte("José"), []byte(`Jos\u00e9`), 1)

	cases := []struct {
		name      string
		secret    string
		body      []byte
		signature string
		timestamp string
		want      error
	}{
		{"valid", webhookSecret, webhookBody, sig, ts(webhookNow), nil},
		{"valid, upper-case hex", webhookSecret, webhookBody, strings.ToUpper(sig), ts(webhookNow), nil},
		{"valid at the edge of the window", webhookSecret, webhookBody, sig, ts(webhookNow.Add(-5 * time.Minute)), nil},
		{"wrong secret", "another-secret", webhookBody, sig, ts(webhookNow), didit.ErrBadSignature},
		{"empty secret", "", webhookBody, didit.SignWebhook("", webhookBody), ts(webhookNow), didit.ErrBadSignature},
		{"changed body", webhookSecret, changed, sig, ts(webhookNow), didit.ErrBadSignature},
		{"re-encoded body", webhookSecret, reencoded, sig, ts(webhookNow), didit.ErrBadSignature},
		{"truncated signature", webhookSecret, webhookBody, sig[:40], ts(webhookNow), didit.ErrBadSignature},
		{"not hex", webhookSecret, webhookBody, "zz" + sig[2:], ts(webhookNow), didit.ErrBadSignature},
		{"missing signature", webhookSecret, webhookBody, "", ts(webhookNow), didit.ErrBadSignature},
		{"old timestamp (6 min)", webhookSecret, webhookBody, sig, ts(webhookNow.Add(-6 * time.Minute)), didit.ErrStaleTimestamp},
		{"future timestamp (6 min)", webhookSecret, webhookBody, sig, ts(webhookNow.Add(6 * time.Minute)), didit.ErrStaleTimestamp},
		{"missing timestamp", webhookSecret, webhookBody, sig, "", didit.ErrStaleTimestamp},
		{"garbage timestamp", webhookSecret, webhookBody, sig, "yesterday", didit.ErrStaleTimestamp},
		{"milliseconds timestamp", webhookSecret, webhookBody, sig, strconv.FormatInt(webhookNow.UnixMilli(), 10), didit.ErrStaleTimestamp},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := didit.VerifyWebhook(tc.secret, tc.body, tc.signature, tc.timestamp, webhookNow)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tc.want)
		})
	}
}

func TestClientVerifyWebhookUsesConfiguredSecret(t *testing.T) {
	t.Parallel()
	c := didit.New(didit.Config{WebhookSecret: webhookSecret})
	require.NoError(t, c.VerifyWebhook(webhookBody, didit.SignWebhook(webhookSecret, webhookBody), ts(webhookNow), webhookNow))
	require.ErrorIs(t, c.VerifyWebhook(webhookBody, didit.SignWebhook("x", webhookBody), ts(webhookNow), webhookNow), didit.ErrBadSignature)
}

func TestParseWebhook(t *testing.T) {
	t.Parallel()
	ev, err := didit.ParseWebhook(webhookBody)
	require.NoError(t, err)
	require.Equal(t, didit.WebhookEvent{
		SessionID:   sessionID,
		Status:      perfilseguro.BiometricApproved,
		VendorData:  "42",
		WebhookType: "status.updated",
		CreatedAt:   1753347265,
	}, ev)

	// timestamp stands in for a missing created_at; an unknown status is kept as sent.
	ev, err = didit.ParseWebhook([]byte(`{"session_id":"s1","status":"Brand New","webhook_type":"data.updated","timestamp":1753347266}`))
	require.NoError(t, err)
	require.Equal(t, didit.WebhookEvent{SessionID: "s1", Status: "Brand New", WebhookType: "data.updated", CreatedAt: 1753347266}, ev)

	_, err = didit.ParseWebhook([]byte(`{"status":"Approved"}`))
	require.Error(t, err, "a webhook without session_id is useless")
	_, err = didit.ParseWebhook([]byte(`not json`))
	require.Error(t, err)
}

func FuzzVerifyWebhook(f *testing.F) {
	signed := webhookBody
	goodSig := didit.SignWebhook(webhookSecret, signed)
	now := webhookNow
	f.Add(signed, goodSig, ts(now))
	f.Add(signed[:len(signed)-1], goodSig, ts(now))
	f.Add([]byte(""), "", "")
	f.Add([]byte(`{"session_id":"x"}`), strings.ToUpper(goodSig), "-9223372036854775808")
	f.Add(signed, goodSig+"00", "9223372036854775807")

	f.Fuzz(func(t *testing.T, body []byte, signature, timestamp string) {
		// Arbitrary input: never panics; accepted only with the true signature in the window.
		if err := didit.VerifyWebhook(webhookSecret, body, signature, timestamp, now); err == nil {
			if !strings.EqualFold(strings.TrimSpace(signature), didit.SignWebhook(webhookSecret, body)) {
				t.Fatalf("accepted a signature that is not the body's HMAC: %q", signature)
			}
			sec, perr := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
			if perr != nil || sec < now.Unix()-300 || sec > now.Unix()+300 {
				t.Fatalf("accepted timestamp %q outside the window", timestamp)
			}
		}
		// The signature of the signed body must never validate a different body.
		if err := didit.VerifyWebhook(webhookSecret, body, goodSig, ts(now), now); err == nil && !bytes.Equal(body, signed) {
			t.Fatalf("accepted a body different from the signed one: %q", body)
		}
		_, _ = didit.ParseWebhook(body) // must not panic either
	})
}
