package passkey_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/passkey"
)

// Partner users are a third kind of owner: their sign-in begins like the others' (and, without a
// ceremony cookie, is refused like theirs), while an unknown kind is a programming error.
func TestPartnerUsersAreAKindOfOwner(t *testing.T) {
	t.Parallel()
	s, err := passkey.New(nil, "https://perfilseguro.mx", nil)
	require.NoError(t, err)
	ctx := context.Background()
	for _, kind := range []string{passkey.KindUser, passkey.KindAdmin, passkey.KindPartner} {
		_, err := s.BeginLogin(ctx, kind, "not-a-session-key")
		require.ErrorIs(t, err, passkey.ErrNoChallenge, kind)
	}
	_, err = s.BeginLogin(ctx, "robot", "not-a-session-key")
	require.Error(t, err)
	require.NotErrorIs(t, err, passkey.ErrNoChallenge)
	_, err = s.BeginRegistration(ctx, passkey.Owner{Kind: "robot", ID: 1}, "not-a-session-key")
	require.Error(t, err)
	require.NotErrorIs(t, err, passkey.ErrNoChallenge)
}
