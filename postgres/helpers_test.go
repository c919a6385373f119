package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
	"github.com/perfilseguro/perfilseguro/secure"
	"github.com/perfilseguro/perfilseguro/sql/migrations"
)

// setup gives a test a context, a migrated database of its own and a store on it.
func setup(t testing.TB) (context.Context, *sqlx.DB, *postgres.Store) {
	t.Helper()
	db, _ := pgtest.New(t)
	return context.Background(), db, &postgres.Store{DB: db, Documents: testDocumentKey}
}

// testDocumentKey seals the identity documents the tests store.
var testDocumentKey = secure.NewDocumentKey("test-document-key-0123456789abcdef0123")

// documentOf is the INE the person with user id holds in tests: their registered name, born on
// a day that depends on the id (so that two people never share a CURP).
func documentOf(t testing.TB, db *sqlx.DB, userID int64) *perfilseguro.DocumentIdentity {
	t.Helper()
	var name string
	require.NoError(t, db.Get(&name, `SELECT nombre FROM users WHERE id = $1`, userID))
	d := identity.SampleDocument(name, time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(userID%10000)))
	return &d
}

// emptyDB opens a database of its own with no migration applied, closed when the test ends.
func emptyDB(t testing.TB) *sqlx.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgtest.Empty(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// migratedTo opens a database of its own migrated up to version only, to test an upgrade from it.
func migratedTo(t testing.TB, version int64) *sqlx.DB {
	t.Helper()
	db := emptyDB(t)
	provider, err := goose.NewProvider(goose.DialectPostgres, db.DB, migrations.FS)
	require.NoError(t, err)
	_, err = provider.UpTo(context.Background(), version)
	require.NoError(t, err)
	return db
}

// insertPerson stores u in a transaction of its own and returns its id and profile id.
func insertPerson(t testing.TB, store *postgres.Store, u postgres.NewUser) (int64, string) {
	t.Helper()
	var id int64
	var pid string
	require.NoError(t, store.InTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		id, pid, err = store.InsertUser(context.Background(), tx, u)
		return err
	}))
	return id, pid
}

// execer returns a function that runs a statement on db and fails the test if it fails.
func execer(t testing.TB, db *sqlx.DB) func(q string, args ...any) {
	return func(q string, args ...any) {
		t.Helper()
		_, err := db.Exec(q, args...)
		require.NoError(t, err, q)
	}
}

// casaLista creates the partner most tests use, allowed the widget.
func casaLista(t testing.TB, store *postgres.Store) postgres.CreatedPartner {
	t.Helper()
	p, err := store.CreatePartner(context.Background(), postgres.NewPartner{PartnerName: "CasaLista", Domain: "https://casalista.mx", Permissions: []string{"widget_auth"}})
	require.NoError(t, err)
	return p
}
