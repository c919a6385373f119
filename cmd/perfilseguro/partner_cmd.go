package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/config"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/secure"
)

const partnerUsage = `Usage:
  perfilseguro partner add -name NAME -domain ORIGIN [-webhook URL] [-permissions widget_auth,...] [-created-by WHO] [-notes TEXT]
  perfilseguro partner list
  perfilseguro partner disable ID|KEY_ID
  perfilseguro partner enable ID|KEY_ID

The domain is stored as an origin (https://www.example.mx): the widget accepts calls only from
the origins of active partners. add prints the partner's publishable keys and a first secret key
of each mode (test and live), and with -webhook the webhook's signing secret: the secrets are
shown only then. The origin cannot be Perfil Seguro's own (PUBLIC_BASE_URL) nor one another
active partner holds. disable stops the partner's keys, console, open flows and notifications;
enable turns them back on.
`

// errUsageShown is a usage error whose text was already printed.
var errUsageShown = fmt.Errorf("%w (shown above)", errUsage)

// runPartner runs the `partner` subcommands against the configured database.
func runPartner(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, partnerUsage)
		return errUsageShown
	}
	return withStore(ctx, func(cfg config.Config, store *postgres.Store) error {
		switch args[0] {
		case "add":
			fs := flag.NewFlagSet("partner add", flag.ContinueOnError)
			fs.SetOutput(stderr)
			var np postgres.NewPartner
			var perms, webhook string
			fs.StringVar(&webhook, "webhook", "", "URL that receives the partner's notifications (optional)")
			fs.StringVar(&np.PartnerName, "name", "", "partner name (at least 3 characters)")
			fs.StringVar(&np.Domain, "domain", "", "origin the widget is embedded on, e.g. https://www.casalista.mx")
			fs.StringVar(&perms, "permissions", postgres.PermissionWidgetAuth, "comma-separated permissions")
			fs.StringVar(&np.CreatedBy, "created-by", "", "who adds it (optional)")
			fs.StringVar(&np.Notes, "notes", "", "notes (optional)")
			if err := fs.Parse(args[1:]); err != nil {
				return errUsageShown
			}
			np.Permissions = strings.Split(perms, ",")
			np.Ours = cfg.OwnOrigins()
			if err := np.Normalize(); err != nil {
				return fieldsText(err)
			}
			if u, err := url.Parse(webhook); webhook != "" && (err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http")) {
				return fmt.Errorf("webhook: %q is not an http(s) URL", webhook)
			}
			p, err := store.CreatePartner(ctx, np)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "partner %d added: %s (%s), key %s, permissions %s\n",
				p.ID, p.PartnerName, p.Domain, p.KeyID, strings.Join(p.Permissions, ","))
			fmt.Fprintf(stdout, "publishable keys (for the partner's pages):\n  live %s\n  test %s\n", p.Keys.PublishableLive, p.Keys.PublishableTest)
			fmt.Fprintf(stdout, "secret keys (for the partner's servers; shown only now, stored hashed):\n  live %s\n  test %s\n", p.Keys.SecretLive, p.Keys.SecretTest)
			if webhook != "" {
				secret := "whsec_" + secure.NewToken(24)
				if _, err := store.SetPartnerWebhook(ctx, p.ID, webhook, secret); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "webhook %s, signing secret (shown only now):\n  %s\n", webhook, secret)
			}
			return nil
		case "list":
			partners, err := store.Partners(ctx)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tKEY\tNAME\tDOMAIN\tACTIVE\tPERMISSIONS\tREQUESTS")
			for _, p := range partners {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%t\t%s\t%d\n", p.ID, p.KeyID, p.PartnerName, p.Domain, p.IsActive,
					strings.Join(p.Permissions, ","), p.RequestsCount)
			}
			return tw.Flush()
		case "disable", "enable":
			if len(args) != 2 {
				fmt.Fprint(stderr, partnerUsage)
				return errUsageShown
			}
			p, err := store.PartnerByRef(ctx, args[1])
			if err != nil {
				return err
			}
			turn := store.DeactivatePartner
			if args[0] == "enable" {
				turn = store.ActivatePartner
			}
			if p, err = turn(ctx, p.ID); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "partner %d (%s, %s) %sd\n", p.ID, p.PartnerName, p.Domain, args[0])
			return nil
		default:
			fmt.Fprint(stderr, partnerUsage)
			return errUsageShown
		}
	})
}

// fieldsText lists every field message of a validation error (the API shows only the first one).
func fieldsText(err error) error {
	var de *perfilseguro.Error
	if !errors.As(err, &de) || len(de.Fields) == 0 {
		return err
	}
	keys := slices.Sorted(maps.Keys(de.Fields))
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k + ": " + de.Fields[k]
	}
	return errors.New(strings.Join(lines, "; "))
}
