package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ApplePassToken is a pass's authenticationToken as stored: hashed, and sealed for rebuilds.
type ApplePassToken struct {
	UserID       int64  `db:"user_id"`
	SerialNumber string `db:"serial_number"`
	TokenHash    string `db:"token_hash"`
	TokenSealed  string `db:"token_sealed"`
}

// EnsureApplePassToken stores a user's pass token unless one exists, and returns the stored one
// (the first build of a pass mints it; rebuilds keep it, so installed passes stay authorized).
func (s *Store) EnsureApplePassToken(ctx context.Context, t ApplePassToken) (ApplePassToken, error) {
	// A deleted account's leftover token under the same serial (a profile ID given out again)
	// makes way: that pass is for a person who no longer exists.
	const q = `WITH stale AS (DELETE FROM apple_pass_tokens WHERE serial_number = $2 AND user_id IS NULL)
		INSERT INTO apple_pass_tokens (user_id, serial_number, token_hash, token_sealed)
		SELECT id, $2, $3, $4 FROM users WHERE id = $1
		ON CONFLICT (user_id) DO NOTHING`
	if _, err := s.DB.ExecContext(ctx, q, t.UserID, t.SerialNumber, t.TokenHash, t.TokenSealed); err != nil {
		return ApplePassToken{}, fmt.Errorf("apple pass token: %w", err)
	}
	var got ApplePassToken
	err := getOne(ctx, s.DB, &got, ErrUserNotFound, "apple pass token",
		`SELECT user_id, serial_number, token_hash, token_sealed FROM apple_pass_tokens WHERE user_id = $1`, t.UserID)
	if err != nil {
		return ApplePassToken{}, err
	}
	return got, nil
}

// ApplePassBySerial is what the PassKit web service needs of a pass: its owner (nil once the
// account is deleted), token hash and the latest build (nil Content when none was built yet;
// the voided pass of a deleted account).
type ApplePassBySerial struct {
	UserID    *int64     `db:"user_id"`
	TokenHash string     `db:"token_hash"`
	Content   []byte     `db:"content"`
	BuiltAt   *time.Time `db:"built_at"`
}

// ErrPassNotFound is returned for a serial number with no pass.
var ErrPassNotFound = errors.New("pass not found")

// ApplePassBySerial finds a pass by serial number.
func (s *Store) ApplePassBySerial(ctx context.Context, serial string) (ApplePassBySerial, error) {
	const q = `SELECT t.user_id, t.token_hash, COALESCE(w.content, t.voided_content) AS content,
		COALESCE(w.built_at, t.voided_at) AS built_at FROM apple_pass_tokens t
		LEFT JOIN wallet_passes w ON w.user_id = t.user_id AND w.kind = 'apple' WHERE t.serial_number = $1`
	var p ApplePassBySerial
	err := getOne(ctx, s.DB, &p, ErrPassNotFound, fmt.Sprintf("apple pass %s", serial), q, serial)
	return p, err
}

// RegisterPassDevice records that a device installed a pass; created is false when the device
// was already registered (its push token is refreshed).
func (s *Store) RegisterPassDevice(ctx context.Context, device, passType, serial, pushToken string) (created bool, err error) {
	const q = `INSERT INTO apple_pass_registrations (device_library_id, pass_type_id, serial_number, push_token)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (device_library_id, pass_type_id, serial_number) DO UPDATE SET push_token = EXCLUDED.push_token, updated_at = now()
		RETURNING (xmax = 0)`
	if err := s.DB.GetContext(ctx, &created, q, device, passType, serial, pushToken); err != nil {
		return false, fmt.Errorf("register pass device: %w", err)
	}
	return created, nil
}

// UnregisterPassDevice forgets a device's registration of a pass.
func (s *Store) UnregisterPassDevice(ctx context.Context, device, passType, serial string) error {
	_, err := s.DB.ExecContext(ctx, `DELETE FROM apple_pass_registrations
		WHERE device_library_id = $1 AND pass_type_id = $2 AND serial_number = $3`, device, passType, serial)
	if err != nil {
		return fmt.Errorf("unregister pass device: %w", err)
	}
	return nil
}

// UnregisterPushToken forgets every registration of a push token (APNs said 410: the device
// no longer has the pass or the app).
func (s *Store) UnregisterPushToken(ctx context.Context, pushToken string) error {
	if _, err := s.DB.ExecContext(ctx, `DELETE FROM apple_pass_registrations WHERE push_token = $1`, pushToken); err != nil {
		return fmt.Errorf("unregister push token: %w", err)
	}
	return nil
}

// UpdatedPassesOfDevice lists the serial numbers of a device's passes of a type built after
// since (zero: all), and the newest build time among them.
func (s *Store) UpdatedPassesOfDevice(ctx context.Context, device, passType string, since time.Time) ([]string, time.Time, error) {
	const q = `SELECT r.serial_number, COALESCE(w.built_at, t.voided_at) AS built_at FROM apple_pass_registrations r
		JOIN apple_pass_tokens t ON t.serial_number = r.serial_number
		LEFT JOIN wallet_passes w ON w.user_id = t.user_id AND w.kind = 'apple'
		WHERE r.device_library_id = $1 AND r.pass_type_id = $2 AND COALESCE(w.built_at, t.voided_at) > $3
		ORDER BY 2`
	var rows []struct {
		Serial  string    `db:"serial_number"`
		BuiltAt time.Time `db:"built_at"`
	}
	if err := s.DB.SelectContext(ctx, &rows, q, device, passType, since); err != nil {
		return nil, time.Time{}, fmt.Errorf("updated passes: %w", err)
	}
	serials := make([]string, len(rows))
	var last time.Time
	for i, r := range rows {
		serials[i] = r.Serial
		if r.BuiltAt.After(last) {
			last = r.BuiltAt
		}
	}
	return serials, last, nil
}

// PushTokensOfPass lists the push tokens of the devices that installed a user's pass.
func (s *Store) PushTokensOfPass(ctx context.Context, userID int64) ([]string, error) {
	var tokens []string
	err := s.DB.SelectContext(ctx, &tokens, `SELECT DISTINCT r.push_token FROM apple_pass_registrations r
		JOIN apple_pass_tokens t ON t.serial_number = r.serial_number WHERE t.user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("push tokens: %w", err)
	}
	return tokens, nil
}

// PushTokensOfSerial lists the push tokens of the devices that installed the pass of a serial
// number (a deleted account's pass has no user).
func (s *Store) PushTokensOfSerial(ctx context.Context, serial string) ([]string, error) {
	var tokens []string
	err := s.DB.SelectContext(ctx, &tokens, `SELECT DISTINCT push_token FROM apple_pass_registrations WHERE serial_number = $1`, serial)
	if err != nil {
		return nil, fmt.Errorf("push tokens of %s: %w", serial, err)
	}
	return tokens, nil
}

// WalletTombstone is a deleted account's wallet passes still to void (migration 0010).
type WalletTombstone struct {
	SerialNumber string     `db:"serial_number"`
	Apple        bool       `db:"apple"`
	Google       bool       `db:"google"`
	DeletedAt    time.Time  `db:"deleted_at"`
	VoidedAt     *time.Time `db:"voided_at"`
	TokenSealed  *string    `db:"token_sealed"` // the Apple pass's token (nil: none left)
	// AppleVoidedAt is when the voided Apple pass was stored (nil: not yet).
	AppleVoidedAt *time.Time `db:"apple_voided_at"`
}

// ErrTombstoneNotFound is a serial number with no deleted account's passes.
var ErrTombstoneNotFound = errors.New("wallet tombstone not found")

// WalletTombstone finds what to void of a deleted account's passes.
func (s *Store) WalletTombstone(ctx context.Context, serial string) (WalletTombstone, error) {
	const q = `SELECT w.serial_number, w.apple, w.google, w.deleted_at, w.voided_at, t.token_sealed,
		t.voided_at AS apple_voided_at FROM wallet_tombstones w LEFT JOIN apple_pass_tokens t ON t.serial_number = w.serial_number AND t.user_id IS NULL
		WHERE w.serial_number = $1`
	var ts WalletTombstone
	err := getOne(ctx, s.DB, &ts, ErrTombstoneNotFound, fmt.Sprintf("wallet tombstone %s", serial), q, serial)
	return ts, err
}

// SaveVoidedApplePass stores the voided pass of a deleted account, for its devices to fetch.
func (s *Store) SaveVoidedApplePass(ctx context.Context, serial string, content []byte) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE apple_pass_tokens SET voided_content = $2, voided_at = now()
		WHERE serial_number = $1 AND user_id IS NULL`, serial, content)
	if err != nil {
		return fmt.Errorf("save voided pass %s: %w", serial, err)
	}
	return nil
}

// MarkTombstoneVoided records that a deleted account's passes are voided.
func (s *Store) MarkTombstoneVoided(ctx context.Context, serial string) error {
	if _, err := s.DB.ExecContext(ctx, `UPDATE wallet_tombstones SET voided_at = now() WHERE serial_number = $1`, serial); err != nil {
		return fmt.Errorf("mark tombstone %s voided: %w", serial, err)
	}
	return nil
}

// PendingTombstones lists up to limit deleted accounts whose passes are not voided yet, deleted
// before the given time (younger ones are still in the hands of the job queued at deletion).
func (s *Store) PendingTombstones(ctx context.Context, before time.Time, limit int) ([]string, error) {
	var serials []string
	err := s.DB.SelectContext(ctx, &serials, `SELECT serial_number FROM wallet_tombstones
		WHERE voided_at IS NULL AND deleted_at < $1 ORDER BY deleted_at LIMIT $2`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("pending tombstones: %w", err)
	}
	return serials, nil
}

// PurgeTombstones forgets the passes of accounts deleted before the given time: their tokens,
// device registrations (by cascade) and tombstones. It returns how many tombstones went.
func (s *Store) PurgeTombstones(ctx context.Context, before time.Time) (int64, error) {
	const q = `WITH gone AS (DELETE FROM wallet_tombstones WHERE deleted_at < $1 RETURNING serial_number),
		tokens AS (DELETE FROM apple_pass_tokens t USING gone WHERE t.serial_number = gone.serial_number AND t.user_id IS NULL)
		SELECT count(*) FROM gone`
	var n int64
	if err := s.DB.GetContext(ctx, &n, q, before); err != nil {
		return 0, fmt.Errorf("purge tombstones: %w", err)
	}
	return n, nil
}
