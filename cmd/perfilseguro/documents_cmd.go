package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
)

const documentsUsage = `Usage:
  perfilseguro documents redact-stored [-after-session N] [-after-webhook N]
      queue the one-off job that seals the personal fields still in clear in the provider answers
      stored before issue 52 (idempotent; the worker logs its progress as ids to resume after)
  perfilseguro documents backfill [-after-session N]
      queue the one-off job that reads the identity document from the decisions stored for the
      people validated before issue 52 and assesses it: a match certifies the document's name,
      other verdicts are recorded, nobody loses a level (idempotent; the worker logs each batch's
      cursor and counts as "backfilling identity from stored decisions")
  perfilseguro documents backfill -list
      print the validated profiles the backfill could not certify from their document: "sin
      datos del documento" (the stored decision lacks it) or "identificación vinculada a otro
      perfil" (a duplicate)
`

// runDocuments runs the documents subcommands.
func runDocuments(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, documentsUsage)
		return errUsageShown
	}
	switch args[0] {
	case "redact-stored":
		return runRedactStored(ctx, args[1:], stdout, stderr)
	case "backfill":
		return runIdentityBackfill(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, documentsUsage)
	return errUsageShown
}

func runRedactStored(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("documents redact-stored", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var p jobs.RedactStoredDecisionsPayload
	fs.Int64Var(&p.AfterSession, "after-session", 0, "start after this verification_sessions id")
	fs.Int64Var(&p.AfterWebhook, "after-webhook", 0, "start after this provider_webhooks id")
	if err := fs.Parse(args); err != nil || p.AfterSession < 0 || p.AfterWebhook < 0 {
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

func runIdentityBackfill(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("documents backfill", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var p jobs.BackfillIdentityPayload
	fs.Int64Var(&p.AfterSession, "after-session", 0, "start after this verification_sessions id")
	list := fs.Bool("list", false, "print the profiles the backfill could not certify (queues nothing)")
	if err := fs.Parse(args); err != nil || p.AfterSession < 0 || fs.NArg() > 0 {
		return errUsageShown
	}
	return withApp(ctx, "", func(a *app) error {
		if *list {
			key, err := a.documentKey()
			if err != nil {
				return err
			}
			listed, err := (&postgres.Store{DB: a.db, Documents: key}).IdentityBackfillListed(ctx)
			if err != nil {
				return err
			}
			return printBackfillListed(stdout, listed)
		}
		task, err := jobs.NewBackfillIdentityTask(p)
		if err := jobs.Enqueue(ctx, a.queue, task, err); err != nil {
			return fmt.Errorf("queue %s: %w", jobs.TypeBackfillIdentity, err)
		}
		fmt.Fprintf(stdout, "queued %s; the worker logs its progress (\"backfilling identity from stored decisions\")\n", jobs.TypeBackfillIdentity)
		return nil
	})
}

// printBackfillListed writes the administrators' list: one line per profile, the reason in words.
func printBackfillListed(w io.Writer, listed []postgres.IdentityBackfillListed) error {
	if len(listed) == 0 {
		_, err := fmt.Fprintln(w, "ningún perfil validado quedó sin certificar por su documento")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PERFIL\tUSUARIO\tNOMBRE\tVERIFICACIÓN\tDECIDIDA\tMOTIVO")
	for _, l := range listed {
		reason := postgres.BackfillListedNames[l.Reason]
		if l.DuplicateOf != nil {
			reason += fmt.Sprintf(" (usuario %d)", *l.DuplicateOf)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\n", l.ProfileID, l.UserID, l.Nombre, l.VerificationID,
			l.DecidedAt.In(perfilseguro.MexicoCity()).Format(time.DateOnly), reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d perfiles; conservan su nivel hasta que venza su validación\n", len(listed))
	return err
}
