package postgres

import (
	"context"
	"fmt"
	"time"
)

// OperationalState is what the API's /metrics reads from Postgres on every scrape (issue 39):
// the traces the worker and the scheduler leave in the database, so that the API is the only
// process Prometheus scrapes. Every count leaves out test people and test payments.
type OperationalState struct {
	SignupsLastHour     int64 // people registered in the last hour
	ValidationsLastHour int64 // biometric validations granted in the last hour
	CheckoutsLastHour   int64 // payments started (checkout asked for) in the last hour
	PaidLastHour        int64 // payments settled in the last hour
	// LastHeartbeat is when the worker last recorded a scheduler heartbeat; zero: never.
	LastHeartbeat time.Time
	// LastBiometricWebhook and LastPaymentWebhook are when the provider last called us; zero: never.
	LastBiometricWebhook time.Time
	LastPaymentWebhook   time.Time
	// Open ARCO requests by their legal deadline (due_at): passed, within ARCOWarning, later.
	ARCOOverdue, ARCODueSoon, ARCOLater int64
}

// ARCOWarning is how long before its deadline an open ARCO request counts as due soon.
const ARCOWarning = 3 * 24 * time.Hour

// OperationalState reads the state in one round trip. Each part is cheap: the windows follow
// indexes (users by created_at and by validation date, open ARCO requests), the "last" times
// read the newest row by primary key, and payments is a small table.
func (s *Store) OperationalState(ctx context.Context) (OperationalState, error) {
	const q = `SELECT
	(SELECT count(*) FROM users WHERE created_at > now() - interval '1 hour' AND test_partner_id IS NULL) AS signups,
	(SELECT count(*) FROM users WHERE fecha_validacion > now() - interval '1 hour' AND expired_at IS NULL
		AND test_partner_id IS NULL) AS validations,
	(SELECT count(*) FROM payments WHERE created_at > now() - interval '1 hour' AND livemode) AS checkouts,
	(SELECT count(*) FROM payments WHERE paid_at > now() - interval '1 hour' AND livemode) AS paid,
	(SELECT ran_at FROM job_heartbeats WHERE source = 'scheduler' ORDER BY id DESC LIMIT 1) AS heartbeat,
	(SELECT max(received_at) FROM provider_webhooks) AS biometric_webhook,
	(SELECT received_at FROM payment_webhooks ORDER BY id DESC LIMIT 1) AS payment_webhook,
	(SELECT count(*) FROM arco_requests WHERE state IN ('recibida', 'en_proceso') AND due_at <= now()) AS arco_overdue,
	(SELECT count(*) FROM arco_requests WHERE state IN ('recibida', 'en_proceso') AND due_at > now()
		AND due_at <= now() + make_interval(secs => $1)) AS arco_soon,
	(SELECT count(*) FROM arco_requests WHERE state IN ('recibida', 'en_proceso')
		AND due_at > now() + make_interval(secs => $1)) AS arco_later`
	var row struct {
		Signups     int64      `db:"signups"`
		Validations int64      `db:"validations"`
		Checkouts   int64      `db:"checkouts"`
		Paid        int64      `db:"paid"`
		Heartbeat   *time.Time `db:"heartbeat"`
		Biometric   *time.Time `db:"biometric_webhook"`
		Payment     *time.Time `db:"payment_webhook"`
		ARCOOverdue int64      `db:"arco_overdue"`
		ARCOSoon    int64      `db:"arco_soon"`
		ARCOLater   int64      `db:"arco_later"`
	}
	if err := s.DB.GetContext(ctx, &row, q, ARCOWarning.Seconds()); err != nil {
		return OperationalState{}, fmt.Errorf("read operational state: %w", err)
	}
	st := OperationalState{SignupsLastHour: row.Signups, ValidationsLastHour: row.Validations,
		CheckoutsLastHour: row.Checkouts, PaidLastHour: row.Paid,
		ARCOOverdue: row.ARCOOverdue, ARCODueSoon: row.ARCOSoon, ARCOLater: row.ARCOLater}
	for _, t := range []struct {
		dst *time.Time
		src *time.Time
	}{{&st.LastHeartbeat, row.Heartbeat}, {&st.LastBiometricWebhook, row.Biometric}, {&st.LastPaymentWebhook, row.Payment}} {
		if t.src != nil {
			*t.dst = *t.src
		}
	}
	return st, nil
}
