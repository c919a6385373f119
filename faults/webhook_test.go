package faults

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A webhook that arrives while Redis is down is stored, and processed once Redis is back
// (the scheduler's reconciler re-enqueues it): the user reaches level 3 with no manual step.
func TestWebhookArrivingWhileRedisIsDownIsProcessedAfterwards(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the reconciler's one-minute cycle")
	}
	t.Parallel()
	// Payments off: this test is about the biometric webhook, not the plan.
	db, redis, env, browser := redisGapRig(t, "off")
	uid := consentedPerson(t, browser)
	status, start := browser.post("/api/start-verification", map[string]any{"userId": uid})
	require.Equal(t, http.StatusOK, status, start)
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
	reconcileAfterRedisGap(t, db, redis, env, "provider_webhooks")
	require.Eventually(t, func() bool {
		db.Get(&level, `SELECT verification_level FROM users WHERE id = $1`, uid)
		return level == 3
	}, 200*time.Second, time.Second, "the stored webhook was processed after Redis came back")
	require.NoError(t, db.Get(&stored, `SELECT count(*) FROM provider_webhooks WHERE processed_at IS NULL`))
	require.Zero(t, stored)
}
