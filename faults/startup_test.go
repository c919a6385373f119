package faults

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/jobs/redistest"
	"github.com/perfilseguro/perfilseguro/postgres/pgtest"
)

// An API that cannot start says why before it exits. (fuego's WithoutLogger once replaced the
// process-wide logger with a silent one, and this line was lost.)
func TestAPIThatCannotListenLogsWhyAndExits(t *testing.T) {
	t.Parallel()
	_, dsn := pgtest.New(t)
	opt, _ := redistest.New(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	addr := taken.Addr().String()
	p := run(t, "api", map[string]string{"DATABASE_URL": dsn, "REDIS_URL": redistest.URL(opt),
		"HTTP_ADDR": addr, "PUBLIC_BASE_URL": "http://" + addr})
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		require.Error(t, err, "a non-zero exit status")
	case <-time.After(20 * time.Second):
		t.Fatal("the API kept running without its port")
	}
	require.Contains(t, p.out.String(), "perfilseguro failed")
	require.Contains(t, p.out.String(), "address already in use")
}
