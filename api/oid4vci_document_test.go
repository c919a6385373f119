package api_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/provider/devsim"
	"github.com/perfilseguro/perfilseguro/worker"
)

// logSink keeps what the API and the worker log, for goroutines of both.
type logSink struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The wallet offer (OpenID4VCI) of a person certified by her ID: the credential the wallet
// receives carries the ID's data as disclosures (checked with go-jose and the SD-JWT rules), and
// nothing the API or the worker logs, at any level, holds her CURP or birth date.
func TestTheWalletOfferCarriesTheDocumentsDataAndNoLogHoldsTheCURP(t *testing.T) {
	t.Parallel()
	logs := &logSink{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	issuer := &credential.Issuer{URL: testBaseURL, Keys: []credential.Key{newIssuerKey(t)}}
	e := setup(t, withClock(newClock()), func(d *api.Deps) {
		d.Credentials, d.Documents, d.Logger = issuer, testDocumentKey, logger
	})
	inbox := devsim.Inbox{DB: e.db}
	e.runWorker(t, func(d *worker.Deps) {
		d.Credentials = worker.CredentialDeps{Issuer: issuer}
		d.WhatsApp, d.SMS, d.Email = inbox, inbox, inbox
		d.Documents, d.Logger = testDocumentKey, logger
	})
	doc := identity.SampleDocument("Ana María Ruiz Soto", anaBirth)
	id, pid := certifiedUser(t, e, "Ana Ruiz", doc, 5)
	u := walletUser{id: id, pid: pid, client: e.signedIn(t, id),
		phone: dbGet[string](t, e.db, `SELECT phone_number FROM users WHERE id = $1`, id)}

	offer, tx := e.offer(t, u)
	tok := e.accessToken(t, offer, tx)
	wallet := newIssuerKey(t)
	r := e.askCredential(t, "Bearer "+tok.AccessToken, proofsBody(keyProof(t, wallet, testBaseURL, e.nonce(t), time.Now())))
	claims := issued(t, r, issuer)
	requireBoundTo(t, claims, wallet)
	require.Equal(t, "Ana María Ruiz Soto", claims["name"])
	require.Equal(t, doc.PersonalNumber, claims["personal_administrative_number"])
	require.Equal(t, map[string]any{"18": true}, claims["age_equal_or_over"])

	var res api.CredentialIssuance
	require.NoError(t, json.Unmarshal(r.Body, &res))
	payload, disclosures, where := stdlibDisclosed(t, res.Credentials[0].Credential, issuer)
	require.NotContains(t, payload, "personal_administrative_number", "not in clear")
	require.NotContains(t, payload, "birthdate")
	require.Equal(t, "1990-03-15", disclosures["birthdate"][2])
	require.Equal(t, "", where["birthdate"], "its digest is in the payload's _sd")

	require.Eventually(t, func() bool { return bytes.Contains([]byte(logs.String()), []byte("credential:issue")) },
		5*time.Second, 50*time.Millisecond, "the signing job logged")
	require.NotContains(t, logs.String(), doc.PersonalNumber, "no log holds the CURP")
	require.NotContains(t, logs.String(), "1990-03-15", "nor the birth date")
	require.Equal(t, http.StatusOK, r.Status)
}
