package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/perfilseguro/perfilseguro/api"
)

const adminUsage = `Usage:
  perfilseguro admin hash-password   read a password from standard input (one line) and print
                                     its bcrypt hash for ADMIN_PASSWORD_HASH

Example:
  printf '%s\n' 'una-contraseña-larga' | perfilseguro admin hash-password
`

// runAdmin runs the `admin` subcommands (no database or Redis needed).
func runAdmin(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) != 1 || args[0] != "hash-password" {
		io.WriteString(stderr, adminUsage)
		return errUsageShown
	}
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprint(stderr, "Contraseña de administrador (se mostrará al escribirla): ")
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read password: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	hash, err := api.HashAdminPassword(password)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, hash)
	return nil
}

// isTerminal reports whether f is an interactive terminal (a character device).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
