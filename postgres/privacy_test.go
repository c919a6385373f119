package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// TestRetentionDeletesWhatTheNoticeKeepsForALimitedTime runs the retention on a clock moved
// past each period: each kind of record goes when its own period ends, and not before.
func TestRetentionDeletesWhatTheNoticeKeepsForALimitedTime(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	user := validatedUser(t, db, "PS-1111-2222-33", start, 1, nil)
	exec := execer(t, db)
	exec(`INSERT INTO provider_webhooks (provider, body_sha256, session_id, body, received_at, processed_at) VALUES ('didit', repeat('1', 64), 's1', '{}', $1, $1)`, start)
	exec(`INSERT INTO provider_webhooks (provider, body_sha256, session_id, body, received_at) VALUES ('didit', repeat('2', 64), 's2', '{}', $1)`, start) // never processed
	exec(`INSERT INTO verification_logs (user_id, id_validado, scanned_at, granted, request_id) VALUES ($1, 'PS-1111-2222-33', $2, true, 'l1')`, user, start)
	exec(`INSERT INTO data_exports (user_id, requested_day, token_hash, archive, status, requested_at, expires_at)
		VALUES ($1, '2026-11-24', repeat('a', 64), '\x504b', 'ready', $2, $3)`, user, start, start.Add(24*time.Hour))
	exec(`INSERT INTO consents (user_id, notice_version, accepted_at) VALUES ($1, '2026-11', $2)`, user, start)
	exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key, created_at)
		VALUES ($1, 'one_year', 1, 29900, 'devsim', 'paid', 'k1', $2)`, user, start)

	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_ret', 'Casas Retención', 'casas.example') RETURNING id`))
	exec(`INSERT INTO presentation_requests (partner_id, dcql_query, nonce, state, response_key, status, claims, created_at, expires_at, completed_at)
		VALUES ($1, '{}', 'n', 's', 'k', 'completed', '{"name":"Ana"}', $2, $2, $2)`, partner, start)
	exec(`INSERT INTO partner_deliveries (partner_id, event, payload, delivered_at, created_at) VALUES ($1, 'presentation.completed', '{"claims":{"name":"Ana"}}', $2, $2)`, partner, start)
	exec(`INSERT INTO partner_deliveries (partner_id, event, payload, delivered_at, created_at) VALUES ($1, 'user.revoked', '{}', $2, $2)`, partner, start)

	count := func(q string) int {
		t.Helper()
		var n int
		require.NoError(t, db.Get(&n, q))
		return n
	}
	run := func(at time.Time) postgres.RetentionResult {
		t.Helper()
		res, err := store.ApplyRetention(ctx, at)
		require.NoError(t, err)
		return res
	}

	res := run(start.Add(23 * time.Hour))
	require.Zero(t, res[perfilseguro.RetainDataExports], "the link still works")
	res = run(start.Add(24 * time.Hour))
	require.EqualValues(t, 1, res[perfilseguro.RetainDataExports])
	require.Equal(t, 1, count(`SELECT count(*) FROM data_exports WHERE archive IS NULL AND status = 'expired'`), "erased at once, the row stays")

	run(start.Add(6 * 24 * time.Hour))
	require.Equal(t, 1, count(`SELECT count(*) FROM presentation_requests`))
	run(start.Add(8 * 24 * time.Hour))
	require.Zero(t, count(`SELECT count(*) FROM presentation_requests`), "what a wallet disclosed goes after a week")
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_deliveries`), "and its webhook; other events stay")

	// A partner's sessions: the test one (and its grant and webhook) goes after 30 days, the live one stays.
	for _, live := range []bool{true, false} {
		id := "vs_00000000000000000000000" + map[bool]string{true: "1", false: "2"}[live]
		exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, user_id, shared, created_at, expires_at, ended_at)
			VALUES ($1, $2, $3, 'r', 3, '{name}', $1, 'completed', $4, '{"name":"Ana"}', $5, $5, $5)`, id, partner, live, user, start)
		exec(`INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via, session_id, granted_at) VALUES ($1, $2, $3, '{name}', 'session', $4, $5)`,
			partner, user, live, id, start)
		exec(`INSERT INTO partner_deliveries (partner_id, event, payload, created_at) VALUES ($1, 'verification_session.completed', jsonb_build_object('livemode', $2::boolean), $3)`,
			partner, live, start)
	}
	run(start.Add(29 * 24 * time.Hour))
	require.Equal(t, 2, count(`SELECT count(*) FROM provider_webhooks`))
	require.Equal(t, 2, count(`SELECT count(*) FROM partner_sessions`))
	run(start.Add(31 * 24 * time.Hour))
	require.Equal(t, 1, count(`SELECT count(*) FROM provider_webhooks`), "the processed one went; the unprocessed one is still work")
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_sessions WHERE livemode`), "test sessions go after 30 days; live ones stay")
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_sessions`))
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_grants WHERE livemode`))
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_grants`))
	require.Equal(t, 1, count(`SELECT count(*) FROM partner_deliveries WHERE event = 'verification_session.completed'`))

	run(start.Add(364 * 24 * time.Hour))
	require.Equal(t, 1, count(`SELECT count(*) FROM verification_logs`))
	run(start.Add(366 * 24 * time.Hour))
	require.Zero(t, count(`SELECT count(*) FROM verification_logs`), "lookups after 12 months")

	// Consents and receipts outlive the account for the legal period, then go.
	far := start.Add(6 * 365 * 24 * time.Hour)
	run(far)
	require.Equal(t, 1, count(`SELECT count(*) FROM consents`), "kept while the account lives")
	require.Equal(t, 1, count(`SELECT count(*) FROM payments`))
	exec(`DELETE FROM users WHERE id = $1`, user) // the deletion is stamped with the database's now()
	require.Equal(t, 1, count(`SELECT count(*) FROM consents WHERE user_id IS NULL AND profile_id = 'PS-1111-2222-33'`))
	now := time.Now()
	run(now.Add(4 * 365 * 24 * time.Hour))
	require.Equal(t, 1, count(`SELECT count(*) FROM consents`), "blocked, not yet erased")
	require.Equal(t, 1, count(`SELECT count(*) FROM payments WHERE user_id IS NULL`), "the receipt stays, detached")
	run(now.Add(6 * 365 * 24 * time.Hour))
	require.Zero(t, count(`SELECT count(*) FROM consents`), "erased after the legal period")
	require.Zero(t, count(`SELECT count(*) FROM payments`), "a detached receipt older than five years goes")
}

func TestBusinessDeadlinesSkipWeekendsAndRestDays(t *testing.T) {
	t.Parallel()
	mx, _ := time.LoadLocation("America/Mexico_City")
	// Received Friday 13 November 2026: Monday 16 November is a rest day (third Monday).
	got := perfilseguro.AddBusinessDays(time.Date(2026, 11, 13, 10, 0, 0, 0, mx), 1)
	require.Equal(t, "2026-11-17", got.In(mx).Format("2006-01-02"))
	// 20 business days from Tuesday 24 November 2026: four weeks of five, less the weekends.
	got = perfilseguro.AddBusinessDays(time.Date(2026, 11, 24, 10, 0, 0, 0, mx), 20)
	require.Equal(t, "2026-12-22", got.In(mx).Format("2006-01-02"))
	got = perfilseguro.AddBusinessDays(time.Date(2026, 12, 18, 10, 0, 0, 0, mx), 5)
	require.Equal(t, "2026-12-28", got.In(mx).Format("2006-01-02"), "25 December does not count")
	from := time.Date(2026, 11, 24, 10, 0, 0, 0, mx)
	require.Equal(t, 20, perfilseguro.BusinessDaysBetween(from, perfilseguro.AddBusinessDays(from, 20)))
	require.Equal(t, -1, perfilseguro.BusinessDaysBetween(from, time.Date(2026, 11, 23, 9, 0, 0, 0, mx)))
}

// TestDeletionBlanksTheDeletedPersonsOldValuesInTheAuditTrail: the trail keeps who did what to
// the account, but not its old name or e-mail; nothing else of the row may change, and without
// the deletion's setting not even that.
func TestDeletionBlanksTheDeletedPersonsOldValuesInTheAuditTrail(t *testing.T) {
	t.Parallel()
	_, db, store := setup(t)
	user := validatedUser(t, db, "PS-2222-3333-44", time.Now(), 1, nil)
	_, err := db.Exec(`INSERT INTO audit_events (actor_kind, actor_label, action, target_kind, target_id, ip, changes)
		VALUES ('admin', 'ops@perfilseguro.mx', 'user.update', 'user', $1::text, '198.51.100.1',
		'{"nombre": {"before": "Ana López", "after": "Ana María López"}}')`, user)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE audit_events SET changes = NULL`)
	require.Error(t, err, "append-only outside the deletion")
	_, err = db.Exec(`BEGIN; SET LOCAL perfilseguro.erasure = 'on'; UPDATE audit_events SET ip = '0.0.0.0'; COMMIT`)
	require.Error(t, err, "the deletion's setting allows blanking the values, nothing else")
	db.Exec(`ROLLBACK`)

	require.NoError(t, store.DeleteUser(context.Background(), user))
	var changes, actor, ip string
	require.NoError(t, db.QueryRow(`SELECT changes::text, actor_label, ip FROM audit_events`).Scan(&changes, &actor, &ip))
	require.NotContains(t, changes, "Ana")
	require.Contains(t, changes, "nombre")
	require.Equal(t, "ops@perfilseguro.mx", actor)
	require.Equal(t, "198.51.100.1", ip)
}
