package all

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// TestLocateMovesUserFile: a moved user-scope file takes the writable
// user location's place, a location in the same file moves with it, the
// client's other user-scope files are left out, and project files and
// clients without a move stay where they were.
func TestLocateMovesUserFile(t *testing.T) {
	r := NewRegistry(Options{})
	env := formats.Env{Home: "/home/me", ProjectDir: "/work/p", OS: "linux",
		Files: map[string]formats.MovedFile{"claude-code": {Path: "/mnt/c/me/.claude.json", OS: "windows"}, "vscode": {Path: "/srv/vscode/mcp.json"}}}
	bare := env
	bare.Files = nil
	for _, c := range []struct {
		id string
		// want maps each scope to the paths it should have, in order.
		want map[canonical.Scope][]string
	}{
		{"claude-code", map[canonical.Scope][]string{
			canonical.ScopeUser:  {"/mnt/c/me/.claude.json"},
			canonical.ScopeLocal: {"/mnt/c/me/.claude.json"},
		}},
		{"vscode", map[canonical.Scope][]string{canonical.ScopeUser: {"/srv/vscode/mcp.json"}}},
	} {
		ad, err := r.Lookup(c.id)
		if err != nil {
			t.Fatal(err)
		}
		got := map[canonical.Scope][]string{}
		for _, l := range formats.Locate(ad, env) {
			got[l.Scope] = append(got[l.Scope], l.Path)
			if want := env.Files[c.id].OS; c.want[l.Scope] != nil && l.OS != want {
				t.Errorf("%s %s: OS %q, want %q", c.id, l.Scope, l.OS, want)
			}
		}
		for scope, paths := range c.want {
			if len(got[scope]) != len(paths) {
				t.Errorf("%s %s: %v, want %v", c.id, scope, got[scope], paths)
				continue
			}
			for i := range paths {
				if got[scope][i] != paths[i] {
					t.Errorf("%s %s: %v, want %v", c.id, scope, got[scope], paths)
				}
			}
		}
		var projectBefore, projectAfter []formats.Location
		for _, l := range ad.Locations(bare) {
			if l.Scope == canonical.ScopeProject {
				projectBefore = append(projectBefore, l)
			}
		}
		for _, l := range formats.Locate(ad, env) {
			if l.Scope == canonical.ScopeProject {
				projectAfter = append(projectAfter, l)
			}
		}
		if len(projectBefore) == 0 || len(projectBefore) != len(projectAfter) {
			t.Errorf("%s: project locations %v became %v", c.id, projectBefore, projectAfter)
		}
	}
	cursor, _ := r.Lookup("cursor")
	before, after := cursor.Locations(bare), formats.Locate(cursor, env)
	if len(before) != len(after) || before[0] != after[0] {
		t.Errorf("cursor has no move but its locations changed: %v -> %v", before, after)
	}
}
