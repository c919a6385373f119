package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// What a partner user changes from the console (migration 0021): keys, the webhook and its
// secret, the allowed origin, resends; read: the delivery log and the monthly usage. Every change
// writes its audit event in the same transaction.

// Console errors.
var (
	// ErrDeliveryNotFound is a notification that is not the partner's.
	ErrDeliveryNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos esa notificación de tu plataforma.")
	// ErrNoWebhook is a resend while the partner has no webhook URL (or is deactivated).
	ErrNoWebhook = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Tu plataforma no tiene un webhook activo: configura su URL antes de reenviar.")
	// ErrOriginTaken is an origin another platform registered: two partners on one origin would
	// make the widget's origin-only calls ambiguous.
	ErrOriginTaken = &perfilseguro.Error{Code: perfilseguro.ECONFLICT,
		Message: "Otra plataforma ya registró ese origen. Si es tuyo, escribe a soporte.",
		Fields:  map[string]string{"origin": "Otra plataforma ya registró ese origen."}}
)

// CreateConsoleKey mints a key for the partner (its text is returned once), with the audit event.
func (s *Store) CreateConsoleKey(ctx context.Context, partnerID int64, kind perfilseguro.PartnerKeyKind, live bool, createdBy string,
	e AuditEvent) (NewKey, error) {
	var k NewKey
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if k, err = s.InsertPartnerKey(ctx, tx, partnerID, kind, live, createdBy); err != nil {
			return err
		}
		return auditIn(ctx, tx, e, "partner_key", k.ID, map[string]Change{
			"kind": {After: string(kind)}, "livemode": {After: live}, "hint": {After: k.Hint}})
	})
	return k, err
}

// RevokeConsoleKey revokes one of the partner's live keys (ErrKeyNotFound otherwise), with the
// audit event.
func (s *Store) RevokeConsoleKey(ctx context.Context, partnerID, keyID int64, at time.Time, e AuditEvent) (PartnerKey, error) {
	var k PartnerKey
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := getOne(ctx, tx, &k, ErrKeyNotFound, fmt.Sprintf("revoke partner key %d", keyID),
			`UPDATE partner_keys SET revoked_at = $3 WHERE id = $1 AND partner_id = $2 AND revoked_at IS NULL
			RETURNING `+partnerKeyColumns, keyID, partnerID, at)
		if err != nil {
			return err
		}
		return auditIn(ctx, tx, e, "partner_key", keyID, map[string]Change{"hint": {Before: k.Hint}})
	})
	return k, err
}

// WebhookSettings is a partner's webhook as its console shows it (never the secret).
type WebhookSettings struct {
	URL       *string `db:"webhook_url"`
	HasSecret bool    `db:"has_secret"`
	// PreviousUntil: until when the secret replaced last still signs (nil: no overlap).
	PreviousUntil *time.Time `db:"webhook_secret_previous_until"`
}

const webhookColumns = `webhook_url, webhook_secret IS NOT NULL AS has_secret, webhook_secret_previous_until`

// PartnerWebhook reads a partner's webhook settings (ErrPartnerNotFound when none).
func (s *Store) PartnerWebhook(ctx context.Context, partnerID int64) (WebhookSettings, error) {
	var w WebhookSettings
	err := getOne(ctx, s.DB, &w, ErrPartnerNotFound, fmt.Sprintf("partner webhook %d", partnerID),
		`SELECT `+webhookColumns+` FROM api_keys WHERE id = $1`, partnerID)
	return w, err
}

// SetConsoleWebhookURL stores (or, with "", removes) the partner's webhook URL. The signing secret
// stays; a partner without one gets newSecret, and created says so (the console shows it once).
func (s *Store) SetConsoleWebhookURL(ctx context.Context, partnerID int64, hookURL, newSecret string, e AuditEvent) (w WebhookSettings, created bool, err error) {
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		var before WebhookSettings
		err := getOne(ctx, tx, &before, ErrPartnerNotFound, fmt.Sprintf("partner webhook %d", partnerID),
			`SELECT `+webhookColumns+` FROM api_keys WHERE id = $1 FOR UPDATE`, partnerID)
		if err != nil {
			return err
		}
		created = hookURL != "" && !before.HasSecret
		secret := ""
		if created {
			secret = newSecret
		}
		if err := tx.GetContext(ctx, &w, `UPDATE api_keys SET webhook_url = NULLIF($2, ''), webhook_secret = COALESCE(webhook_secret, NULLIF($3, ''))
			WHERE id = $1 RETURNING `+webhookColumns, partnerID, hookURL, secret); err != nil {
			return fmt.Errorf("set partner webhook url: %w", err)
		}
		old := ""
		if before.URL != nil {
			old = *before.URL
		}
		var changes map[string]Change
		if old != hookURL {
			changes = map[string]Change{"webhookUrl": {Before: old, After: hookURL}}
		}
		return auditIn(ctx, tx, e, "partner", partnerID, changes) // never the secret
	})
	return w, created, err
}

// RotateWebhookSecret makes secret the partner's signing secret; the one it replaces keeps
// signing beside it until overlapUntil. A rotation during an overlap ends the older secret's at once.
func (s *Store) RotateWebhookSecret(ctx context.Context, partnerID int64, secret string, overlapUntil time.Time, e AuditEvent) (WebhookSettings, error) {
	var w WebhookSettings
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := getOne(ctx, tx, &w, ErrPartnerNotFound, "rotate partner webhook secret",
			`UPDATE api_keys SET webhook_secret_previous = webhook_secret,
				webhook_secret_previous_until = CASE WHEN webhook_secret IS NULL THEN NULL ELSE $3::timestamptz END,
				webhook_secret = $2
			WHERE id = $1 RETURNING `+webhookColumns, partnerID, secret, overlapUntil)
		if err != nil {
			return err
		}
		var changes map[string]Change
		if w.PreviousUntil != nil {
			changes = map[string]Change{"previousSecretUntil": {After: w.PreviousUntil.UTC()}}
		}
		return auditIn(ctx, tx, e, "partner", partnerID, changes) // never a secret
	})
	return w, err
}

// WebhookPreviousSecret is the partner's replaced webhook secret while it still overlaps at now
// ("" when none): the worker signs with it beside the current one.
func (s *Store) WebhookPreviousSecret(ctx context.Context, partnerID int64, now time.Time) (string, error) {
	var secret string
	err := s.DB.GetContext(ctx, &secret, `SELECT webhook_secret_previous FROM api_keys
		WHERE id = $1 AND webhook_secret_previous IS NOT NULL AND webhook_secret_previous_until > $2`, partnerID, now)
	if isNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("partner previous webhook secret: %w", err)
	}
	return secret, nil
}

// SetPartnerOrigin changes the partner's allowed origin (already normalized) and returns it
// before and after: claimOrigin refuses one of ours (ErrOriginOurs) or another active partner's
// (ErrOriginTaken). A new origin is unproven until the worker checks it again.
func (s *Store) SetPartnerOrigin(ctx context.Context, partnerID int64, origin string, ours []string, e AuditEvent) (before, after string, err error) {
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := getOne(ctx, tx, &before, ErrPartnerNotFound, fmt.Sprintf("partner origin %d", partnerID),
			`SELECT domain FROM api_keys WHERE id = $1 FOR UPDATE`, partnerID)
		if err != nil {
			return err
		}
		if err := claimOrigin(ctx, tx, partnerID, origin, ours); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &after, `UPDATE api_keys SET domain = $2,
				origin_checked_at = CASE WHEN domain = $2 THEN origin_checked_at END,
				origin_check_error = CASE WHEN domain = $2 THEN origin_check_error END
			WHERE id = $1 RETURNING domain`, partnerID, origin); err != nil {
			return fmt.Errorf("set partner origin: %w", err)
		}
		var changes map[string]Change
		if before != after {
			changes = map[string]Change{"domain": {Before: before, After: after}}
		}
		return auditIn(ctx, tx, e, "partner", partnerID, changes)
	})
	return before, after, err
}

// DeliveryLogEntry is one outbound notification as the partner's delivery log shows it.
type DeliveryLogEntry struct {
	ID            int64      `db:"id"`
	Event         string     `db:"event"`
	Attempts      int        `db:"attempts"`
	CreatedAt     time.Time  `db:"created_at"`
	StatusCode    *int       `db:"status_code"`  // the last attempt's HTTP status (nil: no answer)
	LastError     *string    `db:"last_error"`   // the last failure, as stored
	DeliveredAt   *time.Time `db:"delivered_at"` // nil: not (or not yet) delivered
	NextAttemptAt time.Time  `db:"next_attempt_at"`
}

// PartnerDeliveryLog lists the partner's notifications, newest first, limit at a time; before is
// the last id of the previous page (0 for the first).
func (s *Store) PartnerDeliveryLog(ctx context.Context, partnerID, before int64, limit int) ([]DeliveryLogEntry, error) {
	out := []DeliveryLogEntry{}
	err := s.DB.SelectContext(ctx, &out, `SELECT id, event, attempts, created_at, status_code, last_error, delivered_at, next_attempt_at
		FROM partner_deliveries WHERE partner_id = $1 AND ($2 = 0 OR id < $2) ORDER BY id DESC LIMIT $3`, partnerID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("partner delivery log: %w", err)
	}
	return out, nil
}

// ResendDelivery makes one of the partner's notifications due now (again, if it was delivered)
// and returns it; the caller enqueues its next attempt after the commit. ErrNoWebhook when the
// partner has nowhere to send it.
func (s *Store) ResendDelivery(ctx context.Context, partnerID, id int64, now time.Time, e AuditEvent) (DeliveryLogEntry, error) {
	var d DeliveryLogEntry
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var ok bool
		err := getOne(ctx, tx, &ok, ErrPartnerNotFound, fmt.Sprintf("partner webhook %d", partnerID),
			`SELECT is_active AND webhook_url IS NOT NULL FROM api_keys WHERE id = $1`, partnerID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNoWebhook
		}
		err = getOne(ctx, tx, &d, ErrDeliveryNotFound, fmt.Sprintf("resend delivery %d", id),
			`UPDATE partner_deliveries SET delivered_at = NULL, next_attempt_at = $3
			WHERE id = $1 AND partner_id = $2
			RETURNING id, event, attempts, created_at, status_code, last_error, delivered_at, next_attempt_at`, id, partnerID, now)
		if err != nil {
			return err
		}
		return auditIn(ctx, tx, e, "partner_delivery", id, map[string]Change{"event": {After: d.Event}})
	})
	return d, err
}

// UsageMonth is one month of a partner's verification sessions in one mode (Mexico City months).
type UsageMonth struct {
	Month     string `db:"month"` // YYYY-MM
	Opened    int    `db:"opened"`
	Completed int    `db:"completed"`
	Declined  int    `db:"declined"`
}

// PartnerUsage is what a partner used: every request counted (all time) and the sessions of the
// last months.
type PartnerUsage struct {
	RequestsCount int64
	LastUsedAt    *time.Time
	Months        []UsageMonth // newest first, one per month, zeros included
}

// PartnerUsageSince reads the partner's request count and its sessions in a mode per month, for
// the months from the one holding now back to months-1 before it.
func (s *Store) PartnerUsageSince(ctx context.Context, partnerID int64, live bool, now time.Time, months int) (PartnerUsage, error) {
	var u PartnerUsage
	err := s.DB.QueryRowxContext(ctx, `SELECT requests_count, last_used_at FROM api_keys WHERE id = $1`, partnerID).
		Scan(&u.RequestsCount, &u.LastUsedAt)
	if isNoRows(err) {
		return u, ErrPartnerNotFound
	}
	if err != nil {
		return u, fmt.Errorf("partner usage %d: %w", partnerID, err)
	}
	mx := perfilseguro.MexicoCity()
	local := now.In(mx)
	first := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, mx).AddDate(0, -(months - 1), 0)
	var rows []UsageMonth
	err = s.DB.SelectContext(ctx, &rows, `SELECT to_char(created_at AT TIME ZONE 'America/Mexico_City', 'YYYY-MM') AS month,
			count(*) AS opened, count(*) FILTER (WHERE status = 'completed') AS completed,
			count(*) FILTER (WHERE status = 'declined') AS declined
		FROM partner_sessions WHERE partner_id = $1 AND livemode = $2 AND created_at >= $3
		GROUP BY 1`, partnerID, live, first)
	if err != nil {
		return u, fmt.Errorf("partner monthly sessions: %w", err)
	}
	byMonth := map[string]UsageMonth{}
	for _, r := range rows {
		byMonth[r.Month] = r
	}
	for i := 0; i < months; i++ {
		m := first.AddDate(0, months-1-i, 0).Format("2006-01")
		row, ok := byMonth[m]
		if !ok {
			row = UsageMonth{Month: m}
		}
		u.Months = append(u.Months, row)
	}
	return u, nil
}

// TestMessage is a message to one of a partner's test people, as the development inbox took it.
type TestMessage struct {
	ID        int64     `db:"id"`
	Channel   string    `db:"channel"`
	Recipient string    `db:"recipient"`
	Subject   *string   `db:"subject"`
	Text      string    `db:"body_text"`
	CreatedAt time.Time `db:"created_at"`
}

// TestInbox lists the newest messages to the partner's test people (codes, e-mail links,
// payment notices), at most limit.
func (s *Store) TestInbox(ctx context.Context, partnerID int64, limit int) ([]TestMessage, error) {
	out := []TestMessage{}
	err := s.DB.SelectContext(ctx, &out, `SELECT id, channel, recipient, subject, body_text, created_at FROM dev_messages
		WHERE test_partner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, partnerID, limit)
	if err != nil {
		return nil, fmt.Errorf("test inbox of partner %d: %w", partnerID, err)
	}
	return out, nil
}
