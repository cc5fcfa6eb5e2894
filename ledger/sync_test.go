package ledger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// TestSyncRecords: a state file written before sync existed loads; the
// sync records round-trip through Save and Load; a store whose records are
// all forgotten leaves nothing behind.
func TestSyncRecords(t *testing.T) {
	dir := t.TempDir()
	old := `{"version": 1, "bases": {"/s.hcl": {"a": {"hash": "x", "server": {"name": "a", "transport": "stdio", "command": "a"}}}}}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.SyncFor("/s.hcl") != nil || st.ClientBase("/s.hcl", "k", "a") != nil || st.Conflict("/s.hcl", "a") != nil {
		t.Fatal("an old state has sync records")
	}
	srv := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "npx"}
	key := ClientKey("/h/.claude.json", "/proj")
	st.SetClientBase("/s.hcl", key, "a", NewEntry("claude-code", srv, time.Now()))
	st.SetDeleted("/s.hcl", "gone", NewEntry("", srv, time.Now()))
	st.SetConflict("/s.hcl", "a", &Conflict{Sides: []ConflictSide{{Side: "cursor", Server: &srv}, {Side: "store", Removed: true}}})
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	st, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := st.ClientBase("/s.hcl", key, "a"); e == nil || e.Hash != Hash(srv) {
		t.Errorf("client base: %+v", e)
	}
	if !st.HasClientBase("/s.hcl", "a") || st.HasClientBase("/s.hcl", "b") {
		t.Errorf("HasClientBase")
	}
	if names := st.DeletedNames("/s.hcl"); len(names) != 1 || names[0] != "gone" {
		t.Errorf("deleted: %v", names)
	}
	if c := st.Conflict("/s.hcl", "a"); c == nil || len(c.Sides) != 2 || !c.Sides[1].Removed {
		t.Errorf("conflict: %+v", c)
	}
	st.ForgetClientBase("/s.hcl", key, "a")
	st.ForgetDeleted("/s.hcl", "gone")
	st.ForgetConflict("/s.hcl", "a")
	if st.Sync != nil {
		t.Errorf("empty records stay behind: %+v", st.Sync)
	}
	if key != "/h/.claude.json [project /proj]" || ClientKey("/h/.cursor/mcp.json", "") != "/h/.cursor/mcp.json" {
		t.Errorf("ClientKey: %q", key)
	}
}

// TestSyncEntriesBySnapshot: sync's records of what each client held, and
// of what it deleted, keep their servers in the state's snapshots, as the
// records of files and bases do: a server held by five clients and written
// by mcpsync is one copy in state.json, not six (a synced project of 10,000
// servers whose entries mcpsync had not written made a 15 MB state, two
// thirds of it these copies, read and written on every run). They load
// back whole, sharing one snapshot per server, and a state written before
// (version 1, each entry holding its server) loads as it did.
func TestSyncEntriesBySnapshot(t *testing.T) {
	dir := t.TempDir()
	st, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1700000000, 0).UTC()
	srv := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"K": "${K}"}}
	other := canonical.Server{Name: "gone", Transport: canonical.HTTP, URL: "https://e.example/mcp"}
	const store = "/p/mcpsync.hcl"
	st.EnsureFile("/p/.mcp.json").Sections = map[string]*Section{"": {Managed: map[string]*Entry{"a": st.NewEntry("claude-code", srv, at)}}}
	for _, c := range []string{"/p/.cursor/mcp.json", "/p/opencode.json"} {
		st.SetClientBase(store, c, "a", NewEntry("cursor", srv, at))
	}
	st.SetDeleted(store, "gone", NewEntry("", other, at))
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Version   int                                   `json:"version"`
		Sync      map[string]map[string]json.RawMessage `json:"sync"`
		Snapshots map[string]json.RawMessage            `json:"snapshots"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Version != Version || Version < 2 {
		t.Errorf("version %d written, Version %d: a build that reads sync entries inline must refuse this state", raw.Version, Version)
	}
	for member, text := range raw.Sync[store] {
		if strings.Contains(string(text), `"server"`) {
			t.Errorf("sync %s holds its servers itself: %s", member, text)
		}
	}
	for _, h := range []string{Hash(srv), Hash(other)} {
		if _, ok := raw.Snapshots[h]; !ok {
			t.Errorf("no snapshot %s: %s", h, data)
		}
	}
	if len(raw.Snapshots) != 2 {
		t.Errorf("%d snapshots, want one per server: %s", len(raw.Snapshots), data)
	}

	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := back.ClientBase(store, "/p/.cursor/mcp.json", "a"), back.ClientBase(store, "/p/opencode.json", "a")
	managed := back.Managed("/p/.mcp.json", "")["a"]
	for _, e := range []*Entry{c1, c2, managed} {
		if e == nil || !e.HasServer() || !canonical.Equal(*e.Server, Snapshot(srv)) || e.Hash != Hash(srv) {
			t.Fatalf("entry read back: %+v", e)
		}
	}
	if c1.Server != c2.Server || c1.Server != managed.Server {
		t.Error("entries of one server hold copies of it, not its snapshot")
	}
	if d := back.SyncFor(store).Deleted["gone"]; d == nil || !d.HasServer() || d.Server.URL != other.URL {
		t.Errorf("deleted entry read back: %+v", d)
	}

	// A version 1 state: each sync entry holds its server.
	old := `{"version":1,"sync":{"/s.hcl":{"clients":{"/c.json":{"a":{"client":"cursor","hash":"h1","server":{"name":"a","transport":"stdio","command":"x"}}}},` +
		`"deleted":{"b":{"hash":"h2","server":{"name":"b","transport":"http","url":"https://b.example/mcp"}}}}}}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	v1, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := v1.ClientBase("/s.hcl", "/c.json", "a"); e == nil || !e.HasServer() || e.Server.Command != "x" || e.Hash != "h1" {
		t.Errorf("version 1 client entry: %+v", e)
	}
	if d := v1.SyncFor("/s.hcl").Deleted["b"]; d == nil || !d.HasServer() || d.Server.URL != "https://b.example/mcp" {
		t.Errorf("version 1 deleted entry: %+v", d)
	}
}
