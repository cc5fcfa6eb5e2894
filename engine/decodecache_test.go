package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
)

// TestDecodeCacheSeesEveryEdit: client files kept decoded between runs
// (large ones, in the parse cache) change nothing a run decides. After an
// export, a hand edit of each client file, then a sync that takes the
// edits, export's diff and sync's plan are the same with the cache as
// with none, and the edits are seen.
func TestDecodeCacheSeesEveryEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 servers: not with -short")
	}
	p := newProject(t, 1000)
	p.clean()
	p.exportApply(fiveClients)
	p.exportApply(fiveClients) // reads every file as written: kept decoded
	parsed := filepath.Join(p.home, ".cache", "mcpsync", "parsed")
	if entries, _ := os.ReadDir(parsed); len(entries) < 1+len(fiveClients) {
		t.Fatalf("%d entries in the parse cache, want the store's and one per client file", len(entries))
	}

	// A hand edit of one server in each file, as a user or the client
	// makes it: the bytes differ, so no entry may be taken for them.
	for _, rel := range []string{".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".codex/config.toml", "opencode.json"} {
		path := filepath.Join(p.dir, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.Replace(data, []byte(`/srv/3"`), []byte(`/srv/3-by-hand"`), 1)
		if bytes.Equal(edited, data) {
			t.Fatalf("%s: nothing to edit", rel)
		}
		if err := os.WriteFile(path, edited, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	plans := func() (diff, sync string) {
		run := p.export(fiveClients, true)
		diff = run.Plan.Diff(emitters.DiffOptions{Base: p.dir})
		run.Close()
		srun, err := p.engine().Sync(engine.SyncOptions{Scope: canonical.ScopeProject, Only: fiveClients, DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		defer srun.Close()
		sync = srun.Result.Plan.Diff(emitters.DiffOptions{Base: p.dir})
		for _, d := range srun.Result.Plan.Diags {
			sync += "\n" + d.Error()
		}
		return diff, sync
	}
	cachedDiff, cachedSync := plans()
	cachedDiff2, cachedSync2 := plans() // now from the entries of the edited bytes
	if err := os.RemoveAll(parsed); err != nil {
		t.Fatal(err)
	}
	freshDiff, freshSync := plans()
	if strings.Count(cachedDiff, "/srv/3-by-hand") != len(fiveClients) {
		t.Errorf("export's diff does not undo the five hand edits:\n%s", cachedDiff)
	}
	if cachedDiff != freshDiff || cachedDiff2 != freshDiff {
		t.Errorf("export's diff with the cache differs from the diff without:\n%s\n---\n%s", cachedDiff2, freshDiff)
	}
	if cachedSync != freshSync || cachedSync2 != freshSync {
		t.Errorf("sync's plan with the cache differs from the plan without:\n%s\n---\n%s", cachedSync2, freshSync)
	}
}
