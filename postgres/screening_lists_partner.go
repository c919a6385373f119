package postgres

import (
	"context"
	"fmt"
	"time"
)

// ScreeningListSummary is a list a partner's people are screened against, with every version
// (newest first): the partner's own uploads and the public UN list of the same mode.
type ScreeningListSummary struct {
	ID       int64
	Name     string
	Kind     string // un, uif_upload
	Public   bool   // the UN list: imported by Perfil Seguro, not by the partner
	Versions []ScreeningListVersionSummary
}

// ScreeningListVersionSummary is one stored version of a list.
type ScreeningListVersionSummary struct {
	Version    int       `db:"version"`
	ImportedAt time.Time `db:"imported_at"`
	Source     string    `db:"source"` // the uploaded file's name, or the UN list's source
	SHA256     string    `db:"sha256"`
	Entries    int       `db:"entry_count"`
}

// PartnerScreeningLists lists the screening lists of a partner in a mode: the public UN list
// first, then its uploads by name.
func (s *Store) PartnerScreeningLists(ctx context.Context, partnerID int64, testMode bool) ([]ScreeningListSummary, error) {
	var rows []struct {
		ListID int64  `db:"list_id"`
		Name   string `db:"name"`
		Kind   string `db:"kind"`
		Public bool   `db:"public"`
		ScreeningListVersionSummary
	}
	const q = `SELECT l.id AS list_id, l.name, l.kind, l.owner_id IS NULL AS public,
			v.version, v.imported_at, v.source, v.sha256, v.entry_count
		FROM screening_lists l JOIN screening_list_versions v ON v.list_id = l.id
		WHERE l.test_mode = $2 AND (l.owner_id = $1 OR (l.owner_id IS NULL AND l.kind = 'un'))
		ORDER BY l.owner_id IS NOT NULL, l.name, l.id, v.version DESC`
	if err := s.q(ctx).SelectContext(ctx, &rows, q, partnerID, testMode); err != nil {
		return nil, fmt.Errorf("partner screening lists: %w", err)
	}
	out := []ScreeningListSummary{}
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].ID != r.ListID {
			out = append(out, ScreeningListSummary{ID: r.ListID, Name: r.Name, Kind: r.Kind, Public: r.Public})
		}
		last := &out[len(out)-1]
		last.Versions = append(last.Versions, r.ScreeningListVersionSummary)
	}
	return out, nil
}
