// Package migrations embeds the numbered, forward-only SQL migrations run by `perfilseguro migrate`.
package migrations

import "embed"

// FS holds every migration file; goose reads them in numeric order.
//
//go:embed *.sql
var FS embed.FS
