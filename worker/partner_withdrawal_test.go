package worker_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// Issue 54, items 1 and 3: after a person withdraws a partner's access, "Reenviar" on the old
// verification_session.completed notification sends the session's status only (before the fix it
// sent the name and the proof again, validly signed), and profile.access_revoked names the person
// by the partner's own session and reference, not by a profile ID they never shared.
func TestAResendAfterAWithdrawalSendsTheStatusOnly(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var mu sync.Mutex
	var bodies []map[string]any
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		require.NoError(t, json.Unmarshal(raw, &body))
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
	}))
	defer partner.Close()
	last := func() map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return bodies[len(bodies)-1]
	}

	ctx := context.Background()
	store := postgres.Store{DB: db}
	var pid, uid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_live_000000000000000000000e54', 'CasaLista', 'https://casalista.example', $1, 'whsec_test') RETURNING id`, partner.URL))
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado) VALUES ('Ana Retirada', 'PS-5454-5454-54') RETURNING id`))

	// The person completes a session sharing their name only.
	now := time.Now()
	_, err := store.InsertSession(ctx, "vs_0000000000000000000000a1", pid, true,
		perfilseguro.NewSession{Reference: "cliente-42", RequiredLevel: 2, Claims: []string{"name"}}, "secret-a1", now)
	require.NoError(t, err)
	_, err = store.OpenSession(ctx, "secret-a1", "flow-a1", pid, true, now)
	require.NoError(t, err)
	_, completion, err := store.DecideSession(ctx, postgres.SessionDecision{FlowHash: "flow-a1", UserID: uid, Share: true,
		Shared: json.RawMessage(`{"name": "Ana Retirada"}`), Proof: "eyJ.prueba.firma", Now: now})
	require.NoError(t, err)
	require.NotZero(t, completion)

	w, _ := partnerWorker(t, db)
	send := func(deliveryID int64, attempt int) {
		task, err := jobs.NewPartnerNotifyTask(deliveryID, attempt)
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(ctx, task))
	}
	send(completion, 1)
	require.Equal(t, map[string]any{"name": "Ana Retirada"}, last()["claims"], "delivered with the claims while shared")

	// The person withdraws the partner's access.
	var grantID int64
	require.NoError(t, db.Get(&grantID, `SELECT id FROM partner_grants WHERE user_id = $1 AND revoked_at IS NULL`, uid))
	_, revoked, err := store.RevokeGrant(ctx, uid, grantID, now.Add(time.Minute))
	require.NoError(t, err)
	require.NotZero(t, revoked)
	send(revoked, 1)
	got := last()
	require.Equal(t, "profile.access_revoked", got["event"])
	require.Equal(t, []any{map[string]any{"id": "vs_0000000000000000000000a1", "reference": "cliente-42"}}, got["sessions"])
	require.NotContains(t, got, "profileId", "the person never shared their profile ID")
	require.Equal(t, true, got["livemode"])

	// "Reenviar" on the old completion: the status only.
	_, err = store.ResendDelivery(ctx, pid, completion, time.Now(), postgres.AuditEvent{ActorKind: postgres.ActorSystem,
		ActorLabel: "prueba", Action: "partner_console.delivery.resend", Outcome: postgres.OutcomeOK})
	require.NoError(t, err)
	send(completion, 2)
	got = last()
	require.Equal(t, "verification_session.completed", got["event"])
	require.Equal(t, "completed", got["status"])
	require.Equal(t, "cliente-42", got["reference"])
	require.Contains(t, got, "shared")
	require.Nil(t, got["shared"])
	require.Equal(t, "withdrawn", got["sharedReason"])
	require.NotContains(t, got, "claims")
	require.NotContains(t, got, "proof")
	var leftovers int
	require.NoError(t, db.Get(&leftovers, `SELECT count(*) FROM partner_deliveries WHERE payload::text LIKE '%Ana Retirada%' OR payload::text LIKE '%eyJ.prueba%'`))
	require.Zero(t, leftovers, "nothing stored for the partner holds what was withdrawn")
}

// Issue 54, item 1 ("any later webhook"): once a person withdrew a partner's access, the events
// the partner used to hear about a person who came through it (level changes, validity, payments)
// stop; a person who shares with it again is heard of again. Before the fix the level change went
// out with the profile ID.
func TestNoLaterWebhookNamesAPersonWhoWithdrew(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	var mu sync.Mutex
	var events []string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, r.Header.Get("X-PerfilSeguro-Event"))
	}))
	defer partner.Close()
	ctx := context.Background()
	var pid, withdrew, shares int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ('pk_live_000000000000000000000e55', 'CasaLista', 'https://casalista.example', $1, 'whsec_test') RETURNING id`, partner.URL))
	require.NoError(t, db.Get(&withdrew, `INSERT INTO users (nombre, id_validado, partner_id) VALUES ('Ana', 'PS-5555-0000-01', $1) RETURNING id`, pid))
	require.NoError(t, db.Get(&shares, `INSERT INTO users (nombre, id_validado, partner_id) VALUES ('Beto', 'PS-5555-0000-02', $1) RETURNING id`, pid))
	_, err := db.Exec(`INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via, revoked_at) VALUES
		($1, $2, true, '{name}', 'session', now()),
		($1, $3, true, '{name}', 'session', now()), ($1, $3, true, '{name}', 'session', NULL)`, pid, withdrew, shares)
	require.NoError(t, err)
	// Both change level: the trigger writes a notification for each (the outbox).
	_, err = db.Exec(`UPDATE users SET verification_level = 1, is_phone_verified = true WHERE id IN ($1, $2)`, withdrew, shares)
	require.NoError(t, err)
	var ids []int64
	require.NoError(t, db.Select(&ids, `SELECT id FROM partner_deliveries ORDER BY user_id = $1 DESC`, withdrew))
	require.Len(t, ids, 2)

	w, _ := partnerWorker(t, db)
	for _, id := range ids {
		task, err := jobs.NewPartnerNotifyTask(id, 1)
		require.NoError(t, err)
		require.NoError(t, w.Handler().ProcessTask(ctx, task))
	}
	require.Equal(t, []string{"user.verification_level_changed"}, events, "only about the person whose grant is current")
	var left int
	require.NoError(t, db.Get(&left, `SELECT count(*) FROM partner_deliveries WHERE user_id = $1`, withdrew))
	require.Zero(t, left, "the withdrawn person's notification is dropped, not kept")
}
