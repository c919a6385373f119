// Package expediente renders a client's LFPIORPI file (issue 53, item 5) — who the person is,
// how their identity was checked, what they declared and signed, which lists they were screened
// against, the operation measured against the thresholds, its risk, avisos and audit trail — as
// a PDF for people and as JSON for machines, from a plain File value. It touches no database and
// speaks no HTTP: the caller (the console's download, an authority's request) fills a File.
//
// The PDF is written with github.com/signintech/gopdf, pure Go, MIT, maintained (v0.33.0). The
// brief suggested go-pdf/fpdf, but its repository was archived (read-only) on 4 March 2025 and
// its last release is v0.9.0 of 2023; a file kept for ten years should not start on a dead
// library. gopdf subsets the embedded DejaVu Sans (fonts/, Bitstream Vera licence in
// fonts/LICENSE), which has every Spanish character (á é í ó ú ü ñ Ñ ¿ ¡ « »).
//
// Instants (time.Time) are printed in Mexico City time as dd/mm/aaaa HH:MM; calendar days
// (Date: birth, expiry, operation, retention) as dd/mm/aaaa, never shifted by a time zone.
//
// JSON field names are English lowerCamelCase, like the partner API's (SPEC.md §7), and stable:
// they are the export format a compliance officer may archive, so a rename is a breaking change.
// Values a person reads are in Spanish (reasons, findings, factors); codes are the Go constants
// below (Method, Decision, AvisoKind, Risk level), mapped to Spanish once, beside their type.
package expediente
