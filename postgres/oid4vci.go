package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// OpenID4VCI pre-authorized code flow (sql/migrations/0018_oid4vci.sql): offers, their access
// tokens and the nonces of key proofs. Times come from the caller's clock (the API's Now), so
// that expiry is one rule whoever asks.

// PurposeCredentialOffer is the code purpose of an offer's transaction code.
const PurposeCredentialOffer = "credential_offer"

// ErrOfferNotFound is an offer, access token, transaction or nonce that does not exist or can
// no longer be used.
var ErrOfferNotFound = errors.New("credential offer not found")

// NewCredentialOffer is an offer to store with its transaction code.
type NewCredentialOffer struct {
	UserID      int64
	Channel     string // ChannelPhone or ChannelEmail: where the transaction code goes
	Destination string
	TxCodeHash  string // secure.Coder hash bound to Destination
	HandleHash  string // secure.HashToken of the credential_offer_uri handle
	CodeHash    string // secure.HashToken of the pre-authorized code
	ExpiresAt   time.Time
	Now         time.Time
}

// InsertCredentialOffer stores an offer and its transaction code in one statement, closing the
// person's earlier open offers and retiring their unused transaction codes (the newest offer is
// the only one that works). Other codes of the person are left alone. It returns the code's id.
func (s *Store) InsertCredentialOffer(ctx context.Context, tx *sqlx.Tx, o NewCredentialOffer) (int64, error) {
	table := codeTable(o.Channel)
	q := `WITH retired AS (UPDATE ` + table + ` SET is_used = true
			WHERE user_id = $1 AND purpose = '` + PurposeCredentialOffer + `' AND NOT is_used),
		closed AS (UPDATE credential_offers SET closed_at = $7 WHERE user_id = $1 AND closed_at IS NULL),
		code AS (INSERT INTO ` + table + ` (user_id, code_hash, destination, purpose, expires_at)
			VALUES ($1, $2, $3, '` + PurposeCredentialOffer + `', $6) RETURNING id)
		INSERT INTO credential_offers (user_id, handle_hash, code_hash, tx_code_channel, tx_code_id, expires_at)
		SELECT $1, $4, $5, $8, id, $6 FROM code RETURNING tx_code_id`
	var codeID int64
	if err := tx.GetContext(ctx, &codeID, q, o.UserID, o.TxCodeHash, o.Destination, o.HandleHash, o.CodeHash,
		o.ExpiresAt, o.Now, o.Channel); err != nil {
		return 0, fmt.Errorf("insert credential offer for user %d: %w", o.UserID, err)
	}
	return codeID, nil
}

// OpenOfferByHandle finds an offer that can still be redeemed at now, by its handle's hash; it
// returns the channel its transaction code went by.
func (s *Store) OpenOfferByHandle(ctx context.Context, handleHash string, now time.Time) (string, error) {
	const q = `SELECT tx_code_channel FROM credential_offers WHERE handle_hash = $1 AND closed_at IS NULL AND expires_at > $2`
	var channel string
	err := getOne(ctx, s.DB, &channel, ErrOfferNotFound, "credential offer by handle", q, handleHash, now)
	if err != nil {
		return "", err
	}
	return channel, nil
}

// OfferGrant is an offer as the token endpoint sees it, with its transaction code.
type OfferGrant struct {
	ID        int64      `db:"id"`
	UserID    int64      `db:"user_id"`
	ExpiresAt time.Time  `db:"expires_at"`
	ClosedAt  *time.Time `db:"closed_at"`
	TxCode    ActiveCode `db:"tx"`
	CodeUsed  bool       `db:"code_used"` // retired by a newer code of the person's
}

// Usable reports whether the offer may still be redeemed at now.
func (g OfferGrant) Usable(now time.Time) bool {
	return g.ClosedAt == nil && now.Before(g.ExpiresAt) && !g.CodeUsed && g.TxCode.Attempts < MaxCodeAttempts
}

// OfferByCode finds an offer by its pre-authorized code's hash, whatever its state. A missing
// code row reads as a used one.
func (s *Store) OfferByCode(ctx context.Context, codeHash string) (OfferGrant, error) {
	const q = `SELECT o.id, o.user_id, o.expires_at, o.closed_at, o.tx_code_id AS "tx.id", o.tx_code_channel AS "tx.channel",
			COALESCE(p.destination, m.destination, '') AS "tx.destination", COALESCE(p.code_hash, m.code_hash, '') AS "tx.code_hash",
			COALESCE(p.attempts, m.attempts, 0) AS "tx.attempts", COALESCE(p.is_used, m.is_used, true) AS code_used
		FROM credential_offers o
		LEFT JOIN verification_codes p ON o.tx_code_channel = 'phone' AND p.id = o.tx_code_id
		LEFT JOIN email_verification_codes m ON o.tx_code_channel = 'email' AND m.id = o.tx_code_id
		WHERE o.code_hash = $1`
	var g OfferGrant
	err := getOne(ctx, s.DB, &g, ErrOfferNotFound, "credential offer by code", q, codeHash)
	return g, err
}

// NewAccessToken is the access token an offer is redeemed for.
type NewAccessToken struct {
	TokenHash string
	JKT       string // DPoP key thumbprint; "" for a Bearer token
	ExpiresAt time.Time
}

// RedeemOffer closes the offer, uses up its transaction code and stores the access token, in one
// transaction; ErrOfferNotFound when someone redeemed it first or it died meanwhile (a code works once).
func (s *Store) RedeemOffer(ctx context.Context, g OfferGrant, t NewAccessToken, now time.Time) error {
	return s.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE credential_offers SET closed_at = $2
			WHERE id = $1 AND closed_at IS NULL AND expires_at > $2`, g.ID, now)
		if err != nil {
			return fmt.Errorf("redeem credential offer %d: %w", g.ID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrOfferNotFound
		}
		res, err = tx.ExecContext(ctx, `UPDATE `+codeTable(g.TxCode.Channel)+` SET is_used = true
			WHERE id = $1 AND NOT is_used AND attempts < $2`, g.TxCode.ID, MaxCodeAttempts)
		if err != nil {
			return fmt.Errorf("redeem credential offer %d: use code: %w", g.ID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrOfferNotFound
		}
		var jkt any
		if t.JKT != "" {
			jkt = t.JKT
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO credential_access_tokens (token_hash, user_id, offer_id, jkt, expires_at)
			VALUES ($1, $2, $3, $4, $5)`, t.TokenHash, g.UserID, g.ID, jkt, t.ExpiresAt); err != nil {
			return fmt.Errorf("redeem credential offer %d: access token: %w", g.ID, err)
		}
		return nil
	})
}

// AccessToken is a live access token of the credential endpoint.
type AccessToken struct {
	ID     int64   `db:"id"`
	UserID int64   `db:"user_id"`
	JKT    *string `db:"jkt"`
	Spent  bool    `db:"spent"` // it obtained its one credential already
}

// AccessTokenByHash finds an access token that has not expired at now.
func (s *Store) AccessTokenByHash(ctx context.Context, tokenHash string, now time.Time) (AccessToken, error) {
	const q = `SELECT id, user_id, jkt, spent_at IS NOT NULL AS spent FROM credential_access_tokens
		WHERE token_hash = $1 AND expires_at > $2`
	var t AccessToken
	err := getOne(ctx, s.DB, &t, ErrOfferNotFound, "access token", q, tokenHash, now)
	return t, err
}

// ClaimAccessToken spends a token before its credential is reserved, so that two concurrent
// requests with one token cannot both get one; ErrOfferNotFound when it was spent already.
func (s *Store) ClaimAccessToken(ctx context.Context, tokenID int64, now time.Time) error {
	res, err := s.DB.ExecContext(ctx, `UPDATE credential_access_tokens SET spent_at = $2
		WHERE id = $1 AND spent_at IS NULL`, tokenID, now)
	if err != nil {
		return fmt.Errorf("claim access token %d: %w", tokenID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrOfferNotFound
	}
	return nil
}

// ReleaseAccessToken undoes a claim whose credential could not be reserved.
func (s *Store) ReleaseAccessToken(ctx context.Context, tokenID int64) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE credential_access_tokens SET spent_at = NULL
		WHERE id = $1 AND credential_id IS NULL`, tokenID); err != nil {
		return fmt.Errorf("release access token %d: %w", tokenID, err)
	}
	return nil
}

// SetTokenCredential records the credential a claimed token obtained and the hash of the
// deferred transaction that delivers it.
func (s *Store) SetTokenCredential(ctx context.Context, tokenID, credentialID int64, transactionHash string) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE credential_access_tokens SET credential_id = $2, transaction_hash = $3
		WHERE id = $1`, tokenID, credentialID, transactionHash); err != nil {
		return fmt.Errorf("set credential of access token %d: %w", tokenID, err)
	}
	return nil
}

// DeferredCredentialID is the credential of a token's deferred transaction (by its hash).
func (s *Store) DeferredCredentialID(ctx context.Context, tokenID int64, transactionHash string) (int64, error) {
	const q = `SELECT credential_id FROM credential_access_tokens
		WHERE id = $1 AND transaction_hash = $2 AND credential_id IS NOT NULL`
	var id int64
	err := getOne(ctx, s.DB, &id, ErrOfferNotFound, "deferred credential", q, tokenID, transactionHash)
	if err != nil {
		return 0, err
	}
	return id, nil
}

// FinishTransaction invalidates a deferred transaction once its credential was delivered.
func (s *Store) FinishTransaction(ctx context.Context, tokenID int64) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE credential_access_tokens SET transaction_hash = NULL WHERE id = $1`, tokenID); err != nil {
		return fmt.Errorf("finish transaction of token %d: %w", tokenID, err)
	}
	return nil
}

// InsertNonce stores a c_nonce (by hash) and drops a few long-expired ones on the way, so the
// table stays small without a job of its own.
func (s *Store) InsertNonce(ctx context.Context, nonceHash string, expiresAt, now time.Time) error {
	const q = `WITH swept AS (DELETE FROM credential_nonces WHERE nonce_hash IN (
			SELECT nonce_hash FROM credential_nonces WHERE expires_at < $3 ORDER BY expires_at LIMIT 20))
		INSERT INTO credential_nonces (nonce_hash, expires_at) VALUES ($1, $2)`
	if _, err := s.DB.ExecContext(ctx, q, nonceHash, expiresAt, now.Add(-time.Hour)); err != nil {
		return fmt.Errorf("insert nonce: %w", err)
	}
	return nil
}

// ConsumeNonce uses up a c_nonce that is still valid at now; ErrOfferNotFound when it is
// unknown, used or expired.
func (s *Store) ConsumeNonce(ctx context.Context, nonceHash string, now time.Time) error {
	res, err := s.DB.ExecContext(ctx, `DELETE FROM credential_nonces WHERE nonce_hash = $1 AND expires_at > $2`, nonceHash, now)
	if err != nil {
		return fmt.Errorf("consume nonce: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrOfferNotFound
	}
	return nil
}
