package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// memCache is a Cache in memory that counts its hits.
type memCache struct {
	entries map[string][]byte
	hits    int
}

func (c *memCache) Get(name string, src []byte) ([]byte, bool) {
	data, ok := c.entries[name+"\x00"+string(src)]
	if ok {
		c.hits++
	}
	return data, ok
}

func (c *memCache) Put(name string, src, data []byte) {
	if c.entries == nil {
		c.entries = map[string][]byte{}
	}
	c.entries[name+"\x00"+string(src)] = data
}

// sameStore fails when a and b differ in anything a Store exposes.
func sameStore(t *testing.T, src []byte, a, b *Store, da, db canonical.Diagnostics) {
	t.Helper()
	for _, f := range []struct {
		what string
		x, y any
	}{{"servers", a.Servers, b.Servers}, {"client rules", a.Clients, b.Clients}, {"client files", a.ClientFiles, b.ClientFiles},
		{"resolvers", a.Resolvers, b.Resolvers}, {"sources", a.Sources, b.Sources}, {"diagnostics", da, db}} {
		if !reflect.DeepEqual(f.x, f.y) {
			t.Fatalf("%s differ from the cache:\nparsed %#v\ncached %#v\n-- src --\n%s", f.what, f.x, f.y, src)
		}
	}
}

// checkCached: a store read from the cache is the store Parse reads, and
// every edit of it gives the same bytes as the same edit of a parsed one.
func checkCached(t *testing.T, src []byte) {
	parsed, pds := Parse("f.hcl", src)
	c := &memCache{}
	lastParsed.put("", nil, nil, nil) // nothing from an earlier case
	first, fds := ParseCached("f.hcl", src, c)
	sameStore(t, src, parsed, first, pds, fds)
	if !pds.HasErrors() && len(c.entries) > 0 {
		// the same process loads it again: from memory, with its syntax
		again, ads := ParseCached("f.hcl", src, c)
		if c.hits != 0 || again.blocks == nil {
			t.Fatalf("the store just parsed was not taken from memory (%d disk hits):\n%s", c.hits, src)
		}
		sameStore(t, src, parsed, again, pds, ads)
		reparsed, _ := Parse("f.hcl", src)
		if a, b := editForCache(reparsed), editForCache(again); string(a) != string(b) {
			t.Fatalf("the same edit differs:\nparsed %q\nfrom memory %q\n-- src --\n%s", a, b, src)
		}
		if first.Servers.Len() > 0 && again.Servers.Servers[0].Name == first.Servers.Servers[0].Name {
			again.Servers.Servers[0].Env = map[string]string{"SHARED": "?"}
			if first.Servers.Servers[0].Env["SHARED"] != "" {
				t.Fatal("two stores from memory share a server")
			}
		}
	}
	checkDropped(t, src, pds)
	lastParsed.put("", nil, nil, nil) // a new process: from the disk cache
	cached, cds := ParseCached("f.hcl", src, c)
	if pds.HasErrors() {
		if c.hits != 0 || len(c.entries) != 0 {
			t.Fatalf("a store with errors was kept in the cache:\n%s", src)
		}
		return
	}
	if c.hits != 1 {
		// encodeParsed refuses what JSON cannot carry exactly; that is
		// allowed (the file is parsed), but must be rare: say which.
		t.Logf("not cached (JSON would change it):\n%q", src)
		return
	}
	sameStore(t, src, parsed, cached, pds, cds)
	// An edit of it parses the syntax alone (ensureSyntax): its blocks are
	// the cache's servers, in order, whatever the text.
	if _, ok := syntaxBlocks("f.hcl", src, parsed.Servers.Servers); !ok {
		t.Fatalf("the server blocks do not line up with the servers Parse reads:\n%s", src)
	}
	if got := cached.Bytes(); string(got) != string(src) {
		t.Fatalf("untouched cached store rewritten:\n%q\n%q", src, got)
	}
	for _, srv := range cached.Servers.Clone().Servers {
		cached.Put(srv)
	}
	if got := cached.Bytes(); string(got) != string(src) {
		t.Fatalf("putting the same servers changed the cached store:\n%q\n%q", src, got)
	}
	if cached.blocks != nil {
		t.Fatalf("an unchanged cached store was parsed again to write it:\n%s", src)
	}
	if a, b := editForCache(parsed), editForCache(cached); string(a) != string(b) {
		t.Fatalf("the same edit differs:\nparsed %q\ncached %q\n-- src --\n%s", a, b, src)
	}
	// Edits of servers alone, the client rules as loaded: a store from the
	// cache parses only the blocks they touch (blocksFromCache).
	for i, edit := range serverEdits {
		reparsed, _ := Parse("f.hcl", src)
		lastParsed.put("", nil, nil, nil)
		fromCache, _ := ParseCached("f.hcl", src, c)
		if a, b := edit(reparsed), edit(fromCache); string(a) != string(b) {
			t.Fatalf("server edit %d differs:\nparsed %q\ncached %q\n-- src --\n%s", i, a, b, src)
		}
	}
}

// serverEdits change servers and leave the client rules: one changed, one
// removed, one added, and all three at once.
var serverEdits = []func(s *Store) []byte{
	func(s *Store) []byte {
		if n := s.Servers.Len(); n > 0 {
			e := s.Servers.Servers[n-1].Clone()
			e.Disabled = !e.Disabled
			e.Env = map[string]string{"EDITED": "${X}"}
			s.Put(e)
		}
		return s.Bytes()
	},
	func(s *Store) []byte {
		if s.Servers.Len() > 0 {
			s.Remove(s.Servers.Servers[0].Name)
		}
		return s.Bytes()
	},
	func(s *Store) []byte {
		s.Put(canonical.Server{Name: "added-alone", URL: "https://x.example/mcp"})
		return s.Bytes()
	},
	func(s *Store) []byte {
		if s.Servers.Len() > 1 {
			e := s.Servers.Servers[1].Clone()
			e.Args = append(e.Args, "more")
			s.Put(e)
			s.Remove(s.Servers.Servers[0].Name)
		}
		s.Put(canonical.Server{Name: "added-too", Command: "x"})
		return s.Bytes()
	},
}

// checkDropped: a parsed store whose syntax a reader let go of
// (DropSyntax) holds none, nor does the memo of the last parse, and it
// writes and edits to the same bytes as a parsed one.
func checkDropped(t *testing.T, src []byte, pds canonical.Diagnostics) {
	t.Helper()
	defer lastParsed.put("", nil, nil, nil)
	drop := func() *Store {
		s, _ := ParseCached("f.hcl", src, &memCache{})
		s.DropSyntax()
		if !pds.HasErrors() && (s.blocks != nil || lastParsed.blocks != nil) {
			t.Fatalf("the syntax is still held after DropSyntax:\n%s", src)
		}
		return s
	}
	if pds.HasErrors() {
		drop() // nothing to let go of, and nothing may break
		return
	}
	if got := drop().Bytes(); string(got) != string(src) {
		t.Fatalf("untouched store rewritten after DropSyntax:\n%q\n%q", src, got)
	}
	reparsed, _ := Parse("f.hcl", src)
	if a, b := editForCache(reparsed), editForCache(drop()); string(a) != string(b) {
		t.Fatalf("the same edit differs:\nparsed %q\nafter DropSyntax %q\n-- src --\n%s", a, b, src)
	}
}

func TestParseCachedExample(t *testing.T) {
	checkCached(t, []byte(exampleStore))
	c := &memCache{}
	ParseCached("f.hcl", []byte(exampleStore), c)
	if _, ok := c.Get("store\x00f.hcl", []byte(exampleStore)); !ok {
		t.Fatal("the example store was not cached")
	}
	// Another name, other bytes: a miss, never another file's servers.
	if _, ok := c.Get("store\x00g.hcl", []byte(exampleStore)); ok {
		t.Fatal("an entry was found under another file's name")
	}
	s, _ := ParseCached("f.hcl", []byte(exampleStore+"\nserver \"late\" {\n  command = \"x\"\n}\n"), c)
	if _, ok := s.Servers.Get("late"); !ok {
		t.Fatal("an edited store was read from the cache as it was before")
	}
}

// FuzzParseCached: for any input, a store read from the cache is the store
// Parse reads, and writes the same bytes after the same edits.
func FuzzParseCached(f *testing.F) {
	for _, s := range []string{exampleStore, "", "# c\n", "server \"a\" { command = \"x\" }",
		"server \"a\" {\n  url = \"https://x\"\n  transport = \"sse\"\n  headers = {\n    A = \"Bearer ${env(\"T\")}\"\n  }\n}\n",
		"server \"b\" {\n  command = \"y\" // c\n  extra \"z\" {\n    k = [1, {a = null}, \"<&>\"]\n  }\n}",
		"server \"a\" {\n  command = \"x\"\n  env = {}\n  args = []\n  oauth {\n    client_id = \"i\"\n  }\n}\n\nclient \"c\" {\n  exclude = [\"a\", \"zz\"]\n}",
		"resolver \"r\" {\n  command = [\"x\"]\n  timeout = \"2s\"\n}\nsource \"s\" {\n  git = \"https://x\"\n}\n",
		"client \"vscode\" {\n  file = \"~/.vscode-server/data/User/mcp.json\"\n}\n", "server \"a\" {\n",
		// pieces of text between a server's line and the next server's
		"server \"a\" {\n  command = \"x\"\n}\n/* a comment\n that ends */ server \"b\" {\n  command = \"y\"\n}\n",
		"server \"a\" { command = \"x\" }\n\nclient \"c\" {\n  exclude = [\"b\"]\n}\n# between\n  server \"b\" {\n  url = \"https://x\"\n}\n\n// end\n",
		"server \"a\" {\n  command = \"x\"\n  /* open\n}\nserver \"b\" {\n  close */\n}\nserver \"c\" {\n  command = \"z\"\n}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkCached(t, src) })
}

// editForCache makes the same edits to any store: a changed, a removed
// and an added server, and a client rule.
func editForCache(s *Store) []byte {
	if s.Servers.Len() > 0 {
		e := s.Servers.Servers[0].Clone()
		e.Args = append(e.Args, "cached ${X}")
		s.Put(e)
	}
	if s.Servers.Len() > 1 {
		s.Remove(s.Servers.Servers[1].Name)
	}
	s.Put(canonical.Server{Name: "added-by-cache-test", Command: "npx"})
	s.SetClientRule("cursor", ClientRule{Exclude: []string{"added-by-cache-test"}})
	return s.Bytes()
}

// TestDecodeParsedTakesWhatEncodeWrites: a kept parse of the example
// store is read by the fast reader, not handed to encoding/json.
func TestDecodeParsedTakesWhatEncodeWrites(t *testing.T) {
	s, ds := Parse("f.hcl", []byte(exampleStore))
	data := encodeParsed(s.parsed(ds))
	if data == nil {
		t.Fatal("the example store is not kept")
	}
	if _, ok := decodeParsedFast(data); !ok {
		t.Fatalf("the fast reader gave up on what encodeParsed wrote:\n%s", data)
	}
	checkDecodeParsed(t, data)
}

// FuzzDecodeParsed: decodeParsed reads any text as encoding/json does.
func FuzzDecodeParsed(f *testing.F) {
	for _, src := range []string{exampleStore, "server \"a\" {\n  command = \"x\"\n  env = {}\n  args = []\n}\n",
		"server \"b\" {\n  url = \"https://\\u00e9<&>\"\n  extra \"z\" {\n    k = [1, {a = null}]\n  }\n}"} {
		s, ds := Parse("f.hcl", []byte(src))
		if data := encodeParsed(s.parsed(ds)); data != nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"servers":null,"clients":{}}`))
	f.Add([]byte(`{"servers":[{"name":"a","origin":{"file":"f","line":1.0}}],"diags":null}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeParsed(t, data) })
}

func checkDecodeParsed(t *testing.T, data []byte) {
	t.Helper()
	var want parsed
	werr := json.Unmarshal(data, &want)
	got, ok := decodeParsed(data)
	if (werr == nil) != ok {
		t.Fatalf("encoding/json error %v, decodeParsed ok %v\n%q", werr, ok, data)
	}
	if ok && !reflect.DeepEqual(want, got) {
		t.Fatalf("decodeParsed reads differently from encoding/json\n%q\nencoding/json: %#v\ndecodeParsed:  %#v", data, want, got)
	}
}

// TestEditFromCacheParsesOnlyItsBlocks: an edit of one server of a store
// from the cache reads the syntax of that block alone, and writes what
// an edit of the parsed store writes.
func TestEditFromCacheParsesOnlyItsBlocks(t *testing.T) {
	var src strings.Builder
	for i := range 50 {
		fmt.Fprintf(&src, "# server %d\nserver \"s%02d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n}\n\n", i, i, i)
	}
	src.WriteString("client \"cursor\" {\n  exclude = [\"s01\"]\n}\n")
	data := []byte(src.String())
	c := &memCache{}
	ParseCached("f.hcl", data, c)
	lastParsed.put("", nil, nil, nil)
	for i, edit := range serverEdits {
		cached, _ := ParseCached("f.hcl", data, c)
		parsed, _ := Parse("f.hcl", data)
		got, want := edit(cached), edit(parsed)
		if string(got) != string(want) {
			t.Fatalf("edit %d differs:\n%s\n---\n%s", i, got, want)
		}
		if cached.blocks != nil {
			t.Errorf("edit %d read the syntax of every block", i)
		}
	}
}
