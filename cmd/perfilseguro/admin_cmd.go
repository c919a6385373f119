package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/api"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/postgres"
)

const adminUsage = `Usage:
  perfilseguro admin create --email EMAIL --name NAME [--role administrador|soporte|finanzas]
                                     create a named administrator and print their single-use
                                     enrolment link (PUBLIC_BASE_URL/admin-enrol?token=…, valid
                                     24 hours), where they register their passkey
  perfilseguro admin enrol --email EMAIL
                                     print a new enrolment link for an existing administrator
                                     (a lost passkey)
  perfilseguro admin hash-password   read a password from standard input (one line) and print
                                     its bcrypt hash for ADMIN_PASSWORD_HASH (development only:
                                     production refuses it)

Example (the first administrator of a fresh deployment):
  perfilseguro admin create --email ana@perfilseguro.mx --name "Ana López" --role administrador
`

// adminEnrolLifetime matches the API's: an enrolment link works once, within 24 hours.
const adminEnrolLifetime = 24 * time.Hour

// runAdmin runs the `admin` subcommands (create and enrol use DATABASE_URL; hash-password needs nothing).
func runAdmin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		io.WriteString(stderr, adminUsage)
		return errUsageShown
	}
	switch args[0] {
	case "hash-password":
		if len(args) != 1 {
			break
		}
		return hashPassword(stdin, stdout, stderr)
	case "create", "enrol":
		fs := flag.NewFlagSet("admin "+args[0], flag.ContinueOnError)
		fs.SetOutput(stderr)
		var na perfilseguro.NewAdmin
		fs.StringVar(&na.Email, "email", "", "the administrator's e-mail")
		if args[0] == "create" {
			fs.StringVar(&na.Name, "name", "", "the administrator's name")
			fs.StringVar(&na.Role, "role", perfilseguro.RoleAdministrator, "administrador, soporte or finanzas")
		}
		if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
			io.WriteString(stderr, adminUsage)
			return errUsageShown
		}
		return withStore(ctx, func(cfg config.Config, store *postgres.Store) error {
			_, hash, link := api.EnrolmentLink(cfg.PublicBaseURL)
			expires := time.Now().Add(adminEnrolLifetime)
			var a postgres.Admin
			var err error
			if args[0] == "create" {
				a, err = store.CreateAdmin(ctx, na, hash, expires)
			} else if a, err = store.AdminByEmail(ctx, perfilseguro.NormalizeEmail(na.Email)); err == nil {
				err = store.NewAdminEnrolment(ctx, a.ID, hash, expires)
			}
			if err != nil {
				return errors.New(perfilseguro.ErrorMessage(err))
			}
			// The CLI is the operator at the machine: recorded as the system acting.
			if err := postgres.AppendAudit(ctx, store.DB, postgres.AuditEvent{ActorKind: postgres.ActorSystem,
				ActorLabel: "perfilseguro admin " + args[0], Action: "admin." + map[string]string{"create": "create", "enrol": "enrolment"}[args[0]],
				TargetKind: "admin", TargetID: fmt.Sprint(a.ID)}); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "administrator %d: %s <%s>, role %s\n", a.ID, a.Name, a.Email, a.Role)
			fmt.Fprintf(stdout, "enrolment link (single use, valid until %s):\n%s\n", expires.UTC().Format(time.RFC3339), link)
			return nil
		})
	}
	io.WriteString(stderr, adminUsage)
	return errUsageShown
}

// withStore opens the configured database for one command.
func withStore(ctx context.Context, fn func(config.Config, *postgres.Store) error) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	db, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(cfg, &postgres.Store{DB: db})
}

func hashPassword(stdin io.Reader, stdout, stderr io.Writer) error {
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
