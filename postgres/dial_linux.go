package postgres

import (
	"syscall"
)

// tcpUserTimeout is TCP_USER_TIMEOUT from linux/tcp.h (the syscall package does not name it).
const tcpUserTimeout = 0x12

// setUserTimeout sets TCP_USER_TIMEOUT on a connection about to be dialled.
func setUserTimeout(network, _ string, c syscall.RawConn) error {
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil
	}
	var sockErr error
	err := c.Control(func(fd uintptr) {
		sockErr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeout, int(userTimeout.Milliseconds()))
	})
	if err != nil {
		return err
	}
	return sockErr
}
