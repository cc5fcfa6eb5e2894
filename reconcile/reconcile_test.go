package reconcile

import (
	"errors"
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
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// sandbox is a home directory with a store, a state directory and the
// user-scope files of some clients.
type sandbox struct {
	t        testing.TB
	home     string
	stateDir string
	store    string
	reg      *formats.Registry
	clients  []string
	views    *ViewCache // nil: a new one each sync; set, as watch keeps one
	// decoded and keepDecoded are the plan's Options.Decoded and
	// KeepDecoded (a decode cache shared by the syncs).
	decoded     *emitters.DecodeMemo
	keepDecoded bool
	// recs, when set, are the team sources' records: the sync gets the
	// desired state (store plus approved source servers).
	recs *sources.Records
}

func newSandbox(t testing.TB, storeSrc string, clients ...string) *sandbox {
	t.Helper()
	home := t.TempDir()
	sb := &sandbox{t: t, home: home, stateDir: filepath.Join(home, ".local/state/mcpsync"),
		store: filepath.Join(home, ".config/mcpsync/mcpsync.hcl"), reg: all.NewRegistry(all.Options{}), clients: clients}
	sb.write(sb.store, storeSrc)
	return sb
}

func (sb *sandbox) write(path, data string) {
	sb.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		sb.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		sb.t.Fatal(err)
	}
}

func (sb *sandbox) read(path string) string {
	sb.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		sb.t.Fatal(err)
	}
	return string(data)
}

// targets returns the user-scope target of each client (the first
// writable location).
func (sb *sandbox) targets() []emitters.Target {
	env := formats.Env{Home: sb.home, OS: "linux", Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return filepath.Join(sb.home, ".config")
		}
		return ""
	}}
	var out []emitters.Target
	for _, id := range sb.clients {
		ad, err := sb.reg.Lookup(id)
		if err != nil {
			sb.t.Fatal(err)
		}
		for _, loc := range ad.Locations(env) {
			if loc.Scope == canonical.ScopeUser && !loc.ReadOnly {
				out = append(out, emitters.Target{Adapter: ad, Location: loc})
				break
			}
		}
	}
	return out
}

func (sb *sandbox) path(client string) string {
	for _, t := range sb.targets() {
		if t.Adapter.ID() == client {
			return t.Location.Path
		}
	}
	sb.t.Fatalf("no target for %s", client)
	return ""
}

// plan plans a sync without writing.
func (sb *sandbox) plan(take map[string]string, named ...string) (*Result, *ledger.State) {
	sb.t.Helper()
	st, ds := store.Load(sb.store)
	if ds.HasErrors() {
		sb.t.Fatalf("store: %v", ds)
	}
	db, err := ledger.Load(sb.stateDir)
	if err != nil {
		sb.t.Fatal(err)
	}
	nm := map[string]bool{}
	for _, n := range named {
		nm[n] = true
	}
	var d *desired.Servers
	if sb.recs != nil {
		d = desired.FromRecords(st, sb.recs)
	}
	r := Plan(Options{Store: st, Targets: sb.targets(), State: db, Named: nm, Take: take, Encode: formats.EncodeOptions{OS: "linux"}, Views: sb.views, Desired: d,
		Decoded: sb.decoded, KeepDecoded: sb.keepDecoded})
	if err := r.Plan.Err(); err != nil {
		sb.t.Fatalf("plan: %v", err)
	}
	return r, db
}

// sync plans, applies and records one sync.
func (sb *sandbox) sync(take map[string]string, named ...string) *Result {
	sb.t.Helper()
	r, db := sb.plan(take, named...)
	if _, err := emitters.Apply(r.Plan, emitters.ApplyOptions{StateDir: sb.stateDir, State: db}); err != nil {
		sb.t.Fatalf("apply: %v", err)
	}
	r.Record(db, time.Now().UTC())
	if err := db.Save(); err != nil {
		sb.t.Fatal(err)
	}
	return r
}

// snapshot returns every client file and the store, to prove nothing changed.
func (sb *sandbox) snapshot() map[string]string {
	out := map[string]string{}
	for _, p := range append([]string{sb.store}, sb.pathsOf()...) {
		if data, err := os.ReadFile(p); err == nil {
			out[p] = string(data)
		}
	}
	return out
}

func (sb *sandbox) pathsOf() []string {
	var ps []string
	for _, t := range sb.targets() {
		ps = append(ps, t.Location.Path)
	}
	return ps
}

func (sb *sandbox) unchangedSince(before map[string]string) {
	sb.t.Helper()
	after := sb.snapshot()
	for p, data := range before {
		if after[p] != data {
			sb.t.Errorf("%s changed:\n%s\n---- was ----\n%s", p, after[p], data)
		}
	}
	if len(after) != len(before) {
		sb.t.Errorf("files appeared or went: %d before, %d after", len(before), len(after))
	}
}

const richStore = `server "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env("GITHUB_TOKEN") }
  cwd     = "${user_home()}/work"
}

server "linear" {
  url     = "https://mcp.linear.app/mcp"
  headers = { Authorization = "Bearer ${env("LINEAR_API_KEY")}" }
}

server "events" {
  url       = "https://example.com/sse"
  transport = "sse"
}

server "off" {
  command  = "uvx"
  args     = ["mcp-server-time"]
  disabled = true
}

server "filtered" {
  command         = "node"
  args            = ["srv.js", "--port", "${env("PORT", "8080")}"]
  tools_allow     = ["read"]
  startup_timeout = "30s"
}
`

// TestSyncConvergesForEveryClient syncs a store holding every kind of
// server with each client mcpsync knows, then checks that the next sync
// changes nothing: what a client cannot express never looks like an edit,
// so no client ping-pongs with the store. An edit in the store then reaches
// the client, and again the next sync is quiet.
func TestSyncConvergesForEveryClient(t *testing.T) {
	// plain is a server every client can hold as it is (a client that
	// expands no references gets none of the others that hold one).
	const plain = `
server "plain" {
  command = "uvx"
  args    = ["mcp-server-git"]
}
`
	for _, ad := range all.NewRegistry(all.Options{}).All() {
		t.Run(ad.ID(), func(t *testing.T) {
			sb := newSandbox(t, richStore+plain, ad.ID())
			if len(sb.targets()) == 0 {
				t.Skipf("%s has no writable user-scope file", ad.ID())
			}
			r := sb.sync(nil, ad.ID())
			if len(r.Conflicts) > 0 {
				t.Fatalf("first sync: conflicts %+v", r.Conflicts)
			}
			if !strings.Contains(sb.read(sb.path(ad.ID())), "mcp-server-git") {
				t.Fatalf("the named client's file did not get the store's servers:\n%s", sb.read(sb.path(ad.ID())))
			}
			before := sb.snapshot()
			if r, _ := sb.plan(nil); r.Changed() || len(r.Conflicts) > 0 || len(r.Outcomes) > 0 {
				t.Fatalf("second sync is not a no-op: outcomes %+v conflicts %+v\n%s", r.Outcomes, r.Conflicts,
					r.Plan.Diff(emitters.DiffOptions{}))
			}
			sb.write(sb.store, strings.Replace(richStore+plain, `"srv.js"`, `"server.js"`, 1))
			r = sb.sync(nil)
			if len(r.Conflicts) > 0 {
				t.Fatalf("store edit: conflicts %+v", r.Conflicts)
			}
			if !strings.Contains(sb.read(sb.path(ad.ID())), "server.js") && strings.Contains(before[sb.path(ad.ID())], "srv.js") {
				t.Errorf("the store's edit did not reach %s:\n%s", ad.ID(), sb.read(sb.path(ad.ID())))
			}
			if r, _ := sb.plan(nil); r.Changed() || len(r.Conflicts) > 0 || len(r.Outcomes) > 0 {
				t.Fatalf("sync after the store edit is not a no-op: %+v %+v\n%s", r.Outcomes, r.Conflicts,
					r.Plan.Diff(emitters.DiffOptions{}))
			}
		})
	}
}

// TestSyncTakesALossyClientsEditFieldByField: Claude Code cannot express a
// cwd; its edit of the args is taken and the store keeps the cwd.
func TestSyncTakesALossyClientsEditFieldByField(t *testing.T) {
	sb := newSandbox(t, richStore, "claude-code", "cursor")
	sb.write(filepath.Join(sb.home, ".claude.json"), `{"numStartups": 4}`)
	sb.write(sb.path("cursor"), `{"mcpServers": {}}`)
	sb.sync(nil)
	claude := sb.read(filepath.Join(sb.home, ".claude.json"))
	sb.write(filepath.Join(sb.home, ".claude.json"), strings.Replace(claude, `"srv.js"`, `"edited.js"`, 1))
	r := sb.sync(nil)
	if len(r.Outcomes) != 1 || r.Outcomes[0].Line() != "filtered: changed in claude-code -> store, cursor" {
		t.Fatalf("outcomes %+v", r.Outcomes)
	}
	st, _ := store.Load(sb.store)
	srv, _ := st.Servers.Get("filtered")
	if srv.Args[0] != "edited.js" || srv.StartupTimeout != 30*time.Second || len(srv.ToolsAllow) != 1 {
		t.Errorf("the store lost what Claude Code cannot express, or missed the edit: %+v", srv)
	}
	gh, _ := st.Servers.Get("github")
	if gh.Cwd == "" {
		t.Errorf("github lost its cwd")
	}
}

// TestSyncConflictWritesNothingForThatServer: two clients change one
// server differently; the other server's change still goes through.
func TestSyncConflictWritesNothingForThatServer(t *testing.T) {
	sb := newSandbox(t, richStore, "cursor", "vscode")
	sb.write(sb.path("cursor"), `{"mcpServers": {}}`)
	sb.write(sb.path("vscode"), `{"servers": {}}`)
	sb.sync(nil)
	cur, vs := sb.read(sb.path("cursor")), sb.read(sb.path("vscode"))
	sb.write(sb.path("cursor"), strings.Replace(cur, `"srv.js"`, `"cursor.js"`, 1))
	sb.write(sb.path("vscode"), strings.Replace(strings.Replace(vs, `"srv.js"`, `"vscode.js"`, 1),
		"https://mcp.linear.app/mcp", "https://mcp.linear.app/v2", 1))
	r := sb.sync(nil)
	if len(r.Conflicts) != 1 || r.Conflicts[0].Server != "filtered" {
		t.Fatalf("conflicts %+v", r.Conflicts)
	}
	if len(r.Outcomes) != 1 || r.Outcomes[0].Server != "linear" {
		t.Fatalf("the other server did not sync: %+v", r.Outcomes)
	}
	if !strings.Contains(sb.read(sb.path("cursor")), "cursor.js") || strings.Contains(sb.read(sb.store), "vscode.js") {
		t.Errorf("a conflicting server was written")
	}
	db, _ := ledger.Load(sb.stateDir)
	if db.Conflict(sb.store, "filtered") == nil {
		t.Errorf("the conflict is not recorded in the state")
	}
	r = sb.sync(map[string]string{"filtered": "vscode"})
	if len(r.Settled) != 1 || !strings.Contains(sb.read(sb.path("cursor")), "vscode.js") || !strings.Contains(sb.read(sb.store), "vscode.js") {
		t.Errorf("take vscode did not settle it: %+v\n%s", r.Outcomes, sb.read(sb.path("cursor")))
	}
	db, _ = ledger.Load(sb.stateDir)
	if db.Conflict(sb.store, "filtered") != nil {
		t.Errorf("the settled conflict is still recorded")
	}
	if r, _ := sb.plan(nil); r.Changed() || len(r.Conflicts) > 0 {
		t.Errorf("not converged after resolve: %+v %+v", r.Outcomes, r.Conflicts)
	}
}

// TestSyncMissingFileRemovesNothing: a client file that disappears (an
// uninstall, a save caught between delete and create) is not "every server
// removed".
func TestSyncMissingFileRemovesNothing(t *testing.T) {
	sb := newSandbox(t, richStore, "cursor", "vscode")
	sb.write(sb.path("cursor"), `{"mcpServers": {}}`)
	sb.write(sb.path("vscode"), `{"servers": {}}`)
	sb.sync(nil)
	os.Remove(sb.path("cursor"))
	sb.write(sb.path("vscode"), "")
	before := sb.snapshot()
	r := sb.sync(nil)
	if r.Changed() || len(r.Outcomes) > 0 {
		t.Fatalf("a missing and an empty file changed things: %+v", r.Outcomes)
	}
	if len(r.Waiting) != 1 || r.Waiting[0] != sb.path("vscode") {
		t.Errorf("waiting %v", r.Waiting)
	}
	sb.unchangedSince(before)
}

// BenchmarkPlan is the cost of one sync (read, merge, plan; nothing to
// write) over nine clients holding 50 servers each: "first" as sync pays
// it, "watch" with the client views cached across syncs, as watch pays it
// on every change.
func BenchmarkPlan(b *testing.B) {
	var src strings.Builder
	for i := range 50 {
		fmt.Fprintf(&src, "server \"s%02d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\") }\n}\n\n", i, i, i)
	}
	clients := []string{"claude-code", "codex", "continue", "cursor", "gemini", "goose", "opencode", "vscode", "windsurf"}
	var known []string
	reg := all.NewRegistry(all.Options{})
	for _, c := range clients {
		if _, err := reg.Lookup(c); err == nil {
			known = append(known, c)
		}
	}
	sb := newSandbox(b, src.String(), known...)
	sb.sync(nil, known...)
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if r, _ := sb.plan(nil); r.Changed() {
				b.Fatal("not in sync")
			}
		}
		b.ReportMetric(float64(len(known)), "clients")
	})
	sb.views = NewViewCache()
	b.Run("watch", func(b *testing.B) { // views cached across syncs
		b.ReportAllocs()
		for range b.N {
			if r, _ := sb.plan(nil); r.Changed() {
				b.Fatal("not in sync")
			}
		}
		b.ReportMetric(float64(len(known)), "clients")
	})
}

// TestSyncStoreDriftWritesNothing: the store is one of the plan's files; if
// it changes between planning and writing, no file at all is written.
func TestSyncStoreDriftWritesNothing(t *testing.T) {
	sb := newSandbox(t, richStore, "cursor", "vscode")
	sb.write(sb.path("cursor"), `{"mcpServers": {}}`)
	sb.write(sb.path("vscode"), `{"servers": {}}`)
	sb.sync(nil)
	sb.write(sb.path("cursor"), strings.Replace(sb.read(sb.path("cursor")), `"srv.js"`, `"edited.js"`, 1))
	r, db := sb.plan(nil)
	if len(r.Plan.Changes()) != 2 {
		t.Fatalf("want the store and VS Code to change, got %d files", len(r.Plan.Changes()))
	}
	sb.write(sb.store, richStore+"\n# edited meanwhile\n")
	before := sb.snapshot()
	_, err := emitters.Apply(r.Plan, emitters.ApplyOptions{StateDir: sb.stateDir, State: db})
	var drift *emitters.DriftError
	if !errors.As(err, &drift) || len(drift.Paths) != 1 || drift.Paths[0] != sb.store {
		t.Fatalf("apply: %v", err)
	}
	sb.unchangedSince(before)
}
