package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/secure"
)

// Partner keys (sql/migrations/0020_partner_keys_sessions.sql): stored as the SHA-256 of the
// whole key, found by that hash; only a new key's text is ever returned, once.

// PartnerKey is one key of a partner, as a console lists it (never the secret itself).
type PartnerKey struct {
	ID         int64                       `db:"id" json:"id"`
	PartnerID  int64                       `db:"partner_id" json:"-"`
	Kind       perfilseguro.PartnerKeyKind `db:"kind" json:"kind"`
	Livemode   bool                        `db:"livemode" json:"livemode"`
	Hint       string                      `db:"hint" json:"hint"` // a publishable key whole; sk_live_…abcd
	CreatedAt  time.Time                   `db:"created_at" json:"createdAt"`
	CreatedBy  *string                     `db:"created_by" json:"createdBy"`
	LastUsedAt *time.Time                  `db:"last_used_at" json:"lastUsedAt"`
	RevokedAt  *time.Time                  `db:"revoked_at" json:"revokedAt"`
}

// NewKey is a key just made: its text is shown once and never again.
type NewKey struct {
	PartnerKey
	Key string `json:"key"`
}

// ErrKeyNotFound is a key that is not the partner's, or already revoked.
var ErrKeyNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos esa llave activa de tu plataforma.")

const partnerKeyColumns = `id, partner_id, kind, livemode, hint, created_at, created_by, last_used_at, revoked_at`

// InsertPartnerKey mints and stores a key of the kind and mode for a partner.
func (s *Store) InsertPartnerKey(ctx context.Context, q sqlx.QueryerContext, partnerID int64,
	kind perfilseguro.PartnerKeyKind, live bool, createdBy string) (NewKey, error) {
	key := perfilseguro.NewPartnerKey(kind, live)
	var k NewKey
	err := sqlx.GetContext(ctx, q, &k.PartnerKey, `INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint, created_by)
		VALUES ($1, $2, $3, $4, $5, NULLIF($6, '')) RETURNING `+partnerKeyColumns,
		partnerID, kind, live, secure.HashToken(key), perfilseguro.PartnerKeyHint(key), createdBy)
	if err != nil {
		return NewKey{}, fmt.Errorf("insert partner key: %w", err)
	}
	k.Key = key
	return k, nil
}

// KeyedPartner is the partner a key belongs to, with the key.
type KeyedPartner struct {
	Partner Partner
	Key     PartnerKey
}

// PartnerByKey finds the active partner of a live (not revoked) key; nil when none.
func (s *Store) PartnerByKey(ctx context.Context, key string) (*KeyedPartner, error) {
	var row struct {
		partnerRow
		KeyRowID   int64                       `db:"key_row_id"`
		Kind       perfilseguro.PartnerKeyKind `db:"kind"`
		Livemode   bool                        `db:"livemode"`
		Hint       string                      `db:"hint"`
		KeyCreated time.Time                   `db:"key_created_at"`
	}
	const q = `SELECT a.id, a.key_id, a.partner_name, a.domain, a.is_active, a.permissions, a.requests_count,
			a.last_used_at, a.created_at, a.created_by, a.notes,
			k.id AS key_row_id, k.kind, k.livemode, k.hint, k.created_at AS key_created_at
		FROM partner_keys k JOIN api_keys a ON a.id = k.partner_id
		WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND a.is_active`
	err := s.DB.GetContext(ctx, &row, q, secure.HashToken(key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("partner by key: %w", err)
	}
	return &KeyedPartner{Partner: row.partner(), Key: PartnerKey{ID: row.KeyRowID, PartnerID: row.ID, Kind: row.Kind,
		Livemode: row.Livemode, Hint: row.Hint, CreatedAt: row.KeyCreated}}, nil
}

// TouchPartnerKey records a key's last use (the API calls it at most once a minute per key).
func (s *Store) TouchPartnerKey(ctx context.Context, keyID int64, at time.Time) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE partner_keys SET last_used_at = GREATEST(COALESCE(last_used_at, $2), $2) WHERE id = $1`, keyID, at)
	return err
}

// CurrentPublishableKey is the partner's newest active publishable key of a mode ("" when it has
// none): publishable keys are public, and stored whole as their hint.
func (s *Store) CurrentPublishableKey(ctx context.Context, partnerID int64, live bool) (string, error) {
	const q = `SELECT hint FROM partner_keys WHERE partner_id = $1 AND kind = 'publishable' AND livemode = $2
		AND revoked_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1`
	var key string
	err := s.DB.GetContext(ctx, &key, q, partnerID, live)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("publishable key of partner %d: %w", partnerID, err)
	}
	return key, nil
}

// PartnerKeys lists a partner's keys, newest first, revoked ones included.
func (s *Store) PartnerKeys(ctx context.Context, partnerID int64) ([]PartnerKey, error) {
	keys := []PartnerKey{}
	err := s.DB.SelectContext(ctx, &keys, `SELECT `+partnerKeyColumns+` FROM partner_keys WHERE partner_id = $1
		ORDER BY created_at DESC, id DESC`, partnerID)
	if err != nil {
		return nil, fmt.Errorf("partner keys: %w", err)
	}
	return keys, nil
}

// RevokePartnerKey revokes one of the partner's live keys (ErrKeyNotFound otherwise).
func (s *Store) RevokePartnerKey(ctx context.Context, partnerID, keyID int64, at time.Time) (PartnerKey, error) {
	var k PartnerKey
	err := getOne(ctx, s.DB, &k, ErrKeyNotFound, fmt.Sprintf("revoke partner key %d", keyID),
		`UPDATE partner_keys SET revoked_at = $3 WHERE id = $1 AND partner_id = $2 AND revoked_at IS NULL
		RETURNING `+partnerKeyColumns, keyID, partnerID, at)
	if err != nil {
		return PartnerKey{}, err
	}
	return k, nil
}

// FirstKeys are the keys a new partner gets: both publishable keys and a first secret key of each
// mode. The secret keys' text appears here once.
type FirstKeys struct {
	PublishableLive string `json:"publishableLive"`
	PublishableTest string `json:"publishableTest"`
	SecretLive      string `json:"secretLive"`
	SecretTest      string `json:"secretTest"`
}

// insertFirstKeys mints a new partner's four keys; the live publishable key is also its key id.
func (s *Store) insertFirstKeys(ctx context.Context, tx *sqlx.Tx, partnerID int64, createdBy string) (FirstKeys, error) {
	var out FirstKeys
	for _, k := range []struct {
		kind perfilseguro.PartnerKeyKind
		live bool
		dst  *string
	}{{perfilseguro.KeyPublishable, true, &out.PublishableLive}, {perfilseguro.KeyPublishable, false, &out.PublishableTest},
		{perfilseguro.KeySecret, true, &out.SecretLive}, {perfilseguro.KeySecret, false, &out.SecretTest}} {
		nk, err := s.InsertPartnerKey(ctx, tx, partnerID, k.kind, k.live, createdBy)
		if err != nil {
			return FirstKeys{}, err
		}
		*k.dst = nk.Key
	}
	return out, nil
}
