package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// reviewCheck applies an approved decision reading doc (nil: none) for a new person registered
// as typed, and returns the person and the check.
func reviewCheck(t *testing.T, store *postgres.Store, typed string, doc *perfilseguro.DocumentIdentity,
	registry []perfilseguro.RegistryCheck) (int64, int64, identity.Verdict) {
	t.Helper()
	ctx := context.Background()
	n := time.Now().UnixNano()
	email, phone := fmt.Sprintf("rv%d@example.com", n), fmt.Sprintf("+5255%08d", n%1e8)
	uid, _ := insertPerson(t, store, postgres.NewUser{Nombre: typed, Email: &email, Phone: &phone})
	sid := fmt.Sprintf("rv-%d", n)
	var vid int64
	var res postgres.DecisionResult
	require.NoError(t, store.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		if vid, err = store.InsertVerificationSession(ctx, tx, uid, "didit", "test"); err != nil {
			return err
		}
		if _, err = tx.Exec(`UPDATE verification_sessions SET session_id = $2 WHERE id = $1`, vid, sid); err != nil {
			return err
		}
		res, err = store.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: sid, Status: perfilseguro.BiometricApproved,
			Identity: doc, RegistryChecks: registry})
		return err
	}))
	return uid, vid, res.Verdict
}

func TestAReviewIsResolvedWithWhatFollowsItOrNotAtAll(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	doc := identity.SampleDocument("Ana Ruiz Hernández", time.Date(1981, 4, 5, 0, 0, 0, 0, time.UTC))
	uid, vid, verdict := reviewCheck(t, store, "Ana Ruiz Hernández", &doc,
		[]perfilseguro.RegistryCheck{{Registry: "mex_curp", Field: "full_name", Result: perfilseguro.RegistryNoMatch}})
	require.Equal(t, identity.VerdictNear, verdict)

	queue, err := store.IdentityReviews(ctx)
	require.NoError(t, err)
	require.Len(t, queue, 1)
	require.Equal(t, vid, queue[0].VerificationID)
	require.Equal(t, doc.PersonalNumber, queue[0].Document.PersonalNumber, "the store opens it; the API masks it")
	require.Equal(t, "Ana Ruiz Hernández", queue[0].Assessment.DocumentName)

	// What follows the decision fails: nothing of it stays.
	boom := errors.New("redis down")
	_, _, err = store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid, Approve: true,
		Then: func(*sqlx.Tx, postgres.IdentityCheck) error { return boom }})
	require.ErrorIs(t, err, boom)
	var level int
	require.NoError(t, db.Get(&level, `SELECT verification_level FROM users WHERE id = $1`, uid))
	require.Less(t, level, 3)
	queue, err = store.IdentityReviews(ctx)
	require.NoError(t, err)
	require.Len(t, queue, 1, "still waiting")

	var seen postgres.IdentityCheck
	check, cert, err := store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid, Approve: true,
		Then: func(_ *sqlx.Tx, c postgres.IdentityCheck) error { seen = c; return nil }})
	require.NoError(t, err)
	require.True(t, cert.ApprovedNow)
	require.Equal(t, uid, seen.UserID)
	require.Equal(t, postgres.ReviewApproved, *check.Resolution)
	_, _, err = store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid})
	require.ErrorIs(t, err, postgres.ErrReviewResolved)
	queue, err = store.IdentityReviews(ctx)
	require.NoError(t, err)
	require.Empty(t, queue)
}

func TestACheckWithoutItsDocumentCanOnlyBeDeclined(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	uid, vid, verdict := reviewCheck(t, store, "Luis Pérez Gómez", nil, nil)
	require.Equal(t, identity.VerdictNoDocument, verdict)
	_, _, err := store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid, Approve: true})
	require.ErrorIs(t, err, postgres.ErrReviewNoDocument)
	_, _, err = store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: vid, Reason: "Sin datos del documento."})
	require.NoError(t, err)
	var level int
	require.NoError(t, db.Get(&level, `SELECT verification_level FROM users WHERE id = $1`, uid))
	require.Less(t, level, 3)

	// A match is not a review: nothing to resolve there.
	doc := identity.SampleDocument("Rosa Díaz Luna", time.Date(1990, 8, 9, 0, 0, 0, 0, time.UTC))
	_, matched, verdict := reviewCheck(t, store, "Rosa Díaz Luna", &doc, nil)
	require.Equal(t, identity.VerdictMatch, verdict)
	_, _, err = store.ResolveIdentityReview(ctx, postgres.IdentityReviewDecision{VerificationID: matched, Approve: true})
	require.ErrorIs(t, err, postgres.ErrReviewNotFound)
}
