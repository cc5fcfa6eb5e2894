package emitters

import (
	"reflect"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// countingAdapter counts the decodes that reach the adapter.
type countingAdapter struct {
	formats.Adapter
	decodes int
}

func (c *countingAdapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	c.decodes++
	return c.Adapter.Decode(loc, data)
}

// TestDecodeMemo: the same bytes at the same location are decoded once,
// and every caller gets what the adapter returns, as its own copy; other
// bytes, or another location, are decoded afresh.
func TestDecodeMemo(t *testing.T) {
	ad := cursorAdapter(t)
	c := &countingAdapter{Adapter: ad}
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	data := []byte(`{"mcpServers": {"a": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v"}}, "b": {"url": 1}}}`)
	want, wantDiags := ad.Decode(loc, data)
	if want.Len() == 0 || len(wantDiags) == 0 {
		t.Fatalf("the case needs a server and a diagnostic: %+v %v", want, wantDiags)
	}
	m := NewDecodeMemo()
	for i := range 3 {
		got, ds := m.Decode(c, loc, data)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(ds, wantDiags) {
			t.Fatalf("decode %d: %+v %v, want %+v %v", i, got, ds, want, wantDiags)
		}
		// the caller's changes stay the caller's
		got.Servers[0].Args[0], got.Servers[0].Env["K"] = "changed", "changed"
		ds[0].File = "changed"
	}
	if c.decodes != 1 {
		t.Errorf("the same bytes were decoded %d times, want once", c.decodes)
	}
	other := loc
	other.Path = "/q/.cursor/mcp.json"
	m.Decode(c, other, data)
	m.Decode(c, loc, append([]byte(" "), data...))
	if c.decodes != 3 {
		t.Errorf("another location and other bytes: %d decodes, want 3", c.decodes)
	}
	var none *DecodeMemo
	if got, _ := none.Decode(c, loc, data); !reflect.DeepEqual(got, want) || c.decodes != 4 {
		t.Errorf("a nil memo: %+v after %d decodes", got, c.decodes)
	}
}

// TestDecodeMemoIsBounded: the memo drops its oldest entries to stay
// within its count.
func TestDecodeMemoIsBounded(t *testing.T) {
	ad := cursorAdapter(t)
	c := &countingAdapter{Adapter: ad}
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeUser, Path: "/h/.cursor/mcp.json", Format: formats.JSON}
	m := NewDecodeMemo()
	file := func(i int) []byte {
		return []byte(`{"mcpServers": {"s` + string(rune('A'+i%26)) + string(rune('a'+i/26)) + `": {"command": "x"}}}`)
	}
	for i := range decodeMemoEntries + 10 {
		m.Decode(c, loc, file(i))
	}
	if len(m.entries) != decodeMemoEntries || len(m.order) != decodeMemoEntries {
		t.Fatalf("%d entries (%d in order), want %d", len(m.entries), len(m.order), decodeMemoEntries)
	}
	n := c.decodes
	m.Decode(c, loc, file(decodeMemoEntries+9)) // the newest: kept
	m.Decode(c, loc, file(0))                   // the oldest: dropped
	if c.decodes != n+1 {
		t.Errorf("%d decodes, want %d", c.decodes, n+1)
	}
}

func cursorAdapter(t *testing.T) formats.Adapter {
	t.Helper()
	ad, err := all.NewRegistry(all.Options{}).Lookup("cursor")
	if err != nil {
		t.Fatal(err)
	}
	return ad
}
