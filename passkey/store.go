package passkey

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Storage of ceremonies (webauthn_challenges) and passkeys (webauthn_credentials), migration 0016.

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// begin stores a ceremony's SessionData for the browser holding sessionKey and returns the
// options to send it.
func (s *Service) begin(ctx context.Context, sessionKey, purpose, kind string, ownerID *int64, sd *webauthn.SessionData,
	publicKey any, mediation string) (Options, error) {
	if !ValidSessionKey(sessionKey) {
		return Options{}, ErrNoChallenge
	}
	data, err := json.Marshal(sd)
	if err != nil {
		return Options{}, fmt.Errorf("passkey: session data: %w", err)
	}
	opts, err := json.Marshal(publicKey)
	if err != nil {
		return Options{}, fmt.Errorf("passkey: options: %w", err)
	}
	now := s.now()
	// Ceremonies nobody finished go with the next one begun (an hour after they expired).
	const purge = `DELETE FROM webauthn_challenges WHERE expires_at < $1`
	if _, err := s.conn(ctx).ExecContext(ctx, purge, now.Add(-time.Hour)); err != nil {
		return Options{}, fmt.Errorf("passkey: purge challenges: %w", err)
	}
	const q = `INSERT INTO webauthn_challenges (session_key, purpose, owner_kind, owner_id, session_data, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`
	if _, err := s.conn(ctx).ExecContext(ctx, q, secure.HashToken(sessionKey), purpose, kind, ownerID, data, now, now.Add(ChallengeLifetime)); err != nil {
		return Options{}, fmt.Errorf("passkey: store challenge: %w", err)
	}
	return Options{PublicKey: opts, Mediation: mediation}, nil
}

// consume takes the ceremony of this browser, purpose and owner whose challenge the answer
// carries, once: the UPDATE succeeds for exactly one request, and only before expires_at.
func (s *Service) consume(ctx context.Context, sessionKey, purpose, kind string, ownerID *int64, challenge string) (webauthn.SessionData, error) {
	var sd webauthn.SessionData
	if !ValidSessionKey(sessionKey) || challenge == "" {
		return sd, ErrNoChallenge
	}
	key := secure.HashToken(sessionKey)
	const q = `UPDATE webauthn_challenges SET used_at = $6
		WHERE session_key = $1 AND purpose = $2 AND owner_kind = $3 AND owner_id IS NOT DISTINCT FROM $4
		  AND session_data->>'challenge' = $5 AND used_at IS NULL AND expires_at > $6
		RETURNING session_data`
	now := s.now()
	var raw []byte
	err := sqlx.GetContext(ctx, s.conn(ctx), &raw, q, key, purpose, kind, ownerID, challenge, now)
	if isNoRows(err) {
		return sd, s.whyNot(ctx, key, purpose, kind, ownerID, challenge, now)
	}
	if err != nil {
		return sd, fmt.Errorf("passkey: consume challenge: %w", err)
	}
	if err := json.Unmarshal(raw, &sd); err != nil {
		return sd, fmt.Errorf("passkey: stored session data: %w", err)
	}
	return sd, nil
}

// whyNot tells a replayed challenge from an expired one and from one this browser never had.
func (s *Service) whyNot(ctx context.Context, key, purpose, kind string, ownerID *int64, challenge string, now time.Time) error {
	var row struct {
		Used    bool      `db:"used"`
		Expires time.Time `db:"expires_at"`
	}
	const q = `SELECT used_at IS NOT NULL AS used, expires_at FROM webauthn_challenges
		WHERE session_key = $1 AND purpose = $2 AND owner_kind = $3 AND owner_id IS NOT DISTINCT FROM $4
		  AND session_data->>'challenge' = $5`
	err := sqlx.GetContext(ctx, s.conn(ctx), &row, q, key, purpose, kind, ownerID, challenge)
	switch {
	case isNoRows(err):
		return ErrNoChallenge
	case err != nil:
		return fmt.Errorf("passkey: challenge state: %w", err)
	case row.Used:
		return ErrChallengeUsed
	case !row.Expires.After(now):
		return ErrChallengeExpired
	}
	return ErrChallengeUsed // consumed by a concurrent request between the two statements
}

// credentialRow is one row of webauthn_credentials.
type credentialRow struct {
	ID              int64          `db:"id"`
	OwnerID         int64          `db:"owner_id"`
	CredentialID    []byte         `db:"credential_id"`
	PublicKey       []byte         `db:"public_key"`
	AttestationType string         `db:"attestation_type"`
	AAGUID          []byte         `db:"aaguid"`
	SignCount       int64          `db:"sign_count"`
	Transports      pq.StringArray `db:"transports"`
	BackupEligible  bool           `db:"backup_eligible"`
	BackupState     bool           `db:"backup_state"`
	UserVerified    bool           `db:"user_verified"`
	CloneWarning    bool           `db:"clone_warning"`
	Name            string         `db:"name"`
	CreatedAt       time.Time      `db:"created_at"`
	LastUsedAt      *time.Time     `db:"last_used_at"`
}

// credentialColumns selects a credentialRow, the owner column of kind as owner_id.
func credentialColumns(kind string) string {
	return ownerColumn(kind) + ` AS owner_id, id, credential_id, public_key, attestation_type, aaguid, sign_count,
		transports, backup_eligible, backup_state, user_verified, clone_warning, name, created_at, last_used_at`
}

func (r credentialRow) owner(kind string) Owner { return Owner{Kind: kind, ID: r.OwnerID} }

func (r credentialRow) credential(kind string) Credential {
	return Credential{ID: r.ID, Owner: r.owner(kind), CredentialID: r.CredentialID, Name: r.Name, Synced: r.BackupState,
		CloneWarning: r.CloneWarning, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt}
}

// record is the row as go-webauthn's credential record.
func (r credentialRow) record() webauthn.Credential {
	flags := protocol.FlagUserPresent
	if r.UserVerified {
		flags |= protocol.FlagUserVerified
	}
	if r.BackupEligible {
		flags |= protocol.FlagBackupEligible
	}
	if r.BackupState {
		flags |= protocol.FlagBackupState
	}
	transports := make([]protocol.AuthenticatorTransport, len(r.Transports))
	for i, t := range r.Transports {
		transports[i] = protocol.AuthenticatorTransport(t)
	}
	return webauthn.Credential{ID: r.CredentialID, PublicKey: r.PublicKey, AttestationType: r.AttestationType,
		Transport: transports, Flags: webauthn.NewCredentialFlags(flags),
		Authenticator: webauthn.Authenticator{AAGUID: r.AAGUID, SignCount: uint32(r.SignCount), CloneWarning: r.CloneWarning}}
}

// rows is owner's passkeys, oldest first.
func (s *Service) rows(ctx context.Context, owner Owner) ([]credentialRow, error) {
	q := fmt.Sprintf(`SELECT %s FROM webauthn_credentials WHERE %s = $1 ORDER BY created_at, id`,
		credentialColumns(owner.Kind), ownerColumn(owner.Kind))
	var rows []credentialRow
	if err := sqlx.SelectContext(ctx, s.conn(ctx), &rows, q, owner.ID); err != nil {
		return nil, fmt.Errorf("passkey: list for %s %d: %w", owner.Kind, owner.ID, err)
	}
	return rows, nil
}

// records is owner's passkeys as go-webauthn's records.
func (s *Service) records(ctx context.Context, owner Owner) ([]webauthn.Credential, error) {
	rows, err := s.rows(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := make([]webauthn.Credential, len(rows))
	for i, r := range rows {
		out[i] = r.record()
	}
	return out, nil
}

// byCredentialID finds the passkey an answer names among accounts of kind; a passkey already
// marked as cloned is refused here.
func (s *Service) byCredentialID(ctx context.Context, kind string, credentialID []byte) (credentialRow, error) {
	q := fmt.Sprintf(`SELECT %s FROM webauthn_credentials WHERE credential_id = $1 AND %s IS NOT NULL`,
		credentialColumns(kind), ownerColumn(kind))
	var r credentialRow
	err := sqlx.GetContext(ctx, s.conn(ctx), &r, q, credentialID)
	switch {
	case isNoRows(err):
		return r, ErrUnknownCredential
	case err != nil:
		return r, fmt.Errorf("passkey: find credential: %w", err)
	case r.CloneWarning:
		return r, ErrCloned
	}
	return r, nil
}

// insert saves a new passkey; the same credential twice is a conflict.
func (s *Service) insert(ctx context.Context, owner Owner, c *webauthn.Credential, name string) (Credential, error) {
	transports := make([]string, len(c.Transport))
	for i, t := range c.Transport {
		transports[i] = string(t)
	}
	q := fmt.Sprintf(`INSERT INTO webauthn_credentials (%s, credential_id, public_key, attestation_type, aaguid, sign_count,
		transports, backup_eligible, backup_state, user_verified, name, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING %s`, ownerColumn(owner.Kind), credentialColumns(owner.Kind))
	var r credentialRow
	err := sqlx.GetContext(ctx, s.conn(ctx), &r, q, owner.ID, c.ID, c.PublicKey, c.AttestationType, c.Authenticator.AAGUID,
		int64(c.Authenticator.SignCount), pq.StringArray(transports), c.Flags.BackupEligible, c.Flags.BackupState,
		c.Flags.UserVerified, name, s.now())
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		return Credential{}, ErrAlreadyRegistered
	}
	if err != nil {
		return Credential{}, fmt.Errorf("passkey: save credential for %s %d: %w", owner.Kind, owner.ID, err)
	}
	return r.credential(owner.Kind), nil
}

// markUsed records a successful assertion: the new sign count, flags and time. A count that did
// not grow (go-webauthn's CloneWarning), or lost a race with another use of the same count,
// marks the credential and refuses it.
func (s *Service) markUsed(ctx context.Context, kind string, row credentialRow, c *webauthn.Credential) (Credential, error) {
	if c.Authenticator.CloneWarning {
		if _, err := s.conn(ctx).ExecContext(ctx, `UPDATE webauthn_credentials SET clone_warning = true WHERE id = $1`, row.ID); err != nil {
			return Credential{}, fmt.Errorf("passkey: mark %d cloned: %w", row.ID, err)
		}
		return Credential{}, ErrCloned
	}
	count := int64(c.Authenticator.SignCount)
	const q = `UPDATE webauthn_credentials SET sign_count = $2, backup_state = $3, last_used_at = $4
		WHERE id = $1 AND NOT clone_warning AND (sign_count < $2 OR (sign_count = 0 AND $2 = 0))
		RETURNING name, created_at, last_used_at, backup_state`
	var upd struct {
		Name        string     `db:"name"`
		CreatedAt   time.Time  `db:"created_at"`
		LastUsedAt  *time.Time `db:"last_used_at"`
		BackupState bool       `db:"backup_state"`
	}
	err := sqlx.GetContext(ctx, s.conn(ctx), &upd, q, row.ID, count, c.Flags.BackupState, s.now())
	if isNoRows(err) {
		if _, err := s.conn(ctx).ExecContext(ctx, `UPDATE webauthn_credentials SET clone_warning = true WHERE id = $1`, row.ID); err != nil {
			return Credential{}, fmt.Errorf("passkey: mark %d cloned: %w", row.ID, err)
		}
		return Credential{}, ErrCloned
	}
	if err != nil {
		return Credential{}, fmt.Errorf("passkey: record use of %d: %w", row.ID, err)
	}
	row.Name, row.CreatedAt, row.LastUsedAt, row.BackupState = upd.Name, upd.CreatedAt, upd.LastUsedAt, upd.BackupState
	return row.credential(kind), nil
}

// conn is where the service's statements run: inside an audited action (postgres.Audited) its
// transaction, so that a passkey added, renamed or deleted is written with its record.
func (s *Service) conn(ctx context.Context) sqlx.ExtContext {
	if tx := postgres.ActionTx(ctx); tx != nil {
		return tx
	}
	return s.db
}
