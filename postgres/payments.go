package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Payment statuses (payments.status; the migration explains each).
const (
	PaymentCreating    = "creating"
	PaymentOpen        = "open"
	PaymentPending     = "pending"
	PaymentPaid        = "paid"
	PaymentFailed      = "failed"
	PaymentExpired     = "expired"
	PaymentCancelled   = "cancelled"
	PaymentStartFailed = "start_failed"
	PaymentRefunded    = "refunded"
)

// Payment is one attempt to buy a plan.
type Payment struct {
	ID                int64      `db:"id"`
	UserID            *int64     `db:"user_id"`
	Plan              string     `db:"plan"`
	Years             int        `db:"years"`
	AmountCentavos    int64      `db:"amount_centavos"`
	Currency          string     `db:"currency"`
	Provider          string     `db:"provider"`
	Status            string     `db:"status"`
	IdempotencyKey    string     `db:"idempotency_key"`
	CheckoutSessionID *string    `db:"checkout_session_id"`
	CheckoutURL       *string    `db:"checkout_url"`
	CheckoutExpiresAt *time.Time `db:"checkout_expires_at"`
	PaymentIntentID   *string    `db:"payment_intent_id"`
	PaymentMethod     *string    `db:"payment_method"`
	VoucherNumber     *string    `db:"voucher_number"`
	VoucherURL        *string    `db:"voucher_url"`
	VoucherExpiresAt  *time.Time `db:"voucher_expires_at"`
	StartError        *string    `db:"start_error"`
	PaidAt            *time.Time `db:"paid_at"`
	FailedAt          *time.Time `db:"failed_at"`
	RefundRequestedAt *time.Time `db:"refund_requested_at"`
	RefundID          *string    `db:"refund_id"`
	RefundedAt        *time.Time `db:"refunded_at"`
	ConsumedAt        *time.Time `db:"consumed_at"`
	ReceiptSentAt     *time.Time `db:"receipt_sent_at"`
	PaidNoticeSentAt  *time.Time `db:"paid_notice_sent_at"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
}

const paymentColumns = `id, user_id, plan, years, amount_centavos, currency, provider, status, idempotency_key,
	checkout_session_id, checkout_url, checkout_expires_at, payment_intent_id, payment_method, voucher_number,
	voucher_url, voucher_expires_at, start_error, paid_at, failed_at, refund_requested_at, refund_id, refunded_at,
	consumed_at, receipt_sent_at, paid_notice_sent_at, created_at, updated_at`

// SetUserPlan records the plan a person chose (the landing page's buttons carry it).
func (s *Store) SetUserPlan(ctx context.Context, userID int64, plan string) error {
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE users SET plan = $2, updated_at = now() WHERE id = $1`, userID, plan)
	if err != nil {
		return fmt.Errorf("set plan: %w", err)
	}
	return nil
}

// UserPlan reads the plan a person chose ("" when none).
func (s *Store) UserPlan(ctx context.Context, userID int64) (string, error) {
	var plan *string
	if err := s.q(ctx).GetContext(ctx, &plan, `SELECT plan FROM users WHERE id = $1`, userID); err != nil {
		return "", fmt.Errorf("read plan: %w", err)
	}
	if plan == nil {
		return "", nil
	}
	return *plan, nil
}

// AttemptResult is what StartPaymentAttempt did.
type AttemptResult struct {
	Payment  Payment
	Created  bool    // a new attempt was recorded (its checkout job must be queued)
	Replaced *string // the checkout session of an attempt the new one replaced (to be closed)
}

// StartPaymentAttempt returns the person's attempt in progress for plan (a double click finds
// the first one) or records a new one, replacing an attempt for another plan. It runs in tx so
// the caller can queue the checkout job in the same transaction.
func (s *Store) StartPaymentAttempt(ctx context.Context, tx *sqlx.Tx, userID int64, plan perfilseguro.Plan, provider, key string) (AttemptResult, error) {
	// The user's row lock serializes concurrent clicks.
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
		return AttemptResult{}, fmt.Errorf("lock user: %w", err)
	}
	var cur []Payment
	const find = `SELECT ` + paymentColumns + ` FROM payments WHERE user_id = $1 AND status IN ('creating', 'open')`
	if err := tx.SelectContext(ctx, &cur, find, userID); err != nil {
		return AttemptResult{}, fmt.Errorf("attempt in progress: %w", err)
	}
	var res AttemptResult
	for _, p := range cur {
		stillOpen := p.CheckoutExpiresAt == nil || p.CheckoutExpiresAt.After(time.Now().Add(5*time.Minute))
		if p.Plan == plan.Code && stillOpen {
			return AttemptResult{Payment: p}, nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET status = 'cancelled', updated_at = now() WHERE id = $1`, p.ID); err != nil {
			return res, fmt.Errorf("replace attempt: %w", err)
		}
		res.Replaced = p.CheckoutSessionID
	}
	// A partner's test person's payment is never billed (livemode false).
	const ins = `INSERT INTO payments (user_id, plan, years, amount_centavos, provider, idempotency_key, livemode)
		VALUES ($1, $2, $3, $4, $5, $6, (SELECT test_partner_id IS NULL FROM users WHERE id = $1)) RETURNING ` + paymentColumns
	if err := tx.GetContext(ctx, &res.Payment, ins, userID, plan.Code, plan.Years, plan.Centavos, provider, key); err != nil {
		return res, fmt.Errorf("insert payment: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET plan = $2 WHERE id = $1`, userID, plan.Code); err != nil {
		return res, fmt.Errorf("set plan: %w", err)
	}
	res.Created = true
	return res, nil
}

// PaymentByID reads one payment (nil when it does not exist).
func (s *Store) PaymentByID(ctx context.Context, id int64) (*Payment, error) {
	return getOptional[Payment](ctx, s.q(ctx), fmt.Sprintf("payment %d", id), `SELECT `+paymentColumns+` FROM payments WHERE id = $1`, id)
}

// PaymentBySession reads the payment of a checkout session (nil when none is ours).
func (s *Store) PaymentBySession(ctx context.Context, sessionID string) (*Payment, error) {
	return getOptional[Payment](ctx, s.q(ctx), "payment of session "+sessionID,
		`SELECT `+paymentColumns+` FROM payments WHERE checkout_session_id = $1`, sessionID)
}

// PaymentsOfUser lists a person's payments, the newest first.
func (s *Store) PaymentsOfUser(ctx context.Context, userID int64) ([]Payment, error) {
	ps := []Payment{}
	const q = `SELECT ` + paymentColumns + ` FROM payments WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`
	if err := s.q(ctx).SelectContext(ctx, &ps, q, userID); err != nil {
		return nil, fmt.Errorf("payments of user %d: %w", userID, err)
	}
	return ps, nil
}

// HasUnusedPayment reports whether the person paid for a validation not granted yet: the
// biometric check may start.
func (s *Store) HasUnusedPayment(ctx context.Context, userID int64) (bool, error) {
	var ok bool
	const q = `SELECT EXISTS (SELECT 1 FROM payments WHERE user_id = $1 AND status = 'paid' AND consumed_at IS NULL)`
	if err := s.q(ctx).GetContext(ctx, &ok, q, userID); err != nil {
		return false, fmt.Errorf("unused payment: %w", err)
	}
	return ok, nil
}

// SetCheckoutCreated stores the provider's session on a 'creating' attempt; false when the
// attempt was replaced meanwhile (the caller closes the session it just created).
func (s *Store) SetCheckoutCreated(ctx context.Context, id int64, cs perfilseguro.CheckoutSession) (bool, error) {
	const q = `UPDATE payments SET status = 'open', checkout_session_id = $2, checkout_url = $3,
		checkout_expires_at = $4, start_error = NULL, updated_at = now()
		WHERE id = $1 AND status = 'creating'`
	var exp *time.Time
	if !cs.ExpiresAt.IsZero() {
		exp = &cs.ExpiresAt
	}
	return changedOne(ctx, s.q(ctx), "store checkout session", q, id, cs.ID, cs.URL, exp)
}

// SetCheckoutStartError records why the checkout could not be created; final ends the attempt.
func (s *Store) SetCheckoutStartError(ctx context.Context, id int64, message string, final bool) error {
	const q = `UPDATE payments SET start_error = $2, updated_at = now(),
		status = CASE WHEN $3 THEN 'start_failed' ELSE status END
		WHERE id = $1 AND status = 'creating'`
	_, err := s.q(ctx).ExecContext(ctx, q, id, message, final)
	return err
}

// PaymentChange is what applying a provider state did to a payment.
type PaymentChange struct {
	Known     bool // the session is one of ours
	PaymentID int64
	UserID    int64
	Before    string
	After     string
}

// PaidNow reports whether this change is the one that recorded the payment.
func (c PaymentChange) PaidNow() bool { return c.After == PaymentPaid && c.Before != PaymentPaid }

// PendingNow reports whether this change issued an OXXO voucher.
func (c PaymentChange) PendingNow() bool {
	return c.After == PaymentPending && c.Before != PaymentPending
}

// FailedNow reports whether this change recorded an unpaid, expired voucher.
func (c PaymentChange) FailedNow() bool { return c.After == PaymentFailed && c.Before != PaymentFailed }

// nextPaymentStatus moves a payment forward by the provider's report; it never goes back
// (paid stays paid, whatever order the events arrive in) and "" means no change.
func nextPaymentStatus(cur string, st perfilseguro.CheckoutState) string {
	switch cur {
	case PaymentPaid, PaymentRefunded, PaymentFailed, PaymentStartFailed:
		return ""
	}
	switch {
	case st.PaymentStatus == perfilseguro.CheckoutPaid:
		return PaymentPaid
	case st.Status == perfilseguro.CheckoutComplete && st.AsyncFailed:
		return PaymentFailed
	case st.Status == perfilseguro.CheckoutComplete && st.Voucher != nil && cur != PaymentPending:
		return PaymentPending
	case st.Status == perfilseguro.CheckoutExpired && (cur == PaymentOpen || cur == PaymentCreating):
		return PaymentExpired
	}
	return ""
}

// ApplyCheckoutState records the provider's current report on the session's payment, in tx
// (with what depends on it). A replayed or late report changes nothing.
func (s *Store) ApplyCheckoutState(ctx context.Context, tx *sqlx.Tx, st perfilseguro.CheckoutState) (PaymentChange, error) {
	var p Payment
	const find = `SELECT ` + paymentColumns + ` FROM payments WHERE checkout_session_id = $1 FOR UPDATE`
	if err := tx.GetContext(ctx, &p, find, st.SessionID); err != nil {
		if isNoRows(err) {
			return PaymentChange{}, nil
		}
		return PaymentChange{}, fmt.Errorf("find payment of %s: %w", st.SessionID, err)
	}
	ch := PaymentChange{Known: true, PaymentID: p.ID, Before: p.Status, After: p.Status}
	if p.UserID != nil {
		ch.UserID = *p.UserID
	}
	next := nextPaymentStatus(p.Status, st)
	if next == "" {
		return ch, nil
	}
	var voucherNumber, voucherURL *string
	var voucherExpires *time.Time
	if v := st.Voucher; v != nil {
		voucherNumber, voucherURL, voucherExpires = &v.Number, &v.URL, &v.ExpiresAt
	}
	const update = `UPDATE payments SET status = $2, updated_at = now(),
		payment_intent_id = COALESCE(NULLIF($3, ''), payment_intent_id),
		payment_method = COALESCE(NULLIF($4, ''), payment_method),
		voucher_number = COALESCE($5, voucher_number), voucher_url = COALESCE($6, voucher_url),
		voucher_expires_at = COALESCE($7, voucher_expires_at),
		paid_at = CASE WHEN $2 = 'paid' THEN now() ELSE paid_at END,
		failed_at = CASE WHEN $2 = 'failed' THEN now() ELSE failed_at END
		WHERE id = $1`
	if _, err := tx.ExecContext(ctx, update, p.ID, next, st.PaymentIntentID, st.PaymentMethod,
		voucherNumber, voucherURL, voucherExpires); err != nil {
		return ch, fmt.Errorf("update payment %d: %w", p.ID, err)
	}
	ch.After = next
	return ch, nil
}

// ApplyRefund records a refunded charge on its payment; Known is false for an intent that is
// not ours. Only a full refund counts.
func (s *Store) ApplyRefund(ctx context.Context, tx *sqlx.Tx, paymentIntentID string) (PaymentChange, error) {
	var p Payment
	const find = `SELECT ` + paymentColumns + ` FROM payments WHERE payment_intent_id = $1 FOR UPDATE`
	if err := tx.GetContext(ctx, &p, find, paymentIntentID); err != nil {
		if isNoRows(err) {
			return PaymentChange{}, nil
		}
		return PaymentChange{}, fmt.Errorf("find payment of %s: %w", paymentIntentID, err)
	}
	ch := PaymentChange{Known: true, PaymentID: p.ID, Before: p.Status, After: p.Status}
	if p.UserID != nil {
		ch.UserID = *p.UserID
	}
	if p.Status == PaymentRefunded {
		return ch, nil
	}
	const q = `UPDATE payments SET status = 'refunded', refunded_at = now(), updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, p.ID); err != nil {
		return ch, fmt.Errorf("refund payment %d: %w", p.ID, err)
	}
	ch.After = PaymentRefunded
	return ch, nil
}

// MarkRefundRequested records that an administrator asked for the refund (once): false when it
// was already asked for or the payment is not paid.
func (s *Store) MarkRefundRequested(ctx context.Context, id int64) (bool, error) {
	const q = `UPDATE payments SET refund_requested_at = now(), updated_at = now()
		WHERE id = $1 AND status = 'paid' AND refund_requested_at IS NULL`
	return changedOne(ctx, s.q(ctx), "request refund", q, id)
}

// WithdrawRefundRequest lets an administrator ask again: the refund could not be queued or the
// provider refused it.
func (s *Store) WithdrawRefundRequest(ctx context.Context, id int64) error {
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE payments SET refund_requested_at = NULL WHERE id = $1`, id)
	return err
}

// SetRefundID stores the provider's refund id.
func (s *Store) SetRefundID(ctx context.Context, id int64, refundID string) error {
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE payments SET refund_id = $2, updated_at = now() WHERE id = $1`, id, refundID)
	return err
}

// ConsumePayment spends the person's oldest unused payment on the validation being granted in
// tx: the validity becomes what was paid for. ok is false when there was none.
func (s *Store) ConsumePayment(ctx context.Context, tx *sqlx.Tx, userID int64) (years int, ok bool, err error) {
	var row struct {
		Years int    `db:"years"`
		Plan  string `db:"plan"`
	}
	const q = `UPDATE payments SET consumed_at = now(), updated_at = now()
		WHERE id = (SELECT id FROM payments WHERE user_id = $1 AND status = 'paid' AND consumed_at IS NULL
		            ORDER BY paid_at, id LIMIT 1 FOR UPDATE)
		RETURNING years, plan`
	if err := tx.GetContext(ctx, &row, q, userID); err != nil {
		if isNoRows(err) {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("consume payment: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET vigencia = $2, plan = $3, updated_at = now() WHERE id = $1`,
		userID, row.Years, row.Plan); err != nil {
		return 0, false, fmt.Errorf("set paid validity: %w", err)
	}
	return row.Years, true, nil
}

// noticeColumns are the columns that record each notice sent once.
var noticeColumns = map[string]string{"receipt": "receipt_sent_at", "paid_notice": "paid_notice_sent_at"}

// ClaimPaymentNotice marks the receipt (kind "receipt") or the paid notice ("paid_notice") of a
// paid payment as sent, once: false when it was sent already.
func (s *Store) ClaimPaymentNotice(ctx context.Context, id int64, kind string) (bool, error) {
	col, ok := noticeColumns[kind]
	if !ok {
		return false, fmt.Errorf("unknown payment notice %q", kind)
	}
	q := `UPDATE payments SET ` + col + ` = now() WHERE id = $1 AND ` + col + ` IS NULL AND status IN ('paid', 'refunded')`
	return changedOne(ctx, s.q(ctx), "claim "+kind, q, id)
}

// UnclaimPaymentNotice undoes a claim whose sending failed, so a retry sends it.
func (s *Store) UnclaimPaymentNotice(ctx context.Context, id int64, kind string) error {
	col, ok := noticeColumns[kind]
	if !ok {
		return fmt.Errorf("unknown payment notice %q", kind)
	}
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE payments SET `+col+` = NULL WHERE id = $1`, id)
	return err
}

// PaymentWebhook is one stored payment webhook.
type PaymentWebhook struct {
	ID          int64      `db:"id"`
	EventID     string     `db:"event_id"`
	EventType   string     `db:"event_type"`
	SessionID   *string    `db:"session_id"`
	IntentID    *string    `db:"payment_intent_id"`
	FullRefund  bool       `db:"full_refund"`
	Body        []byte     `db:"body"`
	ReceivedAt  time.Time  `db:"received_at"`
	ProcessedAt *time.Time `db:"processed_at"`
	Attempts    int        `db:"attempts"`
}

// InsertPaymentWebhook stores a verified event once per event id. It returns the row and
// whether it was already processed (a replay of an event applied before).
func (s *Store) InsertPaymentWebhook(ctx context.Context, ev perfilseguro.PaymentEvent, body []byte) (id int64, processed bool, err error) {
	const q = `WITH ins AS (
			INSERT INTO payment_webhooks (event_id, event_type, body, session_id, payment_intent_id, full_refund)
			VALUES ($1, $2, $3, NULLIF($4, ''), NULLIF($5, ''), $6)
			ON CONFLICT (event_id) DO NOTHING RETURNING id, false AS processed)
		SELECT id, processed FROM ins
		UNION ALL
		SELECT id, processed_at IS NOT NULL FROM payment_webhooks WHERE event_id = $1
		LIMIT 1`
	id, processed, err = s.insertOnce(ctx, q, ev.ID, ev.Type, body, ev.SessionID, ev.PaymentIntentID, ev.Refunded)
	if err != nil {
		return 0, false, fmt.Errorf("store payment webhook: %w", err)
	}
	return id, processed, nil
}

// PaymentWebhookByID reads a stored payment webhook (nil when it does not exist).
func (s *Store) PaymentWebhookByID(ctx context.Context, id int64) (*PaymentWebhook, error) {
	const q = `SELECT id, event_id, event_type, session_id, payment_intent_id, full_refund, body, received_at,
		processed_at, attempts FROM payment_webhooks WHERE id = $1`
	return getOptional[PaymentWebhook](ctx, s.q(ctx), fmt.Sprintf("payment webhook %d", id), q, id)
}

// MarkPaymentWebhookProcessed records that an event was applied (note explains a skipped one).
func (s *Store) MarkPaymentWebhookProcessed(ctx context.Context, q sqlx.ExecerContext, id int64, note string) error {
	return paymentInbox.markProcessed(ctx, q, id, note)
}

// RecordPaymentWebhookFailure counts a failed processing attempt.
func (s *Store) RecordPaymentWebhookFailure(ctx context.Context, id int64, message string) error {
	return paymentInbox.recordFailure(ctx, s.q(ctx), id, message)
}

// UnprocessedPaymentWebhookIDs lists events received more than olderThan ago and never processed.
func (s *Store) UnprocessedPaymentWebhookIDs(ctx context.Context, olderThan time.Duration, limit int) ([]int64, error) {
	return paymentInbox.unprocessedIDs(ctx, s.DB, olderThan, limit)
}

// UnsettledPayments lists attempts to ask the provider about: checkouts whose creation was
// lost (creating for longer than grace), open sessions past their expiry and OXXO vouchers
// past their deadline, with no news for grace.
func (s *Store) UnsettledPayments(ctx context.Context, grace time.Duration, limit int) ([]Payment, error) {
	const q = `SELECT ` + paymentColumns + ` FROM payments
		WHERE updated_at <= now() - make_interval(secs => $1)
		  AND ((status = 'creating')
		    OR (status = 'open' AND checkout_expires_at <= now())
		    OR (status = 'pending' AND voucher_expires_at <= now()))
		ORDER BY updated_at LIMIT $2`
	ps := []Payment{}
	if err := s.q(ctx).SelectContext(ctx, &ps, q, grace.Seconds(), limit); err != nil {
		return nil, fmt.Errorf("unsettled payments: %w", err)
	}
	return ps, nil
}

// TouchPayment records that the reconciler asked about a payment (it waits grace again).
func (s *Store) TouchPayment(ctx context.Context, id int64) error {
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE payments SET updated_at = now() WHERE id = $1`, id)
	return err
}
