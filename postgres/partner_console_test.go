package postgres_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The upgrade to 0021 keeps the audit trail and every passkey, and from then on a passkey has
// exactly one owner among a person, an administrator and a partner user.
func TestUpgradeTo0021KeepsTheTrailAndOneOwnerPerPasskey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedTo(t, 20)
	_, err := db.Exec(`INSERT INTO audit_events (actor_kind, action) VALUES ('system', 'retention.run')`)
	require.NoError(t, err)
	var uid int64
	require.NoError(t, db.Get(&uid, `INSERT INTO users (nombre, id_validado) VALUES ('Ana', 'PS-1111-2222-33') RETURNING id`))
	_, err = db.Exec(`INSERT INTO webauthn_credentials (user_id, credential_id, public_key, name) VALUES ($1, 'c1', 'k', 'Llave')`, uid)
	require.NoError(t, err)

	require.NoError(t, postgres.Migrate(ctx, db))
	var n int
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM audit_events`))
	require.Equal(t, 1, n)
	require.NoError(t, db.Get(&n, `SELECT count(*) FROM webauthn_credentials`))
	require.Equal(t, 1, n)
	_, err = db.Exec(`INSERT INTO audit_events (actor_kind, action) VALUES ('partner_user', 'partner_console.enrol')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO audit_events (actor_kind, action) VALUES ('robot', 'x')`)
	require.Error(t, err)

	var pid, puid int64
	require.NoError(t, db.Get(&pid, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_x', 'CasaLista', 'https://casalista.mx') RETURNING id`))
	require.NoError(t, db.Get(&puid, `INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'ana@casalista.mx', 'Ana', 'propietario') RETURNING id`, pid))
	_, err = db.Exec(`INSERT INTO webauthn_credentials (partner_user_id, credential_id, public_key, name) VALUES ($1, 'c2', 'k', 'Llave')`, puid)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO webauthn_credentials (user_id, partner_user_id, credential_id, public_key, name) VALUES ($1, $2, 'c3', 'k', 'Llave')`, uid, puid)
	require.Error(t, err, "two owners")
	_, err = db.Exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'ANA@casalista.mx', 'Ana', 'lectura')`, pid)
	require.Error(t, err, "e-mails are stored lower-case")
	_, err = db.Exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'beto@casalista.mx', 'Beto', 'jefe')`, pid)
	require.Error(t, err, "three roles")
	_, err = db.Exec(`UPDATE api_keys SET webhook_secret_previous = 'whsec_x' WHERE id = $1`, pid)
	require.Error(t, err, "a previous secret has an end")
}

func partnerUserEvent(action string) postgres.AuditEvent {
	return postgres.AuditEvent{ActorKind: postgres.ActorPartnerUser, ActorLabel: "ana@casalista.mx", Action: action}
}

// A change and its audit event commit together: a refused change leaves no event.
func TestConsoleChangesAndTheirAuditEventsCommitTogether(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	p := casaLista(t, store)
	expires := time.Now().Add(perfilseguro.PartnerEnrolLifetime)
	ana, err := store.CreatePartnerUser(ctx, perfilseguro.NewPartnerUser{PartnerID: p.ID, Email: "ana@casalista.mx", Name: "Ana",
		Role: perfilseguro.PartnerRoleOwner}, "h1", expires, partnerUserEvent("partner_console.user.invite"))
	require.NoError(t, err)
	_, err = store.CreatePartnerUser(ctx, perfilseguro.NewPartnerUser{PartnerID: p.ID, Email: "ANA@casalista.mx", Name: "Otra Ana",
		Role: perfilseguro.PartnerRoleReader}, "h2", expires, partnerUserEvent("partner_console.user.invite"))
	require.ErrorIs(t, err, postgres.ErrPartnerUserExists)
	_, _, err = store.SetPartnerUserRole(ctx, p.ID, ana.ID, perfilseguro.PartnerRoleReader, partnerUserEvent("partner_console.user.role"))
	require.ErrorIs(t, err, postgres.ErrLastPartnerOwner)
	_, err = store.RevokeConsoleKey(ctx, p.ID, 999999, time.Now(), partnerUserEvent("partner_console.key.revoke"))
	require.ErrorIs(t, err, postgres.ErrKeyNotFound)
	var events []string
	require.NoError(t, db.Select(&events, `SELECT action || ':' || target_kind || ':' || target_id FROM audit_events ORDER BY id`))
	require.Equal(t, []string{"partner_console.user.invite:partner_user:" + strconv.FormatInt(ana.ID, 10)}, events)
	var enrolments int
	require.NoError(t, db.Get(&enrolments, `SELECT count(*) FROM partner_user_enrolments`))
	require.Equal(t, 1, enrolments, "the refused invitation left no link")
}

func TestARotationKeepsOnlyTheSecretItReplaced(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	p := casaLista(t, store)
	now := time.Now()
	w, err := store.RotateWebhookSecret(ctx, p.ID, "whsec_1", now.Add(24*time.Hour), partnerUserEvent("partner_console.webhook.rotate"))
	require.NoError(t, err)
	require.True(t, w.HasSecret)
	require.Nil(t, w.PreviousUntil, "the first secret replaces nothing")
	_, err = store.RotateWebhookSecret(ctx, p.ID, "whsec_2", now.Add(24*time.Hour), partnerUserEvent("partner_console.webhook.rotate"))
	require.NoError(t, err)
	_, err = store.RotateWebhookSecret(ctx, p.ID, "whsec_3", now.Add(24*time.Hour), partnerUserEvent("partner_console.webhook.rotate"))
	require.NoError(t, err)
	prev, err := store.WebhookPreviousSecret(ctx, p.ID, now)
	require.NoError(t, err)
	require.Equal(t, "whsec_2", prev, "a rotation during an overlap ends the older secret's")
	prev, err = store.WebhookPreviousSecret(ctx, p.ID, now.Add(25*time.Hour))
	require.NoError(t, err)
	require.Empty(t, prev)
}

func TestUsageHasOneRowPerMonthNewestFirst(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	p := casaLista(t, store)
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, perfilseguro.MexicoCity())
	_, err := db.Exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, shared, created_at, expires_at)
		VALUES ('vs_1', $1, true, 'a', 2, '{level}', 'h1', 'completed', '{"level":3}', $2, $2),
		       ('vs_2', $1, true, 'b', 2, '{level}', 'h2', 'created', NULL, $3, $3),
		       ('vs_3', $1, false, 'c', 2, '{level}', 'h3', 'created', NULL, $2, $2)`,
		p.ID, time.Date(2026, 3, 1, 0, 30, 0, 0, perfilseguro.MexicoCity()), time.Date(2026, 1, 31, 23, 30, 0, 0, perfilseguro.MexicoCity()))
	require.NoError(t, err)
	u, err := store.PartnerUsageSince(ctx, p.ID, true, now, 3)
	require.NoError(t, err)
	require.Equal(t, []postgres.UsageMonth{{Month: "2026-03", Opened: 1, Completed: 1}, {Month: "2026-02"}, {Month: "2026-01", Opened: 1}}, u.Months)
}
