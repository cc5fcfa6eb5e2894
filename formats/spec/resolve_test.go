package spec_test

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// TestResolvedOnceProblemsStayApart: an adapter works out where a file's
// servers are once for each location and keeps it; the problem it found
// there is each caller's own to place, as it was when each call made it.
func TestResolvedOnceProblemsStayApart(t *testing.T) {
	a := spec.MustAdapter(spec.MustBuiltin("claude-code"), spec.NoHooks{})
	// Claude Code's local scope keeps servers per project: no project, no path.
	loc := formats.Location{Client: "claude-code", Scope: canonical.ScopeLocal, Path: "/home/u/.claude.json", Format: formats.JSON}
	srv := canonical.Set{Servers: []canonical.Server{{Name: "a", Transport: canonical.Stdio, Command: "npx"}}}
	var first canonical.Diagnostics
	for i := range 3 {
		_, ds := a.Encode(loc, nil, srv, formats.EncodeOptions{OS: "linux"})
		if !ds.HasErrors() {
			t.Fatalf("call %d: no error for a local-scope file without a project", i)
		}
		if i == 0 {
			first = ds
			first[0].Summary, first[0].File = "changed by the first caller", "elsewhere"
			continue
		}
		if ds[0] == first[0] || ds[0].Summary == first[0].Summary || ds[0].File == "elsewhere" {
			t.Fatalf("call %d sees the first caller's problem: %+v", i, ds[0])
		}
	}
	// The same location with a project resolves, and encodes into it.
	loc.Project = "/p"
	out, ds := a.Encode(loc, nil, srv, formats.EncodeOptions{OS: "linux"})
	if ds.HasErrors() || len(out) == 0 {
		t.Fatalf("with a project: %v\n%s", ds, out)
	}
}
