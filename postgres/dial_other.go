//go:build !linux

package postgres

import "syscall"

// setUserTimeout does nothing where TCP_USER_TIMEOUT does not exist; keepalives still apply.
func setUserTimeout(string, string, syscall.RawConn) error { return nil }
