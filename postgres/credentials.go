package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// StatusListSize is how many credentials one status list holds (1 bit each: 16 KB before
// compression). Indexes are drawn at random, so a verifier cannot tell issue order from them.
const StatusListSize = 1 << 17

// Credential is one issued (or being issued) verifiable credential.
type Credential struct {
	ID        int64      `db:"id"`
	UserID    *int64     `db:"user_id"`
	ListID    int        `db:"list_id"`
	StatusIdx int        `db:"status_idx"`
	HolderJWK []byte     `db:"holder_jwk"` // JSON, nil when none
	KID       *string    `db:"kid"`
	SDJWT     *string    `db:"sdjwt"`
	IssuedAt  *time.Time `db:"issued_at"`
	ExpiresAt time.Time  `db:"expires_at"`
	RevokedAt *time.Time `db:"revoked_at"`
}

// ErrCredentialNotFound is a credential that does not exist (or is not the asker's).
var ErrCredentialNotFound = errors.New("credential not found")

// NewCredential reserves a credential and its place in the status list (a random free index).
func (s *Store) NewCredential(ctx context.Context, userID int64, expiresAt time.Time, holderJWK json.RawMessage) (Credential, error) {
	const q = `INSERT INTO credentials (user_id, status_idx, expires_at, holder_jwk) VALUES ($1, $2, $3, $4)
		RETURNING id, user_id, list_id, status_idx, holder_jwk, kid, sdjwt, issued_at, expires_at, revoked_at`
	var jwk any
	if len(holderJWK) > 0 {
		jwk = []byte(holderJWK)
	}
	for try := 0; try < 20; try++ {
		var c Credential
		err := s.DB.GetContext(ctx, &c, q, userID, rand.IntN(StatusListSize), expiresAt, jwk)
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Code == "23505" {
			continue // that index is taken: draw another
		}
		if err != nil {
			return c, fmt.Errorf("new credential for user %d: %w", userID, err)
		}
		return c, nil
	}
	return Credential{}, fmt.Errorf("new credential for user %d: no free status index after 20 draws", userID)
}

const credentialColumns = `id, user_id, list_id, status_idx, holder_jwk, kid, sdjwt, issued_at, expires_at, revoked_at`

// HeldCredentials lists, newest first, the credentials a person keeps in their browser (issued
// without a wallet's key) that were signed and are neither revoked nor past their expiry: what
// Mi Perfil's credential card shows after a new sign-in (at most limit).
func (s *Store) HeldCredentials(ctx context.Context, userID int64, now time.Time, limit int) ([]Credential, error) {
	var out []Credential
	err := s.DB.SelectContext(ctx, &out, `SELECT `+credentialColumns+` FROM credentials
		WHERE user_id = $1 AND holder_jwk IS NULL AND sdjwt IS NOT NULL AND revoked_at IS NULL AND expires_at > $2
		ORDER BY id DESC LIMIT $3`, userID, now, limit)
	if err != nil {
		return nil, fmt.Errorf("held credentials of user %d: %w", userID, err)
	}
	return out, nil
}

// CredentialByID finds a credential.
func (s *Store) CredentialByID(ctx context.Context, id int64) (Credential, error) {
	var c Credential
	err := getOne(ctx, s.DB, &c, ErrCredentialNotFound, fmt.Sprintf("credential %d", id),
		`SELECT `+credentialColumns+` FROM credentials WHERE id = $1`, id)
	return c, err
}

// SaveIssuedCredential stores the signed credential once (a second run of the job changes
// nothing) and keeps its key published until it expires.
func (s *Store) SaveIssuedCredential(ctx context.Context, id int64, sdjwt, kid string, publicJWK []byte) error {
	return s.InTx(ctx, func(tx *sqlx.Tx) error {
		var exp time.Time
		err := tx.GetContext(ctx, &exp, `UPDATE credentials SET sdjwt = $2, kid = $3, issued_at = now()
			WHERE id = $1 AND sdjwt IS NULL AND revoked_at IS NULL RETURNING expires_at`, id, sdjwt, kid)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // issued already, or revoked meanwhile
		}
		if err != nil {
			return fmt.Errorf("save credential %d: %w", id, err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO credential_keys (kid, jwk, last_exp) VALUES ($1, $2, $3)
			ON CONFLICT (kid) DO UPDATE SET last_exp = GREATEST(credential_keys.last_exp, EXCLUDED.last_exp)`, kid, publicJWK, exp)
		if err != nil {
			return fmt.Errorf("publish key %s: %w", kid, err)
		}
		return nil
	})
}

// PublishedCredentialKeys lists the public keys of every key that signed a credential not yet expired.
func (s *Store) PublishedCredentialKeys(ctx context.Context, now time.Time) ([]json.RawMessage, error) {
	var keys []json.RawMessage
	if err := s.DB.SelectContext(ctx, &keys, `SELECT jwk FROM credential_keys WHERE last_exp > $1 ORDER BY created_at DESC`, now); err != nil {
		return nil, fmt.Errorf("published credential keys: %w", err)
	}
	return keys, nil
}

// RevokedStatusIndexes lists the status indexes set in a list.
func (s *Store) RevokedStatusIndexes(ctx context.Context, listID int) ([]int, error) {
	var idx []int
	if err := s.DB.SelectContext(ctx, &idx, `SELECT status_idx FROM credentials WHERE list_id = $1 AND revoked_at IS NOT NULL`, listID); err != nil {
		return nil, fmt.Errorf("revoked status indexes: %w", err)
	}
	return idx, nil
}

// SaveStatusList stores a list's newest signed token.
func (s *Store) SaveStatusList(ctx context.Context, listID int, token string) error {
	_, err := s.DB.ExecContext(ctx, `INSERT INTO credential_status_lists (list_id, token, built_at) VALUES ($1, $2, now())
		ON CONFLICT (list_id) DO UPDATE SET token = EXCLUDED.token, built_at = EXCLUDED.built_at`, listID, token)
	if err != nil {
		return fmt.Errorf("save status list %d: %w", listID, err)
	}
	return nil
}

// StatusList returns a list's newest signed token and when it was built.
func (s *Store) StatusList(ctx context.Context, listID int) (string, time.Time, error) {
	var row struct {
		Token   string    `db:"token"`
		BuiltAt time.Time `db:"built_at"`
	}
	err := getOne(ctx, s.DB, &row, ErrCredentialNotFound, fmt.Sprintf("status list %d", listID),
		`SELECT token, built_at FROM credential_status_lists WHERE list_id = $1`, listID)
	if err != nil {
		return "", time.Time{}, err
	}
	return row.Token, row.BuiltAt, nil
}
