package secrets

import (
	"encoding/json"
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

// TestScanKeysTellServersApart: two definitions of a server that differ
// are both scanned, however their fields' text is cut. The key Values
// skips a definition seen before by once joined the fields with marker
// bytes that a value may itself hold: an argument "--api-key\x01<secret>"
// and the two arguments "--api-key", "<secret>" made one key, so the
// second definition's secret (an argument on a line of its own in a
// diff, which no line rule can tell from any other) went unmasked.
func TestScanKeysTellServersApart(t *testing.T) {
	const secret = "hunter2hunter2hunter2"
	pairs := [][2]canonical.Server{
		{{Name: "s", Command: "npx", Args: []string{"--api-key\x01" + secret}},
			{Name: "s", Command: "npx", Args: []string{"--api-key", secret}}},
		{{Name: "s", Command: "npx", Env: map[string]string{"A": "y\x02API_KEY\x03" + secret}},
			{Name: "s", Command: "npx", Env: map[string]string{"A": "y", "API_KEY": secret}}},
		{{Name: "s\x00npx", Args: []string{"--api-key", secret}},
			{Name: "s", Command: "npx", Args: []string{"--api-key", secret}}},
		{{Name: "s", URL: "https://x.example/mcp", Extra: map[string]map[string]json.RawMessage{"c": {"k": json.RawMessage(`"a"`)}}},
			{Name: "s", URL: "https://x.example/mcp", Extra: map[string]map[string]json.RawMessage{"c": {"k\"": json.RawMessage(`"a"`), "token": json.RawMessage(`"` + secret + `"`)}}}},
	}
	for i, pair := range pairs {
		if len(ScanServer(pair[1])) == 0 {
			t.Fatalf("pair %d: the second server holds no finding to lose", i)
		}
		var v Values
		values := v.Add(canonical.Set{Servers: pair[:1]}, canonical.Set{Servers: pair[1:]})
		if !slices.Contains(values, secret) {
			t.Errorf("pair %d: Values found %q, not the second server's secret", i, values)
		}
		line := `      "` + secret + `",`
		if got := ScrubberFor(canonical.Set{Servers: pair[:1]}, canonical.Set{Servers: pair[1:]}).Line(line); strings.Contains(got, secret) {
			t.Errorf("pair %d: the scrubber left the secret in %q", i, got)
		}
	}
}
