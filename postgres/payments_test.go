package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// openPayment records an attempt for a new person and gives it a checkout session.
func openPayment(t *testing.T, s *postgres.Store, plan string) (userID int64, p postgres.Payment) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, s.DB.Get(&userID, `INSERT INTO users (nombre, id_validado) VALUES ('Ana López', 'PS-1111-2222-'||lpad((random()*99)::int::text, 2, '0')) RETURNING id`))
	pl, ok := perfilseguro.PlanByCode(plan)
	require.True(t, ok)
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := s.StartPaymentAttempt(ctx, tx, userID, pl, "devsim", "key-"+plan+time.Now().String())
		p = res.Payment
		return err
	}))
	stored, err := s.SetCheckoutCreated(ctx, p.ID, perfilseguro.CheckoutSession{ID: "cs_" + time.Now().Format("150405.000000000"),
		URL: "https://checkout.example/x", ExpiresAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	require.True(t, stored)
	got, err := s.PaymentByID(ctx, p.ID)
	require.NoError(t, err)
	return userID, *got
}

func apply(t *testing.T, s *postgres.Store, st perfilseguro.CheckoutState) postgres.PaymentChange {
	t.Helper()
	var ch postgres.PaymentChange
	require.NoError(t, s.InTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		ch, err = s.ApplyCheckoutState(context.Background(), tx, st)
		return err
	}))
	return ch
}

func TestAPaymentOnlyMovesForwardWhateverOrderTheEventsArriveIn(t *testing.T) {
	t.Parallel()
	_, _, s := setup(t)
	_, p := openPayment(t, s, perfilseguro.PlanOneYear)
	sid := *p.CheckoutSessionID
	voucher := &perfilseguro.OXXOVoucher{Number: "12345678901234", ExpiresAt: time.Now().Add(72 * time.Hour), URL: "https://v.example"}

	ch := apply(t, s, perfilseguro.CheckoutState{SessionID: sid, Status: perfilseguro.CheckoutComplete,
		PaymentStatus: perfilseguro.CheckoutUnpaid, Voucher: voucher, PaymentMethod: "oxxo", PaymentIntentID: "pi_1"})
	require.True(t, ch.PendingNow())
	ch = apply(t, s, perfilseguro.CheckoutState{SessionID: sid, Status: perfilseguro.CheckoutComplete,
		PaymentStatus: perfilseguro.CheckoutUnpaid, Voucher: voucher})
	require.False(t, ch.PendingNow(), "the same report again changes nothing")

	ch = apply(t, s, perfilseguro.CheckoutState{SessionID: sid, Status: perfilseguro.CheckoutComplete, PaymentStatus: perfilseguro.CheckoutPaid})
	require.True(t, ch.PaidNow())
	// Late reports (the voucher issued, the session expired, a failure) never undo a payment.
	for _, late := range []perfilseguro.CheckoutState{
		{SessionID: sid, Status: perfilseguro.CheckoutComplete, PaymentStatus: perfilseguro.CheckoutUnpaid, Voucher: voucher},
		{SessionID: sid, Status: perfilseguro.CheckoutExpired, PaymentStatus: perfilseguro.CheckoutUnpaid},
		{SessionID: sid, Status: perfilseguro.CheckoutComplete, PaymentStatus: perfilseguro.CheckoutUnpaid, AsyncFailed: true},
	} {
		ch = apply(t, s, late)
		require.Equal(t, postgres.PaymentPaid, ch.After)
		require.False(t, ch.PaidNow())
	}
	got, err := s.PaymentByID(context.Background(), p.ID)
	require.NoError(t, err)
	require.Equal(t, "oxxo", *got.PaymentMethod)
	require.Equal(t, "12345678901234", *got.VoucherNumber)
	require.NotNil(t, got.PaidAt)

	unknown := apply(t, s, perfilseguro.CheckoutState{SessionID: "cs_not_ours", Status: perfilseguro.CheckoutComplete, PaymentStatus: perfilseguro.CheckoutPaid})
	require.False(t, unknown.Known)
}

func TestTheApprovalSpendsOnePaymentAndSetsItsValidity(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	userID, p := openPayment(t, s, perfilseguro.PlanFiveYears)
	ok, err := s.HasUnusedPayment(ctx, userID)
	require.NoError(t, err)
	require.False(t, ok, "an open checkout is not a payment")
	apply(t, s, perfilseguro.CheckoutState{SessionID: *p.CheckoutSessionID, Status: perfilseguro.CheckoutComplete,
		PaymentStatus: perfilseguro.CheckoutPaid, PaymentIntentID: "pi_5"})
	ok, err = s.HasUnusedPayment(ctx, userID)
	require.NoError(t, err)
	require.True(t, ok)

	for i, want := range []bool{true, false} {
		require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) error {
			years, spent, err := s.ConsumePayment(ctx, tx, userID)
			require.Equal(t, want, spent, "call %d", i)
			if spent {
				require.Equal(t, 5, years)
			}
			return err
		}))
	}
	var vigencia int
	require.NoError(t, db.Get(&vigencia, `SELECT vigencia FROM users WHERE id = $1`, userID))
	require.Equal(t, 5, vigencia)

	// A full refund recorded twice is one refund; an intent that is not ours is not known.
	for range 2 {
		require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) error {
			ch, err := s.ApplyRefund(ctx, tx, "pi_5")
			require.True(t, ch.Known)
			require.Equal(t, postgres.PaymentRefunded, ch.After)
			return err
		}))
	}
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) error {
		ch, err := s.ApplyRefund(ctx, tx, "pi_other")
		require.False(t, ch.Known)
		return err
	}))
}

func TestAnAttemptForAnotherPlanReplacesTheOneInProgress(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)
	userID, first := openPayment(t, s, perfilseguro.PlanOneYear)
	five, _ := perfilseguro.PlanByCode(perfilseguro.PlanFiveYears)
	one, _ := perfilseguro.PlanByCode(perfilseguro.PlanOneYear)

	var again postgres.AttemptResult
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		again, err = s.StartPaymentAttempt(ctx, tx, userID, one, "devsim", "other-key")
		return err
	}))
	require.False(t, again.Created, "the same plan finds the attempt in progress")
	require.Equal(t, first.ID, again.Payment.ID)

	var other postgres.AttemptResult
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		other, err = s.StartPaymentAttempt(ctx, tx, userID, five, "devsim", "five-key")
		return err
	}))
	require.True(t, other.Created)
	require.Equal(t, first.CheckoutSessionID, other.Replaced, "the replaced page is named so it can be closed")
	old, err := s.PaymentByID(ctx, first.ID)
	require.NoError(t, err)
	require.Equal(t, postgres.PaymentCancelled, old.Status)
	plan, err := s.UserPlan(ctx, userID)
	require.NoError(t, err)
	require.Equal(t, perfilseguro.PlanFiveYears, plan)
	require.Equal(t, int64(399_00), other.Payment.AmountCentavos)
}
