package worker_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/worker"
)

// While a replaced webhook secret overlaps (api_keys.webhook_secret_previous_until), the
// notification carries a second v1= signature made with it; after that, only the current one.
func TestNotificationsAreSignedWithTheReplacedSecretDuringTheOverlap(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var mu sync.Mutex
	var sigs []string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sigs = append(sigs, r.Header.Get(perfilseguro.PartnerSignatureHeader))
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer partner.Close()
	var pid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret,
		webhook_secret_previous, webhook_secret_previous_until)
		VALUES ('pk_rot', 'CasaLista', 'https://casalista.example', $1, 'whsec_nuevo', 'whsec_viejo', now() + interval '1 hour') RETURNING id`, partner.URL))
	payload := []byte(`{"event":"verification_session.completed","id":"vs_1"}`)
	w := newTestWorker(t, worker.Deps{DB: db})
	send := func() string {
		var id int64
		require.NoError(t, db.Get(&id, `INSERT INTO partner_deliveries (partner_id, event, payload) VALUES ($1, 'verification_session.completed', $2) RETURNING id`,
			pid, payload))
		task, err := jobs.NewPartnerNotifyTask(id, 1)
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(context.Background(), task))
		mu.Lock()
		defer mu.Unlock()
		return sigs[len(sigs)-1]
	}

	sig := send()
	require.Equal(t, 2, strings.Count(sig, "v1="), sig)
	var body []byte
	require.NoError(t, db.Get(&body, `SELECT payload FROM partner_deliveries ORDER BY id DESC LIMIT 1`))
	for _, secret := range []string{"whsec_nuevo", "whsec_viejo"} {
		require.NoError(t, perfilseguro.VerifyPartnerWebhook(secret, sig, body, time.Now(), 5*time.Minute), secret)
	}

	_, err := db.Exec(`UPDATE api_keys SET webhook_secret_previous_until = now() - interval '1 second' WHERE id = $1`, pid)
	require.NoError(t, err)
	sig = send()
	require.Equal(t, 1, strings.Count(sig, "v1="), sig)
	require.NoError(t, db.Get(&body, `SELECT payload FROM partner_deliveries ORDER BY id DESC LIMIT 1`))
	require.NoError(t, perfilseguro.VerifyPartnerWebhook("whsec_nuevo", sig, body, time.Now(), 5*time.Minute))
	require.Error(t, perfilseguro.VerifyPartnerWebhook("whsec_viejo", sig, body, time.Now(), 5*time.Minute))
}
