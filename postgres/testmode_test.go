package postgres_test

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// E-mail and phone are unique per mode: live people, and each partner's test people. Every
// lookup by them stays in one mode; a test person has no public profile.
func TestTestPeopleShareContactsWithLivePeopleButNoLookup(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	var a, b int64
	require.NoError(t, db.Get(&a, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_aaaaaaaaaaaaaaaaaaaaaaaa', 'Alfa', 'https://a.example') RETURNING id`))
	require.NoError(t, db.Get(&b, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_bbbbbbbbbbbbbbbbbbbbbbbb', 'Beta', 'https://b.example') RETURNING id`))
	email, phone := "ana@example.com", "+525512345678"
	insert := func(mode int64) (int64, string, error) {
		var id int64
		var pid string
		err := store.InTx(ctx, func(tx *sqlx.Tx) error {
			var err error
			id, pid, err = store.InsertUser(ctx, tx, postgres.NewUser{Nombre: "Ana", Email: &email, Phone: &phone, TestPartner: mode})
			return err
		})
		return id, pid, err
	}
	live, livePID, err := insert(perfilseguro.Live)
	require.NoError(t, err)
	testA, testPID, err := insert(a)
	require.NoError(t, err)
	testB, _, err := insert(b)
	require.NoError(t, err)
	_, _, err = insert(a)
	require.ErrorIs(t, err, postgres.ErrAlreadyRegistered, "unique among one partner's test people")
	_, _, err = insert(perfilseguro.Live)
	require.ErrorIs(t, err, postgres.ErrAlreadyRegistered, "unique among live people")

	for mode, want := range map[int64]int64{perfilseguro.Live: live, a: testA, b: testB} {
		u, err := store.UserByEmail(ctx, email, mode)
		require.NoError(t, err)
		require.Equal(t, want, u.ID)
		require.Equal(t, mode, u.Mode())
		u, err = store.UserByPhone(ctx, phone, mode)
		require.NoError(t, err)
		require.Equal(t, want, u.ID)
		id, err := store.RegisteredUserID(ctx, email, phone, mode)
		require.NoError(t, err)
		require.Equal(t, want, id)
		found, err := store.AccountsByContact(ctx, email, phone, mode)
		require.NoError(t, err)
		require.Len(t, found, 1, "one account per mode, not a mismatch")
		require.Equal(t, want, found[0].ID)
	}
	_, err = store.UserByEmail(ctx, email, a+b+1)
	require.ErrorIs(t, err, postgres.ErrUserNotFound)

	u, err := store.UserByProfileID(ctx, livePID)
	require.NoError(t, err)
	require.Equal(t, live, u.ID)
	_, err = store.UserByProfileID(ctx, testPID)
	require.ErrorIs(t, err, postgres.ErrUserNotFound, "a test person's profile ID is no public lookup")
	_, err = store.PublicProfileByID(ctx, testPID)
	require.ErrorIs(t, err, postgres.ErrUserNotFound)
	users, total, err := store.ListUsers(ctx, postgres.UserFilter{Query: "ana@"})
	require.NoError(t, err)
	require.Equal(t, 1, total)
	require.Equal(t, live, users[0].ID)
}

// Test people are deleted whole 30 days after they were made; live people and newer test people stay.
func TestRetentionDeletesTestPeopleAfter30Days(t *testing.T) {
	t.Parallel()
	ctx, db, store := setup(t)
	var partner int64
	require.NoError(t, db.Get(&partner, `INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('pk_cccccccccccccccccccccccc', 'Gama', 'https://c.example') RETURNING id`))
	mk := func(email string, mode int64, age time.Duration) int64 {
		id, _ := insertPerson(t, store, postgres.NewUser{Nombre: "Ana", Email: &email, TestPartner: mode})
		_, err := db.Exec(`UPDATE users SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, id, age.Seconds())
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO dev_messages (channel, recipient, body_text, test_partner_id) VALUES ('email', $1, 'código', NULLIF($2, 0))`, email, mode)
		require.NoError(t, err)
		return id
	}
	mk("vieja@example.com", partner, 31*24*time.Hour)
	recent := mk("nueva@example.com", partner, 29*24*time.Hour)
	oldLive := mk("real@example.com", perfilseguro.Live, 400*24*time.Hour)

	res, err := store.ApplyRetention(ctx, time.Now())
	require.NoError(t, err)
	require.Equal(t, int64(1), res[perfilseguro.RetainTestPeople])
	var left []int64
	require.NoError(t, db.Select(&left, `SELECT id FROM users ORDER BY id`))
	require.Equal(t, []int64{recent, oldLive}, left)
	var msgs int
	require.NoError(t, db.Get(&msgs, `SELECT count(*) FROM dev_messages WHERE recipient = 'vieja@example.com'`))
	require.Zero(t, msgs, "their inbox messages go with them")

}
