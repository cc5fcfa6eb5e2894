package reconcile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

const teamStore = `source "acme" {
  git = "https://example.com/acme.git"
}
`

// teamSandbox is a store that holds only a team source, whose "github" is
// approved and whose "linear" waits for approval, exported to the clients.
func teamSandbox(t *testing.T, clients ...string) *sandbox {
	t.Helper()
	sb := newSandbox(t, teamStore, clients...)
	st, ds := store.Load(sb.store)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	recs, err := sources.LoadRecords(sb.stateDir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	recs.Update(st.Sources[0], "c1", canonical.Set{Servers: []canonical.Server{
		{Name: "github", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PERSONAL_ACCESS_TOKEN}"}},
		{Name: "linear", Transport: canonical.HTTP, URL: "https://mcp.linear.app/mcp"},
	}}, now)
	recs.Approve("acme", "github", now)
	sb.recs = recs
	sb.export()
	return sb
}

// export writes the desired state to every client, as 'mcpsync export' does.
func (sb *sandbox) export() {
	sb.t.Helper()
	st, _ := store.Load(sb.store)
	d := desired.FromRecords(st, sb.recs)
	db, err := ledger.Load(sb.stateDir)
	if err != nil {
		sb.t.Fatal(err)
	}
	p := emitters.PlanExport(sb.targets(), emitters.ExportOptions{Servers: d.Set, Allows: st.Allows, State: db,
		StorePath: st.Path, Sources: d.FromSource, Encode: formats.EncodeOptions{OS: "linux"}})
	if err := p.Err(); err != nil {
		sb.t.Fatal(err)
	}
	if _, err := emitters.Apply(p, emitters.ApplyOptions{StateDir: sb.stateDir, State: db}); err != nil {
		sb.t.Fatal(err)
	}
}

func warningsOf(r *Result) string {
	var b strings.Builder
	for _, d := range r.Plan.Diags.Warnings() {
		b.WriteString(d.Error() + "\n")
	}
	return b.String()
}

func TestTeamServerIsNotRemovedByTheStore(t *testing.T) {
	sb := teamSandbox(t, "cursor", "codex", "gemini")
	if !strings.Contains(sb.read(sb.path("codex")), "[mcp_servers.acme-github]") {
		t.Fatalf("export did not write the source's server:\n%s", sb.read(sb.path("codex")))
	}
	before := sb.snapshot()
	r := sb.sync(nil)
	if len(r.Outcomes) > 0 || r.Changed() {
		t.Fatalf("a source's server in step everywhere changed something: %+v", r.Outcomes)
	}
	sb.unchangedSince(before)
}

func TestTeamServerReachesAClientWithoutIt(t *testing.T) {
	sb := teamSandbox(t, "cursor")
	sb.clients = append(sb.clients, "vscode")
	r := sb.sync(nil, "vscode")
	if len(r.Outcomes) != 1 || r.Outcomes[0].Line() != "acme-github: copied from source acme -> vscode" {
		t.Fatalf("outcomes: %+v", r.Outcomes)
	}
	if !strings.Contains(sb.read(sb.path("vscode")), `"acme-github"`) {
		t.Fatal("vscode did not get the source's server")
	}
	if strings.Contains(sb.read(sb.store), "github") {
		t.Fatalf("the source's server was written into the store:\n%s", sb.read(sb.store))
	}
	if r := sb.sync(nil); len(r.Outcomes) > 0 {
		t.Fatalf("the next sync is not quiet: %+v", r.Outcomes)
	}
}

func TestTeamServerEditInAClientGoesNowhere(t *testing.T) {
	sb := teamSandbox(t, "cursor", "codex")
	cursor := sb.path("cursor")
	sb.write(cursor, strings.Replace(sb.read(cursor), `"@modelcontextprotocol/server-github"`, `"@modelcontextprotocol/server-github",
        "--mine"`, 1))
	before := sb.snapshot()
	r := sb.sync(nil)
	if len(r.Outcomes) > 0 || r.Changed() || len(r.Conflicts) > 0 {
		t.Fatalf("an edit of a source's server was taken: %+v %+v", r.Outcomes, r.Conflicts)
	}
	if w := warningsOf(r); !strings.Contains(w, "comes from team source acme; change it upstream, or copy it under another name") {
		t.Fatalf("the edit is not reported:\n%s", w)
	}
	sb.unchangedSince(before)
}

func TestTeamServerPendingApprovalIsNotTakenIntoTheStore(t *testing.T) {
	sb := teamSandbox(t, "cursor", "codex")
	codex := sb.path("codex")
	sb.write(codex, sb.read(codex)+"\n[mcp_servers.acme-linear]\nurl = \"https://mcp.linear.app/mcp\"\n")
	before := sb.snapshot()
	r := sb.sync(nil)
	if len(r.Outcomes) > 0 || r.Changed() {
		t.Fatalf("a server pending approval was spread: %+v", r.Outcomes)
	}
	if w := warningsOf(r); !strings.Contains(w, "waiting for approval") {
		t.Fatalf("not reported:\n%s", w)
	}
	sb.unchangedSince(before)
}

func TestTeamServerCannotBeTaken(t *testing.T) {
	sb := teamSandbox(t, "cursor")
	st, _ := store.Load(sb.store)
	db, _ := ledger.Load(sb.stateDir)
	r := Plan(Options{Store: st, Targets: sb.targets(), State: db, Take: map[string]string{"acme-github": "cursor"},
		Servers: []string{"acme-github"}, Desired: desired.FromRecords(st, sb.recs)})
	if err := r.Plan.Err(); err == nil || !strings.Contains(err.Error(), "comes from team source acme") {
		t.Fatalf("resolve --take on a source's server: %v", err)
	}
}

func TestTeamServerLeavesWithItsSource(t *testing.T) {
	sb := teamSandbox(t, "cursor", "codex")
	sb.sync(nil)
	// The source goes: the store is empty now, which is not "no memory"
	// for a server it never held.
	sb.write(sb.store, "")
	sb.recs.Keep(nil)
	r := sb.sync(nil)
	if len(r.Outcomes) != 1 || r.Outcomes[0].Line() != "acme-github: removed in source acme -> cursor, codex" {
		t.Fatalf("outcomes: %+v", r.Outcomes)
	}
	if len(r.Waiting) > 0 {
		t.Fatalf("a store that held only a source, emptied, is taken for one being written: %v", r.Waiting)
	}
	if got := sb.read(sb.store); got != "" {
		t.Fatalf("the store was filled from the clients:\n%s", got)
	}
	// mcpsync created both files for the source's server: they go, with
	// the directories made for them.
	for _, client := range []string{"cursor", "codex"} {
		if _, err := os.Stat(filepath.Dir(sb.path(client))); !os.IsNotExist(err) {
			t.Errorf("%s's directory is left (%v)", client, err)
		}
	}
}

// BenchmarkPlanTeam is BenchmarkPlan with the 50 servers coming from a team
// source instead of the store (nine clients in step; nothing to write).
func BenchmarkPlanTeam(b *testing.B) {
	clients := []string{"claude-code", "codex", "continue", "cursor", "gemini", "goose", "opencode", "vscode", "windsurf"}
	sb := newSandbox(b, teamStore, clients...)
	st, _ := store.Load(sb.store)
	recs, err := sources.LoadRecords(sb.stateDir)
	if err != nil {
		b.Fatal(err)
	}
	var set canonical.Set
	for i := range 50 {
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("s%02d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", fmt.Sprintf("pkg-%d", i)}, Env: map[string]string{"TOKEN": fmt.Sprintf("${TOKEN_%d}", i)}})
	}
	now := time.Now()
	recs.Update(st.Sources[0], "c1", set, now)
	for _, srv := range set.Servers {
		recs.Approve("acme", srv.Name, now)
	}
	sb.recs = recs
	sb.sync(nil, clients...)
	b.ReportAllocs()
	for range b.N {
		if r, _ := sb.plan(nil); r.Changed() {
			b.Fatal("not in sync")
		}
	}
	b.ReportMetric(float64(len(clients)), "clients")
}
