package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

func TestMigrateOnEmptyDatabaseThenAgainChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := emptyDB(t)

	require.NoError(t, postgres.Migrate(ctx, db))
	var tables []string
	require.NoError(t, db.Select(&tables, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_name <> 'goose_db_version' ORDER BY table_name`))
	for _, want := range []string{"users", "verification_codes", "email_verification_codes", "email_verification_tokens",
		"verification_logs", "identity_codes", "api_keys", "session_tokens", "invitations", "verification_sessions",
		"user_sessions", "admin_sessions", "consents", "provider_webhooks", "wallet_passes", "job_heartbeats"} {
		require.Contains(t, tables, want)
	}
	var schemaBefore string
	require.NoError(t, db.Get(&schemaBefore, `SELECT string_agg(table_name || '.' || column_name || ':' || data_type, ',' ORDER BY table_name, column_name)
		FROM information_schema.columns WHERE table_schema = 'public'`))
	var versionsBefore int
	require.NoError(t, db.Get(&versionsBefore, `SELECT count(*) FROM goose_db_version`))

	require.NoError(t, postgres.Migrate(ctx, db), "second run must be a no-op")
	var schemaAfter string
	require.NoError(t, db.Get(&schemaAfter, `SELECT string_agg(table_name || '.' || column_name || ':' || data_type, ',' ORDER BY table_name, column_name)
		FROM information_schema.columns WHERE table_schema = 'public'`))
	var versionsAfter int
	require.NoError(t, db.Get(&versionsAfter, `SELECT count(*) FROM goose_db_version`))
	require.Equal(t, schemaBefore, schemaAfter)
	require.Equal(t, versionsBefore, versionsAfter)
	require.Contains(t, schemaAfter, "users.casalista_id:text")
}

func TestConstraintsRejectBadEnumerationsAndDuplicates(t *testing.T) {
	t.Parallel()
	db, _ := pgtest.New(t)
	insertUser := `INSERT INTO users (nombre, email, phone_number, id_validado, vigencia, verification_level, origen)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`
	var id int64
	require.NoError(t, db.Get(&id, insertUser, "Ana López", "ana@example.com", "+525512345678", "PS-1234-5678-90", 1, 0, "Otro"))

	cases := []struct {
		name string
		args []any
		want string
	}{
		{"vigencia 2", []any{"B", "b@example.com", "+525500000001", "PS-0000-0000-01", 2, 0, "Otro"}, "users_vigencia_check"},
		{"level 4", []any{"B", "b@example.com", "+525500000001", "PS-0000-0000-01", 1, 4, "Otro"}, "users_verification_level_check"},
		{"origen", []any{"B", "b@example.com", "+525500000001", "PS-0000-0000-01", 1, 0, "Facebook"}, "users_origen_check"},
		{"bad profile id", []any{"B", "b@example.com", "+525500000001", "PS-12-34", 1, 0, "Otro"}, "users_id_validado_check"},
		{"duplicate email", []any{"B", "ana@example.com", "+525500000001", "PS-0000-0000-01", 1, 0, "Otro"}, "users_email_key"},
		{"duplicate phone", []any{"B", "b@example.com", "+525512345678", "PS-0000-0000-01", 1, 0, "Otro"}, "users_phone_number_key"},
		{"duplicate profile id", []any{"B", "b@example.com", "+525500000001", "PS-1234-5678-90", 1, 0, "Otro"}, "users_id_validado_key"},
		{"upper-case email", []any{"B", "B@Example.com", "+525500000001", "PS-0000-0000-01", 1, 0, "Otro"}, "users_email_check"},
	}
	for _, c := range cases {
		var got int64
		err := db.Get(&got, insertUser, c.args...)
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
	}

	insertInv := `INSERT INTO invitations (inviter_id, invitee_email, invitee_name, invitation_code, unique_token, type, status, expires_at)
		VALUES ($1, 'x@example.com', 'Xavier', $2, $3, $4, $5, now() + interval '7 days')`
	_, err := db.Exec(insertInv, id, "CODE0001", "tok1", "client", "pending")
	require.NoError(t, err)
	_, err = db.Exec(insertInv, id, "CODE0002", "tok2", "landlord", "pending")
	require.ErrorContains(t, err, "invitations_type_check")
	_, err = db.Exec(insertInv, id, "CODE0003", "tok3", "broker", "lost")
	require.ErrorContains(t, err, "invitations_status_check")
	_, err = db.Exec(insertInv, id, "CODE0001", "tok4", "broker", "pending")
	require.ErrorContains(t, err, "invitations_invitation_code_key")

	// Deleting a user cascades to personal rows but keeps logs without the link.
	_, err = db.Exec(`INSERT INTO verification_logs (user_id, id_validado, granted) VALUES ($1, 'PS-1234-5678-90', true)`, id)
	require.NoError(t, err)
	_, err = db.Exec(`DELETE FROM users WHERE id = $1`, id)
	require.NoError(t, err)
	var invitations, logsWithUser, logs int
	require.NoError(t, db.Get(&invitations, `SELECT count(*) FROM invitations`))
	require.NoError(t, db.Get(&logsWithUser, `SELECT count(*) FROM verification_logs WHERE user_id IS NOT NULL`))
	require.NoError(t, db.Get(&logs, `SELECT count(*) FROM verification_logs`))
	require.Equal(t, 0, invitations)
	require.Equal(t, 0, logsWithUser)
	require.Equal(t, 1, logs)
}
