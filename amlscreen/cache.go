package amlscreen

import (
	"context"
	"fmt"
	"sync"

	"github.com/perfilseguro/perfilseguro/screening"
)

// Lists is where the index comes from (postgres.Store implements it).
type Lists interface {
	// ScreeningListsStamp is cheap and changes whenever a list gets a new version.
	ScreeningListsStamp(ctx context.Context) (string, error)
	LoadScreeningIndex(ctx context.Context) (*screening.Index, error)
}

// IndexCache keeps one screening index per worker process and rebuilds it when the lists
// changed: each Get costs one small query, a rebuild reads every entry again.
type IndexCache struct {
	mu    sync.Mutex
	stamp string
	ix    *screening.Index
}

// Get returns the index over the latest version of every list, rebuilt if a version was added
// since the last call. Concurrent callers wait for one rebuild.
func (c *IndexCache) Get(ctx context.Context, lists Lists) (*screening.Index, error) {
	stamp, err := lists.ScreeningListsStamp(ctx)
	if err != nil {
		return nil, fmt.Errorf("screening lists: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix != nil && c.stamp == stamp {
		return c.ix, nil
	}
	ix, err := lists.LoadScreeningIndex(ctx)
	if err != nil {
		return nil, err
	}
	c.ix, c.stamp = ix, stamp
	return ix, nil
}
