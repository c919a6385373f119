package postgres

import (
	"context"
	"fmt"
)

// codeAddressesOf selects every e-mail and phone a code was sent to for the person $1: codes live
// as long as the account, so these are the addresses they held before a change as well.
const codeAddressesOf = `SELECT destination FROM verification_codes WHERE user_id = $1
	UNION SELECT destination FROM email_verification_codes WHERE user_id = $1`

// AddressesOf lists the e-mails and phones of a person: the ones the account holds and every one
// a code went to (issue 54, item 24). A deletion reads them first, to find what the person left
// outside Postgres (jobs in Redis) under an address they no longer hold.
func (s *Store) AddressesOf(ctx context.Context, userID int64) ([]string, error) {
	q := `SELECT a FROM (SELECT email AS a FROM users WHERE id = $1 UNION SELECT phone_number FROM users WHERE id = $1
		UNION ` + codeAddressesOf + `) x WHERE a IS NOT NULL AND a <> '' ORDER BY a`
	var out []string
	if err := s.q(ctx).SelectContext(ctx, &out, q, userID); err != nil {
		return nil, fmt.Errorf("addresses of %d: %w", userID, err)
	}
	return out, nil
}
