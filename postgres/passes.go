package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// Wallet pass kinds (wallet_passes.kind).
const (
	PassKindApple  = "apple"
	PassKindGoogle = "google"
)

// PublicProfile is a profile as the public verification page needs it, with its latest
// biometric session (Session* fields nil when there is none).
type PublicProfile struct {
	UserID            int64      `db:"id"`
	Nombre            string     `db:"nombre"`
	Email             *string    `db:"email"`
	PhoneNumber       *string    `db:"phone_number"`
	Origen            string     `db:"origen"`
	IDValidado        string     `db:"id_validado"`
	VerificationLevel int        `db:"verification_level"`
	BiometricVerified bool       `db:"biometric_verified"`
	FechaValidacion   *time.Time `db:"fecha_validacion"`
	Vigencia          int        `db:"vigencia"`
	RevokedAt         *time.Time `db:"revoked_at"` // an administrator revoked the validation
	// DocumentExpiresOn is the certifying ID's expiry date (issue 52): the validity ends no later.
	DocumentExpiresOn *time.Time `db:"document_expires_on"`
	SessionID         *string    `db:"session_id"`
	SessionEnv        *string    `db:"environment"`
	SessionAt         *time.Time `db:"session_at"`
	OverallScore      *float64   `db:"overall_score"`
	FaceMatchScore    *float64   `db:"face_match_score"`
	DocumentScore     *float64   `db:"document_score"`
	LivenessScore     *float64   `db:"liveness_score"`
}

// HasSession reports whether the profile has any biometric session.
func (p PublicProfile) HasSession() bool { return p.SessionAt != nil }

// publicProfileQuery reads a profile and its latest verification session.
const publicProfileQuery = `SELECT u.id, u.nombre, u.email, u.phone_number, u.origen, u.id_validado,
	u.verification_level, u.biometric_verified, u.fecha_validacion, u.vigencia, u.revoked_at, u.document_expires_on,
	vs.session_id, vs.environment, COALESCE(vs.completed_at, vs.updated_at) AS session_at,
	vs.overall_score::float8 AS overall_score, vs.face_match_score::float8 AS face_match_score,
	vs.document_score::float8 AS document_score, vs.liveness_score::float8 AS liveness_score
	FROM users u
	LEFT JOIN LATERAL (SELECT session_id, environment, completed_at, updated_at, overall_score,
		face_match_score, document_score, liveness_score
		FROM verification_sessions WHERE user_id = u.id ORDER BY created_at DESC LIMIT 1) vs ON true
	WHERE u.id_validado = $1 AND u.test_partner_id IS NULL` // a test person has no public page

// publicProfileStmts holds the prepared public-profile query per connection pool: planning the
// join costs more than running it, and the public page is the hottest read.
var publicProfileStmts sync.Map // *sqlx.DB → *sqlx.Stmt

func (s *Store) publicProfileStmt(ctx context.Context) (*sqlx.Stmt, error) {
	if st, ok := publicProfileStmts.Load(s.DB); ok {
		return st.(*sqlx.Stmt), nil
	}
	st, err := s.DB.PreparexContext(ctx, publicProfileQuery)
	if err != nil {
		return nil, fmt.Errorf("prepare public profile: %w", err)
	}
	if prev, loaded := publicProfileStmts.LoadOrStore(s.DB, st); loaded {
		st.Close()
		return prev.(*sqlx.Stmt), nil
	}
	return st, nil
}

// PublicProfileByID reads a profile and its latest verification session in one indexed query
// (users.id_validado unique index, verification_sessions (user_id, created_at DESC) index).
func (s *Store) PublicProfileByID(ctx context.Context, profileID string) (PublicProfile, error) {
	var p PublicProfile
	st, err := s.publicProfileStmt(ctx)
	if err != nil {
		return p, err
	}
	if err := st.GetContext(ctx, &p, profileID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return p, ErrUserNotFound
		}
		return p, fmt.Errorf("public profile: %w", err)
	}
	return p, nil
}

// VerificationLog is one row of verification_logs.
type VerificationLog struct {
	RequestID      string
	UserID         *int64
	IDValidado     string
	ScannedAt      time.Time
	IP             string
	UserAgent      string
	AccessType     string
	Granted        bool
	Reason         string
	PartnerID      *int64 // the partner that looked, for lookups through the partner API
	AdditionalData []byte // JSON or nil
}

// InsertVerificationLogs records lookups in one statement, each once per RequestID; it returns
// how many rows were written. A user deleted since a lookup is recorded without its id.
func (s *Store) InsertVerificationLogs(ctx context.Context, logs []VerificationLog) (int64, error) {
	const q = `INSERT INTO verification_logs (user_id, id_validado, scanned_at, ip_address, user_agent,
		access_type, granted, reason, additional_data, request_id, partner_id)
		SELECT u.id, l.id_validado, l.scanned_at, l.ip, l.user_agent, l.access_type, l.granted,
			NULLIF(l.reason, ''), l.additional_data, l.request_id, k.id
		FROM jsonb_to_recordset($1::jsonb) AS l(request_id text, user_id bigint, id_validado text,
			scanned_at timestamptz, ip text, user_agent text, access_type text, granted boolean, reason text,
			additional_data jsonb, partner_id bigint)
		LEFT JOIN users u ON u.id = l.user_id
		LEFT JOIN api_keys k ON k.id = l.partner_id
		ON CONFLICT (request_id) DO NOTHING`
	type row struct {
		RequestID      string          `json:"request_id"`
		UserID         *int64          `json:"user_id"`
		IDValidado     string          `json:"id_validado"`
		ScannedAt      time.Time       `json:"scanned_at"`
		IP             string          `json:"ip"`
		UserAgent      string          `json:"user_agent"`
		AccessType     string          `json:"access_type"`
		Granted        bool            `json:"granted"`
		Reason         string          `json:"reason"`
		AdditionalData json.RawMessage `json:"additional_data,omitempty"`
		PartnerID      *int64          `json:"partner_id"`
	}
	rows := make([]row, len(logs))
	for i, l := range logs {
		rows[i] = row{l.RequestID, l.UserID, l.IDValidado, l.ScannedAt, l.IP, l.UserAgent, l.AccessType,
			l.Granted, l.Reason, l.AdditionalData, l.PartnerID}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return 0, err
	}
	res, err := s.DB.ExecContext(ctx, q, string(b))
	if err != nil {
		return 0, fmt.Errorf("insert verification logs: %w", err)
	}
	return res.RowsAffected()
}

// WalletPass is a built pass as stored.
type WalletPass struct {
	DataHash string    `db:"data_hash"`
	Content  []byte    `db:"content"`  // .pkpass (apple)
	SaveURL  *string   `db:"save_url"` // save link (google)
	BuiltAt  time.Time `db:"built_at"`
}

// WalletPassOf returns a user's stored pass of a kind, or nil when none was built.
func (s *Store) WalletPassOf(ctx context.Context, userID int64, kind string) (*WalletPass, error) {
	const q = `SELECT data_hash, content, save_url, built_at FROM wallet_passes WHERE user_id = $1 AND kind = $2`
	return getOptional[WalletPass](ctx, s.DB, "wallet pass", q, userID, kind)
}

// WalletPassHash returns the data hash of a user's stored pass, or "" when none was built.
func (s *Store) WalletPassHash(ctx context.Context, userID int64, kind string) (string, error) {
	const q = `SELECT data_hash FROM wallet_passes WHERE user_id = $1 AND kind = $2`
	var h string
	if err := s.DB.GetContext(ctx, &h, q, userID, kind); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		return "", fmt.Errorf("wallet pass hash: %w", err)
	}
	return h, nil
}

// SaveWalletPass stores a built pass, replacing the user's previous one of the same kind.
// A user deleted meanwhile is not an error: nothing is stored.
func (s *Store) SaveWalletPass(ctx context.Context, userID int64, kind, dataHash string, content []byte, saveURL string) error {
	const q = `INSERT INTO wallet_passes (user_id, kind, data_hash, content, save_url, built_at)
		SELECT id, $2, $3, $4, NULLIF($5, ''), now() FROM users WHERE id = $1
		ON CONFLICT (user_id, kind) DO UPDATE SET data_hash = EXCLUDED.data_hash, content = EXCLUDED.content,
			save_url = EXCLUDED.save_url, built_at = EXCLUDED.built_at`
	if _, err := s.DB.ExecContext(ctx, q, userID, kind, dataHash, content, saveURL); err != nil {
		return fmt.Errorf("save wallet pass: %w", err)
	}
	return nil
}

// StaleWalletPass is a stored pass built before its profile's last lifecycle step.
type StaleWalletPass struct {
	UserID int64  `db:"user_id"`
	Kind   string `db:"kind"`
}

// StaleWalletPasses lists up to limit passes built before the last validation, expiry or
// revocation of their profile, that step being older than before (a younger one still has its
// own rebuild queued): their rebuild was lost.
func (s *Store) StaleWalletPasses(ctx context.Context, before time.Time, limit int) ([]StaleWalletPass, error) {
	const q = `SELECT w.user_id, w.kind FROM wallet_passes w JOIN users u ON u.id = w.user_id
		WHERE u.verification_level = 3
		  AND w.built_at < GREATEST(u.fecha_validacion, u.expired_at, u.revoked_at)
		  AND GREATEST(u.fecha_validacion, u.expired_at, u.revoked_at) < $1
		ORDER BY w.built_at LIMIT $2`
	var stale []StaleWalletPass
	if err := s.DB.SelectContext(ctx, &stale, q, before, limit); err != nil {
		return nil, fmt.Errorf("stale wallet passes: %w", err)
	}
	return stale, nil
}
