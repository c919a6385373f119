package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// lvUser creates a user at the given verification level.
func lvUser(t *testing.T, store *postgres.Store, level int) int64 {
	t.Helper()
	n := rand.IntN(90_000_000) + 10_000_000
	email, phone := fmt.Sprintf("lv%d@example.com", n), fmt.Sprintf("+5255%d", n)
	id, _ := insertPerson(t, store, postgres.NewUser{Nombre: "Luis Vega", Email: &email, Phone: &phone})
	_, err := store.DB.Exec(`UPDATE users SET verification_level = $2, is_phone_verified = $3 WHERE id = $1`, id, level, level >= 1)
	require.NoError(t, err)
	return id
}

// lvToken stores a link token for userID expiring at expires and returns the token in clear.
func lvToken(t *testing.T, store *postgres.Store, userID int64, expires time.Time) string {
	t.Helper()
	token := secure.NewToken(32)
	require.NoError(t, store.InTx(context.Background(), func(tx *sqlx.Tx) error {
		_, err := store.InsertEmailToken(context.Background(), tx, userID, secure.HashToken(token), expires, true)
		return err
	}))
	return token
}

func TestEmailTokenWorksOnceAndGrantsLevel2(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	id := lvUser(t, store, 1)
	token := lvToken(t, store, id, time.Now().Add(24*time.Hour))

	res, err := store.ConsumeEmailToken(ctx, secure.HashToken(token))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenVerified, res.Outcome)
	require.Equal(t, id, res.UserID)
	require.True(t, res.AutoBiometric, "auto_biometric defaults to true")
	u, err := store.UserByID(ctx, id)
	require.NoError(t, err)
	require.Equal(t, 2, u.VerificationLevel)
	require.True(t, u.IsEmailVerified)

	res, err = store.ConsumeEmailToken(ctx, secure.HashToken(token))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenUsed, res.Outcome, "a link works once")

	res, err = store.ConsumeEmailToken(ctx, secure.HashToken("no-such-token"))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenUnknown, res.Outcome)
}

func TestEmailTokenExpiresAndNeedsLevel1(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)

	id := lvUser(t, store, 1)
	old := lvToken(t, store, id, time.Now().Add(-time.Second))
	res, err := store.ConsumeEmailToken(ctx, secure.HashToken(old))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenExpired, res.Outcome)
	u, _ := store.UserByID(ctx, id)
	require.Equal(t, 1, u.VerificationLevel, "an expired link grants nothing")

	id0 := lvUser(t, store, 0)
	token := lvToken(t, store, id0, time.Now().Add(time.Hour))
	res, err = store.ConsumeEmailToken(ctx, secure.HashToken(token))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenNeedsLevel1, res.Outcome)
	u, _ = store.UserByID(ctx, id0)
	require.Equal(t, 0, u.VerificationLevel)
	require.False(t, u.IsEmailVerified)
	var used bool
	require.NoError(t, db.Get(&used, `SELECT is_used FROM email_verification_tokens WHERE user_id = $1`, id0))
	require.False(t, used, "the link stays usable once the phone is verified")

	// A level-3 user following a late link keeps level 3.
	id3 := lvUser(t, store, 3)
	token = lvToken(t, store, id3, time.Now().Add(time.Hour))
	res, err = store.ConsumeEmailToken(ctx, secure.HashToken(token))
	require.NoError(t, err)
	require.Equal(t, postgres.EmailTokenVerified, res.Outcome)
	u, _ = store.UserByID(ctx, id3)
	require.Equal(t, 3, u.VerificationLevel, "levels never go down")
}

func TestApplyDecisionGrantsLevel3OnlyOnceAndNeverUndoesApproval(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	id := lvUser(t, store, 2)
	var vid int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = store.InsertVerificationSession(ctx, tx, id, "didit", "test")
		return err
	}))
	ok, err := store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: "s-1", URL: "https://x/s-1", Raw: []byte(`{"a":1}`)})
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: "s-2", URL: "https://x/s-2"})
	require.NoError(t, err)
	require.False(t, ok, "a session is stored once")

	apply := func(status string, score float64) postgres.DecisionResult {
		var res postgres.DecisionResult
		require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
			res, err = store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: "s-1", Status: status,
				Overall: &score, FaceMatch: &score, Identity: documentOf(t, db, id)})
			return err
		}))
		return res
	}
	res := apply(perfilseguro.BiometricInReview, 70)
	require.True(t, res.Known)
	require.False(t, res.ApprovedNow)
	u, _ := store.UserByID(ctx, id)
	require.Equal(t, 2, u.VerificationLevel)

	res = apply(perfilseguro.BiometricApproved, 95)
	require.True(t, res.ApprovedNow)
	u, _ = store.UserByID(ctx, id)
	require.Equal(t, 3, u.VerificationLevel)
	require.True(t, u.BiometricVerified)
	require.NotNil(t, u.FechaValidacion)
	validated := *u.FechaValidacion

	res = apply(perfilseguro.BiometricApproved, 95)
	require.False(t, res.ApprovedNow, "a replayed approval grants nothing new")
	res = apply(perfilseguro.BiometricDeclined, 10)
	require.Equal(t, perfilseguro.BiometricApproved, res.Status, "an approved session stays approved")
	u, _ = store.UserByID(ctx, id)
	require.Equal(t, 3, u.VerificationLevel)
	require.True(t, validated.Equal(*u.FechaValidacion), "fecha_validacion is set once")
	var overall float64
	require.NoError(t, db.Get(&overall, `SELECT overall_score FROM verification_sessions WHERE id = $1`, vid))
	require.Equal(t, 95.0, overall)

	res = func() postgres.DecisionResult {
		var r postgres.DecisionResult
		require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
			r, err = store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: "not-ours", Status: perfilseguro.BiometricApproved})
			return err
		}))
		return r
	}()
	require.False(t, res.Known)
}
