package secure

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCodesAndTokens(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 2000 {
		c := NewCode()
		require.Regexp(t, regexp.MustCompile(`^[0-9]{6}$`), c)
		seen[c] = true
	}
	require.Greater(t, len(seen), 1900)
	tok := NewToken(32)
	require.Len(t, tok, 64)
	require.NotEqual(t, tok, NewToken(32))
	require.Len(t, HashToken(tok), 64)
	require.NotEqual(t, tok, HashToken(tok))
}

func TestCoderBindsDestinationAndSecret(t *testing.T) {
	t.Parallel()
	c := NewCoder("s1")
	h := c.Hash("+525512345678", "123456")
	require.True(t, c.Matches("+525512345678", "123456", h))
	require.False(t, c.Matches("+525512345679", "123456", h), "the same code sent to another phone")
	require.False(t, c.Matches("ana@example.com", "123456", h), "the same code sent to an e-mail")
	require.False(t, c.Matches("+525512345678", "123457", h))
	require.False(t, NewCoder("s2").Matches("+525512345678", "123456", h), "another secret")
	// The separator keeps destination and code apart: "a1"+"23456" is not "a"+"123456".
	require.NotEqual(t, c.Hash("a1", "23456"), c.Hash("a", "123456"))
	require.NotContains(t, h, "123456")
}

func TestSealerRoundTripsAndRejectsOtherKeys(t *testing.T) {
	t.Parallel()
	s := NewSealer("k1")
	sealed := s.Seal("123456")
	require.NotContains(t, sealed, "123456")
	got, err := s.Open(sealed)
	require.NoError(t, err)
	require.Equal(t, "123456", got)
	_, err = NewSealer("k2").Open(sealed)
	require.Error(t, err)
	_, err = s.Open("not-base64!")
	require.Error(t, err)
}

func TestIsTokenAcceptsOnlyWhatNewTokenMakes(t *testing.T) {
	require.True(t, IsToken(NewToken(32), 32))
	require.True(t, IsToken(NewToken(16), 16))
	require.False(t, IsToken(NewToken(16), 32), "too short")
	require.False(t, IsToken(strings.Repeat("A1", 32), 32), "upper case is not ours")
	require.False(t, IsToken(strings.Repeat("g1", 32), 32), "not hex")
	require.False(t, IsToken("", 32))
}
