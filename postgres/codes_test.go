package postgres_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

// The sign-in statement: account lookup, resend cooldown and the new code in one round trip.
func TestIssueSignInCodeStoresOneCodeOnlyForOneAccountOutsideTheCooldown(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	newUser := func() (id int64, email, phone string) {
		n := rand.IntN(90_000_000) + 10_000_000
		email, phone = fmt.Sprintf("sc%d@example.com", n), fmt.Sprintf("+5255%d", n)
		id, _ = insertPerson(t, store, postgres.NewUser{Nombre: "Sara Cruz", Email: &email, Phone: &phone})
		return
	}
	a, emailA, phoneA := newUser()
	_, _, phoneB := newUser()
	codes := func() (n int) {
		require.NoError(t, store.DB.Get(&n, `SELECT (SELECT count(*) FROM verification_codes) + (SELECT count(*) FROM email_verification_codes)`))
		return
	}
	usable := func(table string, id int64) (ok bool) {
		require.NoError(t, store.DB.Get(&ok, `SELECT NOT is_used FROM `+table+` WHERE id = $1`, id))
		return
	}
	destination := func(table string, id *int64) (d string) {
		require.NotNil(t, id, "a code was stored")
		require.NoError(t, store.DB.Get(&d, `SELECT destination FROM `+table+` WHERE id = $1`, *id))
		return
	}
	cooling, over := func() time.Time { return time.Now().Add(-time.Minute) }, func() time.Time { return time.Now().Add(time.Second) }
	issued := 0 // each request draws its own code: its own hashes
	issue := func(email, phone string, issuedBefore time.Time) []postgres.SignInAttempt {
		issued++
		found, err := store.IssueSignInCode(ctx, postgres.SignInCode{Email: email, Phone: phone, IssuedBefore: issuedBefore,
			Purpose: "login", PhoneHash: fmt.Sprintf("hash-phone-%d", issued), EmailHash: fmt.Sprintf("hash-email-%d", issued),
			ExpiresAt: time.Now().Add(10 * time.Minute)})
		require.NoError(t, err)
		return found
	}

	// By phone: the code goes in the phone table, for that phone, with the phone's hash.
	found := issue("", phoneA, cooling())
	require.Len(t, found, 1)
	require.Equal(t, a, found[0].ID)
	require.Nil(t, found[0].PendingSince, "no usable code before")
	require.NotNil(t, found[0].CodeID)
	firstPhone := *found[0].CodeID
	var row struct {
		UserID      int64  `db:"user_id"`
		Destination string `db:"destination"`
		Hash        string `db:"code_hash"`
		Purpose     string `db:"purpose"`
	}
	require.NoError(t, store.DB.Get(&row, `SELECT user_id, destination, code_hash, purpose FROM verification_codes WHERE id = $1`, firstPhone))
	require.Equal(t, a, row.UserID)
	require.Equal(t, phoneA, row.Destination)
	require.Equal(t, fmt.Sprintf("hash-phone-%d", issued), row.Hash)
	require.Equal(t, "login", row.Purpose)

	// Within the cooldown nothing is stored, whichever contact asks; the newest code's time comes back.
	before := codes()
	found = issue(emailA, "", cooling())
	require.Len(t, found, 1)
	require.Nil(t, found[0].CodeID)
	require.NotNil(t, found[0].PendingSince)
	require.WithinDuration(t, time.Now(), *found[0].PendingSince, 10*time.Second)
	require.Equal(t, before, codes())

	// After it, by e-mail: the e-mail table; the phone code stays usable (each channel keeps its newest).
	found = issue(emailA, "", over())
	require.NoError(t, store.DB.Get(&row, `SELECT user_id, destination, code_hash, purpose FROM email_verification_codes WHERE id = $1`, *found[0].CodeID))
	require.Equal(t, emailA, row.Destination)
	require.Equal(t, fmt.Sprintf("hash-email-%d", issued), row.Hash)
	require.True(t, usable("verification_codes", firstPhone))

	// A new phone code retires the earlier one of its channel, not the e-mail code.
	emailCode := *found[0].CodeID
	found = issue("", phoneA, over())
	require.False(t, usable("verification_codes", firstPhone))
	require.True(t, usable("verification_codes", *found[0].CodeID))
	require.True(t, usable("email_verification_codes", emailCode))

	// E-mail and phone of the same account: the phone table (the code goes to both).
	found = issue(emailA, phoneA, over())
	require.Len(t, found, 1)
	require.Equal(t, phoneA, destination("verification_codes", found[0].CodeID))
	// E-mail of the account and a phone nobody holds: the e-mail table.
	found = issue(emailA, "+525500000001", over())
	require.Len(t, found, 1)
	require.Equal(t, emailA, destination("email_verification_codes", found[0].CodeID))
	// Within the cooldown, by both: nothing.
	require.Nil(t, issue(emailA, phoneA, cooling())[0].CodeID)

	// E-mail of one account, phone of another: both come back and nothing is stored.
	before = codes()
	found = issue(emailA, phoneB, over())
	require.Len(t, found, 2)
	for _, f := range found {
		require.Nil(t, f.CodeID)
	}
	require.Equal(t, before, codes())

	// Nobody holds it: no rows, nothing stored.
	require.Empty(t, issue("nadie@example.com", "", over()))
	require.Empty(t, issue("", "+525500000002", over()))
	require.Equal(t, before, codes())
}

// database/sql runs a statement again on a new connection when lib/pq reports the first one
// broken, even after it committed (Postgres killed before it answered). The second run of the same
// sign-in (the same code, so the same hash) stores that code again instead of meeting the cooldown
// its first run started; another request within the minute still meets it.
func TestIssueSignInCodeRunTwiceStoresTheSameCodeAgain(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	n := rand.IntN(90_000_000) + 10_000_000
	email, phone := fmt.Sprintf("rt%d@example.com", n), fmt.Sprintf("+5255%d", n)
	insertPerson(t, store, postgres.NewUser{Nombre: "Rita Torres", Email: &email, Phone: &phone})
	cooling := time.Now().Add(-time.Minute)
	for _, c := range []struct {
		name         string
		email, phone string
		table        string
	}{
		{"by phone", "", phone, "verification_codes"},
		{"by e-mail", email, "", "email_verification_codes"},
		{"by both", email, phone, "verification_codes"},
	} {
		sic := postgres.SignInCode{Email: c.email, Phone: c.phone, IssuedBefore: time.Now().Add(time.Second), Purpose: "login",
			PhoneHash: "same-request-phone-" + c.name, EmailHash: "same-request-email-" + c.name, ExpiresAt: time.Now().Add(10 * time.Minute)}
		first, err := store.IssueSignInCode(ctx, sic)
		require.NoError(t, err)
		require.NotNil(t, first[0].CodeID, c.name)

		sic.IssuedBefore = cooling // the second run: within the cooldown the first run started
		again, err := store.IssueSignInCode(ctx, sic)
		require.NoError(t, err)
		require.NotNil(t, again[0].CodeID, "%s: the repeat stores its code", c.name)
		var usable []string
		require.NoError(t, db.Select(&usable, `SELECT code_hash FROM `+c.table+` c JOIN users u ON u.id = c.user_id
			WHERE u.phone_number = $1 AND NOT c.is_used`, phone))
		want := sic.PhoneHash
		if c.table == "email_verification_codes" {
			want = sic.EmailHash
		}
		require.Equal(t, []string{want}, usable, "%s: one usable code, the same", c.name)

		sic.PhoneHash, sic.EmailHash = "another-request-phone-"+c.name, "another-request-email-"+c.name
		other, err := store.IssueSignInCode(ctx, sic)
		require.NoError(t, err)
		require.Nil(t, other[0].CodeID, "%s: another request within the minute meets the cooldown", c.name)
	}
}
