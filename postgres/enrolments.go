package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// enrolmentLinks is a table of single-use enrolment links (a token's hash, its owner, its expiry):
// administrators' and partner users' passkey enrolments are stored alike.
type enrolmentLinks struct {
	table string // the table
	owner string // the column naming the account the link enrols
	what  string // how errors name a link
}

var (
	adminEnrolments   = enrolmentLinks{table: "admin_enrolments", owner: "admin_id", what: "admin enrolment"}
	partnerEnrolments = enrolmentLinks{table: "partner_user_enrolments", owner: "partner_user_id", what: "partner enrolment"}
)

// insert stores one link for ownerID, valid until expires.
func (e enrolmentLinks) insert(ctx context.Context, q sqlx.ExecerContext, ownerID int64, tokenHash string, expires time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO `+e.table+` (token_hash, `+e.owner+`, expires_at) VALUES ($1, $2, $3)`,
		tokenHash, ownerID, expires)
	if err != nil {
		return fmt.Errorf("insert %s: %w", e.what, err)
	}
	return nil
}
