package ledger

import (
	"os"
	"path/filepath"
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
