package jobs

import (
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Payment tasks (plans bought before the biometric check).
const (
	// TypeCreateCheckout creates the provider's checkout session of a 'creating' payment.
	TypeCreateCheckout = "payment:create_checkout"
	// TypeProcessPaymentWebhook applies one stored payment webhook (payment_webhooks row).
	TypeProcessPaymentWebhook = "payment:process_webhook"
	// TypeSyncPayment asks the provider for the state of one payment's session.
	TypeSyncPayment = "payment:sync"
	// TypeRefundPayment asks the provider to refund one payment (an administrator's decision).
	TypeRefundPayment = "payment:refund"
	// TypeExpireCheckout closes the checkout page of an attempt a newer one replaced.
	TypeExpireCheckout = "payment:expire_checkout"
	// TypePaymentNotice sends one notice about a payment (receipt, voucher paid, voucher expired).
	TypePaymentNotice = "payment:notice"
	// TypeReconcilePayments re-enqueues unprocessed webhooks and asks about unsettled payments.
	TypeReconcilePayments = "payment:reconcile"
)

// PaymentPayload names one payments row.
type PaymentPayload struct {
	PaymentID int64 `json:"paymentId"`
}

func paymentTask(typ string, id int64, opts ...asynq.Option) (*asynq.Task, error) {
	return newTask(typ, PaymentPayload{PaymentID: id}, append([]asynq.Option{asynq.TaskID(fmt.Sprintf("%s:%d", typ, id))}, opts...)...)
}

// NewCreateCheckoutTask builds the checkout creation on the critical queue (the person waits
// for the page) with a short deadline: a checkout page that opens minutes late is of no use.
func NewCreateCheckoutTask(paymentID int64) (*asynq.Task, error) {
	return paymentTask(TypeCreateCheckout, paymentID, asynq.Queue(QueueCritical), asynq.MaxRetry(3),
		asynq.Timeout(30*time.Second), asynq.Deadline(time.Now().Add(3*time.Minute)), asynq.Retention(10*time.Minute))
}

// NewSyncPaymentTask builds one provider lookup (reconciler, housekeeping); one per payment
// and tick.
func NewSyncPaymentTask(paymentID int64, tick string) (*asynq.Task, error) {
	return newTask(TypeSyncPayment, PaymentPayload{PaymentID: paymentID}, asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(time.Minute),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypeSyncPayment, paymentID, tick)))
}

// NewRefundPaymentTask builds a refund; its TaskID (and the provider's idempotency key) keep
// it to one refund however often it is asked for.
func NewRefundPaymentTask(paymentID int64) (*asynq.Task, error) {
	return paymentTask(TypeRefundPayment, paymentID, asynq.Queue(QueueDefault), asynq.MaxRetry(10),
		asynq.Timeout(time.Minute), asynq.Retention(24*time.Hour))
}

// ProcessPaymentWebhookPayload names the stored payment webhook to process.
type ProcessPaymentWebhookPayload struct {
	WebhookID int64 `json:"webhookId"`
}

// NewProcessPaymentWebhookTask builds the processing of one stored event, once at a time.
func NewProcessPaymentWebhookTask(webhookID int64) (*asynq.Task, error) {
	return newStoredWebhookTask(TypeProcessPaymentWebhook, webhookID, ProcessPaymentWebhookPayload{WebhookID: webhookID})
}

// ExpireCheckoutPayload names the provider session to close.
type ExpireCheckoutPayload struct {
	SessionID string `json:"sessionId"`
}

// NewExpireCheckoutTask builds the closing of a replaced checkout page.
func NewExpireCheckoutTask(sessionID string) (*asynq.Task, error) {
	return newTask(TypeExpireCheckout, ExpireCheckoutPayload{SessionID: sessionID}, asynq.Queue(QueueLow), asynq.MaxRetry(5), asynq.Timeout(time.Minute),
		asynq.TaskID(TypeExpireCheckout+":"+sessionID))
}

// Payment notices.
const (
	NoticeReceipt        = "receipt"         // e-mail receipt of a paid plan
	NoticeVoucherPaid    = "voucher_paid"    // WhatsApp: the cash payment at OXXO arrived
	NoticeVoucherExpired = "voucher_expired" // e-mail and WhatsApp: the voucher expired unpaid
)

// PaymentNoticePayload names the payment and the notice.
type PaymentNoticePayload struct {
	PaymentID int64  `json:"paymentId"`
	Kind      string `json:"kind"`
}

// NewPaymentNoticeTask builds one notice; the TaskID keeps it to one per payment and kind.
func NewPaymentNoticeTask(paymentID int64, kind string) (*asynq.Task, error) {
	return newTask(TypePaymentNotice, PaymentNoticePayload{PaymentID: paymentID, Kind: kind}, asynq.Queue(QueueDefault), asynq.MaxRetry(15), asynq.Timeout(30*time.Second),
		asynq.TaskID(fmt.Sprintf("%s:%d:%s", TypePaymentNotice, paymentID, kind)), asynq.Retention(24*time.Hour))
}

// ReconcilePaymentsPayload names the scheduler tick that caused the run.
type ReconcilePaymentsPayload struct {
	Tick string `json:"tick"`
}

// NewReconcilePaymentsTask builds the periodic reconciliation; one per tick.
func NewReconcilePaymentsTask(tick string) (*asynq.Task, error) {
	return newTickTask(TypeReconcilePayments, tick, ReconcilePaymentsPayload{Tick: tick}, 1, 2*time.Minute)
}
