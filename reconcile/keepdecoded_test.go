package reconcile

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsync/mcpsync/emitters"
)

// countingCache is a DecodeCache in memory, one entry per name as
// internal/parsecache keeps them, that counts what it is asked and told.
// Safe for concurrent use, as a plan's files are planned side by side.
type countingCache struct {
	mu         sync.Mutex
	src, data  map[string][]byte
	hits, puts int
}

func (c *countingCache) Get(name string, src []byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.src[name]; ok && bytes.Equal(s, src) {
		c.hits++
		return c.data[name], true
	}
	return nil, false
}

func (c *countingCache) Put(name string, src, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.src[name], c.data[name] = bytes.Clone(src), bytes.Clone(data)
	c.puts++
}

// TestWrittenSyncKeepsItsReadBack: a sync to be written (KeepDecoded)
// leaves what each file it writes reads back as in the decode cache, so
// that the next run reads every such file from it and decodes none; a sync
// planned without it (a dry run, watch) leaves the next run to decode them.
func TestWrittenSyncKeepsItsReadBack(t *testing.T) {
	var src strings.Builder
	for i := range 800 { // files above the cache's 64 KiB floor
		fmt.Fprintf(&src, "server \"srv-%03d\" {\n  command = \"npx\"\n  args = [\"-y\", \"@scope/package-%03d\"]\n  env = { API_KEY = env(\"API_KEY\") }\n}\n", i, i)
	}
	clients := []string{"cursor", "claude-code", "codex"}
	for _, keep := range []bool{true, false} {
		sb := newSandbox(t, src.String(), clients...)
		cache := &countingCache{src: map[string][]byte{}, data: map[string][]byte{}}
		sb.decoded = (*emitters.DecodeMemo)(nil).Persist(cache, func(string) bool { return true })
		sb.keepDecoded = keep
		r, _ := sb.plan(nil, clients...)
		if len(r.Plan.Changes()) != len(clients) {
			t.Fatalf("keep %v: the first sync writes %d files, want %d", keep, len(r.Plan.Changes()), len(clients))
		}
		for _, fc := range r.Plan.Changes() {
			if len(fc.After) < 64<<10 {
				t.Fatalf("%s: %d bytes, below the cache's floor", fc.Path, len(fc.After))
			}
		}
		sb.sync(nil, clients...)
		sb.keepDecoded = false
		hits, puts := cache.hits, cache.puts
		if r, _ := sb.plan(nil); r.Changed() {
			t.Fatalf("keep %v: the second sync is not a no-op", keep)
		}
		want := map[bool][2]int{true: {len(clients), 0}, false: {0, len(clients)}}[keep]
		if got := [2]int{cache.hits - hits, cache.puts - puts}; got != want {
			t.Errorf("keep %v: the next sync read %d files from the cache and decoded %d; want %d and %d", keep, got[0], got[1], want[0], want[1])
		}
	}
}
