package emitters

import (
	"slices"
	"sync"
	"testing"

	"github.com/mcpsync/mcpsync/formats"
)

// An export's files are handed out the TOML and YAML ones first, then the
// rest, each kind in the plan's order; every file is planned once.
func TestEachFileCostliestFirst(t *testing.T) {
	group := func(f formats.Format) []Target { return []Target{{Location: formats.Location{Format: f}}} }
	groups := [][]Target{group(formats.JSON), group(formats.JSONC), group(formats.TOML), group(formats.JSON), group(formats.YAML)}
	if got, want := costliestFirst(groups), []int{2, 4, 0, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	var mu sync.Mutex
	var ran []int
	eachFileCostliestFirst(groups, func(i int) {
		mu.Lock()
		ran = append(ran, i)
		mu.Unlock()
	})
	slices.Sort(ran)
	if !slices.Equal(ran, []int{0, 1, 2, 3, 4}) {
		t.Errorf("files planned: %v", ran)
	}
}
