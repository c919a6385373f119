package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Code channels and the table each is stored in.
const (
	ChannelPhone = "phone" // WhatsApp, SMS fallback: verification_codes
	ChannelEmail = "email" // e-mail: email_verification_codes
)

func codeTable(channel string) string {
	if channel == ChannelEmail {
		return "email_verification_codes"
	}
	return "verification_codes"
}

// MaxCodeAttempts kills a code after this many wrong tries.
const MaxCodeAttempts = 5

// NewCode is one code to store (hashed).
type NewCode struct {
	UserID      int64
	Channel     string
	Destination string
	Purpose     string // register, login, widget, invitation
	Hash        string
	ExpiresAt   time.Time
}

// InsertCode stores a new code and retires the user's earlier unused codes of that channel, in
// one statement: in tx, or on its own (autocommitted) when tx is nil. It returns the code's id and
// its person's mode (perfilseguro.User.Mode), which decides who delivers it.
func (s *Store) InsertCode(ctx context.Context, tx *sqlx.Tx, c NewCode) (id, mode int64, err error) {
	table := codeTable(c.Channel)
	q := `WITH retired AS (UPDATE ` + table + ` SET is_used = true WHERE user_id = $1 AND NOT is_used)
		INSERT INTO ` + table + ` (user_id, code_hash, destination, purpose, expires_at) VALUES ($1, $2, $3, $4, $5)
		RETURNING id, (SELECT coalesce(test_partner_id, 0) FROM users WHERE id = $1) AS mode`
	var row struct {
		ID   int64 `db:"id"`
		Mode int64 `db:"mode"`
	}
	if err := s.getPrepared(ctx, tx, &row, q, c.UserID, c.Hash, c.Destination, c.Purpose, c.ExpiresAt); err != nil {
		return 0, 0, fmt.Errorf("insert code: %w", err)
	}
	return row.ID, row.Mode, nil
}

// RetireCode marks a code used, so that it can be neither entered nor counted by the resend
// cooldown (a code whose delivery could not be queued).
func (s *Store) RetireCode(ctx context.Context, channel string, id int64) error {
	if _, err := s.execPrepared(ctx, nil, `UPDATE `+codeTable(channel)+` SET is_used = true WHERE id = $1`, id); err != nil {
		return fmt.Errorf("retire code: %w", err)
	}
	return nil
}

// Account is what sign-in needs to know about a user found by e-mail or phone.
type Account struct {
	ID    int64   `db:"id"`
	Email *string `db:"email"`
	Phone *string `db:"phone_number"`
	// PendingSince is when the newest still-usable code was created (for the resend cooldown).
	PendingSince *time.Time `db:"pending_since"`
}

// accountsSelectPrefix reads a user with the creation time of its newest usable code, newest
// first along the (user_id, created_at DESC) index: a LIMIT 1 scan, no aggregate.
var accountsSelectPrefix = fmt.Sprintf(`SELECT u.id, u.email, u.phone_number, GREATEST(
	(SELECT c.created_at FROM verification_codes c WHERE c.user_id = u.id AND NOT c.is_used
	 AND c.expires_at > now() AND c.attempts < %[1]d ORDER BY c.created_at DESC LIMIT 1),
	(SELECT c.created_at FROM email_verification_codes c WHERE c.user_id = u.id AND NOT c.is_used
	 AND c.expires_at > now() AND c.attempts < %[1]d ORDER BY c.created_at DESC LIMIT 1)) AS pending_since
	FROM users u WHERE `, MaxCodeAttempts)

// One fixed WHERE per combination: with a NULLIF for the missing one, Postgres would plan the
// prepared statement anew on every call instead of keeping its generic plan.
// The mode (perfilseguro.User.Mode) comes last, at $mode: sign-in looks among live people or
// among one partner's test people, never both.
func accountsByEmailOrPhone(mode string) string {
	return accountsSelectPrefix + "(u.email = $1 OR u.phone_number = $2) AND " + modeIs + mode
}
func accountsByEmail(mode string) string {
	return accountsSelectPrefix + "u.email = $1 AND " + modeIs + mode
}
func accountsByPhone(mode string) string {
	return accountsSelectPrefix + "u.phone_number = $1 AND " + modeIs + mode
}

// The sign-in statements find the accounts as AccountsByContact does and, when exactly one
// matches and its newest usable code was created at or before the cutoff (the resend cooldown),
// store a new code for it and retire its earlier unused codes of that channel. Every
// data-modifying CTE sees the same snapshot, so the new code is not among the retired ones.
//
// A usable code with the same hash (the same code for the same destination: the same request)
// passes the cooldown too. database/sql runs a statement again on a new connection when the
// driver reports the connection broken (lib/pq: EOF, a FATAL such as 57P01 or 57P02), which
// happens after the statement committed when Postgres dies before answering (make scale,
// postgres-kill). Without this the second run found the first run's code, answered 429 "Ya te
// enviamos un código" and nothing was sent; now it stores the same code again, retiring the
// first, and the one code is sent. (Another request drawing the same six digits within the
// minute, one in a million, gets a second copy of its code, not a way around the cooldown.)

// signInOneContact: by one contact ($1, the code's destination; at most one account holds it),
// cutoff $2, hash $3, purpose $4, expiry $5 (the accounts statement takes the mode at $6).
func signInOneContact(accounts, table string) string {
	return `WITH acct AS (` + accounts + `),
	chosen AS (SELECT id FROM acct WHERE pending_since IS NULL OR pending_since <= $2
		OR EXISTS (SELECT 1 FROM ` + table + ` c WHERE c.user_id = acct.id AND NOT c.is_used AND c.code_hash = $3)),
	retired AS (UPDATE ` + table + ` SET is_used = true WHERE user_id = (SELECT id FROM chosen) AND NOT is_used),
	code AS (INSERT INTO ` + table + ` (user_id, code_hash, destination, purpose, expires_at)
		SELECT id, $3, $1, $4, $5 FROM chosen RETURNING id)
	SELECT a.id, a.email, a.phone_number, a.pending_since, (SELECT id FROM code) AS code_id FROM acct a`
}

// signInBothContacts: by e-mail $1 or phone $2 (up to two accounts; a code only when one account
// holds them), cutoff $3, purpose $4, expiry $7, mode $8. The code goes in the phone table with
// hash $5 when the account holds the phone, else in the e-mail table with hash $6.
var signInBothContacts = `WITH acct AS (` + accountsByEmailOrPhone("$8") + `),
	chosen AS (SELECT id, email, phone_number FROM acct
		WHERE (SELECT count(*) FROM acct) = 1 AND (pending_since IS NULL OR pending_since <= $3
			OR EXISTS (SELECT 1 FROM verification_codes c WHERE c.user_id = acct.id AND NOT c.is_used AND c.code_hash = $5)
			OR EXISTS (SELECT 1 FROM email_verification_codes c WHERE c.user_id = acct.id AND NOT c.is_used AND c.code_hash = $6))),
	by_phone AS (SELECT id FROM chosen WHERE phone_number = $2),
	by_email AS (SELECT id FROM chosen WHERE phone_number IS DISTINCT FROM $2 AND email = $1),
	retired_phone AS (UPDATE verification_codes SET is_used = true WHERE user_id = (SELECT id FROM by_phone) AND NOT is_used),
	phone_code AS (INSERT INTO verification_codes (user_id, code_hash, destination, purpose, expires_at)
		SELECT id, $5, $2, $4, $7 FROM by_phone RETURNING id),
	retired_email AS (UPDATE email_verification_codes SET is_used = true WHERE user_id = (SELECT id FROM by_email) AND NOT is_used),
	email_code AS (INSERT INTO email_verification_codes (user_id, code_hash, destination, purpose, expires_at)
		SELECT id, $6, $1, $4, $7 FROM by_email RETURNING id)
	SELECT a.id, a.email, a.phone_number, a.pending_since,
		COALESCE((SELECT id FROM phone_code), (SELECT id FROM email_code)) AS code_id
	FROM acct a`

var (
	signInByEmail = signInOneContact(accountsByEmail("$6"), "email_verification_codes")
	signInByPhone = signInOneContact(accountsByPhone("$6"), "verification_codes")
)

// SignInCode asks for a sign-in code for whoever holds Email and/or Phone (an empty value
// matches nothing).
type SignInCode struct {
	Email, Phone string
	// IssuedBefore: a code is stored only if the account's newest usable code is no newer.
	IssuedBefore time.Time
	Purpose      string
	// PhoneHash and EmailHash are the code's hash for each destination. The code is stored for
	// the phone when the account holds it, else for the e-mail.
	PhoneHash, EmailHash string
	ExpiresAt            time.Time
	// Mode: 0 among live people, else among that partner's test people.
	Mode int64
}

// SignInAttempt is an account found by IssueSignInCode, with the id of the code stored for it,
// if any (in the phone table when the account holds the phone asked for, else in the e-mail table).
type SignInAttempt struct {
	Account
	CodeID *int64 `db:"code_id"`
}

// IssueSignInCode finds the accounts holding the e-mail or the phone and, when exactly one does
// and the resend cooldown is over, stores a new code for it: the whole of a sign-in's database
// work in one round trip (it is the hottest path of the service; see BENCHMARKS.md). No code is
// stored when none or two accounts match, or while the cooldown lasts.
func (s *Store) IssueSignInCode(ctx context.Context, c SignInCode) ([]SignInAttempt, error) {
	var q string
	var args []any
	switch {
	case c.Email != "" && c.Phone != "":
		q, args = signInBothContacts, []any{c.Email, c.Phone, c.IssuedBefore, c.Purpose, c.PhoneHash, c.EmailHash, c.ExpiresAt, c.Mode}
	case c.Email != "":
		q, args = signInByEmail, []any{c.Email, c.IssuedBefore, c.EmailHash, c.Purpose, c.ExpiresAt, c.Mode}
	case c.Phone != "":
		q, args = signInByPhone, []any{c.Phone, c.IssuedBefore, c.PhoneHash, c.Purpose, c.ExpiresAt, c.Mode}
	default:
		return nil, nil
	}
	return selectRows[SignInAttempt](ctx, s, "issue sign-in code", q, args...)
}

// AccountsByContact finds the users holding the e-mail or the phone (an empty value matches
// nothing) among the people of a mode, each with its newest usable code's time, in one round
// trip; at most two rows.
func (s *Store) AccountsByContact(ctx context.Context, email, phoneE164 string, mode int64) ([]Account, error) {
	var q string
	var args []any
	switch {
	case email != "" && phoneE164 != "":
		q, args = accountsByEmailOrPhone("$3"), []any{email, phoneE164, mode}
	case email != "":
		q, args = accountsByEmail("$2"), []any{email, mode}
	case phoneE164 != "":
		q, args = accountsByPhone("$2"), []any{phoneE164, mode}
	default:
		return nil, nil
	}
	return selectRows[Account](ctx, s, "accounts by contact", q, args...)
}

// ActiveCode is a code that may still be used.
type ActiveCode struct {
	ID          int64  `db:"id"`
	Channel     string `db:"channel"`
	Destination string `db:"destination"` // the phone or e-mail it was sent to (its hash is bound to it)
	Hash        string `db:"code_hash"`
	Attempts    int    `db:"attempts"`
}

// ActiveCodes lists the user's usable codes (at most one per channel).
func (s *Store) ActiveCodes(ctx context.Context, userID int64) ([]ActiveCode, error) {
	// Codes for a new contact address, a sensitive action or a wallet (the transaction code of a
	// credential offer) never sign anyone in.
	const q = `SELECT id, 'phone' AS channel, destination, code_hash, attempts FROM verification_codes
		WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2
			AND purpose NOT IN ('contact_change', 'confirmation', 'credential_offer')
		UNION ALL
		SELECT id, 'email' AS channel, destination, code_hash, attempts FROM email_verification_codes
		WHERE user_id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2
			AND purpose NOT IN ('contact_change', 'confirmation', 'credential_offer')`
	var codes []ActiveCode
	if err := s.DB.SelectContext(ctx, &codes, q, userID, MaxCodeAttempts); err != nil {
		return nil, fmt.Errorf("active codes: %w", err)
	}
	return codes, nil
}

// RecordWrongAttempt counts a failed try and returns the new count.
func (s *Store) RecordWrongAttempt(ctx context.Context, c ActiveCode) (int, error) {
	var n int
	q := `UPDATE ` + codeTable(c.Channel) + ` SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`
	if err := s.DB.GetContext(ctx, &n, q, c.ID); err != nil {
		return 0, fmt.Errorf("record attempt: %w", err)
	}
	return n, nil
}

// ConsumeCode marks a code used exactly once; false means someone else used it first or it died.
func (s *Store) ConsumeCode(ctx context.Context, tx *sqlx.Tx, c ActiveCode) (bool, error) {
	q := `UPDATE ` + codeTable(c.Channel) + ` SET is_used = true
		WHERE id = $1 AND NOT is_used AND expires_at > now() AND attempts < $2`
	return changedOne(ctx, tx, "consume code", q, c.ID, MaxCodeAttempts)
}

// CodeForDelivery is what the delivery job needs to know about a stored code.
type CodeForDelivery struct {
	ID        int64      `db:"id"`
	UserID    int64      `db:"user_id"`
	IsUsed    bool       `db:"is_used"`
	ExpiresAt time.Time  `db:"expires_at"`
	SentAt    *time.Time `db:"sent_at"`
	// DeliveredAt is set once the provider accepted the code (the worker's batched mark).
	DeliveredAt *time.Time `db:"delivered_at"`
}

// CodeForDelivery reads a code row for the delivery job (nil when it does not exist).
func (s *Store) CodeForDelivery(ctx context.Context, channel string, id int64) (*CodeForDelivery, error) {
	var c CodeForDelivery
	q := `SELECT id, user_id, is_used, expires_at, sent_at, delivered_at FROM ` + codeTable(channel) + ` WHERE id = $1`
	if err := s.getPrepared(ctx, nil, &c, q, id); err != nil {
		if isNoRows(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("code for delivery: %w", err)
	}
	return &c, nil
}

// ClaimWindow is how long a claimed delivery keeps other runs of its job from sending. It is
// shorter than asynq's 30 s lease, so a job whose worker died mid-send claims the code again
// when asynq hands it to another worker.
const ClaimWindow = 20 * time.Second

// ClaimCodeDelivery marks a code as being sent now, in one statement, unless it is used, expired,
// delivered, or claimed less than ClaimWindow ago. false means: do not send (or the row is not
// visible yet; CodeForDelivery tells which).
func (s *Store) ClaimCodeDelivery(ctx context.Context, channel string, id int64) (bool, error) {
	q := fmt.Sprintf(`UPDATE %s SET sent_at = now() WHERE id = $1 AND NOT is_used AND expires_at > now()
		AND delivered_at IS NULL AND (sent_at IS NULL OR sent_at < now() - interval '%d seconds')`, codeTable(channel), int(ClaimWindow.Seconds()))
	res, err := s.execPrepared(ctx, nil, q, id)
	if err != nil {
		return false, fmt.Errorf("claim code delivery: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// MarkCodesDelivered records at once that the provider accepted these codes (worker/otp_marks.go).
func (s *Store) MarkCodesDelivered(ctx context.Context, channel string, ids []int64) error {
	if _, err := s.execPrepared(ctx, nil, `UPDATE `+codeTable(channel)+` SET delivered_at = now()
		WHERE id = ANY($1) AND delivered_at IS NULL`, pq.Array(ids)); err != nil {
		return fmt.Errorf("mark codes delivered: %w", err)
	}
	return nil
}

// ReleaseCodeDelivery undoes a claim whose send failed, so that the job's retry sends the code.
func (s *Store) ReleaseCodeDelivery(ctx context.Context, channel string, id int64) error {
	if _, err := s.execPrepared(ctx, nil, `UPDATE `+codeTable(channel)+` SET sent_at = NULL WHERE id = $1`, id); err != nil {
		return fmt.Errorf("release code delivery: %w", err)
	}
	return nil
}

// MarkPhoneVerified sets is_phone_verified and raises the level to at least 1.
func (s *Store) MarkPhoneVerified(ctx context.Context, tx *sqlx.Tx, userID int64) error {
	const q = `UPDATE users SET is_phone_verified = true, verification_level = GREATEST(verification_level, 1),
		updated_at = now() WHERE id = $1`
	_, err := tx.ExecContext(ctx, q, userID)
	return err
}
