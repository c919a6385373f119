package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/postgres"
)

// The check before a sign-up: the account holding the e-mail comes first, then the phone's.
func TestRegisteredUserIDPrefersTheEmailsAccount(t *testing.T) {
	t.Parallel()
	ctx, _, store := setup(t)
	insert := func(email, phone string) int64 {
		id, _ := insertPerson(t, store, postgres.NewUser{Nombre: "Rosa Díaz", Email: &email, Phone: &phone})
		return id
	}
	a := insert("rosa@example.com", "+525511110000")
	b := insert("otra@example.com", "+525522220000")
	for _, c := range []struct {
		email, phone string
		want         int64
	}{
		{"rosa@example.com", "+525599990000", a},
		{"nueva@example.com", "+525522220000", b},
		{"rosa@example.com", "+525522220000", a}, // both taken by different accounts: the e-mail's
		{"otra@example.com", "+525511110000", b},
		{"nueva@example.com", "+525599990000", 0},
	} {
		id, err := store.RegisteredUserID(ctx, c.email, c.phone, perfilseguro.Live)
		require.NoError(t, err)
		require.Equal(t, c.want, id, "%s %s", c.email, c.phone)
	}
}
