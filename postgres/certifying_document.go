package postgres

import (
	"context"
	"fmt"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// CertifyingDocument is the identity document that certifies a profile (issue 52): the one read
// by users.identity_verification_id, opened, when the profile's name came from it
// (name_source 'document'). Nil for a profile validated before documents were read, one never
// certified, or an unknown user: they get none of the document's claims.
func (s *Store) CertifyingDocument(ctx context.Context, userID int64) (*perfilseguro.DocumentIdentity, error) {
	var ids []int64
	const q = `SELECT identity_verification_id FROM users
		WHERE id = $1 AND name_source = 'document' AND identity_verification_id IS NOT NULL`
	if err := s.q(ctx).SelectContext(ctx, &ids, q, userID); err != nil {
		return nil, fmt.Errorf("certifying document of user %d: %w", userID, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.DocumentOf(ctx, ids[0])
}
