package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// checkOf records a started biometric check of userID, begun at started.
func checkOf(t *testing.T, store *postgres.Store, userID int64, sessionID string, started time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	var vid int64
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = store.InsertVerificationSession(ctx, tx, userID, "didit", "test")
		return err
	}))
	_, err := store.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: sessionID, URL: "https://x/" + sessionID})
	require.NoError(t, err)
	_, err = store.DB.Exec(`UPDATE verification_sessions SET created_at = $2 WHERE id = $1`, vid, started)
	require.NoError(t, err)
	return vid
}

func certify(t *testing.T, store *postgres.Store, vid int64, name string, doc perfilseguro.DocumentIdentity) (postgres.Certification, error) {
	t.Helper()
	var c postgres.Certification
	err := store.InTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		c, err = store.Certify(context.Background(), tx, vid, name, doc, nil)
		return err
	})
	return c, err
}

// A person validated before documents were read, whose old check's document is certified now
// (an adopted mismatch or an approved review of the backfill), takes the document's name and
// binding without being renewed: same validation date, no "renewed" event.
func TestCertifyingAnOlderValidationBindsTheDocumentWithoutRenewingIt(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	id := lvUser(t, store, 2)
	validated := time.Now().Add(-48 * time.Hour).UTC().Truncate(time.Second)
	vid := checkOf(t, store, id, "old", validated.Add(-time.Hour))
	_, err := db.Exec(`UPDATE users SET verification_level = 3, biometric_verified = true, fecha_validacion = $2 WHERE id = $1`, id, validated)
	require.NoError(t, err)
	doc := identity.SampleDocument("Luis Vega Soto", time.Date(1980, 2, 3, 0, 0, 0, 0, time.UTC))

	c, err := certify(t, store, vid, "Luis Vega Soto", doc)
	require.NoError(t, err)
	require.Equal(t, postgres.Certification{BoundNow: true}, c)
	u, err := store.UserByID(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "Luis Vega Soto", u.Nombre)
	require.True(t, u.NameFromDocument)
	require.True(t, validated.Equal(*u.FechaValidacion), "the validation keeps its date")
	require.Equal(t, 0, dbGet[int](t, db, `SELECT count(*) FROM profile_events WHERE user_id = $1 AND kind = 'renewed'`, id))

	// Certified since: a second older check binds nothing more.
	vid2 := checkOf(t, store, id, "older", validated.Add(-2*time.Hour))
	c, err = certify(t, store, vid2, "Luis Vega Soto", doc)
	require.NoError(t, err)
	require.False(t, c.Granted())
	require.Equal(t, vid, dbGet[int64](t, db, `SELECT identity_verification_id FROM users WHERE id = $1`, id))

	// A check begun after the validation renews it.
	vid3 := checkOf(t, store, id, "new", time.Now())
	c, err = certify(t, store, vid3, "Luis Vega Soto", doc)
	require.NoError(t, err)
	require.Equal(t, postgres.Certification{RenewedNow: true}, c)
	require.Equal(t, 1, dbGet[int](t, db, `SELECT count(*) FROM profile_events WHERE user_id = $1 AND kind = 'renewed'`, id))
}

// One ID, one profile: certifying a second profile (same mode) with a document another holds
// is refused with the Spanish message, and the transaction stays usable (a savepoint).
func TestCertifyRefusesADocumentAnotherProfileHolds(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	doc := identity.SampleDocument("Luis Vega Soto", time.Date(1981, 2, 3, 0, 0, 0, 0, time.UTC))
	first, second := lvUser(t, store, 2), lvUser(t, store, 2)
	c, err := certify(t, store, checkOf(t, store, first, "a", time.Now()), "Luis Vega Soto", doc)
	require.NoError(t, err)
	require.True(t, c.ApprovedNow)

	vid := checkOf(t, store, second, "b", time.Now())
	err = store.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := store.Certify(ctx, tx, vid, "Luis Vega Soto", doc, nil)
		require.ErrorIs(t, err, postgres.ErrDocumentBound)
		require.Equal(t, "Esta identificación ya está vinculada a otro perfil.", perfilseguro.ErrorMessage(err))
		_, err = tx.ExecContext(ctx, `SELECT 1`)
		return err // the transaction is still usable after the refusal
	})
	require.NoError(t, err)
	u, _ := store.UserByID(ctx, second)
	require.Equal(t, 2, u.VerificationLevel)
}

// dbGet reads one value.
func dbGet[T any](t *testing.T, db *sqlx.DB, q string, args ...any) T {
	t.Helper()
	var v T
	require.NoError(t, db.Get(&v, q, args...))
	return v
}
