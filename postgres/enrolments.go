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

// replace voids ownerID's unused links and stores a new one (a link re-issued after a lost
// device or an e-mail sent to the wrong place): only the newest link can enrol a passkey. A void
// link is deleted, so it answers as a used one does (ErrEnrolmentNotUsable, 410); one being used
// at this moment keeps its lock, and its use, and is not deleted.
func (e enrolmentLinks) replace(ctx context.Context, q sqlx.ExecerContext, ownerID int64, tokenHash string, expires time.Time) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM `+e.table+` WHERE `+e.owner+` = $1 AND used_at IS NULL`, ownerID); err != nil {
		return fmt.Errorf("void %s links of %d: %w", e.what, ownerID, err)
	}
	return e.insert(ctx, q, ownerID, tokenHash, expires)
}
