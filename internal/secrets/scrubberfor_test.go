package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// TestScrubberForSharesOutTheSets: ScrubberFor of many sets, whose keying
// is shared out among the processors, knows every secret of every set, as
// one pass over them all does, and masks lines as that pass's scrubber
// does. The sets repeat servers (as a plan's read, wanted and written sets
// do), so the shares also meet servers another share has seen.
func TestScrubberForSharesOutTheSets(t *testing.T) {
	all := secretServers(60)
	var sets []canonical.Set
	for i := range 4 * scrubSetsPerWorker {
		// each set a window of the servers, overlapping the next
		lo := (i * 7) % len(all.Servers)
		hi := min(lo+25, len(all.Servers))
		sets = append(sets, canonical.Set{Servers: slices.Clone(all.Servers[lo:hi])})
	}
	var v Values
	serial := &Scrubber{}
	for _, value := range v.Add(sets...) {
		serial.Add(value)
	}
	shared := ScrubberFor(sets...)
	if len(shared.values) != len(serial.values) || len(shared.values) == 0 {
		t.Fatalf("ScrubberFor knows %d values, one pass %d", len(shared.values), len(serial.values))
	}
	for _, value := range serial.values {
		if !shared.known[value] {
			t.Errorf("ScrubberFor does not know %q", value)
		}
	}
	for i := range 60 {
		line := fmt.Sprintf(`      "API_KEY": "sk-live-%08dabcdefgh", "h": "Bearer tok%08dXYZW"`, i, i)
		got, want := shared.Line(line), serial.Line(line)
		if got != want || strings.Contains(got, "abcdefgh") {
			t.Errorf("line %d: ScrubberFor masks it %q, one pass %q", i, got, want)
		}
	}
}
