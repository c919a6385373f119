package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// A partner's origin: the one claim every way of setting it goes through (claimOrigin), and the
// proof of control that live mode needs (migration 0025).

// ErrOriginOurs is an origin of Perfil Seguro itself.
var ErrOriginOurs = &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: perfilseguro.MsgOriginOurs,
	Fields: map[string]string{"origin": perfilseguro.MsgOriginOurs}}

// claimOrigin lets partnerID (0: a partner being created) hold origin: not one of ours
// (perfilseguro.OwnOrigin) and not another active partner's. Two claims of one origin at once are
// serialized by a transaction lock on it, so only one wins.
func claimOrigin(ctx context.Context, tx *sqlx.Tx, partnerID int64, origin string, ours []string) error {
	if perfilseguro.OwnOrigin(origin, ours) {
		return ErrOriginOurs
	}
	return originFree(ctx, tx, partnerID, origin)
}

// originFree refuses an origin another active partner holds (ErrOriginTaken).
func originFree(ctx context.Context, tx *sqlx.Tx, partnerID int64, origin string) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('partner-origin:' || $1))`, origin); err != nil {
		return fmt.Errorf("lock partner origin: %w", err)
	}
	var taken bool
	if err := tx.GetContext(ctx, &taken, `SELECT EXISTS (SELECT 1 FROM api_keys WHERE domain = $2 AND id <> $1 AND is_active)`,
		partnerID, origin); err != nil {
		return fmt.Errorf("partner origin in use: %w", err)
	}
	if taken {
		return ErrOriginTaken
	}
	return nil
}

// OriginProof is where a partner stands in proving its origin.
type OriginProof struct {
	Origin     string     `db:"domain"`
	Token      string     `db:"origin_token"`
	Proven     bool       `db:"proven"`            // the current origin passed a check
	ProvenAt   *time.Time `db:"origin_proven_at"`  // when it did (nil: never, or another origin)
	CheckedAt  *time.Time `db:"origin_checked_at"` // the last check, whatever its result
	CheckError *string    `db:"origin_check_error"`
}

const originProofColumns = `domain, origin_token, origin_proven IS NOT DISTINCT FROM domain AS proven,
	CASE WHEN origin_proven IS NOT DISTINCT FROM domain THEN origin_proven_at END AS origin_proven_at,
	origin_checked_at, origin_check_error`

// PartnerOriginProof reads a partner's origin and its proof (ErrPartnerNotFound when none).
func (s *Store) PartnerOriginProof(ctx context.Context, partnerID int64) (OriginProof, error) {
	var p OriginProof
	err := getOne(ctx, s.DB, &p, ErrPartnerNotFound, fmt.Sprintf("partner origin proof %d", partnerID),
		`SELECT `+originProofColumns+` FROM api_keys WHERE id = $1`, partnerID)
	return p, err
}

// RecordOriginCheck stores a check of origin for the partner: proven, or why not (failure, in
// Spanish). A check of an origin the partner no longer has changes nothing.
func (s *Store) RecordOriginCheck(ctx context.Context, partnerID int64, origin string, proven bool, failure string, at time.Time) error {
	const q = `UPDATE api_keys SET origin_checked_at = $4,
			origin_check_error = CASE WHEN $3 THEN NULL ELSE NULLIF($5, '') END,
			origin_proven = CASE WHEN $3 THEN domain ELSE origin_proven END,
			origin_proven_at = CASE WHEN $3 THEN $4 ELSE origin_proven_at END
		WHERE id = $1 AND domain = $2`
	if _, err := s.DB.ExecContext(ctx, q, partnerID, origin, proven, at, failure); err != nil {
		return fmt.Errorf("record origin check of partner %d: %w", partnerID, err)
	}
	return nil
}
