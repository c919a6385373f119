package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestLiftRevocationAnnulsTheRevokedValidationInOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, s, _ := lifecycleSetup(t, "pk_lift")
	id := validatedUser(t, db, "PS-0000-0000-31", time.Now().AddDate(0, -1, 0), 1, nil)
	audit := func(action string) *postgres.AuditEvent {
		return &postgres.AuditEvent{ActorKind: postgres.ActorAdmin, ActorLabel: "ana@perfilseguro.mx", Action: action,
			TargetKind: "user", TargetID: "x"}
	}

	_, err := s.LiftRevocation(ctx, postgres.RevocationLift{UserID: id, Reason: "Aclarado", Audit: audit("user.revoke.lift")})
	require.ErrorIs(t, err, postgres.ErrNotRevoked, "nothing to lift")
	var perr *perfilseguro.Error
	require.ErrorAs(t, err, &perr)
	require.Equal(t, perfilseguro.ECONFLICT, perr.Code)
	_, err = s.LiftRevocation(ctx, postgres.RevocationLift{UserID: 999999, Reason: "Aclarado"})
	require.ErrorIs(t, err, postgres.ErrUserNotFound)

	_, err = s.Revoke(ctx, postgres.Revocation{UserID: id, Reason: "Documento robado", ActorIP: "203.0.113.5"})
	require.NoError(t, err)

	// A failure after the event (the e-mail could not be queued) leaves everything as it was:
	// no lift, no event, no audit row.
	_, err = s.LiftRevocation(ctx, postgres.RevocationLift{UserID: id, Reason: "Aclarado", Audit: audit("user.revoke.lift"),
		Then: func(*sqlx.Tx, int64) error { return errors.New("redis down") }})
	require.ErrorContains(t, err, "redis down")
	u, err := s.UserByID(ctx, id)
	require.NoError(t, err)
	require.NotNil(t, u.RevokedAt, "still revoked")
	require.Len(t, mustEvents(t, s, id), 1)
	var audited int
	require.NoError(t, db.Get(&audited, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke.lift'`))
	require.Zero(t, audited)

	var seen int64
	u, err = s.LiftRevocation(ctx, postgres.RevocationLift{UserID: id, Reason: "Documento aclarado con la persona",
		ActorIP: "203.0.113.6", AdminLabel: "ana@perfilseguro.mx", Audit: audit("user.revoke.lift"),
		Then: func(tx *sqlx.Tx, eventID int64) error {
			seen = eventID
			// The audit row is already in this transaction, beside the event.
			var n int
			if err := tx.Get(&n, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke.lift'`); err != nil {
				return err
			}
			require.Equal(t, 1, n)
			return nil
		}})
	require.NoError(t, err)
	require.Nil(t, u.RevokedAt)
	require.Nil(t, u.RevokedReason)
	require.False(t, u.BiometricVerified, "the revoked validation does not come back")
	require.Nil(t, u.FechaValidacion)
	require.Nil(t, u.ExpiredAt)
	require.LessOrEqual(t, u.VerificationLevel, 2)
	require.NotNil(t, u.RevalidationRequiredAt, "a validated person's next check is not charged again")

	events := mustEvents(t, s, id)
	require.Len(t, events, 2)
	require.Equal(t, postgres.ProfileLifted, events[0].Kind, "newest first")
	require.Equal(t, "Documento aclarado con la persona", *events[0].Reason)
	require.Equal(t, "ana@perfilseguro.mx", *events[0].AdminName)
	require.Equal(t, "203.0.113.6", *events[0].ActorIP)
	require.NoError(t, db.Get(&audited, `SELECT count(*) FROM audit_events WHERE action = 'user.revoke.lift'`))
	require.Equal(t, 1, audited)

	n, err := s.LiftByID(ctx, seen)
	require.NoError(t, err)
	require.Equal(t, id, n.UserID)
	require.Nil(t, n.NotifiedAt)
	require.NoError(t, s.MarkLiftNotified(ctx, seen, time.Now()))
	n, err = s.LiftByID(ctx, seen)
	require.NoError(t, err)
	require.NotNil(t, n.NotifiedAt)
	_, err = s.LiftByID(ctx, seen+1000) // no such event
	require.ErrorIs(t, err, postgres.ErrLiftNotFound)

	_, err = s.LiftRevocation(ctx, postgres.RevocationLift{UserID: id, Reason: "otra vez"})
	require.ErrorIs(t, err, postgres.ErrNotRevoked, "a lift happens once")

	// After the lift, a new approved check validates the person again.
	res := approveNewSession(t, s, id, "after-lift-1")
	require.True(t, res.ApprovedNow)
	u, _ = s.UserByID(ctx, id)
	require.True(t, u.BiometricVerified)
	require.Equal(t, 3, u.VerificationLevel)
	require.Nil(t, u.RevalidationRequiredAt)
}

func TestARevokedPersonIsGrantedNothingByACheckInFlight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, s, _ := lifecycleSetup(t, "pk_inflight")
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO users (nombre, id_validado, verification_level, is_phone_verified)
		VALUES ('Ana López', 'PS-0000-0000-41', 1, true) RETURNING id`))
	var vid int64
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = s.InsertVerificationSession(ctx, tx, id, "didit", "test")
		return err
	}))
	ok, err := s.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: "inflight-1", URL: "https://x/inflight-1"})
	require.NoError(t, err)
	require.True(t, ok)
	_, err = s.Revoke(ctx, postgres.Revocation{UserID: id, Reason: "Fraude"})
	require.NoError(t, err)

	res := applyApproved(t, s, "inflight-1")
	require.False(t, res.ApprovedNow)
	u, err := s.UserByID(ctx, id)
	require.NoError(t, err)
	require.False(t, u.BiometricVerified)
	require.Equal(t, 1, u.VerificationLevel)
}
