package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

func TestLoadMissingIsEmpty(t *testing.T) {
	st, err := Load(filepath.Join(t.TempDir(), "nope"))
	if err != nil || len(st.Files) != 0 || st.Version != Version {
		t.Fatalf("Load of a missing dir = %+v, %v", st, err)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcpsync")
	st := New(dir)
	at := time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)
	srv := canonical.Server{Name: "gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "x"},
		Env: map[string]string{"T": "${T}"}, Origin: canonical.Pos{File: "/x", Line: 3}}
	f := st.EnsureFile("/home/u/.cursor/mcp.json")
	f.SHA256, f.Written, f.Created = HashBytes([]byte("x")), at, true
	st.SetManaged("/home/u/.cursor/mcp.json", "", "gh", NewEntry("cursor", srv, at))
	st.SetManaged("/home/u/.claude.json", "/proj", "gh", NewEntry("claude-code", srv, at))
	st.SetBase("/home/u/.config/mcpsync/mcpsync.hcl", "gh", NewEntry("", srv, at))
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode = %v, %v; want 0600", fi.Mode(), err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	back.path, st.path = "", ""
	back.changes, st.changes = 0, 0 // bookkeeping of this process, not state
	if !reflect.DeepEqual(back, st) {
		a, _ := json.Marshal(st)
		b, _ := json.Marshal(back)
		t.Fatalf("round trip differs:\n%s\n%s", a, b)
	}
	if !back.IsManaged("/home/u/.claude.json", "/proj", "gh") || back.IsManaged("/home/u/.claude.json", "", "gh") {
		t.Fatal("sections are not kept apart")
	}
	if e := back.Managed("/home/u/.cursor/mcp.json", "")["gh"]; e.Server.Origin != (canonical.Pos{}) {
		t.Fatalf("snapshot keeps its origin: %+v", e.Server.Origin)
	}
	back.Forget("/home/u/.claude.json", "/proj", "gh")
	if back.File("/home/u/.claude.json").Sections != nil && len(back.File("/home/u/.claude.json").Sections) != 0 {
		t.Fatal("an empty section is kept after Forget")
	}
}

func TestLoadDamagedAndNewer(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte("{not json"), 0o600)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "move it aside") {
		t.Fatalf("damaged state: %v", err)
	}
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"version": 99}`), 0o600)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "newer mcpsync") {
		t.Fatalf("newer state: %v", err)
	}
}

func TestHashIgnoresOriginAndSpacing(t *testing.T) {
	a := canonical.Server{Name: "a", Command: "x", Env: map[string]string{}, Origin: canonical.Pos{Line: 1}}
	a.SetExtra("cursor", "envFile", json.RawMessage(`{"a": 1}`))
	b := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "x"}
	b.SetExtra("cursor", "envFile", json.RawMessage(`{"a":1}`))
	if Hash(a) != Hash(b) {
		t.Fatal("servers that mean the same thing hash differently")
	}
	b.Args = []string{"y"}
	if Hash(a) == Hash(b) {
		t.Fatal("different servers hash the same")
	}
}

func TestLockExcludesASecondHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dir, 100*time.Millisecond); !errors.Is(err, ErrLocked) {
		if isUnlockedPlatform() {
			t.Skip("advisory locks are not enforced on this platform")
		}
		t.Fatalf("second Acquire = %v, want ErrLocked", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir, 0)
	if err != nil {
		t.Fatalf("Acquire after Unlock: %v", err)
	}
	l2.Unlock()
	l2.Unlock() // twice is harmless
}

func TestLockNamesItsHolder(t *testing.T) {
	if isUnlockedPlatform() {
		t.Skip("advisory locks are not enforced on this platform")
	}
	dir := t.TempDir()
	l, err := AcquireWith(dir, LockOptions{Command: "export --to all"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	var told Holder
	_, err = AcquireWith(dir, LockOptions{Wait: 60 * time.Millisecond, OnWait: func(h Holder) { told = h }})
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second AcquireWith = %v, want a *LockedError", err)
	}
	if le.Holder.PID != os.Getpid() || le.Holder.Command != "export --to all" || told != le.Holder {
		t.Fatalf("holder %+v, told %+v", le.Holder, told)
	}
	for _, want := range []string{fmt.Sprintf("pid %d", os.Getpid()), "export --to all", "run the command again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

// FuzzLoad feeds arbitrary bytes as state.json: Load never panics, and a
// state it accepts saves and loads back to the same value.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"files":{"/a":{"sha256":"00","created":true,"sections":{"":{"managed":{"x":{"hash":"h","server":{"name":"x","transport":"stdio","command":"c"}}}}}}}}`))
	f.Add([]byte(`{"version":1,"bases":{"/s.hcl":{"x":{"hash":"h","server":{"name":"x","url":"https://e/mcp","transport":"http"}}}}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"files":{"/a":null,"/b":{"sections":{"":null,"x":{"managed":{"y":null}}}}},"bases":{"/s":null,"/t":{"x":null}},` +
		`"sync":{"/s":null,"/t":{"clients":{"k":null},"deleted":{"x":null},"conflicts":{"c":null}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, FileName), data, 0o600)
		st, err := Load(dir)
		if err != nil {
			return
		}
		if err := st.Save(); err != nil {
			t.Fatal(err)
		}
		again, err := Load(dir)
		if err != nil {
			t.Fatalf("a saved state does not load: %v", err)
		}
		a, _ := json.Marshal(st)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("save/load changed the state:\n%s\n%s", a, b)
		}
	})
}

func TestRecordSideKeys(t *testing.T) {
	f := &File{}
	f.RecordSideKeys("", []string{"inputs"}, nil)
	f.RecordSideKeys("", []string{"inputs"}, nil)
	f.RecordSideKeys("mcp", []string{"a", "b"}, nil)
	if got := fmt.Sprint(f.AddedSideKeys); got != "map[:[inputs] mcp:[a b]]" {
		t.Fatalf("after adding: %s", got)
	}
	c := f.Clone()
	f.RecordSideKeys("mcp", nil, []string{"a"})
	if got := fmt.Sprint(f.AddedSideKeys, " ", c.AddedSideKeys); got != "map[:[inputs] mcp:[b]] map[:[inputs] mcp:[a b]]" {
		t.Fatalf("after removing a (and the clone): %s", got)
	}
	f.RecordSideKeys("mcp", nil, []string{"b"})
	f.RecordSideKeys("", nil, []string{"inputs", "other"})
	if f.AddedSideKeys != nil {
		t.Errorf("after removing every key: %v, want nil", f.AddedSideKeys)
	}
}

// The same server written to many files, and kept as a sync base, is
// saved once; Load gives every entry its server back, and a state.json
// from before the snapshot table (each entry holding its server) still
// loads.
func TestSaveKeepsEachSnapshotOnce(t *testing.T) {
	dir := t.TempDir()
	st := New(dir)
	srv := canonical.Server{Name: "fetch", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-fetch"}}
	for _, f := range []string{"/a/.cursor/mcp.json", "/a/.vscode/mcp.json", "/a/.codex/config.toml"} {
		st.SetManaged(f, "", "fetch", NewEntry("c", srv, time.Time{}))
	}
	st.SetBase("/a/mcpsync.hcl", "fetch", NewEntry("", srv, time.Time{}))
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "mcp-server-fetch"); n != 1 {
		t.Errorf("state.json holds the server %d times, want once:\n%s", n, data)
	}
	if got := st.Managed("/a/.cursor/mcp.json", "")["fetch"].Server.Command; got != "uvx" {
		t.Errorf("after Save the entry in memory lost its server: command %q", got)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/a/.cursor/mcp.json", "/a/.vscode/mcp.json", "/a/.codex/config.toml"} {
		e := back.Managed(f, "")["fetch"]
		if e == nil || !canonical.Equal(e.Snap(), srv) || e.Hash != Hash(srv) {
			t.Errorf("%s: loaded entry %+v, want the server back", f, e)
		}
	}
	if b := back.Base("/a/mcpsync.hcl", "fetch"); b == nil || !canonical.Equal(b.Snap(), srv) {
		t.Errorf("loaded base %+v, want the server back", b)
	}

	old := `{"version":1,"files":{"/a/.cursor/mcp.json":{"sections":{"":{"managed":{"fetch":` +
		`{"client":"cursor","hash":"` + Hash(srv) + `","server":{"name":"fetch","transport":"stdio","command":"uvx","args":["mcp-server-fetch"]}}}}}}}}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	back, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Managed("/a/.cursor/mcp.json", "")["fetch"]; e == nil || !canonical.Equal(e.Snap(), srv) {
		t.Errorf("an older state.json: loaded entry %+v, want its server", e)
	}
}

// Changes counts what changes the state, and only that: setting what is
// already there, or forgetting what is not, counts nothing.
func TestChangesCountsRealChanges(t *testing.T) {
	st := New(t.TempDir())
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	e := NewEntry("cursor", canonical.Server{Name: "a", Command: "x"}, at)
	steps := []struct {
		what    string
		do      func()
		changes bool
	}{
		{"set a new entry", func() { st.SetManaged("/f", "", "a", e) }, true},
		{"set the same entry", func() {
			st.SetManaged("/f", "", "a", NewEntry("cursor", canonical.Server{Name: "a", Command: "x"}, at))
		}, false},
		{"set it later", func() {
			st.SetManaged("/f", "", "a", NewEntry("cursor", canonical.Server{Name: "a", Command: "x"}, at.Add(time.Hour)))
		}, true},
		{"forget what is not there", func() { st.Forget("/f", "", "zz") }, false},
		{"forget it", func() { st.Forget("/f", "", "a") }, true},
		{"base", func() { st.SetBase("/s", "a", e) }, true},
		{"same base", func() { st.SetBase("/s", "a", e) }, false},
		{"client base", func() { st.SetClientBase("/s", "k", "a", e) }, true},
		{"forget no conflict", func() { st.ForgetConflict("/s", "a") }, false},
		{"forget no deleted", func() { st.ForgetDeleted("/s", "a") }, false},
		{"remove the base", func() { st.RemoveBase("/s", "a") }, true},
	}
	for _, s := range steps {
		before := st.Changes()
		s.do()
		if got := st.Changes() != before; got != s.changes {
			t.Errorf("%s: changed = %v, want %v", s.what, got, s.changes)
		}
	}
}

// FuzzHolds: Entry.Holds says what comparing hashes says, for servers
// that differ from the recorded one in one way or none.
func FuzzHolds(f *testing.F) {
	f.Add("a", "", "npx", "x", "K", "v", "", "", uint8(0), false, `{"a": 1}`)
	f.Add("a", "http", "", "", "", "", "https://h", "T", uint8(3), true, `[1,2]`)
	f.Add("a", "", "", "", "", "", "https://h", "", uint8(7), false, `{"b": [1.0, "x"], "a": null}`)
	f.Fuzz(func(t *testing.T, name, transport, command, arg, k, v, url, token string, change uint8, empties bool, extra string) {
		if !json.Valid([]byte(extra)) {
			return // adapters hand over JSON values only
		}
		a := canonical.Server{Name: name, Transport: canonical.Transport(transport), Command: command, URL: url,
			Args: []string{arg}, Env: map[string]string{k: v}}
		if token != "" {
			a.Auth.BearerTokenEnv = token
		}
		a.SetExtra("c", "k", json.RawMessage(extra))
		b := a.Clone()
		switch change % 14 {
		case 1:
			b.Transport = ""
		case 2:
			b.Args = nil
		case 3:
			b.Headers = map[string]string{"Authorization": "Bearer ${" + token + "}"}
			b.Auth.BearerTokenEnv = ""
		case 4:
			b.Env = map[string]string{}
		case 5:
			b.Auth.OAuth = &canonical.OAuth{}
		case 6:
			b.Auth.OAuth = &canonical.OAuth{Scopes: []string{}}
		case 7:
			b.Extra = map[string]map[string]json.RawMessage{"c": {"k": json.RawMessage(" " + extra + " ")}, "d": {}}
		case 8:
			b.StartupTimeout = time.Second
		case 9:
			b.Origin = canonical.Pos{File: "x", Line: 1}
		case 10:
			b.Command = ""
		case 11:
			b.Extra = nil
		case 12:
			b.SetExtra("d", "k", json.RawMessage(extra))
		case 13:
			b.Name += "x"
		}
		if empties {
			b.ToolsAllow, b.ToolsDeny = []string{}, []string{}
		}
		for _, pair := range [][2]canonical.Server{{a, b}, {b, a}} {
			e := NewEntry("c", pair[0], time.Time{})
			if got, want := e.Holds(pair[1]), e.Hash == Hash(pair[1]); got != want {
				t.Fatalf("Holds = %v, the hashes say %v\n%+v\n%+v", got, want, pair[0], pair[1])
			}
			// An entry that shares another's snapshot has its own server's hash.
			st := New(t.TempDir())
			st.NewEntry("c", pair[0], time.Time{})
			if e := st.NewEntry("d", pair[1], time.Time{}); e.Hash != Hash(pair[1]) {
				t.Fatalf("State.NewEntry's hash is not the server's\n%+v\n%+v", pair[0], pair[1])
			}
		}
	})
}

// TestEntriesShareSnapshots: entries of the same server made through one
// state hold one snapshot, which Save writes once and Load gives back.
func TestEntriesShareSnapshots(t *testing.T) {
	dir := t.TempDir()
	st := New(dir)
	srv := canonical.Server{Name: "gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "x"},
		Env: map[string]string{"T": "${T}"}, Origin: canonical.Pos{File: "/a", Line: 3}}
	again := srv.Clone()
	again.Origin = canonical.Pos{File: "/b", Line: 9} // read from another file: the same server
	other := srv.Clone()
	other.Args = []string{"-y", "y"}

	a := st.NewEntry("cursor", srv, time.Time{})
	b := st.NewEntry("claude-code", again, time.Time{})
	c := st.NewEntry("codex", other, time.Time{})
	if a.Hash != Hash(srv) || b.Hash != a.Hash || c.Hash != Hash(other) || c.Hash == a.Hash {
		t.Fatalf("hashes: %s %s %s; want the first two equal to Hash(srv), the third Hash(other)", a.Hash, b.Hash, c.Hash)
	}
	if reflect.ValueOf(a.Server.Env).Pointer() != reflect.ValueOf(b.Server.Env).Pointer() {
		t.Fatal("two entries of the same server hold two snapshots")
	}
	if b.Client != "claude-code" || a.Client != "cursor" {
		t.Fatalf("clients %q, %q: each entry keeps its own", a.Client, b.Client)
	}
	// Renew lends the snapshot of an entry that still holds the server.
	if r := st.Renew(a, "vscode", again, time.Time{}); r.Hash != a.Hash || reflect.ValueOf(r.Server.Env).Pointer() != reflect.ValueOf(a.Server.Env).Pointer() {
		t.Fatal("Renew of an entry that holds the server made a new snapshot")
	}
	if r := st.Renew(a, "vscode", other, time.Time{}); r.Hash != Hash(other) {
		t.Fatal("Renew of an entry that no longer holds the server kept its hash")
	}

	st.SetManaged("/a", "", "gh", a)
	st.SetManaged("/b", "", "gh", b)
	st.SetManaged("/c", "", "gh", c)
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/a", "/b", "/c"} {
		e := back.Files[p].Sections[""].Managed["gh"]
		want := map[string]*Entry{"/a": a, "/b": b, "/c": c}[p]
		if e.Hash != want.Hash || !canonical.Equal(e.Snap(), want.Snap()) || e.Client != want.Client {
			t.Fatalf("%s after Load: %+v; want %+v", p, e, want)
		}
	}
}

// AdoptManaged takes a map as a section's entries only where the section
// has none, and counts each entry as a change, as SetManaged would.
func TestAdoptManaged(t *testing.T) {
	st := New(t.TempDir())
	at := time.Unix(1700000000, 0).UTC()
	m := map[string]*Entry{}
	for _, name := range []string{"a", "b", "c"} {
		m[name] = st.NewEntry("cursor", canonical.Server{Name: name, Command: "npx"}, at)
	}
	one := New(t.TempDir()) // the same entries, one by one
	for name, e := range m {
		one.SetManaged("/p/f.json", "", name, e)
	}
	if !st.AdoptManaged("/p/f.json", "", m) {
		t.Fatal("an empty section did not adopt the entries")
	}
	if st.Changes() != one.Changes() {
		t.Errorf("adopting 3 entries counted %d changes, SetManaged %d", st.Changes(), one.Changes())
	}
	if got := st.Managed("/p/f.json", ""); len(got) != 3 || got["b"] != m["b"] {
		t.Errorf("the section holds %v", got)
	}
	other := map[string]*Entry{"d": st.NewEntry("cursor", canonical.Server{Name: "d", Command: "uvx"}, at)}
	if st.AdoptManaged("/p/f.json", "", other) {
		t.Error("a section with entries adopted another map")
	}
	if got := st.Managed("/p/f.json", ""); len(got) != 3 || got["d"] != nil {
		t.Errorf("after a refused adoption the section holds %v", got)
	}
}

// FuzzHolderJSON: the lock file's holder is written as json.Marshal writes
// it (a refusal included, for a year it cannot write).
func FuzzHolderJSON(f *testing.F) {
	f.Add(1234, "export --to all", int64(1700000000), int64(123456789), "UTC")
	f.Add(-1, "", int64(0), int64(0), "")
	f.Add(7, "<sync> & \u2028 \xff", int64(-62135596801), int64(999999999), "Local")
	f.Add(0, "a\"b\\c", int64(253402300800), int64(0), "+05:30")
	f.Fuzz(func(t *testing.T, pid int, command string, secs, nanos int64, zone string) {
		since := time.Unix(secs, nanos)
		switch zone {
		case "UTC":
			since = since.UTC()
		case "+05:30":
			since = since.In(time.FixedZone("", 5*3600+1800))
		}
		h := Holder{PID: pid, Command: command, Since: since}
		want, werr := json.Marshal(h)
		got, gerr := h.appendJSON(nil)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("appendJSON(%+v) = %s, %v; json.Marshal: %s, %v", h, got, gerr, want, werr)
		}
	})
}

// TestNewEntrySharesNormalServers: an entry's snapshot of a server already
// in normal form shares its lists and maps (an export of 10,000 servers
// made a deep copy of each, held to its end; nothing changes a server in
// place), and hashes as a copy would. A server Normalize would change is
// copied, and left as it was.
func TestNewEntrySharesNormalServers(t *testing.T) {
	normal := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y"},
		Env: map[string]string{"K": "v"}, Origin: canonical.Pos{File: "f", Line: 2}}
	e := NewEntry("cursor", normal, time.Time{})
	if e.Server.Origin != (canonical.Pos{}) {
		t.Errorf("the snapshot keeps the origin %v", e.Server.Origin)
	}
	e.Server.Env["probe"] = "x"
	if normal.Env["probe"] != "x" {
		t.Error("the snapshot of a normal server is a copy of its env")
	}
	delete(normal.Env, "probe")
	if e.Hash != Hash(normal) || e.Hash != hashSnapshot(Snapshot(normal)) {
		t.Error("a shared snapshot hashes differently")
	}

	// Extra values are compacted for the hash: in the snapshot's own maps.
	extra := canonical.Server{Name: "x", Command: "x"}
	extra.SetExtra("cursor", "k", json.RawMessage(`{"b": 1, "a": 2}`))
	e = NewEntry("cursor", extra, time.Time{})
	if got := string(extra.Extra["cursor"]["k"]); got != `{"b": 1, "a": 2}` {
		t.Errorf("NewEntry rewrote the server's extra value: %s", got)
	}
	if got := string(e.Server.Extra["cursor"]["k"]); got != `{"a":2,"b":1}` || e.Hash != Hash(extra) {
		t.Errorf("snapshot's extra %s", got)
	}

	bearer := canonical.Server{Name: "b", URL: "https://h", Headers: map[string]string{"X": "1"},
		Auth: canonical.Auth{BearerTokenEnv: "T", OAuth: &canonical.OAuth{ClientID: "c", Scopes: []string{}}}}
	e = NewEntry("cursor", bearer, time.Time{})
	if len(bearer.Headers) != 1 || bearer.Auth.BearerTokenEnv != "T" || bearer.Auth.OAuth.Scopes == nil {
		t.Errorf("NewEntry changed the server it was given: %+v", bearer)
	}
	if e.Server.Headers["Authorization"] != "Bearer ${T}" || e.Server.Transport != canonical.HTTP || e.Hash != Hash(bearer) {
		t.Errorf("snapshot %+v", e.Server)
	}
}
