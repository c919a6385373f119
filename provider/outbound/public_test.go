package outbound_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

func TestIsPublicRefusesEveryNonPublicRange(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
		"0.0.0.0", "224.0.0.1", "192.0.2.10", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2001:db8::1"} {
		require.False(t, outbound.IsPublic(netip.MustParseAddr(a)), a)
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"} {
		require.True(t, outbound.IsPublic(netip.MustParseAddr(a)), a)
	}
}

func TestPublicOnlyClientRefusesALoopbackServerThatAPlainClientReaches(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	res, err := outbound.Client(5 * time.Second).Get(srv.URL)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNoContent, res.StatusCode, "the server answers")

	_, err = outbound.PublicOnlyClient(5 * time.Second).Get(srv.URL)
	require.Error(t, err)
	require.True(t, errors.Is(err, outbound.ErrNotPublic), err)
	// A name is checked after it resolves: localhost is refused like 127.0.0.1.
	_, err = outbound.PublicOnlyClient(5 * time.Second).Get("http://localhost:" + srv.URL[len("http://127.0.0.1:"):])
	require.True(t, errors.Is(err, outbound.ErrNotPublic), err)
}
