package passkey_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/passkey"
)

func TestTheRelyingPartyIsTheHostOfThePublicBaseURL(t *testing.T) {
	t.Parallel()
	s, err := passkey.New(nil, "https://perfilseguro.mx/", nil)
	require.NoError(t, err)
	require.Equal(t, "perfilseguro.mx", s.RPID())
	s, err = passkey.New(nil, "http://localhost:8080", nil)
	require.NoError(t, err)
	require.Equal(t, "localhost", s.RPID())
	// Browsers refuse an IP address as RP ID, and so does the service.
	_, err = passkey.New(nil, "http://127.0.0.1:8089", nil)
	require.Error(t, err)
}

func TestNamesAreTrimmedAndBetween1And60Characters(t *testing.T) {
	t.Parallel()
	name, ok := passkey.CleanName("  Mi   teléfono ")
	require.True(t, ok)
	require.Equal(t, "Mi teléfono", name)
	_, ok = passkey.CleanName("   ")
	require.False(t, ok)
	_, ok = passkey.CleanName(strings.Repeat("ñ", 60))
	require.True(t, ok)
	_, ok = passkey.CleanName(strings.Repeat("ñ", 61))
	require.False(t, ok)
}

func TestSessionKeysAre64LowercaseHexCharacters(t *testing.T) {
	t.Parallel()
	require.True(t, passkey.ValidSessionKey(strings.Repeat("a1", 32)))
	require.False(t, passkey.ValidSessionKey(strings.Repeat("A1", 32)))
	require.False(t, passkey.ValidSessionKey("abc"))
}
