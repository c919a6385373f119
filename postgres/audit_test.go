package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestAuditEventsAreAppendOnly(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	id := int64(7)
	require.NoError(t, postgres.AppendAudit(ctx, db, postgres.AuditEvent{ActorKind: postgres.ActorAdmin, ActorID: &id,
		ActorLabel: "ana@example.com", Action: "user.update", TargetKind: "user", TargetID: "42", IP: "203.0.113.9",
		Changes: map[string]postgres.Change{"nombre": {Before: "Ana", After: "Ana María"}}}))

	_, err := db.Exec(`UPDATE audit_events SET action = 'nada'`)
	require.ErrorContains(t, err, "append-only")
	_, err = db.Exec(`DELETE FROM audit_events`)
	require.ErrorContains(t, err, "append-only")
	_, err = db.Exec(`TRUNCATE audit_events`)
	require.ErrorContains(t, err, "append-only")
	// Even inside a transaction that claims to be the retention run, an UPDATE is refused.
	tx := db.MustBegin()
	tx.MustExec(`SET LOCAL perfilseguro.retention = 'on'`)
	_, err = tx.Exec(`UPDATE audit_events SET action = 'nada'`)
	require.ErrorContains(t, err, "append-only")
	require.NoError(t, tx.Rollback())
	// The setting is transaction-local: it does not leak into the next statement.
	_, err = db.Exec(`DELETE FROM audit_events`)
	require.ErrorContains(t, err, "append-only")

	events, total, err := s.AuditEvents(ctx, postgres.AuditFilter{})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, "user.update", events[0].Action)
	require.Equal(t, postgres.Change{Before: "Ana", After: "Ana María"}, events[0].Changes["nombre"])
}

func TestRetentionErasesOldAuditEventsOnly(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	now := time.Date(2028, 6, 1, 12, 0, 0, 0, time.UTC)
	keep := perfilseguro.RetentionOf(perfilseguro.RetainAuditTrail)
	require.Equal(t, 2*365*24*time.Hour, keep)
	for _, at := range []time.Time{now.Add(-keep - time.Hour), now.Add(-keep + time.Hour), now} {
		require.NoError(t, postgres.AppendAudit(ctx, db, postgres.AuditEvent{At: at, ActorKind: postgres.ActorSystem, Action: "x"}))
	}
	res, err := s.ApplyRetention(ctx, now)
	require.NoError(t, err)
	require.EqualValues(t, 1, res[perfilseguro.RetainAuditTrail])
	_, total, err := s.AuditEvents(ctx, postgres.AuditFilter{})
	require.NoError(t, err)
	require.Equal(t, 2, total)
}

func TestAuditFilters(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	one, two := int64(1), int64(2)
	for i, e := range []postgres.AuditEvent{
		{ActorKind: postgres.ActorAdmin, ActorID: &one, ActorLabel: "ana@example.com", Action: "user.revoke", TargetKind: "user", TargetID: "42"},
		{ActorKind: postgres.ActorAdmin, ActorID: &two, ActorLabel: "beto@example.com", Action: "user.update", TargetKind: "user", TargetID: "42"},
		{ActorKind: postgres.ActorAdmin, ActorID: &one, ActorLabel: "ana@example.com", Action: "partner.create", TargetKind: "partner", TargetID: "3"},
	} {
		e.At = base.Add(time.Duration(i) * 24 * time.Hour)
		require.NoError(t, postgres.AppendAudit(ctx, db, e))
	}
	count := func(f postgres.AuditFilter) int {
		_, n, err := s.AuditEvents(ctx, f)
		require.NoError(t, err)
		return n
	}
	require.Equal(t, 2, count(postgres.AuditFilter{Actor: "ANA@"}))
	require.Equal(t, 1, count(postgres.AuditFilter{Actor: "2"}))
	require.Equal(t, 2, count(postgres.AuditFilter{Action: "user."}))
	require.Equal(t, 1, count(postgres.AuditFilter{Action: "user.revoke"}))
	require.Equal(t, 2, count(postgres.AuditFilter{Target: "user:42"}))
	require.Equal(t, 1, count(postgres.AuditFilter{Target: "3"}))
	require.Equal(t, 2, count(postgres.AuditFilter{From: base.Add(time.Hour)}))
	require.Equal(t, 1, count(postgres.AuditFilter{From: base.Add(time.Hour), To: base.Add(25 * time.Hour)}))
	page, total, err := s.AuditEvents(ctx, postgres.AuditFilter{Limit: 2, Offset: 0})
	require.NoError(t, err)
	require.Equal(t, 3, total)
	require.Equal(t, "partner.create", page[0].Action, "newest first")
	page, _, err = s.AuditEvents(ctx, postgres.AuditFilter{Limit: 2, Offset: 2})
	require.NoError(t, err)
	require.Len(t, page, 1)
	require.Equal(t, "user.revoke", page[0].Action)
}

func TestTheLastActiveAdministradorStays(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)
	now := time.Now()
	ana, err := s.CreateAdmin(ctx, perfilseguro.NewAdmin{Email: "ana@example.com", Name: "Ana", Role: perfilseguro.RoleAdministrator}, "h1", now.Add(time.Hour))
	require.NoError(t, err)
	beto, err := s.CreateAdmin(ctx, perfilseguro.NewAdmin{Email: "beto@example.com", Name: "Beto", Role: perfilseguro.RoleSupport}, "h2", now.Add(time.Hour))
	require.NoError(t, err)
	_, err = s.DisableAdmin(ctx, ana.ID, now)
	require.ErrorIs(t, err, postgres.ErrLastAdministrator)
	_, _, err = s.SetAdminRole(ctx, ana.ID, perfilseguro.RoleFinance)
	require.ErrorIs(t, err, postgres.ErrLastAdministrator)

	_, after, err := s.SetAdminRole(ctx, beto.ID, perfilseguro.RoleAdministrator)
	require.NoError(t, err)
	require.Equal(t, perfilseguro.RoleAdministrator, after.Role)
	require.NoError(t, s.InsertAdminSession(ctx, postgres.AdminSessionStart{TokenHash: "s1", AdminID: ana.ID, Created: now, Expires: now.Add(time.Hour)}))
	off, err := s.DisableAdmin(ctx, ana.ID, now)
	require.NoError(t, err)
	require.NotNil(t, off.DisabledAt)
	sess, err := s.AdminSessionByToken(ctx, "s1", now, time.Hour)
	require.NoError(t, err)
	require.Nil(t, sess, "a disabled administrator's sessions end")
	_, err = s.DisableAdmin(ctx, beto.ID, now)
	require.ErrorIs(t, err, postgres.ErrLastAdministrator)
}
