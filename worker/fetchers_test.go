package worker

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFetcherPlanKeepsOneFairFetcherAndPutsCodesFirstInTheOthers(t *testing.T) {
	for _, tc := range []struct {
		concurrency int
		slots       []int
	}{
		{0, []int{1}}, // at least one slot
		{1, []int{1}},
		{3, []int{3}},
		{4, []int{2, 2}},
		{10, []int{3, 3, 2, 2}},
		{20, []int{3, 3, 3, 3, 3, 3, 2}},
	} {
		plan := fetcherPlan(tc.concurrency)
		var slots []int
		for i, f := range plan {
			slots = append(slots, f.Slots)
			// The first picks queues by weight (nothing starves); the rest take critical first.
			assert.Equal(t, i > 0, f.Strict, "concurrency %d, fetcher %d", tc.concurrency, i)
		}
		assert.Equal(t, tc.slots, slots, "concurrency %d", tc.concurrency)
	}
}
