package perfilseguro_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func TestPartnerKeysSayTheirKindAndMode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind perfilseguro.PartnerKeyKind
		live bool
	}{{perfilseguro.KeyPublishable, true}, {perfilseguro.KeyPublishable, false}, {perfilseguro.KeySecret, true}, {perfilseguro.KeySecret, false}} {
		k := perfilseguro.NewPartnerKey(c.kind, c.live)
		kind, live, ok := perfilseguro.ParsePartnerKey(k)
		require.True(t, ok, k)
		require.Equal(t, c.kind, kind, k)
		require.Equal(t, c.live, live, k)
		require.NotEqual(t, k, perfilseguro.NewPartnerKey(c.kind, c.live), "random")
	}
	for _, bad := range []string{"", "pk_live_", "sk_live_XYZ", "pk_active", "sk_prod_0123456789abcdef01234567",
		"pk_live_0123456789abcdef0123456g", "Bearer sk_live_0123456789abcdef01234567"} {
		_, _, ok := perfilseguro.ParsePartnerKey(bad)
		require.False(t, ok, bad)
	}
	require.Equal(t, "sk_live_…cdef", perfilseguro.PartnerKeyHint("sk_live_0123456789abcdef0123456789abcdef"))
	require.Equal(t, "pk_test_0123456789abcdef01234567", perfilseguro.PartnerKeyHint("pk_test_0123456789abcdef01234567"))
}

func TestNewSessionValidation(t *testing.T) {
	t.Parallel()
	ok := perfilseguro.NewSession{Reference: " caso-17 ", RequiredLevel: 3, Claims: []string{"level", "name"},
		ReturnURL: "https://casalista.mx/vuelta?x=1"}
	require.NoError(t, ok.Validate("https://casalista.mx"))
	require.Equal(t, "caso-17", ok.Reference)
	require.Equal(t, []string{"name", "level"}, ok.Claims, "canonical order")

	for field, n := range map[string]perfilseguro.NewSession{
		"reference":     {RequiredLevel: 2, Claims: []string{"name"}},
		"requiredLevel": {Reference: "a", RequiredLevel: 1, Claims: []string{"name"}},
		"claims":        {Reference: "a", RequiredLevel: 2, Claims: []string{"name", "email"}},
		"returnUrl":     {Reference: "a", RequiredLevel: 2, Claims: []string{"name"}, ReturnURL: "https://evil.example/x"},
	} {
		err := n.Validate("https://casalista.mx")
		var de *perfilseguro.Error
		require.ErrorAs(t, err, &de, field)
		require.Contains(t, de.Fields, field)
	}
	empty := perfilseguro.NewSession{Reference: "a", RequiredLevel: 2}
	require.Error(t, empty.Validate("https://casalista.mx"), "at least one claim")
}
