package postgres

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// replyPair is a loopback TCP connection: the client end wrapped in a replyConn bounded by
// timeout, and the server end as it is.
func replyPair(t *testing.T, timeout time.Duration) (client net.Conn, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := newPoolDialer(timeout).Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	s := <-accepted
	require.NotNil(t, s)
	t.Cleanup(func() { c.Close(); s.Close() })
	require.IsType(t, &replyConn{}, c)
	return c, s
}

// send writes msg (a query's first byte, say) to c.
func send(t *testing.T, c net.Conn, msg string) {
	t.Helper()
	_, err := c.Write([]byte(msg))
	require.NoError(t, err)
}

// readErrAfter reads one byte from c and returns the error and how long the read took.
func readErrAfter(c net.Conn) (error, time.Duration) {
	start := time.Now()
	_, err := c.Read(make([]byte, 1))
	return err, time.Since(start)
}

func requireTimeout(t *testing.T, err error) {
	t.Helper()
	var opErr *net.OpError // what lib/pq needs to mark the connection bad
	require.True(t, errors.As(err, &opErr), "a *net.OpError: %v", err)
	require.True(t, opErr.Timeout(), "a timeout: %v", err)
	require.True(t, IsUnavailable(err))
}

func TestReplyConnFailsWhenTheReplyNeverComes(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	c, _ := replyPair(t, timeout)
	send(t, c, "Q")
	err, took := readErrAfter(c)
	requireTimeout(t, err)
	require.GreaterOrEqual(t, took, timeout-50*time.Millisecond)
	require.Less(t, took, timeout+time.Second)
}

func TestReplyConnAcceptsAReplyThatTrickles(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	c, s := replyPair(t, timeout)
	send(t, c, "Q")
	const n = 8 // 8 × timeout/2 = 4 timeouts in all
	go func() {
		for range n {
			time.Sleep(timeout / 2)
			if _, err := s.Write([]byte("x")); err != nil {
				return
			}
		}
	}()
	got, err := io.ReadAll(io.LimitReader(c, n))
	require.NoError(t, err)
	require.Len(t, got, n)
}

func TestReplyConnLeavesAnIdleConnectionAlone(t *testing.T) {
	t.Parallel()
	const timeout = 200 * time.Millisecond
	t.Run("never written to", func(t *testing.T) {
		t.Parallel()
		c, s := replyPair(t, timeout)
		go func() {
			time.Sleep(3 * timeout)
			s.Write([]byte("N")) // something unsolicited, long after the bound
		}()
		b := make([]byte, 1)
		_, err := c.Read(b) // a read that waits for ever, as a LISTEN connection's would
		require.NoError(t, err)
		require.Equal(t, "N", string(b))
	})
	t.Run("idle between queries", func(t *testing.T) {
		t.Parallel()
		c, s := replyPair(t, timeout)
		for range 2 {
			send(t, c, "Q")
			go s.Write([]byte("R"))
			b := make([]byte, 1)
			_, err := c.Read(b)
			require.NoError(t, err)
			time.Sleep(3 * timeout) // in the pool, nothing reads meanwhile
		}
	})
}

func TestReplyConnLetsTheCallersDeadlineWin(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	t.Run("longer", func(t *testing.T) { // lib/pq's connect_timeout during the handshake
		t.Parallel()
		c, _ := replyPair(t, timeout)
		require.NoError(t, c.SetDeadline(time.Now().Add(3*timeout)))
		send(t, c, "startup")
		err, took := readErrAfter(c)
		requireTimeout(t, err)
		require.GreaterOrEqual(t, took, 3*timeout-50*time.Millisecond, "not cut at the reply bound")

		// Cleared: the reply bound applies again.
		require.NoError(t, c.SetDeadline(time.Time{}))
		send(t, c, "Q")
		err, took = readErrAfter(c)
		requireTimeout(t, err)
		require.Less(t, took, timeout+time.Second)
	})
	t.Run("shorter", func(t *testing.T) {
		t.Parallel()
		c, _ := replyPair(t, timeout)
		send(t, c, "Q")
		require.NoError(t, c.SetReadDeadline(time.Now().Add(timeout/4)))
		err, took := readErrAfter(c)
		requireTimeout(t, err)
		require.Less(t, took, timeout-50*time.Millisecond)
	})
	t.Run("cleared while a read waits", func(t *testing.T) {
		t.Parallel()
		c, _ := replyPair(t, timeout)
		require.NoError(t, c.SetDeadline(time.Now().Add(time.Hour)))
		send(t, c, "Q")
		go func() {
			time.Sleep(timeout / 2)
			c.SetDeadline(time.Time{})
		}()
		err, took := readErrAfter(c)
		requireTimeout(t, err)
		require.Less(t, took, timeout/2+timeout+time.Second)
	})
}

func TestListenDialerIsNotBounded(t *testing.T) {
	require.Zero(t, newDialer().reply, "the LISTEN connection waits on reads for ever")
}
