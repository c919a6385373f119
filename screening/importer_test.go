package screening

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// memoryStore keeps imported lists like postgres does, for tests that need no database.
type memoryStore struct{ versions []List }

func (m *memoryStore) ImportScreeningList(_ context.Context, _ int64, _ bool, l List) (ImportResult, error) {
	if n := len(m.versions); n > 0 && m.versions[n-1].SHA256 == l.SHA256 {
		return ImportResult{Version: n, Entries: len(l.Entries), SHA256: l.SHA256}, nil
	}
	m.versions = append(m.versions, l)
	return ImportResult{Version: len(m.versions), Created: true, Entries: len(l.Entries), SHA256: l.SHA256}, nil
}

func TestImportUNListDownloadsFromAURL(t *testing.T) {
	t.Parallel()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if r.URL.Path != "/resources/xml/en/consolidated.xml" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		w.Write(FixtureUNList())
	}))
	defer srv.Close()
	store := &memoryStore{}
	res, err := ImportUNList(context.Background(), store, srv.URL+"/resources/xml/en/consolidated.xml")
	require.NoError(t, err)
	require.True(t, res.Created)
	require.Equal(t, 15, res.Entries)
	require.Equal(t, srv.URL+"/resources/xml/en/consolidated.xml", store.versions[0].Source)

	_, err = ImportUNList(context.Background(), store, srv.URL+"/missing.xml")
	require.ErrorContains(t, err, "HTTP 404")
	require.Len(t, store.versions, 1, "a failed download stores nothing")
	require.Equal(t, 2, hits)
}
