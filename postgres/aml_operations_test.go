package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/aml"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// Issue 53 item 1: an operation keeps its people by their account even when the session that
// linked them is purged, is kept 10 years from its date, and only a completed session of the
// same partner and mode links a person. The partner role 'cumplimiento' is stored.
func TestAnOperationIsStoredWithItsPeopleForTenYears(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	exec := execer(t, db)
	p := casaLista(t, store)
	uid, _ := insertPerson(t, store, postgres.NewUser{Nombre: "Ana Ruiz"})
	session := func(id string, live bool, status string) {
		shared := any(nil)
		if status == perfilseguro.SessionCompleted {
			shared = `{"name": "Ana Ruiz"}`
		}
		exec(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, user_id, shared, expires_at)
			VALUES ($1, $2, $3, 'c', 3, '{name}', $1, $4, $5, $6::jsonb, now())`, id, p.ID, live, status, uid, shared)
	}
	session("vs_000000000000000000000001", false, perfilseguro.SessionCompleted)
	session("vs_000000000000000000000002", false, perfilseguro.SessionDeclined)
	session("vs_000000000000000000000003", true, perfilseguro.SessionCompleted)

	n := postgres.NewAMLOperation{ID: "op_000000000000000000000001", PartnerID: p.ID, TestMode: true, Kind: aml.Arrendamiento,
		Amount: 20000000, OperationDate: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), PropertyReference: "Depto 4B",
		BusinessRole: "arrendador", CreatedByLabel: "llave sk_test_…abcd",
		People: []postgres.NewAMLOperationPerson{{Role: "arrendatario", SessionID: "vs_000000000000000000000001"}}}
	op, err := store.InsertAMLOperation(ctx, n)
	require.NoError(t, err)
	require.True(t, op.Monthly, "rent is monthly")
	require.Equal(t, "2034-02-28", op.RetentionUntil.Format(time.DateOnly), "10 years from a leap day")
	require.Len(t, op.People, 1)
	require.Equal(t, "Ana Ruiz", op.People[0].Name)
	require.False(t, op.People[0].IdentityVerified)

	// A declined session, or a live one for a test operation: refused, nothing written.
	for _, s := range []string{"vs_000000000000000000000002", "vs_000000000000000000000003"} {
		bad := n
		bad.ID = "op_000000000000000000000002"
		bad.People = []postgres.NewAMLOperationPerson{{Role: "otro", SessionID: s}}
		_, err = store.InsertAMLOperation(ctx, bad)
		require.ErrorIs(t, err, postgres.ErrOperationPerson, s)
	}
	_, err = store.AMLOperation(ctx, p.ID, true, "op_000000000000000000000002")
	require.ErrorIs(t, err, postgres.ErrOperationNotFound)
	_, err = store.AMLOperation(ctx, p.ID, false, op.ID)
	require.ErrorIs(t, err, postgres.ErrOperationNotFound, "a live read never finds a test operation")

	// The test sessions' purge leaves the person in the file, by account.
	exec(`DELETE FROM partner_sessions WHERE NOT livemode`)
	op, err = store.AMLOperation(ctx, p.ID, true, op.ID)
	require.NoError(t, err)
	require.Equal(t, "", op.People[0].SessionID)
	require.Equal(t, uid, *op.People[0].UserID)

	// The role 'cumplimiento' is stored; an unknown role is not.
	exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'oficial@casalista.mx', 'Olga', 'cumplimiento')`, p.ID)
	_, err = db.Exec(`INSERT INTO partner_users (partner_id, email, name, role) VALUES ($1, 'jefa@casalista.mx', 'Jefa', 'jefa')`, p.ID)
	require.ErrorContains(t, err, "partner_users_role_check")
	// The retention cannot be shortened by hand.
	_, err = db.Exec(`UPDATE aml_operations SET retention_until = operation_date + 365 WHERE id = $1`, op.ID)
	require.Error(t, err)
}
