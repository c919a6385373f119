package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

func ptr[T any](v T) *T { return &v }

func TestAdminSessionsExpireIdleAndRevoke(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	a, err := s.EnsureAdmin(ctx, "ana@example.com", "Ana", perfilseguro.RoleAdministrator)
	require.NoError(t, err)
	require.NoError(t, s.InsertAdminSession(ctx, postgres.AdminSessionStart{TokenHash: "h1", AdminID: a.ID, Created: now,
		Expires: now.Add(4 * time.Hour), IP: "1.2.3.4"}))
	idle := 30 * time.Minute
	// Seen every 20 minutes: alive up to the absolute end, never past it.
	for at := now.Add(20 * time.Minute); at.Before(now.Add(4 * time.Hour)); at = at.Add(20 * time.Minute) {
		sess, err := s.AdminSessionByToken(ctx, "h1", at, idle)
		require.NoError(t, err)
		require.NotNil(t, sess, "alive at %s", at)
		require.Equal(t, "ana@example.com", sess.Email)
	}
	sess, err := s.AdminSessionByToken(ctx, "h1", now.Add(4*time.Hour+time.Second), idle)
	require.NoError(t, err)
	require.Nil(t, sess, "past the absolute end")

	require.NoError(t, s.InsertAdminSession(ctx, postgres.AdminSessionStart{TokenHash: "h2", AdminID: a.ID, Created: now,
		Expires: now.Add(4 * time.Hour)}))
	sess, err = s.AdminSessionByToken(ctx, "h2", now.Add(29*time.Minute), idle)
	require.NoError(t, err)
	require.NotNil(t, sess)
	sess, err = s.AdminSessionByToken(ctx, "h2", now.Add(60*time.Minute), idle)
	require.NoError(t, err)
	require.Nil(t, sess, "idle for 31 minutes")

	require.NoError(t, s.InsertAdminSession(ctx, postgres.AdminSessionStart{TokenHash: "h3", AdminID: a.ID, Created: now,
		Expires: now.Add(4 * time.Hour)}))
	require.NoError(t, s.RevokeAdminSession(ctx, "h3", now))
	sess, err = s.AdminSessionByToken(ctx, "h3", now, idle)
	require.NoError(t, err)
	require.Nil(t, sess, "revoked")
}

func TestListUsersSearchesAndPages(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)
	now := time.Now()
	ana, err := s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Ana López", Email: ptr("ana@example.mx"), Origen: "CasaLista", Vigencia: 5}, now)
	require.NoError(t, err)
	require.NotNil(t, ana.FechaValidacion)
	require.Regexp(t, `^PS-\d{4}-\d{4}-\d{2}$`, ana.IDValidado)
	_, err = s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Beto 100%_x", Origen: "Broker", Vigencia: 1}, now)
	require.NoError(t, err)
	_, err = s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Carla", Email: ptr("carla@otro.mx"), Origen: "Otro", Vigencia: 1}, now)
	require.NoError(t, err)

	all, total, err := s.ListUsers(ctx, postgres.UserFilter{})
	require.NoError(t, err)
	require.Equal(t, 3, total)
	require.Len(t, all, 3)

	for q, want := range map[string]int{"ana": 1, "BROKER": 1, ana.IDValidado[3:12]: 1, "%": 1, "_x": 1, "example": 1, "zzz": 0} {
		got, n, err := s.ListUsers(ctx, postgres.UserFilter{Query: q})
		require.NoError(t, err)
		require.Equal(t, want, n, q)
		require.Len(t, got, want, q)
	}
	page, total, err := s.ListUsers(ctx, postgres.UserFilter{Limit: 2, Offset: 2})
	require.NoError(t, err)
	require.Equal(t, 3, total)
	require.Len(t, page, 1)
	require.Equal(t, ana.ID, page[0].ID, "newest first, so the first created is last")
}

func TestUpdateUserAsAdminRefusesSomeoneElsesEmail(t *testing.T) {
	t.Parallel()
	ctx, _, s := setup(t)
	a, err := s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Ana", Email: ptr("ana@x.mx"), Origen: "Otro", Vigencia: 1}, time.Now())
	require.NoError(t, err)
	b, err := s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Beto", Email: ptr("beto@x.mx"), Origen: "Otro", Vigencia: 1}, time.Now())
	require.NoError(t, err)
	_, _, err = s.UpdateUserAsAdmin(ctx, b.ID, postgres.AdminUser{Nombre: "Beto", Email: ptr("ana@x.mx"), Origen: "Otro", Vigencia: 1})
	require.ErrorIs(t, err, postgres.ErrEmailTaken)
	before, after, err := s.UpdateUserAsAdmin(ctx, a.ID, postgres.AdminUser{Nombre: "Ana María", Origen: "Broker", Vigencia: 10})
	require.NoError(t, err)
	require.Equal(t, "Ana", before.Nombre)
	require.Equal(t, "Ana María", after.Nombre)
	require.Nil(t, after.Email)
	require.Equal(t, 10, after.Vigencia)
	_, err = s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Otra", Email: ptr("beto@x.mx"), Origen: "Otro", Vigencia: 1}, time.Now())
	require.ErrorIs(t, err, postgres.ErrEmailTaken)
}

func TestDeleteUserLeavesNoPersonalData(t *testing.T) {
	t.Parallel()
	ctx, db, s := setup(t)
	id, pid := insertPerson(t, s, postgres.NewUser{Nombre: "Dora Díaz", Email: ptr("dora@x.mx"), Phone: ptr("+525512345678")})
	other, err := s.CreateUserAsAdmin(ctx, postgres.AdminUser{Nombre: "Inviter", Origen: "Otro", Vigencia: 1}, time.Now())
	require.NoError(t, err)
	for _, q := range []string{
		`INSERT INTO consents (user_id, notice_version) VALUES ($1, 'v')`,
		`INSERT INTO verification_codes (user_id, code_hash, destination, purpose, expires_at) VALUES ($1, 'h', '+525512345678', 'login', now())`,
		`INSERT INTO email_verification_tokens (user_id, token_hash, expires_at) VALUES ($1, 'tok', now())`,
		`INSERT INTO user_sessions (token_hash, user_id, expires_at) VALUES (repeat('a', 64), $1, now())`,
		`INSERT INTO session_tokens (token_hash, user_id, expires_at) VALUES (repeat('b', 64), $1, now())`,
		`INSERT INTO verification_sessions (user_id, session_id) VALUES ($1, 'sess-1')`,
		`INSERT INTO wallet_passes (user_id, kind, data_hash) VALUES ($1, 'apple', repeat('c', 64))`,
		`INSERT INTO verification_logs (user_id, id_validado, ip_address, granted, location) VALUES ($1, (SELECT id_validado FROM users WHERE id = $1), '9.9.9.9', true, 'CDMX')`,
	} {
		_, err := db.ExecContext(ctx, q, id)
		require.NoError(t, err, q)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO provider_webhooks (provider, body_sha256, session_id, body) VALUES ('didit', repeat('d', 64), 'sess-1', 'x')`)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, expires_at)
		VALUES ($1, 'dora@x.mx', 'Dora', 'CODE1234', 'tok1', 'client', now())`, other.ID)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `INSERT INTO dev_messages (channel, recipient, body_text) VALUES ('whatsapp', '+525512345678', 'código 123456')`)
	require.NoError(t, err)

	require.NoError(t, s.DeleteUser(ctx, id))
	require.ErrorIs(t, s.DeleteUser(ctx, id), postgres.ErrUserNotFound)

	var n int
	for _, q := range []string{
		`SELECT count(*) FROM users WHERE id = $1`, `SELECT count(*) FROM consents WHERE user_id = $1`,
		`SELECT count(*) FROM verification_codes WHERE user_id = $1`, `SELECT count(*) FROM email_verification_tokens WHERE user_id = $1`,
		`SELECT count(*) FROM user_sessions WHERE user_id = $1`, `SELECT count(*) FROM session_tokens WHERE user_id = $1`,
		`SELECT count(*) FROM verification_sessions WHERE user_id = $1`, `SELECT count(*) FROM wallet_passes WHERE user_id = $1`,
		`SELECT count(*) FROM verification_logs WHERE user_id = $1`,
	} {
		require.NoError(t, db.GetContext(ctx, &n, q, id))
		require.Zero(t, n, q)
	}
	for _, q := range []string{
		`SELECT count(*) FROM provider_webhooks WHERE session_id = 'sess-1'`,
		`SELECT count(*) FROM invitations WHERE invitee_email = 'dora@x.mx'`,
		`SELECT count(*) FROM dev_messages WHERE recipient = '+525512345678'`,
	} {
		require.NoError(t, db.GetContext(ctx, &n, q))
		require.Zero(t, n, q)
	}
	var log struct {
		UserID   *int64  `db:"user_id"`
		PID      *string `db:"id_validado"`
		IP       *string `db:"ip_address"`
		Location *string `db:"location"`
	}
	require.NoError(t, db.GetContext(ctx, &log, `SELECT user_id, id_validado, ip_address, location FROM verification_logs`))
	require.Nil(t, log.UserID)
	require.Nil(t, log.PID, "the log no longer names the profile %s", pid)
	require.Nil(t, log.Location)
	require.Equal(t, "9.9.9.9", *log.IP, "the scanner's side stays")
}
