package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// validatedUser inserts a level-3 user validated at validated for vigencia years, optionally
// brought by a partner.
func validatedUser(t *testing.T, db *sqlx.DB, profileID string, validated time.Time, vigencia int, partnerID *int64) int64 {
	t.Helper()
	var id int64
	require.NoError(t, db.Get(&id, `INSERT INTO users (nombre, id_validado, vigencia, fecha_validacion, verification_level,
		biometric_verified, partner_id) VALUES ('Ana López', $1, $2, $3, 3, true, $4) RETURNING id`,
		profileID, vigencia, validated, partnerID))
	return id
}

// lifecycleSetup gives a test a database, its store and a partner with a notification webhook.
func lifecycleSetup(t *testing.T, keyID string) (*sqlx.DB, *postgres.Store, int64) {
	t.Helper()
	_, db, store := setup(t)
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
		VALUES ($1, 'CasaLista', 'https://casalista.example', 'https://casalista.example/hook', 'whsec') RETURNING id`, keyID))
	return db, store, partner
}

// partnerEvents lists the outbox's events for a partner, oldest first, as event → payload.
func partnerEvents(t *testing.T, db *sqlx.DB, partnerID int64) []map[string]any {
	t.Helper()
	var raw []string
	require.NoError(t, db.Select(&raw, `SELECT payload::text FROM partner_deliveries WHERE partner_id = $1 AND event LIKE 'profile.%' ORDER BY id`, partnerID))
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		require.NoError(t, json.Unmarshal([]byte(r), &out[i]))
	}
	return out
}

func TestExpireProfilesRecordsEachExpiryOnceAtItsEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, s, partner := lifecycleSetup(t, "pk_life")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	endsNow := validatedUser(t, db, "PS-0000-0000-01", now.AddDate(-1, 0, 0), 1, &partner)
	endsLater := validatedUser(t, db, "PS-0000-0000-02", now.AddDate(-1, 0, 0).Add(time.Second), 1, nil)
	fiveYears := validatedUser(t, db, "PS-0000-0000-03", now.AddDate(-4, 0, 0), 5, nil)
	longGone := validatedUser(t, db, "PS-0000-0000-04", now.AddDate(-12, 0, 0), 10, nil)
	_, err := db.Exec(`INSERT INTO users (nombre, id_validado) VALUES ('Sin validar', 'PS-0000-0000-05')`)
	require.NoError(t, err)

	ids, err := s.ExpireProfiles(ctx, now, 1) // batches of one: every batch is its own statement
	require.NoError(t, err)
	require.Equal(t, []int64{longGone}, ids, "oldest first")
	ids, err = s.ExpireProfiles(ctx, now, 10)
	require.NoError(t, err)
	require.Equal(t, []int64{endsNow}, ids, "a validity that ends exactly now has ended")
	ids, err = s.ExpireProfiles(ctx, now, 10)
	require.NoError(t, err)
	require.Empty(t, ids, "an expiry is recorded once")

	ids, err = s.ExpireProfiles(ctx, now.Add(time.Second), 10)
	require.NoError(t, err)
	require.Equal(t, []int64{endsLater}, ids)

	u, err := s.UserByID(ctx, endsNow)
	require.NoError(t, err)
	require.NotNil(t, u.ExpiredAt)
	require.True(t, u.ExpiredAt.Equal(now))
	events, err := s.ProfileEvents(ctx, endsNow)
	require.NoError(t, err)
	require.Len(t, events, 1)
	require.Equal(t, postgres.ProfileExpired, events[0].Kind)
	require.Equal(t, "system", events[0].Actor)
	f, err := s.UserByID(ctx, fiveYears)
	require.NoError(t, err)
	require.Nil(t, f.ExpiredAt, "five years are not over")

	got := partnerEvents(t, db, partner)
	require.Len(t, got, 1, "only the partner's own user is reported")
	require.Equal(t, "profile.expired", got[0]["event"])
	require.Equal(t, "PS-0000-0000-01", got[0]["profileId"])

	// An administrator who extends the validity past today takes the profile out of expiry.
	_, _, err = s.UpdateUserAsAdmin(ctx, endsNow, postgres.AdminUser{Nombre: "Ana López", Origen: "Otro", Vigencia: 5})
	require.NoError(t, err)
	u, err = s.UserByID(ctx, endsNow)
	require.NoError(t, err)
	require.Nil(t, u.ExpiredAt, "a validity extended past today is no longer expired")
}

func TestRevokeProfileRecordsWhoWhenAndWhyOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, s, partner := lifecycleSetup(t, "pk_rev")
	id := validatedUser(t, db, "PS-0000-0000-11", time.Now().AddDate(0, -1, 0), 1, &partner)

	u, err := s.RevokeProfile(ctx, id, "Documento reportado como robado", "203.0.113.5")
	require.NoError(t, err)
	require.NotNil(t, u.RevokedAt)
	require.Equal(t, "Documento reportado como robado", *u.RevokedReason)
	require.Equal(t, 3, u.VerificationLevel, "the account and its level stay")

	_, err = s.RevokeProfile(ctx, id, "otra vez", "203.0.113.5")
	require.ErrorIs(t, err, postgres.ErrAlreadyRevoked)
	var perr *perfilseguro.Error
	require.ErrorAs(t, err, &perr)
	require.Equal(t, perfilseguro.ECONFLICT, perr.Code)
	_, err = s.RevokeProfile(ctx, 999999, "motivo", "203.0.113.5")
	require.ErrorIs(t, err, postgres.ErrUserNotFound)

	events, err := s.ProfileEvents(ctx, id)
	require.NoError(t, err)
	require.Len(t, events, 1, "the refused second revocation left no event")
	require.Equal(t, postgres.ProfileRevoked, events[0].Kind)
	require.Equal(t, "admin", events[0].Actor)
	require.Equal(t, "203.0.113.5", *events[0].ActorIP)
	require.Equal(t, "Documento reportado como robado", *events[0].Reason)

	got := partnerEvents(t, db, partner)
	require.Len(t, got, 1)
	require.Equal(t, "profile.revoked", got[0]["event"])
	require.Equal(t, "PS-0000-0000-11", got[0]["profileId"])

	// Deletion drops what was queued about the person; the partner they came through but never
	// shared with is not sent their profile ID (issue 54: profile.deleted goes to the partners the
	// person shared with, by their sessions; api's TestADeletionTellsThePartnerOnlyWhatItAlreadyHas).
	require.NoError(t, s.DeleteUser(ctx, id))
	require.Empty(t, partnerEvents(t, db, partner))
}

// approveNewSession starts a biometric session for userID (created now) and applies Approved.
func approveNewSession(t *testing.T, s *postgres.Store, userID int64, sessionID string) postgres.DecisionResult {
	t.Helper()
	ctx := context.Background()
	var vid int64
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = s.InsertVerificationSession(ctx, tx, userID, "didit", "test")
		return err
	}))
	ok, err := s.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: sessionID, URL: "https://x/" + sessionID})
	require.NoError(t, err)
	require.True(t, ok)
	return applyApproved(t, s, sessionID)
}

func applyApproved(t *testing.T, s *postgres.Store, sessionID string) postgres.DecisionResult {
	t.Helper()
	var res postgres.DecisionResult
	score := 96.0
	require.NoError(t, s.InTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		var userID int64
		require.NoError(t, tx.Get(&userID, `SELECT user_id FROM verification_sessions WHERE session_id = $1`, sessionID))
		res, err = s.ApplyDecision(context.Background(), tx, perfilseguro.BiometricDecision{SessionID: sessionID,
			Status: perfilseguro.BiometricApproved, Overall: &score, Identity: documentOf(t, s.DB, userID)})
		return err
	}))
	return res
}

func TestANewApprovedCheckRenewsAnExpiredValidationOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, s, partner := lifecycleSetup(t, "pk_ren")
	validated := time.Now().AddDate(-1, 0, -3)
	id := validatedUser(t, db, "PS-0000-0000-21", validated, 1, &partner)
	_, err := s.ExpireProfiles(ctx, time.Now(), 10)
	require.NoError(t, err)

	res := approveNewSession(t, s, id, "renewal-1")
	require.True(t, res.RenewedNow)
	require.False(t, res.ApprovedNow, "level 3 was granted long ago")
	u, err := s.UserByID(ctx, id)
	require.NoError(t, err)
	require.Nil(t, u.ExpiredAt, "no longer expired")
	require.WithinDuration(t, time.Now(), *u.FechaValidacion, time.Minute, "the new validation date")
	require.Equal(t, "renewed", mustEvents(t, s, id)[0].Kind)
	got := partnerEvents(t, db, partner)
	require.Equal(t, "profile.renewed", got[len(got)-1]["event"])

	// A replay of the same approval renews nothing more.
	before := *u.FechaValidacion
	require.False(t, applyApproved(t, s, "renewal-1").RenewedNow)
	u, _ = s.UserByID(ctx, id)
	require.True(t, before.Equal(*u.FechaValidacion))

	// A revoked validation is not renewed by a check.
	other := validatedUser(t, db, "PS-0000-0000-22", validated, 1, nil)
	_, err = s.RevokeProfile(ctx, other, "Fraude", "203.0.113.1")
	require.NoError(t, err)
	require.False(t, approveNewSession(t, s, other, "renewal-2").RenewedNow)
	o, _ := s.UserByID(ctx, other)
	require.WithinDuration(t, validated, *o.FechaValidacion, time.Millisecond, "unchanged")
}

func mustEvents(t *testing.T, s *postgres.Store, userID int64) []postgres.ProfileEvent {
	t.Helper()
	events, err := s.ProfileEvents(context.Background(), userID)
	require.NoError(t, err)
	require.NotEmpty(t, events)
	return events
}
