package postgres

import (
	"time"

	"github.com/jmoiron/sqlx"
)

// OpenWithReplyTimeout is open for the leader with a reply bound of the test's choosing.
func OpenWithReplyTimeout(dsn string, reply time.Duration) (*sqlx.DB, error) {
	return open(dsn, true, reply)
}
