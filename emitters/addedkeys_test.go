package emitters

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/formats/formatstest"
)

// countingRemover is a SectionRemover that counts the files it parses
// to look for the keys leading to its server map.
type countingRemover struct {
	formats.Adapter
	sr     formats.SectionRemover
	parsed int
}

func (c *countingRemover) MissingKeys(loc formats.Location, data []byte) int {
	c.parsed++
	return c.sr.MissingKeys(loc, data)
}

func (c *countingRemover) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	return c.sr.RemoveEmptyKeys(loc, data, n)
}

// TestAddedKeysReadsOnlyWhatItMust: an edit of a file whose server map
// was there before (it read servers) added no key leading to it, and the
// file before is not parsed again to say so: every sync and re-export of
// a client file of 10,000 servers parsed the whole file once more for it
// (36 MB of a sync's 815 MB at 10,000 servers). A file that had no map
// is still asked, and the keys the edit added are counted as before.
func TestAddedKeysReadsOnlyWhatItMust(t *testing.T) {
	ad, err := all.NewRegistry(all.Options{}).Lookup("gemini")
	if err != nil {
		t.Fatal(err)
	}
	sr, ok := ad.(formats.SectionRemover)
	if !ok {
		t.Fatal("gemini's adapter is no SectionRemover")
	}
	c := &countingRemover{Adapter: ad, sr: sr}
	tgt := Target{Adapter: c, Location: formatstest.DefaultLocation(ad)}
	before := []byte(`{"theme": "dark", "mcpServers": {"a": {"command": "a"}}}`)
	after := []byte(`{"theme": "dark", "mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}`)
	if n := addedKeys(tgt, before, after, true, true); n != 0 || c.parsed != 0 {
		t.Errorf("map held before: %d keys added, %d parses (want 0, 0)", n, c.parsed)
	}
	bare := []byte(`{"theme": "dark"}`)
	if n := addedKeys(tgt, bare, after, false, true); n != 1 || c.parsed != 1 {
		t.Errorf("no map before: %d keys added, %d parses (want 1, 1)", n, c.parsed)
	}
}
