package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// checkWith starts a check for userID and applies an approved decision that read doc.
func checkWith(t *testing.T, s *postgres.Store, userID int64, sid string, doc perfilseguro.DocumentIdentity) postgres.DecisionResult {
	t.Helper()
	ctx := context.Background()
	var vid int64
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		vid, err = s.InsertVerificationSession(ctx, tx, userID, "didit", "test")
		return err
	}))
	ok, err := s.SetVerificationStarted(ctx, vid, perfilseguro.BiometricSession{SessionID: sid, URL: "https://x/" + sid})
	require.NoError(t, err)
	require.True(t, ok)
	score := 95.0
	var res postgres.DecisionResult
	require.NoError(t, s.InTx(ctx, func(tx *sqlx.Tx) (err error) {
		res, err = s.ApplyDecision(ctx, tx, perfilseguro.BiometricDecision{SessionID: sid, Status: perfilseguro.BiometricApproved,
			Overall: &score, Identity: &doc, Raw: []byte(v3Decision(sid, &doc))})
		return err
	}))
	return res
}

// everyRow is the text of every row of every table of the public schema, but the rows of
// verification_sessions that belong to the user keep (someone else's own reading of the ID).
func everyRow(t *testing.T, db *sqlx.DB, keep int64) string {
	t.Helper()
	var tables []string
	require.NoError(t, db.Select(&tables, `SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'`))
	var b strings.Builder
	for _, table := range tables {
		var rows []string
		q := `SELECT t::text FROM ` + table + ` t`
		if table == "verification_sessions" {
			q += fmt.Sprintf(` WHERE user_id <> %d`, keep)
		}
		require.NoError(t, db.Select(&rows, q), table)
		for _, r := range rows {
			b.WriteString(table + ": " + r + "\n")
		}
	}
	return b.String()
}

// TestDeletingAProfileRemovesItsDocumentAndReleasesTheID (issue 52 items 4 and 9): deleting a
// certified profile leaves no row with its document (the doc_* columns, the sealed number, CURP
// and address, the lookup hashes, the profile's document_key, the stored decision), and the same
// ID certifies a new profile afterwards; before the deletion it was refused as a duplicate.
func TestDeletingAProfileRemovesItsDocumentAndReleasesTheID(t *testing.T) {
	ctx, db, store := setup(t)
	const name = "Laura Méndez Ríos"
	doc := identity.SampleDocument(name, time.Date(1984, 7, 21, 0, 0, 0, 0, time.UTC))
	first, _ := insertPerson(t, store, postgres.NewUser{Nombre: name})
	res := checkWith(t, store, first, "del-1", doc)
	require.Equal(t, identity.VerdictMatch, res.Verdict)
	require.True(t, res.ApprovedNow)

	var held struct {
		Key        string  `db:"document_key"`
		CURPHash   string  `db:"doc_curp_hash"`
		NumberHash string  `db:"doc_number_hash"`
		CURPSealed string  `db:"doc_curp_sealed"`
		Number     string  `db:"doc_number_sealed"`
		Address    *string `db:"doc_address_sealed"`
	}
	require.NoError(t, db.Get(&held, `SELECT u.document_key, v.doc_curp_hash, v.doc_number_hash, v.doc_curp_sealed,
		v.doc_number_sealed, v.doc_address_sealed FROM users u JOIN verification_sessions v ON v.id = u.identity_verification_id
		WHERE u.id = $1`, first))
	require.Equal(t, held.CURPHash, held.Key, "the profile is bound by its CURP's hash")

	// A second account with the same ID is refused while the first profile lives.
	second, _ := insertPerson(t, store, postgres.NewUser{Nombre: name})
	res = checkWith(t, store, second, "del-2", doc)
	require.Equal(t, identity.VerdictDuplicate, res.Verdict)
	require.Equal(t, first, res.DuplicateOf)
	u, err := store.UserByID(ctx, second)
	require.NoError(t, err)
	require.Less(t, u.VerificationLevel, 3)

	require.NoError(t, store.DeleteUser(ctx, first))
	all := everyRow(t, db, second)
	for what, v := range map[string]string{"document_key": held.Key, "CURP hash": held.CURPHash, "number hash": held.NumberHash,
		"sealed CURP": held.CURPSealed, "sealed number": held.Number, "CURP": doc.PersonalNumber, "number": doc.DocumentNumber} {
		require.NotContains(t, all, v, "the %s outlived the deletion", what)
	}
	if held.Address != nil {
		require.NotContains(t, all, *held.Address)
	}
	var left int
	require.NoError(t, db.Get(&left, `SELECT count(*) FROM verification_sessions WHERE user_id = $1`, first))
	require.Zero(t, left)
	// The second account's refused check no longer points at a profile that is gone.
	var dup *int64
	require.NoError(t, db.Get(&dup, `SELECT duplicate_of FROM verification_sessions WHERE session_id = 'del-2'`))
	require.Nil(t, dup)

	// Released: the same ID now certifies the second account.
	res = checkWith(t, store, second, "del-3", doc)
	require.Equal(t, identity.VerdictMatch, res.Verdict, fmt.Sprint(res))
	require.True(t, res.ApprovedNow)
	u, err = store.UserByID(ctx, second)
	require.NoError(t, err)
	require.Equal(t, 3, u.VerificationLevel)
	require.True(t, u.NameFromDocument)
	var key string
	require.NoError(t, db.Get(&key, `SELECT document_key FROM users WHERE id = $1`, second))
	require.Equal(t, held.Key, key)
}
