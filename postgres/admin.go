package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// UserFilter pages and searches the administrators' user list.
type UserFilter struct {
	Query  string // case-insensitive substring of nombre, id_validado, email or origen; empty: all
	Limit  int    // 0: no limit
	Offset int
}

// ListUsers returns users newest first with the total that match the filter (before paging).
func (s *Store) ListUsers(ctx context.Context, f UserFilter) ([]perfilseguro.User, int, error) {
	// Partners' test people are theirs (the console), not the administrators'.
	where, args := "WHERE u.test_partner_id IS NULL", []any{}
	if q := strings.TrimSpace(f.Query); q != "" {
		args = append(args, "%"+escapeLike(strings.ToLower(q))+"%")
		where += ` AND (lower(u.nombre) LIKE $1 OR lower(u.id_validado) LIKE $1
			OR lower(coalesce(u.email, '')) LIKE $1 OR lower(u.origen) LIKE $1)`
	}
	page := " ORDER BY u.created_at DESC, u.id DESC"
	if f.Limit > 0 {
		page += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, max(f.Offset, 0))
	}
	rows, total, err := countAndList[userRow](ctx, s, "users", `SELECT count(*) FROM users u `+where, selectUser+where+page, args...)
	if err != nil {
		return nil, 0, err
	}
	users := make([]perfilseguro.User, len(rows))
	for i, r := range rows {
		users[i] = r.user()
	}
	return users, total, nil
}

// escapeLike makes a search term literal inside a LIKE pattern.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// AdminUser is what an administrator sets on a user record.
type AdminUser struct {
	Nombre   string
	Email    *string // normalized; nil clears it
	Origen   string
	Vigencia int
}

// ErrEmailTaken is the conflict of an administrator giving a user someone else's e-mail.
var ErrEmailTaken = &perfilseguro.Error{Code: perfilseguro.ECONFLICT, Message: "Ya existe un usuario con ese email",
	Fields: map[string]string{"email": "Ya existe un usuario con ese email"}}

// CreateUserAsAdmin creates a validated user: a fresh profile ID and fecha_validacion = validatedAt.
func (s *Store) CreateUserAsAdmin(ctx context.Context, u AdminUser, validatedAt time.Time) (perfilseguro.User, error) {
	var id int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		id, _, err = s.InsertUser(ctx, tx, NewUser{Nombre: u.Nombre, Email: u.Email, Origen: u.Origen, Vigencia: u.Vigencia})
		if errors.Is(err, ErrAlreadyRegistered) {
			return ErrEmailTaken
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET fecha_validacion = $2 WHERE id = $1`, id, validatedAt)
		return err
	})
	if err != nil {
		return perfilseguro.User{}, err
	}
	return s.UserByID(ctx, id)
}

// UpdateUserAsAdmin changes a user's name, e-mail, origin and validity and returns the record
// before and after the change (to tell whether a wallet pass must be rebuilt).
func (s *Store) UpdateUserAsAdmin(ctx context.Context, id int64, u AdminUser) (before, after perfilseguro.User, err error) {
	// A validity extended past today is no longer expired: the recorded expiry is cleared.
	const q = `UPDATE users SET nombre = $2, email = $3, origen = $4, vigencia = $5::int, updated_at = now(),
		expired_at = CASE WHEN validity_end(fecha_validacion, $5::smallint, document_expires_on) > now() THEN NULL ELSE expired_at END
		WHERE id = $1`
	err = s.InTx(ctx, func(tx *sqlx.Tx) error {
		before, err = s.getUser(ctx, tx, "WHERE u.id = $1 FOR UPDATE OF u", id)
		if err != nil {
			return err
		}
		if before.NameFromDocument && u.Nombre != before.Nombre {
			return ErrNameFromDocument // the identity document certifies it (issue 52)
		}
		if _, err := tx.ExecContext(ctx, q, id, u.Nombre, u.Email, u.Origen, u.Vigencia); err != nil {
			if _, dup := IsUniqueViolation(err); dup {
				return ErrEmailTaken
			}
			return fmt.Errorf("update user %d: %w", id, err)
		}
		after, err = s.getUser(ctx, tx, "WHERE u.id = $1", id)
		return err
	})
	return before, after, err
}

// DeleteUser removes a person for good: the user row and everything cascading from it (consents,
// codes, tokens, sessions, identity codes, biometric sessions, stored passes, sent invitations),
// plus what only points at them by value: raw provider webhooks of their biometric sessions,
// partner notifications about them, invitations addressed to them and development inbox messages.
// The partner sessions they completed keep their status only: shared claims and proofs are
// blanked (SharedDeleted), and each partner they were sharing with is sent profile.deleted
// (deletedNoticeQuery).
// Verification logs stay for the scanners' side but lose every link to the person. The AML files
// they are in keep their snapshot, locked (lockAMLFiles), with the declarations they cite.
func (s *Store) DeleteUser(ctx context.Context, id int64) error {
	return s.InTx(ctx, func(tx *sqlx.Tx) error {
		var who struct {
			ProfileID string  `db:"id_validado"`
			Email     *string `db:"email"`
			Phone     *string `db:"phone_number"`
		}
		err := getOne(ctx, tx, &who, ErrUserNotFound, fmt.Sprintf("delete user %d", id),
			`SELECT id_validado, email, phone_number FROM users WHERE id = $1 FOR UPDATE`, id)
		if err != nil {
			return err
		}
		steps := []struct {
			q    string
			args []any
		}{
			{`UPDATE verification_logs SET user_id = NULL, id_validado = NULL, additional_data = NULL, location = NULL
				WHERE user_id = $1 OR id_validado = $2`, []any{id, who.ProfileID}},
			{`DELETE FROM provider_webhooks WHERE session_id IN
				(SELECT session_id FROM verification_sessions WHERE user_id = $1 AND session_id IS NOT NULL)`, []any{id}},
			// Partners keep each session's status, never what the person shared with them.
			{blankSharedQuery, []any{id, 0, false, SharedDeleted}},
			{`DELETE FROM partner_deliveries WHERE user_id = $1`, []any{id}},
			// Each partner they were sharing with hears it by its own sessions (never by a profile
			// ID it was not shown), before the grants go with the account.
			{deletedNoticeQuery, []any{id}},
			{`DELETE FROM invitations WHERE accepted_user_id = $1 OR lower(invitee_email) = $2 OR invitee_phone = $3`,
				[]any{id, who.Email, who.Phone}},
			// The development stand-ins: the inbox's messages filed under the person go by cascade
			// (0029); these are the ones to their addresses, old ones included, filed under nobody.
			{`DELETE FROM dev_messages WHERE recipient IN ($2, $3, $4) OR user_id IS NULL AND recipient IN (` + codeAddressesOf + `)`,
				[]any{id, who.Email, who.Phone, who.ProfileID}},
			{`UPDATE dev_checkout_sessions SET customer_email = NULL, updated_at = now()
				WHERE metadata->>'user_id' = $1::text AND customer_email IS NOT NULL`, []any{id}},
			{forgetArcoText, []any{id, pq.Array(arcoAppWords)}},
			// The audit trail keeps who did what to the account, not its old name or e-mail: the
			// before/after values are blanked (the trigger allows only that, and only here).
			{`SET LOCAL perfilseguro.erasure = 'on'`, nil},
			{`UPDATE audit_events SET changes = (SELECT jsonb_object_agg(k, '{"before": "[eliminado]", "after": "[eliminado]"}'::jsonb)
				FROM jsonb_object_keys(changes) k) WHERE target_kind = 'user' AND target_id = $1::text AND changes IS NOT NULL`, []any{id}},
			{`SET LOCAL perfilseguro.erasure = 'off'`, nil},
			{`DELETE FROM users WHERE id = $1`, []any{id}},
		}
		// The LFPIORPI files they are in stay, locked, until their retention ends (issue 53 item 6).
		if err := lockAMLFiles(ctx, tx, id, time.Now()); err != nil {
			return err
		}
		for _, st := range steps {
			if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
				return fmt.Errorf("delete user %d: %w", id, err)
			}
		}
		return nil
	})
}
