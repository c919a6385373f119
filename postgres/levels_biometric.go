package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// Local verification_sessions statuses before the provider reports one.
const (
	SessionPending     = "pending"      // row created, provider session not created yet
	SessionStartFailed = "start_failed" // the provider refused to create the session
)

// InsertVerificationSession records that userID asked to start biometric verification.
func (s *Store) InsertVerificationSession(ctx context.Context, tx *sqlx.Tx, userID int64, provider, environment string) (int64, error) {
	const q = `INSERT INTO verification_sessions (user_id, provider, environment) VALUES ($1, $2, $3) RETURNING id`
	var id int64
	if err := tx.GetContext(ctx, &id, q, userID, provider, environment); err != nil {
		return 0, fmt.Errorf("insert verification session: %w", err)
	}
	return id, nil
}

// VerificationSession is one biometric verification attempt.
type VerificationSession struct {
	ID              int64      `db:"id"`
	UserID          int64      `db:"user_id"`
	Provider        string     `db:"provider"` // didit, or devsim (development, a partner's test person)
	SessionID       *string    `db:"session_id"`
	VerificationURL *string    `db:"verification_url"`
	Status          string     `db:"verification_status"`
	StartError      *string    `db:"start_error"`
	CompletedAt     *time.Time `db:"completed_at"`
	CreatedAt       time.Time  `db:"created_at"`
}

// SessionProvider names the provider of the attempt with this provider session id ("" when none
// has it): a decision is asked of the provider that made the session, nobody else.
func (s *Store) SessionProvider(ctx context.Context, sessionID string) (string, error) {
	var provider string
	err := s.DB.GetContext(ctx, &provider, `SELECT provider FROM verification_sessions WHERE session_id = $1`, sessionID)
	if isNoRows(err) {
		return "", nil
	}
	return provider, err
}

// VerificationSessionByID reads one attempt (nil when it does not exist).
func (s *Store) VerificationSessionByID(ctx context.Context, id int64) (*VerificationSession, error) {
	const q = `SELECT id, user_id, provider, session_id, verification_url, verification_status, start_error, completed_at, created_at
		FROM verification_sessions WHERE id = $1`
	return getOptional[VerificationSession](ctx, s.DB, fmt.Sprintf("verification session %d", id), q, id)
}

// SetVerificationStarted stores the provider session once; false when it was already stored.
func (s *Store) SetVerificationStarted(ctx context.Context, id int64, sess perfilseguro.BiometricSession) (bool, error) {
	const q = `UPDATE verification_sessions SET session_id = $2, verification_url = $3, raw_response = $4,
		raw_response_sealed = $6, verification_status = $5, start_error = NULL, updated_at = now(),
		expires_at = now() + interval '7 days'
		WHERE id = $1 AND session_id IS NULL`
	raw, sealed, err := s.sealRaw(sess.Raw)
	if err != nil {
		return false, fmt.Errorf("store provider session: %w", err)
	}
	return changedOne(ctx, s.DB, "store provider session", q, id, sess.SessionID, sess.URL, raw, perfilseguro.BiometricNotStarted, sealed)
}

// SetVerificationStartError records why the provider session could not be created; final marks
// the attempt as failed for good (the browser stops waiting).
func (s *Store) SetVerificationStartError(ctx context.Context, id int64, message string, final bool) error {
	const q = `UPDATE verification_sessions SET start_error = $2, updated_at = now(),
		verification_status = CASE WHEN $3 THEN 'start_failed' ELSE verification_status END
		WHERE id = $1 AND session_id IS NULL`
	_, err := s.DB.ExecContext(ctx, q, id, message, final)
	return err
}

// Webhook is one stored provider webhook.
type Webhook struct {
	ID          int64      `db:"id"`
	Provider    string     `db:"provider"`
	SessionID   *string    `db:"session_id"`
	Body        []byte     `db:"body"`
	ReceivedAt  time.Time  `db:"received_at"`
	ProcessedAt *time.Time `db:"processed_at"`
	Attempts    int        `db:"attempts"`
}

// InsertWebhook stores a raw webhook body once per (provider, body hash of the body as received):
// its personal fields sealed apart (documents.go), the rest in clear. It returns the row id and
// whether the row was already processed (a replay of a processed body).
func (s *Store) InsertWebhook(ctx context.Context, provider, bodySHA256 string, sessionID *string, body []byte) (id int64, processed bool, err error) {
	const q = `WITH ins AS (
			INSERT INTO provider_webhooks (provider, body_sha256, session_id, body, body_sealed, raw_redacted_at)
			VALUES ($1, $2, $3, $4, $5, now())
			ON CONFLICT (provider, body_sha256) DO NOTHING RETURNING id, processed_at IS NOT NULL AS processed)
		SELECT id, processed FROM ins
		UNION ALL
		SELECT id, processed_at IS NOT NULL FROM provider_webhooks WHERE provider = $1 AND body_sha256 = $2
		LIMIT 1`
	kept, sealed, err := s.sealRaw(body)
	if err != nil {
		return 0, false, fmt.Errorf("store webhook: %w", err)
	}
	id, processed, err = s.insertOnce(ctx, q, provider, bodySHA256, sessionID, kept, sealed)
	if err != nil {
		return 0, false, fmt.Errorf("store webhook: %w", err)
	}
	return id, processed, nil
}

// WebhookByID reads a stored webhook (nil when it does not exist), its body whole again: the
// sealed personal fields opened and put back.
func (s *Store) WebhookByID(ctx context.Context, id int64) (*Webhook, error) {
	const q = `SELECT id, provider, session_id, body, body_sealed, received_at, processed_at, attempts FROM provider_webhooks WHERE id = $1`
	var row struct {
		Webhook
		Sealed *string `db:"body_sealed"`
	}
	if err := s.DB.GetContext(ctx, &row, q, id); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("webhook %d: %w", id, err)
	}
	body, err := s.openRaw(row.Body, row.Sealed)
	if err != nil {
		return nil, fmt.Errorf("webhook %d: %w", id, err)
	}
	row.Webhook.Body = body
	return &row.Webhook, nil
}

// MarkWebhookProcessed records that a webhook has been applied (note explains a skipped one).
func (s *Store) MarkWebhookProcessed(ctx context.Context, q sqlx.ExecerContext, id int64, note string) error {
	return biometricInbox.markProcessed(ctx, q, id, note)
}

// RecordWebhookFailure counts a failed processing attempt.
func (s *Store) RecordWebhookFailure(ctx context.Context, id int64, message string) error {
	return biometricInbox.recordFailure(ctx, s.DB, id, message)
}

// UnprocessedWebhookIDs lists webhooks received more than olderThan ago and never processed.
func (s *Store) UnprocessedWebhookIDs(ctx context.Context, olderThan time.Duration, limit int) ([]int64, error) {
	return biometricInbox.unprocessedIDs(ctx, s.DB, olderThan, limit)
}

// StuckSessionIDs lists provider sessions still open (not decided) whose row has not changed
// for olderThan, created within maxAge; the oldest first.
func (s *Store) StuckSessionIDs(ctx context.Context, olderThan, maxAge time.Duration, limit int) ([]string, error) {
	const q = `SELECT session_id FROM verification_sessions
		WHERE session_id IS NOT NULL
		  AND verification_status IN ('pending', 'Not Started', 'In Progress', 'In Review', 'Resubmitted')
		  AND updated_at <= now() - make_interval(secs => $1)
		  AND created_at >= now() - make_interval(secs => $2)
		ORDER BY updated_at LIMIT $3`
	var ids []string
	if err := s.DB.SelectContext(ctx, &ids, q, olderThan.Seconds(), maxAge.Seconds(), limit); err != nil {
		return nil, fmt.Errorf("stuck sessions: %w", err)
	}
	return ids, nil
}

// DecisionResult is what applying a provider decision did.
type DecisionResult struct {
	Known          bool   // the session is one of ours
	VerificationID int64  // its verification_sessions row
	UserID         int64  // its user
	Status         string // the session's status after applying
	ApprovedNow    bool   // this decision granted level 3 (it was not granted before)
	RenewedNow     bool   // this decision renewed a level-3 validation (a new check after it began)
	// Verdict is what the document of an approved check certified ("" for other statuses).
	Verdict identity.Verdict
	// DuplicateOf is the profile the document already certifies (Verdict duplicate): its owner
	// is told that someone tried.
	DuplicateOf int64
}

// ApplyDecision stores a decision's status and scores on its session and, on Approved, reads
// the document (assessDocument) and grants level 3 on a match (Certify: the document's name,
// fecha_validacion kept if already set); other verdicts wait for the person or a review. An Approved session never
// changes again and a level never goes down, so replays and late events change nothing.
func (s *Store) ApplyDecision(ctx context.Context, tx *sqlx.Tx, d perfilseguro.BiometricDecision) (DecisionResult, error) {
	var cur struct {
		ID        int64     `db:"id"`
		UserID    int64     `db:"user_id"`
		Status    string    `db:"verification_status"`
		CreatedAt time.Time `db:"created_at"`
	}
	const find = `SELECT id, user_id, verification_status, created_at FROM verification_sessions WHERE session_id = $1 FOR UPDATE`
	if err := tx.GetContext(ctx, &cur, find, d.SessionID); err != nil {
		if isNoRows(err) {
			return DecisionResult{}, nil
		}
		return DecisionResult{}, fmt.Errorf("find session %s: %w", d.SessionID, err)
	}
	res := DecisionResult{Known: true, VerificationID: cur.ID, UserID: cur.UserID, Status: cur.Status}
	if cur.Status == perfilseguro.BiometricApproved {
		return res, nil
	}
	raw, sealed, err := s.sealRaw(d.Raw)
	if err != nil {
		return res, fmt.Errorf("store decision %s: %w", d.SessionID, err)
	}
	const update = `UPDATE verification_sessions SET verification_status = $2,
		overall_score = COALESCE($3, overall_score), face_match_score = COALESCE($4, face_match_score),
		document_score = COALESCE($5, document_score), liveness_score = COALESCE($6, liveness_score),
		webhook_data = COALESCE($7, webhook_data),
		webhook_data_sealed = CASE WHEN $7::jsonb IS NULL THEN webhook_data_sealed ELSE $9 END, updated_at = now(),
		completed_at = CASE WHEN $8 THEN COALESCE(completed_at, now()) ELSE completed_at END
		WHERE id = $1`
	if _, err := tx.ExecContext(ctx, update, cur.ID, d.Status, d.Overall, d.FaceMatch, d.Document, d.Liveness,
		raw, FinalBiometricStatus(d.Status), sealed); err != nil {
		return res, fmt.Errorf("store decision %s: %w", d.SessionID, err)
	}
	res.Status = d.Status
	if d.Status != perfilseguro.BiometricApproved {
		return res, nil
	}
	// An approved check certifies nothing until its document is read and compared with the
	// person (issue 52): only a match grants level 3 here, under the document's name.
	a, err := s.assessDocument(ctx, tx, cur.ID, cur.UserID, d, time.Now())
	if err != nil {
		return res, err
	}
	res.Verdict, res.DuplicateOf = a.Verdict, a.DuplicateOf
	if a.Verdict != identity.VerdictMatch {
		return res, nil
	}
	// A revoked person is granted nothing, whatever check was in flight: only a lift (an
	// administrador's decision) opens the way to a new validation (DECISIONS.md, Revocation).
	c, err := s.Certify(ctx, tx, cur.ID, a.DocumentName, *d.Identity, d.Overall)
	if errors.Is(err, ErrDocumentBound) {
		// Another profile took the document between the assessment and the grant.
		res.Verdict = identity.VerdictDuplicate
		_, err = tx.ExecContext(ctx, `UPDATE verification_sessions SET identity_verdict = 'duplicate' WHERE id = $1`, cur.ID)
		return res, err
	}
	res.ApprovedNow, res.RenewedNow = c.ApprovedNow, c.RenewedNow
	return res, err
}

// consumeForGrant spends the payment that bought the validation just granted, so its validity
// is what was paid for (1 or 5 years). Free validations and deployments without payments
// have none and keep their validity.
func (s *Store) consumeForGrant(ctx context.Context, tx *sqlx.Tx, userID int64) error {
	_, _, err := s.ConsumePayment(ctx, tx, userID)
	return err
}

// FinalBiometricStatus reports whether a provider status ends the session.
func FinalBiometricStatus(status string) bool {
	switch status {
	case perfilseguro.BiometricApproved, perfilseguro.BiometricDeclined, perfilseguro.BiometricExpired, perfilseguro.BiometricAbandoned:
		return true
	}
	return false
}
