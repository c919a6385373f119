package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// Data export states.
const (
	ExportQueued     = "queued"
	ExportReady      = "ready"
	ExportDownloaded = "downloaded"
	ExportExpired    = "expired"
	ExportFailed     = "failed"
)

// ErrExportToday is the second export asked for the same day.
var ErrExportToday = perfilseguro.Errorf(perfilseguro.ETOOMANY, "Ya pediste una copia de tus datos hoy. Podrás pedir otra mañana.")

// DataExport is one requested copy of a person's data (the archive is not read here).
type DataExport struct {
	ID           int64      `db:"id"`
	UserID       int64      `db:"user_id"`
	ArcoID       *int64     `db:"arco_request_id"`
	Status       string     `db:"status"`
	RequestedAt  time.Time  `db:"requested_at"`
	ReadyAt      *time.Time `db:"ready_at"`
	NotifiedAt   *time.Time `db:"notified_at"`
	ExpiresAt    time.Time  `db:"expires_at"`
	DownloadedAt *time.Time `db:"downloaded_at"`
	SealedToken  *string    `db:"sealed_token"` // until the link is e-mailed
}

// AddDataExport records an export request in tx. ErrExportToday: the person already has one
// (not failed) for day.
func (s *Store) AddDataExport(ctx context.Context, tx *sqlx.Tx, userID, arcoID int64, day time.Time, tokenHash, sealedToken string,
	now, expires time.Time) (int64, error) {
	const q = `INSERT INTO data_exports (user_id, arco_request_id, requested_day, token_hash, sealed_token, requested_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`
	var id int64
	if err := tx.GetContext(ctx, &id, q, userID, arcoID, day, tokenHash, sealedToken, now, expires); err != nil {
		if c, ok := IsUniqueViolation(err); ok && c == "data_exports_one_a_day" {
			return 0, ErrExportToday
		}
		return 0, fmt.Errorf("add data export: %w", err)
	}
	return id, nil
}

const exportColumns = `id, user_id, arco_request_id, status, requested_at, ready_at, notified_at, expires_at, downloaded_at, sealed_token`

// DataExportsOf lists a person's exports, newest first.
func (s *Store) DataExportsOf(ctx context.Context, userID int64) ([]DataExport, error) {
	var out []DataExport
	if err := s.DB.SelectContext(ctx, &out, `SELECT `+exportColumns+` FROM data_exports WHERE user_id = $1
		ORDER BY requested_at DESC, id DESC LIMIT 30`, userID); err != nil {
		return nil, fmt.Errorf("data exports of %d: %w", userID, err)
	}
	return out, nil
}

// DataExportByID reads one export (nil when it does not exist).
func (s *Store) DataExportByID(ctx context.Context, id int64) (*DataExport, error) {
	return getOptional[DataExport](ctx, s.DB, fmt.Sprintf("data export %d", id), `SELECT `+exportColumns+` FROM data_exports WHERE id = $1`, id)
}

// StoreExportArchive keeps a built archive, once: a queued export becomes ready. The ARCO
// request it answers is marked answered in the same transaction.
func (s *Store) StoreExportArchive(ctx context.Context, id int64, archive []byte, sha string, now time.Time) error {
	return s.InTx(ctx, func(tx *sqlx.Tx) error {
		var arco *int64
		err := tx.GetContext(ctx, &arco, `UPDATE data_exports SET status = 'ready', archive = $2, archive_sha256 = $3, ready_at = $4
			WHERE id = $1 AND status = 'queued' RETURNING arco_request_id`, id, archive, sha, now)
		if isNoRows(err) {
			return nil // built already, or expired meanwhile
		}
		if err != nil {
			return fmt.Errorf("store export %d: %w", id, err)
		}
		if arco != nil {
			_, err = tx.ExecContext(ctx, `UPDATE arco_requests SET state = 'atendida', resolved_at = $2,
				resolution = $3 WHERE id = $1 AND resolved_at IS NULL`, *arco, now, ArcoExportAnswered)
		}
		return err
	})
}

// MarkExportNotified records that the link was e-mailed.
func (s *Store) MarkExportNotified(ctx context.Context, id int64, now time.Time) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE data_exports SET notified_at = $2, sealed_token = NULL WHERE id = $1 AND notified_at IS NULL`, id, now)
	return err
}

// FailExport gives up on an export: nothing of it is kept and the day's export is not spent.
func (s *Store) FailExport(ctx context.Context, id int64) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE data_exports SET status = 'failed', archive = NULL, sealed_token = NULL
		WHERE id = $1 AND status IN ('queued', 'ready') AND downloaded_at IS NULL`, id)
	return err
}

// Export link errors.
var (
	ErrExportLinkUnknown = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "El enlace de descarga no es válido.")
	ErrExportLinkSpent   = perfilseguro.Errorf(perfilseguro.EGONE, "El enlace de descarga ya se usó o venció. Pide una nueva copia de tus datos en Mi Perfil.")
)

// TakeExportArchive hands out a ready archive once: the same statement marks it downloaded
// and erases it, so a second use of the link finds nothing.
func (s *Store) TakeExportArchive(ctx context.Context, tokenHash string, now time.Time) ([]byte, DataExport, error) {
	var row struct {
		DataExport
		Archive []byte `db:"archive"`
	}
	const q = `UPDATE data_exports d SET status = 'downloaded', archive = NULL, downloaded_at = $2
		FROM (SELECT id, archive FROM data_exports WHERE token_hash = $1 FOR UPDATE) old
		WHERE d.id = old.id AND d.status = 'ready' AND d.expires_at > $2
		RETURNING d.id, d.user_id, d.arco_request_id, d.status, d.requested_at, d.ready_at, d.notified_at, d.expires_at,
			d.downloaded_at, d.sealed_token, old.archive`
	err := s.DB.GetContext(ctx, &row, q, tokenHash, now)
	if isNoRows(err) {
		var exists bool
		if err := s.DB.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM data_exports WHERE token_hash = $1)`, tokenHash); err != nil {
			return nil, DataExport{}, err
		}
		if exists {
			return nil, DataExport{}, ErrExportLinkSpent
		}
		return nil, DataExport{}, ErrExportLinkUnknown
	}
	if err != nil {
		return nil, DataExport{}, fmt.Errorf("take export: %w", err)
	}
	return row.Archive, row.DataExport, nil
}

// StrandedExports lists exports still to build or e-mail whose request is older than olderThan
// (their job was lost with Redis, or is retrying): the retention run queues them again.
func (s *Store) StrandedExports(ctx context.Context, now time.Time, olderThan time.Duration) ([]DataExport, error) {
	var out []DataExport
	err := s.DB.SelectContext(ctx, &out, `SELECT `+exportColumns+` FROM data_exports
		WHERE status IN ('queued', 'ready') AND notified_at IS NULL AND expires_at > $1 AND requested_at < $2
		ORDER BY id LIMIT 500`, now, now.Add(-olderThan))
	if err != nil {
		return nil, fmt.Errorf("stranded exports: %w", err)
	}
	return out, nil
}

// RetentionResult counts what one retention run deleted, by RetentionPeriods key.
type RetentionResult map[string]int64

// ApplyRetention deletes what is kept for a limited time, as of now (perfilseguro.RetentionPeriods).
// This and the account deletion are the only deletions of these records.
func (s *Store) ApplyRetention(ctx context.Context, now time.Time) (RetentionResult, error) {
	before := func(key string) time.Time { return now.Add(-perfilseguro.RetentionOf(key)) }
	steps := []struct {
		key  string
		q    string
		args []any
	}{
		// Raw provider webhooks: processed ones only (an unprocessed one is still work to do).
		{perfilseguro.RetainProviderWebhooks, `DELETE FROM provider_webhooks WHERE received_at < $1 AND processed_at IS NOT NULL`,
			[]any{before(perfilseguro.RetainProviderWebhooks)}},
		{perfilseguro.RetainProviderWebhooks, `DELETE FROM payment_webhooks WHERE received_at < $1 AND processed_at IS NOT NULL`,
			[]any{before(perfilseguro.RetainProviderWebhooks)}},
		{perfilseguro.RetainLookupLogs, `DELETE FROM verification_logs WHERE scanned_at < $1`,
			[]any{before(perfilseguro.RetainLookupLogs)}},
		// Exports: the archive goes the moment the link expires; the row (no data) stays as the
		// record of the request.
		{perfilseguro.RetainDataExports, `UPDATE data_exports SET status = CASE WHEN status IN ('queued', 'ready') THEN 'expired' ELSE status END,
			archive = NULL, sealed_token = NULL WHERE expires_at <= $1 AND (archive IS NOT NULL OR status IN ('queued', 'ready'))`, []any{now}},
		{perfilseguro.RetainDeletedConsents, `DELETE FROM consents WHERE user_id IS NULL AND account_deleted_at < $1`,
			[]any{before(perfilseguro.RetainDeletedConsents)}},
		{perfilseguro.RetainReceipts, `DELETE FROM payments WHERE user_id IS NULL AND created_at < $1`,
			[]any{before(perfilseguro.RetainReceipts)}},
		// An ARCO request is kept as the record of its answer; an open one is still work to do.
		{perfilseguro.RetainArcoRequests, `DELETE FROM arco_requests WHERE resolved_at < $1`,
			[]any{before(perfilseguro.RetainArcoRequests)}},
		// A presentation is for the partner who asked, within minutes; a week covers the webhook's
		// retries and the partner's own reading of the result.
		{perfilseguro.RetainWalletPresentations, `DELETE FROM presentation_requests WHERE created_at < $1`,
			[]any{before(perfilseguro.RetainWalletPresentations)}},
		{perfilseguro.RetainWalletPresentations, `DELETE FROM partner_deliveries WHERE event = 'presentation.completed' AND created_at < $1`,
			[]any{before(perfilseguro.RetainWalletPresentations)}},
		// Test mode (issue 36): a partner's test sessions, the grants they left and their
		// notifications go after 30 days; live ones stay as long as the account does.
		{perfilseguro.RetainTestSessions, `DELETE FROM partner_grants WHERE NOT livemode AND granted_at < $1`,
			[]any{before(perfilseguro.RetainTestSessions)}},
		{perfilseguro.RetainTestSessions, `DELETE FROM partner_deliveries WHERE event LIKE 'verification_session.%' AND payload->>'livemode' = 'false' AND created_at < $1`,
			[]any{before(perfilseguro.RetainTestSessions)}},
		{perfilseguro.RetainTestSessions, `DELETE FROM partner_sessions WHERE NOT livemode AND created_at < $1`,
			[]any{before(perfilseguro.RetainTestSessions)}},
	}
	out := RetentionResult{}
	for _, st := range steps {
		res, err := s.DB.ExecContext(ctx, st.q, st.args...)
		if err != nil {
			return out, fmt.Errorf("retention %s: %w", st.key, err)
		}
		n, _ := res.RowsAffected()
		out[st.key] += n
	}
	// A partner's test people go whole, as an account deletion does, 30 days after they were made.
	var testPeople []int64
	if err := s.DB.SelectContext(ctx, &testPeople, `SELECT id FROM users WHERE test_partner_id IS NOT NULL
		AND created_at < $1 ORDER BY created_at LIMIT 500`, before(perfilseguro.RetainTestPeople)); err != nil {
		return out, fmt.Errorf("retention %s: %w", perfilseguro.RetainTestPeople, err)
	}
	for _, id := range testPeople {
		if err := s.DeleteUser(ctx, id); err != nil && !errors.Is(err, ErrUserNotFound) {
			return out, fmt.Errorf("retention %s: %w", perfilseguro.RetainTestPeople, err)
		}
		out[perfilseguro.RetainTestPeople]++
	}
	// LFPIORPI files: 10 years from the operation (retention_until), then gone with their sealed data.
	aml, err := s.PurgeExpiredAMLFiles(ctx, now)
	if err != nil {
		return out, err
	}
	out[perfilseguro.RetainAMLFiles] += aml
	// The audit trail is append-only; its retention is the one deletion the trigger allows (0017).
	n, err := s.deleteOldAudit(ctx, before(perfilseguro.RetainAuditTrail))
	if err != nil {
		return out, err
	}
	out[perfilseguro.RetainAuditTrail] += n
	return out, nil
}
