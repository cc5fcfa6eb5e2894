package emitters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/jsonread"
	"github.com/mcpsync/mcpsync/internal/parsecache"
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

// mapCache is a DecodeCache in memory that keeps one entry per name, as
// internal/parsecache does, and counts its writes. Safe for concurrent
// use, as a plan's files are planned side by side.
type mapCache struct {
	mu        sync.Mutex
	src, data map[string][]byte
	puts      int
}

func newMapCache() *mapCache { return &mapCache{src: map[string][]byte{}, data: map[string][]byte{}} }

func (c *mapCache) Get(name string, src []byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.src[name]; ok && bytes.Equal(s, src) {
		return c.data[name], true
	}
	return nil, false
}

func (c *mapCache) Put(name string, src, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.src[name], c.data[name] = bytes.Clone(src), bytes.Clone(data)
	c.puts++
}

// TestDecodeMemoPersists: a persisted memo decodes a client file once
// across runs (a new memo on the same cache is the next run), returns what
// the adapter returns, and decodes afresh for other bytes, a damaged
// entry, a client that is not built in, and bytes about to be written.
func TestDecodeMemoPersists(t *testing.T) {
	ad := cursorAdapter(t)
	c := &countingAdapter{Adapter: ad}
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	data := []byte(`{"mcpServers": {"a": {"command": "npx", "args": ["-y", "x"], "env": {"K": "v"}, "alwaysAllow": ["t"]}, "b": {"url": 1}}}`)
	want, wantDiags := ad.Decode(loc, data)
	if want.Len() == 0 || len(wantDiags) == 0 {
		t.Fatalf("the case needs a server and a diagnostic: %+v %v", want, wantDiags)
	}
	cache := newMapCache()
	builtin := func(id string) bool { return id == "cursor" }
	run := func() *DecodeMemo {
		m := (*DecodeMemo)(nil).Persist(cache, builtin)
		m.diskMin = 0 // the case is small
		return m
	}
	for i := range 3 {
		got, ds := run().Decode(c, loc, data)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(ds, wantDiags) {
			t.Fatalf("run %d: %+v %v, want %+v %v", i, got, ds, want, wantDiags)
		}
	}
	if c.decodes != 1 || cache.puts != 1 {
		t.Fatalf("three runs: %d decodes, %d entries written; want 1 and 1", c.decodes, cache.puts)
	}

	edited := bytes.Replace(data, []byte(`"x"`), []byte(`"y"`), 1)
	if got, _ := run().Decode(c, loc, edited); got.Servers[0].Args[1] != "y" || c.decodes != 2 {
		t.Fatalf("an edited file: %+v after %d decodes", got, c.decodes)
	}

	for name := range cache.data {
		cache.data[name] = []byte(`{"servers": [{"name": "wrong"`) // cut short
	}
	if got, _ := run().Decode(c, loc, edited); got.Servers[0].Name != "a" || c.decodes != 3 {
		t.Fatalf("a damaged entry: %+v after %d decodes", got, c.decodes)
	}

	puts := cache.puts
	run().DecodeOutput(c, loc, data)
	plugin := (*DecodeMemo)(nil).Persist(cache, func(string) bool { return false })
	plugin.diskMin = 0
	plugin.Decode(c, loc, data)
	plugin.Decode(c, loc, data)
	(*DecodeMemo)(nil).Persist(cache, builtin).Decode(c, loc, data) // below the size kept
	if cache.puts != puts || c.decodes != 7 {
		t.Errorf("output, a plugin's file and a small file: %d entries written, %d decodes; want none and 7", cache.puts-puts, c.decodes)
	}
}

// FuzzReadDecoded: a cache entry reads as encoding/json reads it, or not
// at all where encoding/json refuses it.
func FuzzReadDecoded(f *testing.F) {
	f.Add([]byte(`{"servers":[{"name":"a","args":["x"],"env":{"K":"v"}}],"diags":[{"severity":"warning","summary":"s","line":1}]}`))
	f.Add([]byte(`{"servers":null,"diags":null}`))
	f.Add([]byte(`{"count":2,"servers":[{"name":"a"},{"name":"b"}],"diags":null}`))
	f.Add([]byte(`{"count":99999999999,"servers":[{"name":"a"}]}`))
	f.Add([]byte(`{"servers":[{"name":"a","name":"b"}]}`))
	f.Fuzz(func(t *testing.T, entry []byte) {
		got, ok := readDecoded(entry)
		var want decodedFile
		err := json.Unmarshal(entry, &want)
		if ok != (err == nil) {
			t.Fatalf("%q: read %v, encoding/json: %v", entry, ok, err)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", entry, got, want)
		}
	})
}

// TestWriteDecodedReadsBack: an entry is written only where it reads back
// as exactly what was decoded, and a decoded file's entry takes the fast
// reader.
func TestWriteDecodedReadsBack(t *testing.T) {
	ad := cursorAdapter(t)
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	set, diags := ad.Decode(loc, []byte(`{"mcpServers": {"a": {"command": "npx", "env": {"K": "<é>"}, "x-key": {"n": [1, 2]}}}}`))
	entry := writeDecoded(set, diags)
	if entry == nil {
		t.Fatal("no entry for a decoded file")
	}
	var f decodedFile
	r := jsonread.New(entry)
	if r.Expect('{') {
		if k, ok := r.Member(0); ok && string(k) == "count" {
			f.Count = r.Int()
		}
		if k, ok := r.Member(1); ok && string(k) == "servers" {
			f.Servers = r.ServersN(f.Count)
		}
	}
	if !r.OK() || f.Count != len(set.Servers) || !reflect.DeepEqual(f.Servers, set.Servers) || cap(f.Servers) != len(set.Servers) {
		t.Errorf("the fast reader does not take the entry %s (count %d, room for %d)", entry, f.Count, cap(f.Servers))
	}
	odd := canonical.Set{Servers: []canonical.Server{{Name: "a", Extra: map[string]map[string]json.RawMessage{"cursor": {"k": json.RawMessage(`[1, 2]`)}}}}}
	if writeDecoded(odd, nil) != nil {
		t.Error("an entry was written for a value that does not read back as it was (spaced raw JSON)")
	}
}

// TestDecodedEntryAsEncodingJSON: a cache entry is written by hand
// (appendDecoded) exactly as encoding/json's Encoder without HTML escaping
// wrote it, so entries read the same whichever wrote them; an extra that is
// not JSON makes no entry rather than a panic.
func TestDecodedEntryAsEncodingJSON(t *testing.T) {
	ad := cursorAdapter(t)
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	decoded, diags := ad.Decode(loc, []byte(`{"mcpServers": {"a": {"command": "npx", "env": {"K": "<é>"}, "x-key": {"n": [1, 2]}},
		"b": {"url": "https://h/x?a=1&b=<2>"}, "c": {"type": "carrier-pigeon"}}}`))
	if len(diags) == 0 {
		t.Fatal("the odd entry decoded without a word: the test wants diagnostics")
	}
	odd := canonical.Server{Name: "o\u2028\xff\"\\", Transport: canonical.HTTP, URL: "u&<>", Args: []string{}, Env: map[string]string{},
		Headers: map[string]string{"A": "Bearer ${T}"}, Disabled: true, ToolsAllow: []string{"x"}, ToolsDeny: []string{""},
		StartupTimeout: time.Second, ToolTimeout: 3, Project: "/p", Origin: canonical.Pos{File: "f", Line: 2, Column: 3},
		Auth:  canonical.Auth{BearerTokenEnv: "T", OAuth: &canonical.OAuth{Scopes: []string{"a&b"}, CallbackPort: 8}},
		Extra: map[string]map[string]json.RawMessage{"cursor": {"k": json.RawMessage(`{"a":"<&>"}`)}}}
	for name, f := range map[string]decodedFile{
		"decoded":       {Count: len(decoded.Servers), Servers: decoded.Servers, Diags: diags},
		"odd":           {Count: 1, Servers: []canonical.Server{odd}},
		"no servers":    {},
		"empty servers": {Servers: []canonical.Server{}, Diags: canonical.Diagnostics{}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		d, ok := diagsJSON(f.Diags)
		if !ok {
			t.Fatalf("%s: the diagnostics do not read back", name)
		}
		if got, _ := appendDecoded(f.Servers, d, false); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("%s: appendDecoded:\n%s\nencoding/json:\n%s", name, got, want.Bytes())
		}
	}
	bad := canonical.Server{Name: "x", Extra: map[string]map[string]json.RawMessage{"cursor": {"k": json.RawMessage(`{`)}}}
	if writeDecoded(canonical.Set{Servers: []canonical.Server{bad}}, nil) != nil {
		t.Error("writeDecoded kept an entry for an extra that is not JSON")
	}
}

// TestDecodedEntriesAsBefore: over every file of the wild corpus, decoded
// as its client reads it, and each with one server JSON cannot carry as it
// is, writeDecoded keeps an entry exactly where the old check (encode,
// read back, reflect.DeepEqual) kept one, and the entry reads back as what
// was decoded.
func TestDecodedEntriesAsBefore(t *testing.T) {
	const corpus = "../../shared/corpus/wild"
	sources, err := os.ReadFile(filepath.Join(corpus, "SOURCES.tsv"))
	if err != nil {
		t.Skip("no corpus at " + corpus + " (it is in the shared reference material, ../shared, next to the repository)")
	}
	reg := all.NewRegistry(all.Options{})
	env := formats.Env{Home: "/home/u", ProjectDir: "/home/u/p", OS: "linux"}
	oldCheck := func(set canonical.Set, diags canonical.Diagnostics) []byte {
		return jsonread.EncodeExact(decodedFile{Count: len(set.Servers), Servers: set.Servers, Diags: diags}, readDecoded)
	}
	files, kept := 0, 0
	for _, line := range strings.Split(string(sources), "\n")[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			continue
		}
		ad, err := reg.Lookup(cols[1])
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(corpus, cols[0]))
		if err != nil {
			t.Fatal(err)
		}
		loc := ad.Locations(env)[0]
		for _, l := range ad.Locations(env) {
			if rel, _ := filepath.Rel(env.ProjectDir, l.Path); strings.HasSuffix(cols[3], rel) {
				loc = l
			}
		}
		set, diags := ad.Decode(loc, data)
		files++
		cases := map[string]canonical.Set{"as decoded": set}
		if set.Len() > 0 {
			for how, change := range map[string]func(*canonical.Server){
				"empty args": func(s *canonical.Server) { s.Args = []string{} },
				"not UTF-8":  func(s *canonical.Server) { s.Command += "\xff" },
				"spaced extra": func(s *canonical.Server) {
					s.Extra = map[string]map[string]json.RawMessage{"x": {"k": json.RawMessage(`[1, 2]`)}}
				},
			} {
				c := canonical.Set{Servers: slices.Clone(set.Servers)}
				c.Servers[len(c.Servers)/2] = c.Servers[len(c.Servers)/2].Clone()
				change(&c.Servers[len(c.Servers)/2])
				cases[how] = c
			}
		}
		for how, c := range cases {
			got, want := writeDecoded(c, diags), oldCheck(c, diags)
			if (got == nil) != (want == nil) {
				t.Errorf("%s, %s: an entry kept %v, by the old check %v", cols[0], how, got != nil, want != nil)
				continue
			}
			if got == nil {
				continue
			}
			kept++
			back, ok := readDecoded(got)
			if !ok || !reflect.DeepEqual(back.Servers, c.Servers) || !reflect.DeepEqual(back.Diags, diags) || back.Count != c.Len() {
				t.Errorf("%s, %s: the entry does not read back as what was decoded", cols[0], how)
			}
		}
	}
	if files < 100 || kept < files/2 {
		t.Fatalf("%d corpus files, %d entries kept: the corpus was not read", files, kept)
	}
	t.Logf("%d corpus files, %d entries kept", files, kept)
}

// TestWrittenPlanKeepsItsReadBack: a plan to be written (KeepDecoded)
// leaves, for each file it changes, what the file decodes to once written,
// so that the next run reads every such file without decoding it and gets
// what the adapter would have returned; a plan that is only shown leaves
// nothing (its bytes may never be written), and a file changed after the
// plan is decoded again.
func TestWrittenPlanKeepsItsReadBack(t *testing.T) {
	reg := all.NewRegistry(all.Options{})
	dir := t.TempDir()
	var targets []Target
	for _, id := range []string{"cursor", "claude-code", "codex", "opencode"} {
		ad, err := reg.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		var loc *formats.Location
		for _, l := range formats.Locate(ad, formats.Env{Home: dir, ProjectDir: dir, OS: "linux"}) {
			if l.Scope == canonical.ScopeProject && loc == nil {
				loc = &l
			}
		}
		if loc == nil {
			t.Fatalf("%s has no project file", id)
		}
		targets = append(targets, Target{Adapter: ad, Location: *loc})
	}
	var servers []canonical.Server
	for i := range 30 {
		servers = append(servers, canonical.Server{Name: fmt.Sprintf("s%02d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", "pkg"}, Env: map[string]string{"K": "${K}"}})
	}
	servers = append(servers, canonical.Server{Name: "sse", Transport: canonical.SSE, URL: "https://h/sse"}) // some clients warn
	builtin := func(string) bool { return true }

	// What a decode said is kept with what it read.
	cursor := targets[0]
	data := []byte(`{"mcpServers": {"a": {"command": "npx", "alwaysAllow": ["t"]}, "b": {"url": 1}}}`)
	set, diags := cursor.Adapter.Decode(cursor.Location, data)
	if len(diags) == 0 {
		t.Fatal("the case needs diagnostics")
	}
	cache := newMapCache()
	memo := (*DecodeMemo)(nil).Persist(cache, builtin)
	memo.diskMin = 0
	memo.Written(cursor.Adapter, cursor.Location, data, set, diags)
	counting := &countingAdapter{Adapter: cursor.Adapter}
	if got, ds := memo.Decode(counting, cursor.Location, data); counting.decodes != 0 || !reflect.DeepEqual(got, set) || !reflect.DeepEqual(ds, diags) {
		t.Errorf("kept with its diagnostics, read back as %+v %v after %d decodes", got, ds, counting.decodes)
	}

	for _, keep := range []bool{true, false} {
		cache := newMapCache()
		memo := (*DecodeMemo)(nil).Persist(cache, builtin)
		memo.diskMin = 0 // the files are small
		p := PlanExport(targets, ExportOptions{Servers: canonical.Set{Servers: servers}, Decoded: memo, KeepDecoded: keep})
		if p.Diags.HasErrors() || len(p.Changes()) != len(targets) {
			t.Fatalf("keep %v: %d changes, %v", keep, len(p.Changes()), p.Diags)
		}
		for _, fc := range p.Changes() {
			tp := fc.Targets[0]
			counting := &countingAdapter{Adapter: tp.Target.Adapter}
			next := (*DecodeMemo)(nil).Persist(cache, builtin)
			next.diskMin = 0
			got, ds := next.Decode(counting, tp.Target.Location, fc.After)
			want, wantDiags := tp.Target.Adapter.Decode(tp.Target.Location, fc.After)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(ds, wantDiags) {
				t.Errorf("keep %v, %s: the next run read %+v %v, the adapter %+v %v", keep, tp.Client, got, ds, want, wantDiags)
			}
			if wantDecodes := map[bool]int{true: 0, false: 1}[keep]; counting.decodes != wantDecodes {
				t.Errorf("keep %v, %s: the next run decoded the file %d times, want %d", keep, tp.Client, counting.decodes, wantDecodes)
			}
			edited := append(bytes.Clone(fc.After), '\n')
			if next.Decode(counting, tp.Target.Location, edited); counting.decodes != map[bool]int{true: 1, false: 2}[keep] {
				t.Errorf("keep %v, %s: a file changed since the plan was not decoded", keep, tp.Client)
			}
		}
	}
}

// TestDecodeMemoStreamsEntries: on the cache mcpsync uses, an entry is
// written in pieces (PutWith) and reads back whole: a file of 2,000
// servers decoded once is read from the cache by the next run.
func TestDecodeMemoStreamsEntries(t *testing.T) {
	ad := cursorAdapter(t)
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i := range 2000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"s%04d": {"command": "npx", "args": ["-y", "@scope/p-%d"], "env": {"K": "<&>"}}`, i, i)
	}
	b.WriteString(`, "bad": {"url": 1}}}`)
	data := []byte(b.String())
	want, wantDiags := ad.Decode(loc, data)
	cache := parsecache.Open(t.TempDir())
	run := func() *DecodeMemo { return (*DecodeMemo)(nil).Persist(cache, func(string) bool { return true }) }
	counting := &countingAdapter{Adapter: ad}
	run().Decode(counting, loc, data)
	got, ds := run().Decode(counting, loc, data)
	if counting.decodes != 1 || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(ds, wantDiags) || len(wantDiags) == 0 {
		t.Fatalf("after %d decodes (want 1): %d servers, %v; want %d, %v", counting.decodes, got.Len(), ds, want.Len(), wantDiags)
	}
}

// TestDecodeMemoStreamsOnlyExact: an entry written a piece at a time into
// the parse cache (parsecache.PutWith) is kept only when every server in
// it reads back as it is; a server that would not (a string that is not
// UTF-8, a list empty but not nil) leaves no entry, and the next run
// decodes the file.
func TestDecodeMemoStreamsOnlyExact(t *testing.T) {
	ad := cursorAdapter(t)
	loc := formats.Location{Client: "cursor", Scope: canonical.ScopeProject, Path: "/p/.cursor/mcp.json", Format: formats.JSON}
	data := []byte(`{"mcpServers": {"a": {"command": "npx"}}}`)
	builtin := func(string) bool { return true }
	many := make([]canonical.Server, 2000) // past the first piece written
	for i := range many {
		many[i] = canonical.Server{Name: fmt.Sprintf("s%04d", i), Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg"}}
	}
	for name, odd := range map[string]func([]canonical.Server){
		"none":       func([]canonical.Server) {},
		"not UTF-8":  func(s []canonical.Server) { s[1500].Command = "np\xffx" },
		"empty args": func(s []canonical.Server) { s[0].Args = []string{} },
	} {
		servers := slices.Clone(many)
		odd(servers)
		cache := parsecache.Open(t.TempDir())
		m := (*DecodeMemo)(nil).Persist(cache, builtin)
		m.diskMin = 0
		m.Written(ad, loc, data, canonical.Set{Servers: servers}, nil)

		c := &countingAdapter{Adapter: ad}
		next := (*DecodeMemo)(nil).Persist(cache, builtin)
		next.diskMin = 0
		got, _ := next.Decode(c, loc, data)
		if name == "none" {
			if c.decodes != 0 || !reflect.DeepEqual(got.Servers, servers) {
				t.Errorf("%s: %d decodes, %d servers read from the entry", name, c.decodes, got.Len())
			}
			continue
		}
		if want, _ := ad.Decode(loc, data); c.decodes != 1 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the next run read %d servers after %d decodes, want the file decoded", name, got.Len(), c.decodes)
		}
	}
}
