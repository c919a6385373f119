package api

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/postgres"
)

func TestValidOriginAcceptsOnlyABrowsersOrigin(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"https://casalista.mx", "http://localhost:8089", "https://www.casa-lista.example:8443",
		"http://127.0.0.1:5173", "http://[::1]:8080", "null"} {
		require.True(t, validOrigin(o), o)
	}
	for _, o := range []string{"", "casalista.mx", "https://", "https://casalista.mx/", "https://casalista.mx/ruta",
		"https://casalista.mx?x=1", "https://casalista.mx#f", "https://u:p@casalista.mx", "ftp://casalista.mx",
		"javascript:alert(1)", "HTTPS://casalista.mx", "https://casa lista.mx", "https://casa%2elista.mx",
		"https://casalista.mx:123456", "https://casalista.mx:8a", "https://" + strings.Repeat("a", 300) + ".mx",
		"https://casalista.mx\r\nX: y"} {
		require.False(t, validOrigin(o), o)
	}
}

func TestTheOriginCacheKeepsOnlyRegisteredOriginsUpToItsBound(t *testing.T) {
	t.Parallel()
	c := newOriginCache(100, time.Minute)
	now := time.Now()
	loads := 0
	for i := range 5000 {
		p, err := c.get(fmt.Sprintf("https://x%d.example", i), now, func() (*postgres.Partner, error) {
			loads++
			if i%2 == 0 {
				return &postgres.Partner{ID: int64(i)}, nil
			}
			return nil, nil
		})
		require.NoError(t, err)
		require.Equal(t, i%2 == 0, p != nil)
	}
	require.Equal(t, 5000, loads)
	require.Equal(t, 100, c.len(), "bounded")
	// A remembered origin answers from memory until its entry expires.
	p, _ := c.get("https://x4998.example", now.Add(time.Second), func() (*postgres.Partner, error) {
		t.Fatal("loaded again")
		return nil, nil
	})
	require.Equal(t, int64(4998), p.ID)
	p, _ = c.get("https://x4998.example", now.Add(2*time.Minute), func() (*postgres.Partner, error) { return nil, nil })
	require.Nil(t, p, "expired, and the partner is gone")
	require.Equal(t, 99, c.len())
}
