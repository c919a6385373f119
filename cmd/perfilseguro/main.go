// Command perfilseguro is the one binary of Perfil Seguro: api, worker, scheduler, migrate and dev.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	_ "time/tzdata" // dates in messages are read in Mexico City, even in an image with no zoneinfo
)

const usage = `perfilseguro: identity validation service

Usage:
  perfilseguro api         serve the HTTP API and the web app
  perfilseguro worker      run background jobs
  perfilseguro scheduler   enqueue periodic jobs
  perfilseguro migrate     apply database migrations (idempotent)
  perfilseguro dev         migrate, then api + worker + scheduler in one process (local use)
  perfilseguro admin create --email … --name … --role administrador
                           create an administrator; prints a single-use passkey enrolment link
  perfilseguro admin enrol --email …   a new enrolment link for an administrator
  perfilseguro admin hash-password   print a hash for ADMIN_PASSWORD_HASH (development only)
  perfilseguro partner add|list|disable   manage widget partners (api_keys)
  perfilseguro documents redact-stored   queue the one-off job that seals the personal fields of
                           provider answers stored before issue 52 (idempotent, resumable)
  perfilseguro documents backfill [-list]   queue the one-off job that reads the document from the
                           decisions of people validated before issue 52 (idempotent, resumable);
                           -list prints those it could not certify ("sin datos del documento")
  perfilseguro openapi     print the API's OpenAPI 3.1 document (no database needed)
  perfilseguro traces [-addr 127.0.0.1:4318]   a local trace viewer: receives OTLP/HTTP, shows each trace as a tree

Configuration comes from environment variables; see docs/configuration.md (every variable).
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1], os.Args[2:])
	if err != nil && !errors.Is(err, errUsageShown) && !errors.Is(err, errUsage) {
		slog.Error("perfilseguro failed", "command", os.Args[1], "error", err)
	}
	logOut.Flush()
	if err != nil {
		if errors.Is(err, errUsageShown) {
			os.Exit(2)
		}
		if errors.Is(err, errUsage) {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// apiGC lets the API's heap grow to three times its live size between collections instead of
// twice (GOGC=200), unless GOGC is set: the live heap is small (the public-record cache, pools),
// and under load the collector's marking was 5–7 % of the API's CPU (issue 27, pprof of
// make bench-verify). Memory stays bounded by GOMEMLIMIT when an operator sets it.
func apiGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}

func run(ctx context.Context, cmd string, args []string) error {
	switch cmd {
	case "api":
		apiGC()
		return withApp(ctx, "api", func(a *app) error { return a.runAPI(ctx) })
	case "worker":
		return withApp(ctx, "worker", func(a *app) error { return a.runWorker(ctx) })
	case "scheduler":
		return withApp(ctx, "scheduler", func(a *app) error { return a.runScheduler(ctx) })
	case "migrate":
		return withApp(ctx, "", func(a *app) error { return a.migrate(ctx) })
	case "dev":
		return withApp(ctx, "dev", func(a *app) error { return a.runDev(ctx) })
	case "admin":
		return runAdmin(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	case "partner":
		return runPartner(ctx, args, os.Stdout, os.Stderr)
	case "documents":
		return runDocuments(ctx, args, os.Stdout, os.Stderr)
	case "openapi":
		return runOpenAPI(os.Stdout)
	case "traces":
		return runTraces(ctx, args, os.Stdout)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return nil
	default:
		return errUsage
	}
}
