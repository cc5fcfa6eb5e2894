package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
)

// stateOf builds a state with every field set, its keys and values made
// from the strings given (escaping, ordering, empty and nil maps).
func stateOf(a, b string, at int64) *State {
	t := time.Unix(0, at).UTC()
	e := func(client string) *Entry {
		return &Entry{Client: client, Hash: a + b, At: t, From: b, Server: &canonical.Server{Name: a, Command: b, Env: map[string]string{b: a}}}
	}
	srv := canonical.Server{Name: b, URL: a, Transport: canonical.HTTP}
	return &State{
		Version: Version,
		Files: map[string]*File{
			a: {SHA256: b, Written: t, Created: true, Sections: map[string]*Section{
				"": {Managed: map[string]*Entry{a: e("cursor"), b: {Hash: b}}},
				b:  {},
				a:  nil,
			}, AddedKeys: map[string]int{a: 1}, AddedSideKeys: map[string][]string{b: {a}}, CreatedDirs: []string{a, b}},
			b:           {},
			"<&>\u2028": nil,
		},
		Bases: map[string]map[string]*Entry{a: {b: e("")}, b: nil, "x": {}},
		Sync: map[string]*Sync{
			a: {Clients: map[string]map[string]*Entry{b: {a: e(b)}, "": nil}, Deleted: map[string]*Entry{a: e(a), b: nil},
				Conflicts: map[string]*Conflict{b: {At: t, Sides: []ConflictSide{{Side: a, Path: b, Server: &srv}, {Side: "store", Removed: true}}}}},
			b:   {},
			"n": nil,
		},
		Snapshots: map[string]canonical.Server{a: srv, b: {Name: a}},
	}
}

// TestStateJSONMatchesMarshal: the hand-written encoder writes what
// encoding/json writes for the same state.
func TestStateJSONMatchesMarshal(t *testing.T) {
	for _, st := range []*State{{Version: Version}, stateOf("a", "b", 1700000000123456789), stateOf(`q"\<`, "é\x01", 0)} {
		checkStateJSON(t, st)
	}
}

// TestNamesSortedOnce: Save sorts the names of a map of entries once for
// the maps after it that hold the same names (nameOrder), and writes what
// encoding/json writes for every map, those that hold other names too: as
// many names but one different, fewer, more, none, and null.
func TestNamesSortedOnce(t *testing.T) {
	entries := func(names ...string) map[string]*Entry {
		m := map[string]*Entry{}
		for _, n := range names {
			m[n] = &Entry{Client: "cursor", Hash: "h" + n}
		}
		return m
	}
	st := &State{Version: Version, Files: map[string]*File{}}
	for i, m := range []map[string]*Entry{
		entries("b", "a", "c"), entries("c", "a", "b"), entries("a", "b", "d"), entries("a", "b"),
		entries("a", "b", "c", "d"), entries("d", "c", "b", "a"), {}, nil, entries("a", "b", "c"),
	} {
		st.Files[fmt.Sprintf("/p/f%d", i)] = &File{Sections: map[string]*Section{"": {Managed: m}, "s": {Managed: entries("a", "b", "c")}}}
	}
	st.Bases = map[string]map[string]*Entry{"/store": entries("c", "b", "a")}
	checkStateJSON(t, st)
	var o nameOrder
	o.of(entries("b", "a"))
	if names, _, _ := o.of(entries("a", "c")); strings.Join(names, ",") != "a,c" {
		t.Errorf("as many names, one of them new: %v", names)
	}
}

func FuzzStateJSON(f *testing.F) {
	f.Add("a", "b", int64(1))
	f.Add("<script>", "\u2029\x7f", int64(-5))
	f.Fuzz(func(t *testing.T, a, b string, at int64) {
		checkStateJSON(t, stateOf(a, b, at))
	})
}

func checkStateJSON(t *testing.T, st *State) {
	t.Helper()
	for k, f := range st.Files {
		want, werr := json.Marshal(f)
		got, gerr := MarshalFile(f)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("MarshalFile(%q):\n%s\nencoding/json:\n%s", k, got, want)
		}
	}
	want, werr := json.Marshal(st)
	got, gerr := appendState(nil, st)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("errors differ: %v / %v", werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("appendState:\n%s\nencoding/json:\n%s", got, want)
	}
	// Save writes the entries whose servers are in Snapshots without
	// them: as encoding/json writes the state with those servers taken
	// out of their entries.
	want, werr = json.Marshal(withoutSnapshotted(st))
	got, gerr = stateJSON{bySnapshot: true}.state(nil, st)
	if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("state by snapshot:\n%s\nencoding/json:\n%s", got, want)
	}
	// Save gives the snapshots by pointer (stateJSON.snaps), and the time
	// of the entries through a memo: the same text.
	snaps := map[string]*canonical.Server{}
	for k, srv := range st.Snapshots {
		snaps[k] = &srv
	}
	saved, serr := stateJSON{bySnapshot: true, snaps: snaps, times: &timeMemo{}, names: &nameOrder{}}.state(nil, st)
	if (serr != nil) != (gerr != nil) || serr == nil && !bytes.Equal(saved, got) {
		t.Fatalf("state as Save writes it:\n%s\nwith State.Snapshots:\n%s", saved, got)
	}
}

// withoutSnapshotted is a copy of st whose entries with a hash and a
// server hold no server, as Save wrote them before it had stateJSON's
// bySnapshot: the entries of files, sync bases and two-way sync's records
// (State.eachEntry), whose servers Save keeps in Snapshots.
func withoutSnapshotted(st *State) *State {
	strip := func(m map[string]*Entry) map[string]*Entry {
		if m == nil {
			return nil
		}
		out := make(map[string]*Entry, len(m))
		for k, e := range m {
			if e != nil && e.Hash != "" && e.HasServer() {
				c := *e
				c.Server = nil
				e = &c
			}
			out[k] = e
		}
		return out
	}
	c := *st
	if st.Files != nil {
		c.Files = map[string]*File{}
		for p, f := range st.Files {
			if f != nil && f.Sections != nil {
				fc := *f
				fc.Sections = map[string]*Section{}
				for k, sec := range f.Sections {
					if sec != nil {
						sec = &Section{Managed: strip(sec.Managed)}
					}
					fc.Sections[k] = sec
				}
				f = &fc
			}
			c.Files[p] = f
		}
	}
	if st.Bases != nil {
		c.Bases = map[string]map[string]*Entry{}
		for k, m := range st.Bases {
			c.Bases[k] = strip(m)
		}
	}
	if st.Sync != nil {
		c.Sync = map[string]*Sync{}
		for k, s := range st.Sync {
			if s != nil {
				sc := *s
				if s.Clients != nil {
					sc.Clients = map[string]map[string]*Entry{}
					for key, m := range s.Clients {
						sc.Clients[key] = strip(m)
					}
				}
				sc.Deleted = strip(s.Deleted)
				s = &sc
			}
			c.Sync[k] = s
		}
	}
	return &c
}

// BenchmarkStateJSON: the state of 10,000 servers in 5 files, written by
// encoding/json and by appendState, and read by encoding/json and by
// decodeState, in the same run.
func BenchmarkStateJSON(b *testing.B) {
	st := &State{Version: Version, Files: map[string]*File{}}
	at := time.Unix(1700000000, 0).UTC()
	for f := range 5 {
		managed := map[string]*Entry{}
		for i := range 10000 {
			name := "server-" + string(rune('a'+f)) + "-" + time.Duration(i).String()
			managed[name] = &Entry{Client: "cursor", Hash: HashBytes([]byte(name)), At: at, From: "f"}
		}
		st.Files["/home/u/file"+string(rune('0'+f))] = &File{SHA256: "x", Written: at, Sections: map[string]*Section{"": {Managed: managed}}}
	}
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appendState", func(b *testing.B) {
		for b.Loop() {
			if _, err := appendState(nil, st); err != nil {
				b.Fatal(err)
			}
		}
	})
	data, err := appendState(nil, st)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("read-encoding-json", func(b *testing.B) {
		for b.Loop() {
			if err := json.Unmarshal(data, New("/d")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read-decodeState", func(b *testing.B) {
		for b.Loop() {
			if !decodeStateFast(data, New("/d")) {
				b.Fatal("the fast reader gave up")
			}
		}
	})
}

// Every entry Save writes loads back with its server: those of files and
// sync bases from Snapshots, two-way sync's from the entry itself.
func TestSaveLoadKeepsEveryServer(t *testing.T) {
	dir := t.TempDir()
	st := New(dir)
	srv := canonical.Server{Name: "fetch", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}}
	st.Files = map[string]*File{"/p/.cursor/mcp.json": {Sections: map[string]*Section{"": {Managed: map[string]*Entry{"fetch": st.NewEntry("cursor", srv, time.Time{})}}}}}
	st.Bases = map[string]map[string]*Entry{"/p/mcpsync.hcl": {"fetch": st.NewEntry("", srv, time.Time{})}}
	mine := canonical.Server{Name: "mine", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-git"}}
	st.Sync = map[string]*Sync{"/p/mcpsync.hcl": {
		Clients: map[string]map[string]*Entry{"/p/.vscode/mcp.json": {"fetch": NewEntry("vscode", srv, time.Time{}), "mine": NewEntry("vscode", mine, time.Time{})}},
		Deleted: map[string]*Entry{"old": NewEntry("", canonical.Server{Name: "old", URL: "https://example.com/mcp", Transport: canonical.HTTP}, time.Time{})},
	}}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(where string, e *Entry, want canonical.Server) {
		t.Helper()
		if e == nil || !canonical.Equal(e.Snap(), want) || !e.Holds(want) {
			t.Errorf("%s: loaded %+v, want the server %+v", where, e, want)
		}
	}
	check("file entry", back.Files["/p/.cursor/mcp.json"].Sections[""].Managed["fetch"], srv)
	check("sync base", back.Bases["/p/mcpsync.hcl"]["fetch"], srv)
	sy := back.Sync["/p/mcpsync.hcl"]
	check("two-way sync's client entry", sy.Clients["/p/.vscode/mcp.json"]["fetch"], srv)
	check("two-way sync's client entry", sy.Clients["/p/.vscode/mcp.json"]["mine"], mine)
	check("two-way sync's deleted entry", sy.Deleted["old"], canonical.Server{Name: "old", URL: "https://example.com/mcp", Transport: canonical.HTTP})
}

// The memo writes each time as appendTime does, whatever came before it:
// another instant, the same instant in another zone, a year out of range.
func TestTimeMemo(t *testing.T) {
	base := time.Unix(1700000000, 123456789)
	times := []time.Time{base.UTC(), base.UTC(), base.Add(time.Nanosecond).UTC(), base.In(time.FixedZone("X", 3600)),
		base.UTC(), base.In(time.FixedZone("Y", -1800)), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), base.UTC()}
	memo := &timeMemo{}
	for i, at := range times {
		got, gerr := memo.append([]byte("x"), at)
		want, werr := appendTime([]byte("x"), at)
		if (gerr != nil) != (werr != nil) || !bytes.Equal(got, want) {
			t.Errorf("time %d (%v): memo wrote %s (%v), appendTime %s (%v)", i, at, got, gerr, want, werr)
		}
	}
}

// TestSaveWritesInChunks: Save writes the state out as it goes, chunk by
// chunk, and the file is the one text the encoder makes of it whole.
func TestSaveWritesInChunks(t *testing.T) {
	defer func(n int) { saveChunk = n }(saveChunk)
	st := New(t.TempDir())
	st.Files = map[string]*File{}
	at := time.Unix(1700000000, 0).UTC()
	bases := map[string]*Entry{}
	for f := range 3 {
		managed := map[string]*Entry{}
		for i := range 200 {
			srv := canonical.Server{Name: fmt.Sprintf("s%03d", i), Command: "npx", Args: []string{fmt.Sprint(i % (f + 2))}}
			managed[srv.Name] = st.NewEntry(fmt.Sprintf("client%d", f), srv, at)
			bases[srv.Name] = st.NewEntry("", srv, at)
		}
		st.Files[fmt.Sprintf("/p/file%d", f)] = &File{SHA256: "x", Written: at, Sections: map[string]*Section{"": {Managed: managed}}}
	}
	st.Bases = map[string]map[string]*Entry{"/store.hcl": bases}
	snaps := map[string]*canonical.Server{}
	st.eachEntry(func(e *Entry) {
		if _, ok := snaps[e.Hash]; !ok && e.inSnapshots() {
			snaps[e.Hash] = e.Server
		}
	})
	whole, err := stateJSON{bySnapshot: true, snaps: snaps}.state(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 100, 4096, len(whole), 1 << 20} {
		saveChunk = chunk
		if err := st.Save(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(st.Path())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append(whole, '\n')) {
			t.Fatalf("chunks of %d: saved %d bytes, want the %d of one encoding", chunk, len(got), len(whole)+1)
		}
	}
}

// A save that cannot write fails, and leaves no goroutine behind: the one
// that encodes the snapshots stops when the write does.
func TestSaveThatFailsStopsItsEncoder(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	st := New(filepath.Join(blocker, "state")) // a folder inside a file: no write can succeed
	at := time.Unix(1700000000, 0).UTC()
	for i := range 3000 {
		srv := canonical.Server{Name: fmt.Sprintf("s%04d", i), Command: "npx", Args: []string{strings.Repeat("x", 3000)}} // more chunks than Save lets its encoder make ahead
		st.SetManaged("/p/f.json", "", srv.Name, st.NewEntry("cursor", srv, at))
	}
	before := runtime.NumGoroutine()
	for range 20 {
		if err := st.Save(); err == nil {
			t.Fatal("Save into a folder inside a file succeeded")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after 20 failed saves, %d before", n, before)
	}
}

// MarshalFiles keeps each snapshot once, and UnmarshalFiles gives every
// entry its server back; a newer version is refused.
func TestMarshalFilesSharesSnapshots(t *testing.T) {
	st := New(t.TempDir())
	fetch := canonical.Server{Name: "fetch", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}, Env: map[string]string{"K": "${K}"}}
	remote := canonical.Server{Name: "remote", Transport: canonical.HTTP, URL: "https://example.com/mcp"}
	at := time.Date(2026, 12, 7, 1, 2, 3, 0, time.UTC)
	files := map[string]*File{}
	for _, p := range []string{"/p/.mcp.json", "/p/.cursor/mcp.json", "/p/opencode.json"} {
		files[p] = &File{SHA256: "h" + p, Written: at, Sections: map[string]*Section{"": {Managed: map[string]*Entry{
			"fetch":  st.NewEntry("c", fetch, at),
			"remote": st.NewEntry("c", remote, at),
			"bare":   {Hash: "only-a-hash"},
		}}}, CreatedDirs: []string{"/p/.cursor"}}
	}
	data, err := MarshalFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "mcp-server-fetch"); n != 1 {
		t.Errorf("fetch written %d times, want once:\n%s", n, data)
	}
	// Written a few bytes at a time (as a backup writes it, in chunks of
	// saveChunk), the text is the same.
	defer func(n int) { saveChunk = n }(saveChunk)
	saveChunk = 16
	var chunks []string
	if err := WriteFiles(writerFunc(func(p []byte) (int, error) { chunks = append(chunks, string(p)); return len(p), nil }), files); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(chunks, ""); got != string(data) || len(chunks) < 10 {
		t.Errorf("written in %d chunks as\n%s\nwant\n%s", len(chunks), got, data)
	}
	back, err := UnmarshalFiles(data)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(files)
	got, _ := json.Marshal(back)
	if !bytes.Equal(got, want) {
		t.Errorf("read back as\n%s\nwant\n%s", got, want)
	}
	if back["/p/.mcp.json"].Sections[""].Managed["fetch"].Server != back["/p/opencode.json"].Sections[""].Managed["fetch"].Server {
		t.Error("the files' entries of one server do not share its snapshot")
	}
	newer := strings.Replace(string(data), fmt.Sprintf(`{"version":%d`, Version), fmt.Sprintf(`{"version":%d`, Version+1), 1)
	if _, err := UnmarshalFiles([]byte(newer)); err == nil || !strings.Contains(err.Error(), "newer mcpsync") {
		t.Errorf("a newer version read with %v", err)
	}
	if _, err := UnmarshalFiles([]byte(`{"files": [`)); err == nil {
		t.Error("damaged text read without an error")
	}
}

// FuzzMarshalFiles: what MarshalFiles writes of any records reads back as
// them (UnmarshalFiles), and UnmarshalFiles of any bytes fails or returns
// records without panicking.
func FuzzMarshalFiles(f *testing.F) {
	f.Add("a", "b", int64(1), []byte(`{"version":2,"files":{"/p":{"sections":{"":{"managed":{"x":{"hash":"h"}}}}}},"snapshots":{"h":{"name":"x"}}}`))
	f.Add("<é>", "\u2028\x01", int64(-7), []byte(`{"version":2,"files":null}`))
	f.Fuzz(func(t *testing.T, a, b string, at int64, raw []byte) {
		if files, err := UnmarshalFiles(raw); err == nil {
			if _, err := MarshalFiles(files); err != nil {
				t.Fatalf("records read from %q do not write: %v", raw, err)
			}
		}
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // JSON carries text: the state's strings come from UTF-8 files
		}
		when := time.Unix(0, at).UTC()
		srv := canonical.Server{Name: a, Transport: canonical.Stdio, Command: b, Args: []string{a, b}, Env: map[string]string{b: a}}
		other := canonical.Server{Name: b, Transport: canonical.HTTP, URL: a, Headers: map[string]string{a: b}}
		files := map[string]*File{
			a: {SHA256: b, Written: when, Sections: map[string]*Section{b: {Managed: map[string]*Entry{a: NewEntry(b, srv, when), b: NewEntry(a, other, time.Time{})}}}},
			b: {Created: true, Sections: map[string]*Section{"": {Managed: map[string]*Entry{a: NewEntry("", srv, when), "h": {Hash: a}}}}},
		}
		data, err := MarshalFiles(files)
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalFiles(data)
		if err != nil {
			t.Fatalf("%v reading\n%s", err, data)
		}
		want, _ := json.Marshal(files)
		got, _ := json.Marshal(back)
		if !bytes.Equal(got, want) {
			t.Fatalf("read back as\n%s\nwant\n%s", got, want)
		}
	})
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
