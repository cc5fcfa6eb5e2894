package emitters

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// Connect then disconnect leaves no residue: the keys mcpsync added to a
// file to reach its server map, and the directories it created for a file,
// go again; what the user had stays.

// realTarget is the user-scope (or local-scope) target of a real client
// inside the sandbox's home.
func (sb *sandbox) realTarget(client string, scope canonical.Scope) Target {
	sb.t.Helper()
	ad, err := all.NewRegistry(all.Options{}).Lookup(client)
	if err != nil {
		sb.t.Fatal(err)
	}
	env := formats.Env{Home: sb.home, ProjectDir: filepath.Join(sb.home, "proj"), OS: "linux"}
	for _, loc := range ad.Locations(env) {
		if loc.Scope == scope && !loc.ReadOnly {
			return Target{Adapter: ad, Location: loc}
		}
	}
	sb.t.Fatalf("%s has no %s location", client, scope)
	return Target{}
}

func (sb *sandbox) writeFile(path, content string) {
	sb.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		sb.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		sb.t.Fatal(err)
	}
}

func (sb *sandbox) readFile(path string) string {
	sb.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		sb.t.Fatal(err)
	}
	return string(data)
}

func prune(o *ExportOptions) { o.Prune = true }

func TestPruneRemovesTheWrapperItAdded(t *testing.T) {
	for _, c := range []struct {
		client string
		scope  canonical.Scope
		before string
	}{
		{"gemini", canonical.ScopeUser, "{\n  \"theme\": \"GitHub\"\n}\n"},
		{"zed", canonical.ScopeUser, "// Zed settings\n{\n  \"theme\": \"One Dark\",\n  \"vim_mode\": true,\n}\n"},
		{"claude-code", canonical.ScopeUser, "{\n  \"numStartups\": 12,\n  \"projects\": {}\n}\n"},
		{"claude-code", canonical.ScopeLocal, "{\n  \"numStartups\": 12,\n  \"projects\": {\n    \"/elsewhere\": {\n      \"allowedTools\": []\n    }\n  }\n}\n"},
		{"claude-code", canonical.ScopeLocal, "{\n  \"numStartups\": 12\n}\n"},
		{"goose", canonical.ScopeUser, "GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\n"},
		{"continue", canonical.ScopeUser, "name: mine\nversion: 0.0.1\nschema: v1\n"},
	} {
		t.Run(c.client+"/"+string(c.scope), func(t *testing.T) {
			sb := newSandbox(t)
			tgt := sb.realTarget(c.client, c.scope)
			path := tgt.Location.Path
			sb.writeFile(path, c.before)
			sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx", "mcp-server-fetch")}, nil))
			f := sb.st.File(path)
			if f == nil || f.AddedKeys[SectionKey(tgt.Location)] == 0 {
				t.Fatalf("the keys added to reach the server map are not recorded: %+v", f)
			}
			p := sb.plan([]Target{tgt}, nil, prune)
			if p.Err() != nil {
				t.Fatal(p.Err())
			}
			sb.apply(p)
			if got := sb.readFile(path); got != c.before {
				t.Fatalf("connect then disconnect left residue:\n--- before\n%s--- after\n%s", c.before, got)
			}
			if f := sb.st.File(path); f != nil && len(f.AddedKeys) > 0 {
				t.Fatalf("the state still records added keys: %+v", f.AddedKeys)
			}
		})
	}
}

func TestPruneKeepsAWrapperTheUserHad(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("gemini", canonical.ScopeUser)
	before := "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {}\n}\n"
	sb.writeFile(tgt.Location.Path, before)
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	if f := sb.st.File(tgt.Location.Path); len(f.AddedKeys) > 0 {
		t.Fatalf("a wrapper the file had is recorded as added: %+v", f.AddedKeys)
	}
	sb.apply(sb.plan([]Target{tgt}, nil, prune))
	if got := sb.readFile(tgt.Location.Path); got != before {
		t.Fatalf("the user's empty wrapper went:\n%s", got)
	}
}

func TestAddedWrapperStaysWhileItHoldsTheUsersServer(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("gemini", canonical.ScopeUser)
	path := tgt.Location.Path
	before := "{\n  \"theme\": \"GitHub\"\n}\n"
	sb.writeFile(path, before)
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	// The user adds a server of their own into the map mcpsync added.
	withMine := sb.readFile(path)
	withMine = withMine[:len(withMine)-len("    }\n  }\n}\n")] + "    },\n    \"mine\": {\"command\": \"my-server\"}\n  }\n}\n"
	sb.writeFile(path, withMine)
	p := sb.plan([]Target{tgt}, nil, prune)
	sb.apply(p)
	got := sb.readFile(path)
	if want := "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"my-server\"}\n  }\n}\n"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if f := sb.st.File(path); f.AddedKeys[""] != 1 {
		t.Fatalf("the added wrapper is no longer recorded: %+v", f.AddedKeys)
	}
}

func TestCreatedDirectoriesGoWithTheFile(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("kiro", canonical.ScopeUser) // ~/.kiro/settings/mcp.json
	path := tgt.Location.Path
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	kiro := filepath.Join(sb.home, ".kiro")
	want := []string{filepath.Join(kiro, "settings"), kiro}
	if f := sb.st.File(path); f == nil || !equalStrings(f.CreatedDirs, want) {
		t.Fatalf("created dirs not recorded: %+v", f)
	}
	sb.apply(sb.plan([]Target{tgt}, nil, prune))
	if _, err := os.Stat(kiro); !os.IsNotExist(err) {
		t.Fatalf("%s is left after the file mcpsync created it for went (%v)", kiro, err)
	}
	if _, err := os.Stat(sb.home); err != nil {
		t.Fatalf("the home went too: %v", err)
	}
}

func TestCreatedDirectoryWithOtherFilesStays(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("kiro", canonical.ScopeUser)
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	// Kiro was installed meanwhile: its own file sits in ~/.kiro.
	sb.writeFile(filepath.Join(sb.home, ".kiro", "argv.json"), "{}")
	sb.apply(sb.plan([]Target{tgt}, nil, prune))
	if _, err := os.Stat(filepath.Join(sb.home, ".kiro", "settings")); !os.IsNotExist(err) {
		t.Fatalf("the empty settings directory mcpsync created stays (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(sb.home, ".kiro", "argv.json")); err != nil {
		t.Fatalf("the user's file went: %v", err)
	}
}

func TestDirectoriesThatExistedStay(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("kiro", canonical.ScopeUser)
	settings := filepath.Join(sb.home, ".kiro", "settings")
	if err := os.MkdirAll(settings, 0o755); err != nil {
		t.Fatal(err)
	}
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	if f := sb.st.File(tgt.Location.Path); len(f.CreatedDirs) > 0 {
		t.Fatalf("directories that existed are recorded as created: %v", f.CreatedDirs)
	}
	sb.apply(sb.plan([]Target{tgt}, nil, prune))
	if _, err := os.Stat(settings); err != nil {
		t.Fatalf("a directory the user had went: %v", err)
	}
}

func TestSyncRemovalDropsTheAddedWrapper(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("gemini", canonical.ScopeUser)
	path := tgt.Location.Path
	before := "{\n  \"theme\": \"GitHub\"\n}\n"
	sb.writeFile(path, before)
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	in := ReadForSync([]Target{tgt}, nil)
	tp := in.Sections[0]
	want := SyncWant{Servers: canonical.Set{}, Removed: []string{"fetch"}}
	p := PlanSync(in, SyncOptions{Want: map[*TargetPlan]SyncWant{tp: want}, State: sb.st})
	if p.Err() != nil {
		t.Fatal(p.Err())
	}
	sb.apply(p)
	if got := sb.readFile(path); got != before {
		t.Fatalf("sync left residue:\n%s", got)
	}
}

func TestRestoreOfACreatedFileRemovesItsDirectories(t *testing.T) {
	sb := newSandbox(t)
	tgt := sb.realTarget("kiro", canonical.ScopeUser)
	sb.apply(sb.plan([]Target{tgt}, []canonical.Server{stdio("fetch", "uvx")}, nil))
	p, err := PlanRestore(sb.stateDir, RestoreOptions{All: true, State: sb.st})
	if err != nil {
		t.Fatal(err)
	}
	if p.Err() != nil {
		t.Fatal(p.Err())
	}
	if _, err := Apply(p, ApplyOptions{StateDir: sb.stateDir, State: sb.st, Now: func() time.Time { return time.Now().Add(time.Second) }}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sb.home, ".kiro")); !os.IsNotExist(err) {
		t.Fatalf("~/.kiro is left after restoring to before the export (%v)", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
