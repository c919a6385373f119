package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/perfilseguro/perfilseguro/jobs"
)

const documentsUsage = `Usage:
  perfilseguro documents redact-stored [-after-session N] [-after-webhook N]
      queue the one-off job that seals the personal fields still in clear in the provider answers
      stored before issue 52 (idempotent; the worker logs its progress as ids to resume after)
`

// runDocuments runs the documents subcommands.
func runDocuments(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "redact-stored" {
		fmt.Fprint(stderr, documentsUsage)
		return errUsageShown
	}
	fs := flag.NewFlagSet("documents redact-stored", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var p jobs.RedactStoredDecisionsPayload
	fs.Int64Var(&p.AfterSession, "after-session", 0, "start after this verification_sessions id")
	fs.Int64Var(&p.AfterWebhook, "after-webhook", 0, "start after this provider_webhooks id")
	if err := fs.Parse(args[1:]); err != nil || p.AfterSession < 0 || p.AfterWebhook < 0 {
		return errUsageShown
	}
	return withApp(ctx, "", func(a *app) error {
		task, err := jobs.NewRedactStoredDecisionsTask(p)
		if err := jobs.Enqueue(ctx, a.queue, task, err); err != nil {
			return fmt.Errorf("queue %s: %w", jobs.TypeRedactStoredDecisions, err)
		}
		fmt.Fprintf(stdout, "queued %s; the worker logs its progress (\"redacting stored decisions\")\n", jobs.TypeRedactStoredDecisions)
		return nil
	})
}
