package api_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// openByURL opens the hosted flow exactly as the session's url tells a browser to: the publishable
// key from its query, the client secret from its fragment.
func (e *env) openByURL(t *testing.T, rawURL string, opener string) (int, map[string]any) {
	t.Helper()
	u, err := url.Parse(rawURL)
	require.NoError(t, err)
	require.Equal(t, "/conectar", u.Path)
	require.Equal(t, "redirect", u.Query().Get("mode"))
	body := map[string]any{"clientSecret": u.Fragment, "publishableKey": u.Query().Get("pk")}
	if opener != "" {
		body["openerOrigin"] = opener
	}
	r := e.send(t, anonymous(), "POST", "/api/hosted/open", body)
	if r.Status != http.StatusOK {
		return r.Status, nil
	}
	return r.Status, r.JSON(t)
}

// Issue 54, item 10: the url of a new session opened nothing ("Llave publicable no válida"): it
// lacked the publishable key.
func TestTheSessionURLOpensTheHostedFlowInEachMode(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	partner := dbGet[int64](t, e.db, `SELECT id FROM api_keys WHERE key_id = $1`, pk)
	body := map[string]any{"reference": "c-1", "requiredLevel": 2, "claims": []string{"level"}}
	live := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	test := []string{"Authorization", "Bearer " + e.secretKey(t, pk, false)}

	created := e.openSession(t, live, body)
	status, opened := e.openByURL(t, created["url"].(string), "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, created["id"], opened["session"].(map[string]any)["id"])

	// A test session names the test publishable key, the newest active one.
	store := postgres.Store{DB: e.db}
	_, err := store.InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	newest, err := store.InsertPartnerKey(t.Context(), e.db, partner, perfilseguro.KeyPublishable, false, "prueba")
	require.NoError(t, err)
	created = e.openSession(t, test, body)
	u, err := url.Parse(created["url"].(string))
	require.NoError(t, err)
	require.Equal(t, newest.Key, u.Query().Get("pk"))
	status, opened = e.openByURL(t, created["url"].(string), "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, false, opened["session"].(map[string]any)["livemode"])

	// Without an active publishable key of the mode there is nothing that would open: no url.
	_, err = e.db.Exec(`UPDATE partner_keys SET revoked_at = now() WHERE partner_id = $1 AND kind = 'publishable' AND NOT livemode`, partner)
	require.NoError(t, err)
	require.Equal(t, "", e.openSession(t, test, body)["url"])
}

// Issue 54, item 11: the client secret opens the flow only within an hour of the session's
// creation (it was 24 hours); once opened, the person has until 24 hours after the creation.
func TestTheClientSecretLivesAnHourAndOpeningGivesTheDay(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	body := map[string]any{"reference": "c-1", "requiredLevel": 2, "claims": []string{"level"}}

	created := e.openSession(t, server, body)
	expires, err := time.Parse(time.RFC3339Nano, created["expiresAt"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(time.Hour), expires, time.Minute, "the client secret's lifetime")
	status, _ := e.openByURL(t, created["url"].(string), "")
	require.Equal(t, http.StatusOK, status)
	got := e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+created["id"].(string), nil, server...).JSON(t)
	require.Equal(t, "in_progress", got["status"])
	expires, err = time.Parse(time.RFC3339Nano, got["expiresAt"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(24*time.Hour), expires, time.Minute, "opened: a day from the creation to finish")

	// A secret unused for an hour opens nothing, and the session reads expired.
	stale := e.openSession(t, server, body)
	_, err = e.db.Exec(`UPDATE partner_sessions SET created_at = created_at - interval '61 minutes',
		expires_at = expires_at - interval '61 minutes' WHERE id = $1`, stale["id"])
	require.NoError(t, err)
	status, _ = e.openByURL(t, stale["url"].(string), "")
	require.Equal(t, http.StatusConflict, status)
	got = e.send(t, anonymous(), "GET", "/api/partner/v1/verification-sessions/"+stale["id"].(string), nil, server...).JSON(t)
	require.Equal(t, "expired", got["status"])
}

// Issue 54, item 11: the hosted page is told whether the page that opened the flow was confirmed
// as the partner's (the browser named it), so it can warn when it was not.
func TestTheHostedFlowSaysWhetherTheOpenerWasConfirmed(t *testing.T) {
	t.Parallel()
	e, _, pk := sessionEnv(t)
	server := []string{"Authorization", "Bearer " + e.secretKey(t, pk, true)}
	body := map[string]any{"reference": "c-1", "requiredLevel": 2, "claims": []string{"level"}}

	status, opened := e.openByURL(t, e.openSession(t, server, body)["url"].(string), "https://casalista.example")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, true, opened["openerConfirmed"])

	status, opened = e.openByURL(t, e.openSession(t, server, body)["url"].(string), "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, false, opened["openerConfirmed"], "no referrer: not confirmed")

	status, _ = e.openByURL(t, e.openSession(t, server, body)["url"].(string), "https://otra.example")
	require.Equal(t, http.StatusForbidden, status, "another page: refused")
}
