package desired

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

func parse(t *testing.T, text string) *store.Store {
	t.Helper()
	st, ds := store.Parse("/u/mcpsync.hcl", []byte(text))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return st
}

// noRecords is a fresh, empty record of the team sources.
func noRecords(t *testing.T) *sources.Records {
	t.Helper()
	recs, err := sources.LoadRecords(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func stdio(name string) canonical.Server {
	return canonical.Server{Name: name, Transport: canonical.Stdio, Command: name}
}

func TestFromRecords(t *testing.T) {
	st := parse(t, `server "own" { command = "own" }
server "acme-x" { command = "mine" }
source "acme" { git = "g1" }
source "acme-me" { git = "g2" }
source "later" { git = "g3" }
`)
	recs := noRecords(t)
	now := time.Now()
	recs.Update(st.Sources[0], "c1", canonical.Set{Servers: []canonical.Server{stdio("a"), stdio("x"), stdio("me-b"), stdio("new")}}, now)
	recs.Update(st.Sources[1], "c2", canonical.Set{Servers: []canonical.Server{stdio("b")}}, now)
	for _, n := range []string{"a", "x", "me-b"} {
		recs.Approve("acme", n, now)
	}
	recs.Approve("acme-me", "b", now)

	got := FromRecords(st, recs)
	// acme's "me-b" and acme-me's "b" are both acme-me-b: neither is exported
	if names := strings.Join(got.Set.Names(), ","); names != "own,acme-x,acme-a" {
		t.Errorf("servers %s", names)
	}
	if got.FromSource["acme-a"] != "acme" || got.FromSource["own"] != "" || got.FromSource["acme-x"] != "" {
		t.Errorf("FromSource %v", got.FromSource)
	}
	if len(got.Pending) != 1 || got.Pending[0].Qualified != "acme-new" {
		t.Errorf("pending %+v", got.Pending)
	}
	if note := got.PendingNote(); note != "1 server pending approval (acme-new): run 'mcpsync status'" {
		t.Errorf("note %q", note)
	}
	var summaries []string
	for _, d := range got.Diags {
		if d.Severity != canonical.Warning {
			t.Errorf("not a warning: %v", d)
		}
		summaries = append(summaries, d.Summary)
	}
	want := []string{
		`source "acme" offers "acme-x", which is also a server of the store; the store's own is used`,
		`sources "acme" and "acme-me" each give a server named "acme-me-b" in clients; none of them is exported`,
		`source "later" was never pulled; its servers are not exported yet`,
	}
	if strings.Join(summaries, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s", strings.Join(summaries, "\n"))
	}
	// the store's own set is not changed
	if st.Servers.Len() != 2 {
		t.Error("FromRecords changed the store")
	}
}

func TestProjectStoreSourcesIgnored(t *testing.T) {
	st := parse(t, `server "team" { command = "t" }
source "acme" { git = "g" }
`)
	st.Scope = canonical.ScopeProject
	recs := noRecords(t)
	recs.Update(st.Sources[0], "c", canonical.Set{Servers: []canonical.Server{stdio("a")}}, time.Now())
	recs.Approve("acme", "a", time.Now())
	got := FromRecords(st, recs)
	if got.Set.Len() != 1 || len(got.Diags) != 1 || !strings.Contains(got.Diags[0].Summary, "sources are read from the user store only") {
		t.Errorf("got %v %v", got.Set.Names(), got.Diags)
	}
}

func TestLoadWithoutRecords(t *testing.T) {
	st := parse(t, `server "own" { command = "own" }`)
	got, err := Load(st, t.TempDir())
	if err != nil || got.Set.Len() != 1 || len(got.Diags) != 0 || got.PendingNote() != "" {
		t.Errorf("got %+v %v", got, err)
	}
}

func TestSourceOf(t *testing.T) {
	st := parse(t, `server "own" { command = "own" }
server "acme-mine" { command = "mine" }
source "acme" { git = "g1" }
`)
	recs := noRecords(t)
	now := time.Now()
	recs.Update(st.Sources[0], "c1", canonical.Set{Servers: []canonical.Server{stdio("a"), stdio("b"), stdio("mine")}}, now)
	recs.Approve("acme", "a", now)
	d := FromRecords(st, recs)
	for _, c := range []struct {
		name, source string
		inEffect     bool
	}{
		{"acme-a", "acme", true},  // approved
		{"acme-b", "acme", false}, // pending approval
		{"acme-mine", "", false},  // the store's own wins over the pending one
		{"own", "", false},        // the store's
		{"nobody", "", false},     // unknown
	} {
		src, in := d.SourceOf(c.name)
		if src != c.source || in != c.inEffect {
			t.Errorf("SourceOf(%q) = %q, %v; want %q, %v", c.name, src, in, c.source, c.inEffect)
		}
	}
}

// TestFromRecordsSharesDefinitions: the desired set holds the store's
// servers by value, sharing their lists and maps (nothing changes a server
// in place: every writer copies first), so that a run of 10,000 servers
// does not hold a deep copy of the store. What the store does to its own
// list afterwards (a server put, one appended) does not reach the set.
func TestFromRecordsSharesDefinitions(t *testing.T) {
	st := parse(t, `server "a" {
  command = "a"
  env = { K = "v" }
}
server "b" { command = "b" }
source "acme" { git = "g1" }
`)
	recs := noRecords(t)
	now := time.Now()
	recs.Update(st.Sources[0], "c1", canonical.Set{Servers: []canonical.Server{stdio("x")}}, now)
	recs.Approve("acme", "x", now)

	got := FromRecords(st, recs)
	own, _ := st.Servers.Get("a")
	mine, _ := got.Set.Get("a")
	mine.Env["probe"] = "shared"
	if own.Env["probe"] != "shared" {
		t.Error("the desired set holds a copy of the store's env, not the store's own")
	}
	delete(mine.Env, "probe")

	st.Put(canonical.Server{Name: "a", Command: "changed"})
	st.Put(stdio("c"))
	if srv, _ := got.Set.Get("a"); srv.Command != "a" {
		t.Errorf("a server put in the store afterwards changed the desired set: %q", srv.Command)
	}
	if names := strings.Join(got.Set.Names(), ","); names != "a,b,acme-x" {
		t.Errorf("servers %s", names)
	}
	if names := strings.Join(st.Servers.Names(), ","); names != "a,b,c" {
		t.Errorf("the store's servers %s", names)
	}
}
