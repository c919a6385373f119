package perfilseguro_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

func TestOwnOrigin(t *testing.T) {
	t.Parallel()
	prod := []string{"https://perfilseguro.mx"}
	require.True(t, perfilseguro.OwnOrigin("https://perfilseguro.mx", prod))
	require.True(t, perfilseguro.OwnOrigin("https://www.perfilseguro.mx", prod))
	require.True(t, perfilseguro.OwnOrigin("http://perfilseguro.mx:8443", prod))
	require.False(t, perfilseguro.OwnOrigin("https://casalista.mx", prod))
	require.False(t, perfilseguro.OwnOrigin("https://noperfilseguro.mx", prod))

	dev := []string{"http://localhost:8080"}
	require.True(t, perfilseguro.OwnOrigin("http://localhost:8080", dev))
	require.False(t, perfilseguro.OwnOrigin("http://localhost:3000", dev))
	require.False(t, perfilseguro.OwnOrigin("http://127.0.0.1:8081", dev))
}

func TestLoopbackOrigin(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"http://localhost:3000", "http://app.localhost", "http://127.0.0.1:8081", "http://[::1]:9000"} {
		require.True(t, perfilseguro.LoopbackOrigin(o), o)
	}
	for _, o := range []string{"https://casalista.mx", "http://10.0.0.5"} {
		require.False(t, perfilseguro.LoopbackOrigin(o), o)
	}
}
