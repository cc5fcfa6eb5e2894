package doctor

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// A team source's server is compared with the source's version, not
// between clients, and the fix names the source.
func TestDriftAgainstATeamSource(t *testing.T) {
	h := newHome(t)
	storePath := h.write("home/.config/mcpsync/mcpsync.hcl", "source \"acme\" {\n  git = \"https://example.com/acme.git\"\n}\n", 0o600)
	h.write("home/.claude.json", `{"mcpServers": {"acme-gh": {"type": "stdio", "command": "npx", "args": ["-y", "gh"]}}}`, 0o600)
	h.write("home/.cursor/mcp.json", `{"mcpServers": {"acme-gh": {"command": "npx", "args": ["-y", "gh", "--mine"]}}}`, 0o600)
	gh := canonical.Server{Name: "acme-gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "gh"}}
	r := h.run(func(o *Options) {
		o.Stores = []StoreFile{{Path: storePath, Scope: canonical.ScopeUser}}
		o.Team = canonical.Set{Servers: []canonical.Server{gh}}
		o.TeamSource = map[string]string{"acme-gh": "acme"}
	})
	ds := findings(r, Drift)
	if len(ds) != 1 {
		t.Fatalf("drift findings: %+v", ds)
	}
	f := ds[0]
	if f.Client != "cursor" || f.Server != "acme-gh" || !strings.Contains(f.Message, "differs from the version team source acme gives: args") ||
		!strings.Contains(f.Fix, "mcpsync import --from cursor --rename") {
		t.Fatalf("finding: %+v", f)
	}
}
