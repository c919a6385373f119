package faults

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// A webhook that arrives while Redis is down is stored, and processed once Redis is back
// (the scheduler's reconciler re-enqueues it): the user reaches level 3 with no manual step.
func TestWebhookArrivingWhileRedisIsDownIsProcessedAfterwards(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the reconciler's one-minute cycle")
	}
	t.Parallel()
	db, dsn := pgtest.New(t)
	redis := startRedis(t)
	// Payments off (PAYMENTS=off): this test is about the biometric webhook, not the plan.
	env := map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redis.url(), "PAYMENTS": "off"}
	api := startAPI(t, env)
	env["PUBLIC_BASE_URL"] = api.base
	run(t, "worker", env)

	browser := api.browser()
	call := func(path string, body any) map[string]any {
		status, out := browser.post(path, body)
		require.Less(t, status, 300, "%s: %v", path, out)
		return out
	}
	reg := call("/api/register", nextRegistration())
	me := call("/api/verify-code", map[string]any{"sessionToken": reg["sessionToken"], "code": reg["verificationCode"]})
	uid := me["userId"]
	call(fmt.Sprintf("/api/users/%v/consents", uid), map[string]any{"purpose": "biometric"})
	start := call("/api/start-verification", map[string]any{"userId": uid})
	pageURL, _ := start["verificationUrl"].(string)
	require.NotEmpty(t, pageURL, start)

	redis.stop()
	require.Equal(t, http.StatusSeeOther, browser.submitForm(pageURL, url.Values{"decision": {"approve"}}),
		"the webhook was accepted (stored) although Redis is down")

	var stored, level int
	require.NoError(t, db.Get(&stored, `SELECT count(*) FROM provider_webhooks WHERE processed_at IS NULL`))
	require.Equal(t, 1, stored)
	require.NoError(t, db.Get(&level, `SELECT verification_level FROM users WHERE id = $1`, uid))
	require.Equal(t, 1, level)

	redis.start()
	run(t, "scheduler", env)
	require.Eventually(t, func() bool {
		db.Get(&level, `SELECT verification_level FROM users WHERE id = $1`, uid)
		return level == 3
	}, 200*time.Second, time.Second, "the stored webhook was processed after Redis came back")
	require.NoError(t, db.Get(&stored, `SELECT count(*) FROM provider_webhooks WHERE processed_at IS NULL`))
	require.Zero(t, stored)
}
