package postgres

import (
	"database/sql/driver"
	"time"

	"github.com/jmoiron/sqlx"
)

// NewWaitingConnector is the leader's connector around inner, waiting up to wait, trying every step.
func NewWaitingConnector(inner driver.Connector, wait, step time.Duration) driver.Connector {
	return &waitingConnector{Connector: inner, wait: wait, step: step}
}

// OpenWithPrimaryWait is open for the leader with a wait for a primary of the test's choosing.
func OpenWithPrimaryWait(dsn string, wait time.Duration) (*sqlx.DB, error) {
	return openWaiting(dsn, true, replyTimeout, wait)
}
