// Package pgtest gives each test its own freshly migrated database on the real Postgres.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // driver

	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/sql/migrations"
)

// AdminURL is the maintenance database used to create and drop test databases.
func AdminURL() string {
	if v := os.Getenv("TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// New creates a migrated database for this test, dropped when the test ends, and returns it with its URL.
func New(t testing.TB) (*sqlx.DB, string) {
	t.Helper()
	ctx := context.Background()
	admin, err := sqlx.Open("postgres", AdminURL())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer admin.Close()
	templateOnce.Do(func() { templateName, templateErr = buildTemplate(ctx, admin) })
	if templateErr != nil {
		t.Fatalf("pgtest: template: %v", templateErr)
	}
	name := "pstest_" + randomSuffix()
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, templateName)); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	dsn := WithDatabase(AdminURL(), name)
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		db.Close()
		drop, err := sqlx.Open("postgres", AdminURL())
		if err == nil {
			drop.Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
			drop.Close()
		}
	})
	return db, dsn
}

// Empty creates an empty (unmigrated) database for this test and returns its URL.
func Empty(t testing.TB) string {
	t.Helper()
	admin, err := sqlx.Open("postgres", AdminURL())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer admin.Close()
	name := "pstest_" + randomSuffix()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		drop, err := sqlx.Open("postgres", AdminURL())
		if err == nil {
			drop.Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
			drop.Close()
		}
	})
	return WithDatabase(AdminURL(), name)
}

// buildTemplate returns a migrated template database named after the migrations' content,
// creating it once (under an advisory lock, so parallel test processes agree) and reusing it after.
func buildTemplate(ctx context.Context, admin *sqlx.DB) (string, error) {
	h := sha256.New()
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		b, _ := fs.ReadFile(migrations.FS, e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	name := "pstmpl_" + hex.EncodeToString(h.Sum(nil))[:16]

	conn, err := admin.Connx(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(727001)"); err != nil {
		return "", err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock(727001)")
	var exists bool
	if err := conn.GetContext(ctx, &exists, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+name+"_build"); err != nil {
		return "", err
	}
	db, err := postgres.Open(ctx, WithDatabase(AdminURL(), name+"_build"))
	if err != nil {
		return "", err
	}
	err = postgres.Migrate(ctx, db)
	db.Close()
	if err != nil {
		conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+"_build WITH (FORCE)")
		return "", err
	}
	// Renamed only once fully migrated, so a half-built template is never used.
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+name+"_build RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

// WithDatabase returns dsn pointing at another database.
func WithDatabase(dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

func randomSuffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
