package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/perfilseguro/perfilseguro/screening"
	"github.com/perfilseguro/perfilseguro/secure"
)

// LookupScreeningIdentifier is the kind of keyed hash kept beside an uploaded list's RFC or CURP.
const LookupScreeningIdentifier = "screening_identifier"

// ImportScreeningList stores a parsed list as a new version in one transaction (screening.Store):
// the list row is created on its first import and locked while the version is added, so two
// imports of one list never race for a version number; a file whose checksum equals the latest
// version's adds nothing. An uploaded row's RFC or CURP is stored sealed with its keyed hash,
// or not at all without a document key.
func (s *Store) ImportScreeningList(ctx context.Context, owner int64, testMode bool, l screening.List) (screening.ImportResult, error) {
	if len(l.Entries) == 0 {
		return screening.ImportResult{}, screening.ErrEmptyList
	}
	var res screening.ImportResult
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var ownerArg any
		if owner != 0 {
			ownerArg = owner
		}
		const upsert = `
			INSERT INTO screening_lists (owner_id, name, kind, test_mode) VALUES ($1, $2, $3, $4)
			ON CONFLICT (coalesce(owner_id, 0), kind, name, test_mode) DO UPDATE SET name = EXCLUDED.name
			RETURNING id`
		if err := tx.GetContext(ctx, &res.ListID, upsert, ownerArg, l.Name, string(l.Kind), testMode); err != nil {
			return fmt.Errorf("screening list: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM screening_lists WHERE id = $1 FOR UPDATE`, res.ListID); err != nil {
			return fmt.Errorf("lock screening list %d: %w", res.ListID, err)
		}
		var latest struct {
			ID      int64  `db:"id"`
			Version int    `db:"version"`
			SHA256  string `db:"sha256"`
			Count   int    `db:"entry_count"`
		}
		const qLatest = `SELECT id, version, sha256, entry_count FROM screening_list_versions
			WHERE list_id = $1 ORDER BY version DESC LIMIT 1`
		err := tx.GetContext(ctx, &latest, qLatest, res.ListID)
		switch {
		case err == nil && latest.SHA256 == l.SHA256:
			res.VersionID, res.Version, res.Entries, res.SHA256 = latest.ID, latest.Version, latest.Count, latest.SHA256
			return nil
		case err != nil && !isNoRows(err):
			return fmt.Errorf("latest version of screening list %d: %w", res.ListID, err)
		}
		res.Version, res.Created, res.Entries, res.SHA256 = latest.Version+1, true, len(l.Entries), l.SHA256
		const qVersion = `INSERT INTO screening_list_versions (list_id, version, source, sha256, entry_count)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`
		if err := tx.GetContext(ctx, &res.VersionID, qVersion, res.ListID, res.Version, l.Source, l.SHA256, len(l.Entries)); err != nil {
			return fmt.Errorf("screening list %d version %d: %w", res.ListID, res.Version, err)
		}
		return s.copyScreeningEntries(ctx, tx, res.VersionID, l.Entries)
	})
	return res, err
}

// copyScreeningEntries writes a version's entries with COPY: a generated list holds 100,000.
func (s *Store) copyScreeningEntries(ctx context.Context, tx *sqlx.Tx, versionID int64, entries []screening.Entry) error {
	stmt, err := tx.PrepareContext(ctx, pq.CopyIn("screening_entries", "version_id", "position", "entry_id", "kind",
		"name", "entry", "identifiers_sealed", "identifier_hashes"))
	if err != nil {
		return fmt.Errorf("copy screening entries: %w", err)
	}
	defer stmt.Close()
	for i, e := range entries {
		doc, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("screening entry %d: %w", i, err)
		}
		var sealed, hashes any
		if len(e.Identifiers) > 0 && s.Documents.Valid() {
			sealed = s.Documents.Sealer.Seal(strings.Join(e.Identifiers, "\n"))
			hs := make([]string, len(e.Identifiers))
			for j, id := range e.Identifiers {
				hs[j] = s.Documents.Hash(LookupScreeningIdentifier, id)
			}
			hashes = pq.Array(hs)
		}
		if _, err := stmt.ExecContext(ctx, versionID, i, e.ID, string(e.Kind), e.Name, string(doc), sealed, hashes); err != nil {
			return fmt.Errorf("copy screening entry %d: %w", i, err)
		}
	}
	if _, err := stmt.ExecContext(ctx); err != nil {
		return fmt.Errorf("copy screening entries: %w", err)
	}
	return nil
}

// screeningVersionRow is a list's latest version as LatestScreeningLists reads it.
type screeningVersionRow struct {
	ListID     int64         `db:"list_id"`
	Owner      sql.NullInt64 `db:"owner_id"`
	Name       string        `db:"name"`
	Kind       string        `db:"kind"`
	TestMode   bool          `db:"test_mode"`
	VersionID  int64         `db:"version_id"`
	Version    int           `db:"version"`
	ImportedAt time.Time     `db:"imported_at"`
}

type screeningEntryRow struct {
	VersionID int64          `db:"version_id"`
	Entry     []byte         `db:"entry"`
	Sealed    sql.NullString `db:"identifiers_sealed"`
}

// LatestScreeningLists reads the latest version of every list with its entries, in file order:
// what the screening index is built from.
func (s *Store) LatestScreeningLists(ctx context.Context) ([]screening.ListVersion, error) {
	const qVersions = `
		SELECT DISTINCT ON (l.id) l.id AS list_id, l.owner_id, l.name, l.kind, l.test_mode,
		       v.id AS version_id, v.version, v.imported_at
		FROM screening_lists l JOIN screening_list_versions v ON v.list_id = l.id
		ORDER BY l.id, v.version DESC`
	var rows []screeningVersionRow
	if err := s.DB.SelectContext(ctx, &rows, qVersions); err != nil {
		return nil, fmt.Errorf("latest screening lists: %w", err)
	}
	out := make([]screening.ListVersion, len(rows))
	at := make(map[int64]int, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = screening.ListVersion{ListID: r.ListID, Owner: r.Owner.Int64, Name: r.Name, Kind: screening.Kind(r.Kind),
			TestMode: r.TestMode, VersionID: r.VersionID, Version: r.Version, ImportedAt: r.ImportedAt}
		at[r.VersionID] = i
		ids[i] = r.VersionID
	}
	if len(ids) == 0 {
		return out, nil
	}
	const qEntries = `SELECT version_id, entry, identifiers_sealed FROM screening_entries
		WHERE version_id = ANY($1) ORDER BY version_id, position`
	cur, err := s.DB.QueryxContext(ctx, qEntries, pq.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("screening entries: %w", err)
	}
	defer cur.Close()
	for cur.Next() {
		var r screeningEntryRow
		if err := cur.StructScan(&r); err != nil {
			return nil, fmt.Errorf("screening entry: %w", err)
		}
		var e screening.Entry
		if err := json.Unmarshal(r.Entry, &e); err != nil {
			return nil, fmt.Errorf("screening entry of version %d: %w", r.VersionID, err)
		}
		if r.Sealed.Valid && s.Documents.Valid() {
			if plain, err := s.Documents.Sealer.Open(r.Sealed.String); err == nil {
				e.Identifiers = strings.Split(plain, "\n")
			}
		}
		lv := &out[at[r.VersionID]]
		lv.Entries = append(lv.Entries, e)
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("screening entries: %w", err)
	}
	return out, nil
}

// LoadScreeningIndex builds the screening index over the latest version of every list.
func (s *Store) LoadScreeningIndex(ctx context.Context) (*screening.Index, error) {
	lists, err := s.LatestScreeningLists(ctx)
	if err != nil {
		return nil, err
	}
	return screening.NewIndex(lists), nil
}

// ScreeningEntriesWithIdentifier finds, in the latest versions, the entries whose RFC or CURP is
// the given one (by keyed hash): an exact identifier hit beside the name screening.
func (s *Store) ScreeningEntriesWithIdentifier(ctx context.Context, identifier string) ([]string, error) {
	if !s.Documents.Valid() {
		return nil, nil
	}
	const q = `
		SELECT e.entry_id FROM screening_entries e
		WHERE e.identifier_hashes @> ARRAY[$1]::text[]
		  AND e.version_id IN (SELECT DISTINCT ON (list_id) id FROM screening_list_versions ORDER BY list_id, version DESC)
		ORDER BY e.entry_id`
	var ids []string
	if err := s.DB.SelectContext(ctx, &ids, q, s.Documents.Hash(LookupScreeningIdentifier, secure.NormalizeIdentifier(identifier))); err != nil {
		return nil, fmt.Errorf("screening entries by identifier: %w", err)
	}
	return ids, nil
}
