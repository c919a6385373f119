package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestOperationalStateMovesWithWhatHappens(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	st, err := s.OperationalState(ctx)
	require.NoError(t, err)
	require.Equal(t, postgres.OperationalState{}, st, "an empty database: nothing counted, nothing ever received")

	exec := execer(t, db)
	now := time.Now()
	// Two sign-ups this hour (one validated just now), one yesterday, one test person.
	var ana int64
	require.NoError(t, db.Get(&ana, `INSERT INTO users (nombre, id_validado, fecha_validacion, verification_level, biometric_verified)
		VALUES ('Ana', 'PS-0000-0000-11', now(), 3, true) RETURNING id`))
	exec(`INSERT INTO users (nombre, id_validado) VALUES ('Beto', 'PS-0000-0000-12')`)
	exec(`INSERT INTO users (nombre, id_validado, created_at) VALUES ('Ciro', 'PS-0000-0000-13', now() - interval '1 day')`)
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_mon', 'CasaLista', 'https://casalista.example') RETURNING id`))
	exec(`INSERT INTO users (nombre, id_validado, test_partner_id) VALUES ('Prueba', 'PS-0000-0000-14', $1)`, partner)
	// Two payments started this hour, one of them paid; a test payment does not count.
	exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key, paid_at)
		VALUES ($1, 'one_year', 1, 49900, 'stripe', 'paid', 'k1', now()), ($1, 'one_year', 1, 49900, 'stripe', 'expired', 'k2', NULL)`, ana)
	exec(`INSERT INTO payments (user_id, plan, years, amount_centavos, provider, status, idempotency_key, paid_at, livemode)
		VALUES ($1, 'one_year', 1, 49900, 'devsim', 'paid', 'k3', now(), false)`, ana)
	exec(`INSERT INTO job_heartbeats (tick, source, ran_at) VALUES ('heartbeat:a', 'scheduler', $1), ('req-1', 'api', now())`, now.Add(-time.Minute))
	exec(`INSERT INTO provider_webhooks (provider, body_sha256, body, received_at) VALUES ('didit', repeat('a', 64), 'x', $1)`, now.Add(-2*time.Minute))
	exec(`INSERT INTO payment_webhooks (event_id, event_type, body, received_at) VALUES ('evt_1', 'checkout.session.completed', 'x', $1)`, now.Add(-3*time.Minute))
	// ARCO: one past its deadline, one due tomorrow, one in two weeks, one answered late (not open).
	for _, due := range []string{"-1 hour", "1 day", "14 days"} {
		exec(`INSERT INTO arco_requests (profile_id, type, channel, due_at) VALUES ('PS-0000-0000-11', 'acceso', 'app', now() + $1::interval)`, due)
	}
	exec(`INSERT INTO arco_requests (profile_id, type, state, channel, due_at, resolved_at, resolution)
		VALUES ('PS-0000-0000-11', 'acceso', 'atendida', 'app', now() - interval '1 day', now(), 'ok')`)

	st, err = s.OperationalState(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(2), st.SignupsLastHour)
	require.Equal(t, int64(1), st.ValidationsLastHour)
	require.Equal(t, int64(2), st.CheckoutsLastHour)
	require.Equal(t, int64(1), st.PaidLastHour)
	require.WithinDuration(t, now.Add(-time.Minute), st.LastHeartbeat, time.Second, "the scheduler's heartbeat, not the API's")
	require.WithinDuration(t, now.Add(-2*time.Minute), st.LastBiometricWebhook, time.Second)
	require.WithinDuration(t, now.Add(-3*time.Minute), st.LastPaymentWebhook, time.Second)
	require.Equal(t, [3]int64{1, 1, 1}, [3]int64{st.ARCOOverdue, st.ARCODueSoon, st.ARCOLater})
}
