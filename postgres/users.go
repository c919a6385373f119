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

// Store runs the product's SQL. Queries sit next to the method that runs them.
type Store struct {
	DB *sqlx.DB // the leader: every write and every read that must be current
	// Replica serves the few reads that may lag a second or two (replica.go); nil: all on DB.
	Replica *Replica
	// Documents seals identity documents' data and the personal part of the provider's raw
	// answers (documents.go). Zero: documents cannot be stored, and the personal part of a raw
	// answer is dropped rather than kept in clear.
	Documents secure.DocumentKey
}

// userRow is the storage shape of a user; domain types carry no db tags.
type userRow struct {
	ID                int64      `db:"id"`
	Nombre            string     `db:"nombre"`
	Email             *string    `db:"email"`
	PhoneNumber       *string    `db:"phone_number"`
	Origen            string     `db:"origen"`
	InvitedBy         *int64     `db:"invited_by"`
	InviterName       *string    `db:"inviter_name"`
	Vigencia          int        `db:"vigencia"`
	FechaValidacion   *time.Time `db:"fecha_validacion"`
	IDValidado        string     `db:"id_validado"`
	WalletReady       bool       `db:"wallet_ready"`
	IsPhoneVerified   bool       `db:"is_phone_verified"`
	IsEmailVerified   bool       `db:"is_email_verified"`
	BiometricVerified bool       `db:"biometric_verified"`
	VerificationLevel int        `db:"verification_level"`
	ExpiredAt         *time.Time `db:"expired_at"`
	RevokedAt         *time.Time `db:"revoked_at"`
	RevokedReason     *string    `db:"revoked_reason"`
	RevalidationAt    *time.Time `db:"revalidation_required_at"`
	TestPartnerID     *int64     `db:"test_partner_id"`
	NameSource        string     `db:"name_source"`
	DocumentExpires   *time.Time `db:"document_expires_on"`
	CreatedAt         time.Time  `db:"created_at"`
	UpdatedAt         time.Time  `db:"updated_at"`
}

func (r userRow) user() perfilseguro.User {
	return perfilseguro.User{ID: r.ID, Nombre: r.Nombre, Email: r.Email, PhoneNumber: r.PhoneNumber, Origen: r.Origen,
		InvitedBy: r.InvitedBy, InviterName: r.InviterName, Vigencia: r.Vigencia, FechaValidacion: r.FechaValidacion,
		IDValidado: r.IDValidado, WalletReady: r.WalletReady, IsPhoneVerified: r.IsPhoneVerified,
		IsEmailVerified: r.IsEmailVerified, BiometricVerified: r.BiometricVerified,
		VerificationLevel: r.VerificationLevel, ExpiredAt: r.ExpiredAt, RevokedAt: r.RevokedAt,
		RevokedReason: r.RevokedReason, RevalidationRequiredAt: r.RevalidationAt, TestPartnerID: r.TestPartnerID,
		NameFromDocument: r.NameSource == "document", DocumentExpiresOn: r.DocumentExpires, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// selectUser reads users with their inviter's name.
const selectUser = `SELECT u.id, u.nombre, u.email, u.phone_number, u.origen, u.invited_by, i.nombre AS inviter_name,
	u.vigencia, u.fecha_validacion, u.id_validado, u.wallet_ready, u.is_phone_verified, u.is_email_verified,
	u.biometric_verified, u.verification_level, u.expired_at, u.revoked_at, u.revoked_reason, u.revalidation_required_at, u.test_partner_id,
	u.name_source, u.document_expires_on, u.created_at, u.updated_at
	FROM users u LEFT JOIN users i ON i.id = u.invited_by `

// ErrUserNotFound is returned when no user matches.
var ErrUserNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos el perfil solicitado.")

func (s *Store) getUser(ctx context.Context, q sqlx.QueryerContext, where string, args ...any) (perfilseguro.User, error) {
	var r userRow
	if err := sqlx.GetContext(ctx, q, &r, selectUser+where, args...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return perfilseguro.User{}, ErrUserNotFound
		}
		return perfilseguro.User{}, fmt.Errorf("find user: %w", err)
	}
	return r.user(), nil
}

// UserByID finds a user by internal id.
func (s *Store) UserByID(ctx context.Context, id int64) (perfilseguro.User, error) {
	return s.getUser(ctx, s.q(ctx), "WHERE u.id = $1", id)
}

// modeIs matches the people of one mode (perfilseguro.User.Mode: 0 live, else a partner's test
// people) along the (email|phone, mode) unique indexes.
const modeIs = "coalesce(u.test_partner_id, 0) = "

// UserByEmail finds a user of a mode by normalized e-mail.
func (s *Store) UserByEmail(ctx context.Context, email string, mode int64) (perfilseguro.User, error) {
	return s.getUser(ctx, s.q(ctx), "WHERE u.email = $1 AND "+modeIs+"$2", email, mode)
}

// UserByPhone finds a user of a mode by E.164 phone.
func (s *Store) UserByPhone(ctx context.Context, phone string, mode int64) (perfilseguro.User, error) {
	return s.getUser(ctx, s.q(ctx), "WHERE u.phone_number = $1 AND "+modeIs+"$2", phone, mode)
}

// RegisteredUserID is the account of the mode that already holds this e-mail or, failing that,
// this phone (0: neither). One indexed statement reading only the id: it runs before every sign-up.
func (s *Store) RegisteredUserID(ctx context.Context, email, phone string, mode int64) (int64, error) {
	var id int64
	err := s.q(ctx).GetContext(ctx, &id, `SELECT id FROM users u WHERE (email = $1 OR phone_number = $2) AND `+modeIs+`$3
		ORDER BY email = $1 DESC LIMIT 1`, email, phone, mode)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// UserByProfileID finds a live person by profile ID (id_validado); a test person's profile ID
// is nobody's to look up.
func (s *Store) UserByProfileID(ctx context.Context, profileID string) (perfilseguro.User, error) {
	return s.getUser(ctx, s.q(ctx), "WHERE u.id_validado = $1 AND u.test_partner_id IS NULL", profileID)
}

// NewUser is what is needed to create a user record.
type NewUser struct {
	Nombre    string
	Email     *string
	Phone     *string
	Origen    string
	InvitedBy *int64
	PartnerID *int64
	// TestPartner makes a test person of that partner (0: a live person).
	TestPartner int64
	Vigencia    int
	Plan        string // the plan chosen on the landing page ("" when none)
}

// InsertUser creates a user with a fresh random profile ID (retrying on the rare collision).
// A duplicate e-mail or phone becomes ECONFLICT.
func (s *Store) InsertUser(ctx context.Context, tx *sqlx.Tx, u NewUser) (int64, string, error) {
	const q = `INSERT INTO users (nombre, email, phone_number, origen, invited_by, partner_id, vigencia, id_validado, plan, test_partner_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULLIF($9, ''), NULLIF($10, 0)) RETURNING id`
	if u.Origen == "" {
		u.Origen = perfilseguro.OriginOther
	}
	if u.Vigencia == 0 {
		u.Vigencia = 1
	}
	for range 5 {
		pid := perfilseguro.NewProfileID()
		var id int64
		_, err := tx.ExecContext(ctx, "SAVEPOINT insert_user")
		if err != nil {
			return 0, "", err
		}
		err = tx.GetContext(ctx, &id, q, u.Nombre, u.Email, u.Phone, u.Origen, u.InvitedBy, u.PartnerID, u.Vigencia, pid, u.Plan, u.TestPartner)
		if err == nil {
			_, err = tx.ExecContext(ctx, "RELEASE SAVEPOINT insert_user")
			return id, pid, err
		}
		if _, rbErr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT insert_user"); rbErr != nil {
			return 0, "", rbErr
		}
		constraint, dup := IsUniqueViolation(err)
		switch {
		case dup && constraint == "users_id_validado_key":
			continue // collision of random IDs: draw again
		case dup:
			return 0, "", ErrAlreadyRegistered
		default:
			return 0, "", fmt.Errorf("insert user: %w", err)
		}
	}
	return 0, "", errors.New("insert user: could not draw a unique profile ID")
}

// ErrAlreadyRegistered is the registration conflict (SPEC §4: 409 saying the e-mail or phone is registered).
var ErrAlreadyRegistered = perfilseguro.Errorf(perfilseguro.ECONFLICT, "El correo electrónico o el número de teléfono ya está registrado.")

// RecordConsent stores the privacy-notice acceptance given at registration.
func (s *Store) RecordConsent(ctx context.Context, tx *sqlx.Tx, userID int64, version, ip, userAgent string) error {
	const q = `INSERT INTO consents (user_id, notice_version, ip_address, user_agent) VALUES ($1, $2, $3, $4)`
	_, err := tx.ExecContext(ctx, q, userID, version, ip, userAgent)
	return err
}

// VerificationStatus is what the profile polls.
type VerificationStatus struct {
	VerificationLevel   int     `db:"verification_level"`
	BiometricVerified   bool    `db:"biometric_verified"`
	IsPhoneVerified     bool    `db:"is_phone_verified"`
	IsEmailVerified     bool    `db:"is_email_verified"`
	LastBiometricStatus *string `db:"last_biometric_status"`
	Revoked             bool    `db:"revoked"` // an administrator revoked the validation (not lifted)
}

// VerificationStatusOf reads a user's levels and the latest biometric session status.
func (s *Store) VerificationStatusOf(ctx context.Context, userID int64) (VerificationStatus, error) {
	const q = `SELECT u.verification_level, u.biometric_verified, u.is_phone_verified, u.is_email_verified,
		u.revoked_at IS NOT NULL AS revoked, (SELECT vs.verification_status FROM verification_sessions vs WHERE vs.user_id = u.id
		 ORDER BY vs.created_at DESC LIMIT 1) AS last_biometric_status
		FROM users u WHERE u.id = $1`
	var v VerificationStatus
	if err := getOne(ctx, s.q(ctx), &v, ErrUserNotFound, "verification status", q, userID); err != nil {
		return v, err
	}
	return v, nil
}
